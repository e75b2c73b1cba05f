"""Independent references for the dpsgd/1 auditor tests: mpmath at 50 digits (tests only, never in auditor/).

* :func:`tail`: ΦC(z) = erfc(z/√2)/2.
* :func:`delta_single`: δ(ε) of ONE Poisson-subsampled Gaussian step in closed form, per order:
  remove: P(ℓ > ε) − e^ε Q(ℓ > ε) with {ℓ > ε} = {x > x(ε)};
  add:    Q(ℓ < −ε) − e^ε P(ℓ < −ε) with {ℓ < −ε} = {x < x(−ε)} (empty when e^{−ε} <= 1 − q).
* :func:`delta_gaussian`: the T-fold Gaussian, δ(ε) = Φ(−ε/μ + μ/2) − e^ε Φ(−ε/μ − μ/2).
"""

from fractions import Fraction

import mpmath

DIGITS = 50
mpmath.mp.dps = DIGITS


def mp(x):
    x = Fraction(x)
    return mpmath.mpf(x.numerator) / x.denominator


def tail(z):
    """ΦC(z) = P(N(0, 1) >= z)."""
    z = z if isinstance(z, mpmath.mpf) else mp(z)
    return mpmath.erfc(z / mpmath.sqrt(2)) / 2


def preimage(y, q, sigma):
    """x(y) = 1/2 + σ²·log((e^y − 1 + q)/q), or None for −∞."""
    v = mpmath.exp(mp(y)) - (1 - mp(q))
    if v <= 0:
        return None
    return mpmath.mpf(1) / 2 + mp(sigma) ** 2 * mpmath.log(v / mp(q))


def delta_single(q, sigma, epsilon, order):
    """δ(ε) of one step (sampling rate q, noise multiplier σ) in the ``order`` "remove" or "add"."""
    s, e = mp(sigma), mp(epsilon)
    if order == "remove":
        x = preimage(epsilon, q, sigma)
        p_tail = (1 - mp(q)) * tail(x / s) + mp(q) * tail((x - 1) / s)
        return p_tail - mpmath.exp(e) * tail(x / s)
    x = preimage(-Fraction(epsilon), q, sigma)
    if x is None:
        return mpmath.mpf(0)
    q_cdf = 1 - tail(x / s)
    p_cdf = (1 - mp(q)) * (1 - tail(x / s)) + mp(q) * (1 - tail((x - 1) / s))
    return q_cdf - mpmath.exp(e) * p_cdf


def delta_gaussian(mu2, epsilon):
    mu, e = mpmath.sqrt(mp(mu2)), mp(epsilon)
    return tail(e / mu - mu / 2) - mpmath.exp(e) * tail(e / mu + mu / 2)


def contains(lo, hi, value):
    """lo <= value <= hi for Fractions lo, hi and an mpmath value."""
    return mp(lo) <= value <= mp(hi)
