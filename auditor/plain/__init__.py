"""The auditor's own enclosure of δ(ε) for plain composition (``plain-composition/1``).

δ(ε) = Σ_{x ∈ ℤ^C} (P^C(x) − e^ε Q^C(x))_+ with P = N the noise law and
Q = N(· − 1), by exact integer and rational arithmetic only (no floats, no
python-flint, no producer code):

- :mod:`.polynomial`: products and powers of polynomials with nonnegative
  integer coefficients in fixed point with directed rounding (Kronecker
  substitution, one gmpy2 product per step; windowed powers stay packed);
- :mod:`.gaussian`: the discrete Gaussian through the law of the sum of C
  truncated draws (a C-fold convolution of upper weights cut to windows whose
  dropped mass is charged) and the tilt p(s − C) = p(s)·exp((2s − C)/(2σ²)),
  which keeps e^ε off every error term;
- :mod:`.laplace`: the discrete Laplace through the binomial closed form
  with interval arithmetic on a = e^{−1/t}.

Each enclosure function returns Fractions (lo, hi) with lo <= δ(ε) <= hi;
the proofs are in the docstrings of the modules.
"""
