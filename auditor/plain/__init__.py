"""The auditor's own enclosure of δ(ε) for plain composition (``plain-composition/1``).

δ(ε) = Σ_{x ∈ ℤ^C} (P^C(x) − e^ε Q^C(x))_+ with P = N the noise law and
Q = N(· − 1), by exact integer and rational arithmetic only (no floats, no
python-flint, no producer code):

- :mod:`.polynomial`: products and powers of polynomials with nonnegative
  integer coefficients in fixed point with directed rounding (Kronecker
  substitution, one gmpy2 product per step);
- :mod:`.gaussian`: the discrete Gaussian through the CDF of the sum of C
  truncated draws (a C-fold convolution of lower and of upper weights);
- :mod:`.laplace`: the discrete Laplace through the binomial closed form
  with interval arithmetic on a = e^{−1/t}.

Each enclosure function returns Fractions (lo, hi) with lo <= δ(ε) <= hi;
the proofs are in the docstrings of the modules.
"""
