"""δ(ε) of the C-fold plain (feedback-free) composition by the product pair (plain-composition/1).

A sensitivity-1 integer release with noise N is compared with its shift:
P = N, Q = N(· − 1).  The adaptive C-fold composition of such a release is
dominated by the product pair (P^C, Q^C), and the non-adaptive release attains
it ("Optimal Accounting of Differential Privacy via Characteristic Function",
Zhu, Dong, Wang 2022; "Gaussian Differential Privacy", Dong, Roth, Su), so

    δ(ε) = Σ_{x ∈ Z^C} (P^C(x) − e^ε Q^C(x))₊ .

- :mod:`gaussian`: the discrete Gaussian, through the law of the sum Σ x_i
  (a pruned C-fold power of arb balls);
- :mod:`laplace`: the discrete Laplace, through the closed binomial form;
- :mod:`outward`: arb balls to short rationals, rounded outward;
- :mod:`enclose`: the dispatch and the precision loop.

The request and its documented limits are those of the kind,
:mod:`producer.kinds.plain_composition`; docs/plain-composition.md ("The
product route: any C") has the proofs.
"""

# The kind's limit on C (producer.kinds.plain_composition), here so that a
# command's help can name it without importing the arb-based modules.
MAX_BUDGET = 1024
