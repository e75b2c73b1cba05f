"""The auditor's own route for ``dpsgd/1`` and ``accounting/1``: privacy-loss distributions in exact arithmetic.

One engine for both kinds: a stage is a dominating pair and a count, and everything after the pair's bucket
masses is the same computation (docs/dpsgd.md §3–7, docs/accounting.md §5).  Integers and rationals only (no
floats, no python-flint, no producer code):

- :mod:`.tails`: the standard normal tail ΦC by Taylor steps between centres,
  started at ΦC(0) = 1/2, with π from Machin's formula;
- :mod:`.preimages`: e^{j/N} and the preimages x_i = ℓ^{−1}(i/N) of the sampled
  Gaussian's loss grid, through the auditor's exponential and logarithm enclosures;
- :mod:`.pairs`: each family's pair and the masses of its forward loss's buckets
  (the sampled Gaussian, the replace-one Gaussian, mixtures of Gaussians), with
  :mod:`.roots` (a mixture's preimages as proved brackets) and :mod:`.bounded`
  (the Laplace mechanism and randomized response, atoms of the loss law included);
- :mod:`.masses`: a stage's integer arrays of both orders (connect-the-dots above,
  bucket laws below), rounded the safe way;
- :mod:`.composition`: exact products (Kronecker substitution with GMP),
  windows and powers of those arrays, as the certificate records them;
- :mod:`.regrid`: a power moved to a coarser grid after a product, and the
  confirmation of the split's shares;
- :mod:`.split`: the single step split by its number of tail steps (the body composed, one tail step on a
  coarser grid, two or more bounded by their mass);
- :mod:`.answer`: the upper bounds F(ε) and the lower bounds L(ε), the latter
  maximised over every event exactly;
- :mod:`.recipe`: the recipe's shape, its estimated work and the bounds it gives;
- :mod:`.decisions`: the exact claims and the three-way decisions of the enclosure claims;
- :mod:`.gaussian`: the closed form of a Gaussian-only composition.
- :mod:`.lattice`: ``accounting/1``'s lattice route, one randomized-response stage's T-fold law replayed exactly
  on the multiples of its loss, and its bounds of δ(ε).

The mathematics: docs/dpsgd.md and docs/accounting.md; the checks that use it: :mod:`auditor.checks.dpsgd` and
:mod:`auditor.checks.accounting`.
"""
