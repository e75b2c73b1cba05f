"""The auditor's own route for ``dpsgd/1``: privacy-loss distributions of DP-SGD in exact arithmetic.

Integers and rationals only (no floats, no python-flint, no producer code):

- :mod:`.tails`: the standard normal tail ΦC by Taylor steps between centres,
  started at ΦC(0) = 1/2, with π from Machin's formula;
- :mod:`.preimages`: e^{j/N} and the preimages x_i = ℓ^{−1}(i/N) of the loss
  grid, through the auditor's exponential and logarithm enclosures;
- :mod:`.masses`: the bucket masses of one step and its integer arrays
  (connect-the-dots above, bucket laws below), rounded the safe way;
- :mod:`.composition`: exact products (Kronecker substitution with GMP),
  windows and powers of those arrays, as the certificate records them;
- :mod:`.answer`: the upper bounds F(ε) and the lower bounds L(ε), the latter
  maximised over every event exactly;
- :mod:`.gaussian`: the closed form of a Gaussian-only schedule.

The mathematics: docs/dpsgd.md; the checks that use it: :mod:`auditor.checks.dpsgd`.
"""
