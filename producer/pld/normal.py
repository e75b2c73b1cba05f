"""The standard normal CDF Φ and its tail 1 − Φ: arb balls for masses, floats for sizing hints.

Φ(z) = erfc(−z/√2)/2 and 1 − Φ(z) = erfc(z/√2)/2, so a tail far out is
computed as itself, never as a difference of two numbers near 1.
"""

import functools
import math

from flint import arb, ctx


def phi(z):
    """Φ(z) for an arb ball z."""
    return (-z * _inverse_root_two(ctx.prec)).erfc() / 2


def phi_bar(z):
    """1 − Φ(z) for an arb ball z."""
    return (z * _inverse_root_two(ctx.prec)).erfc() / 2


@functools.lru_cache(maxsize=16)
def _inverse_root_two(precision):
    """1/√2 as a ball at ``precision`` bits (the working precision of the caller)."""
    return 1 / arb(2).sqrt()


def phi_bar_float(z):
    """1 − Φ(z) in floats (hint)."""
    return 0.5 * math.erfc(z / math.sqrt(2))


def log_phi_bar_float(z):
    """log(1 − Φ(z)) in floats, by the asymptotic series where erfc underflows (hint)."""
    if z < 30:
        return math.log(phi_bar_float(z))
    return -z * z / 2 - math.log(z) - 0.5 * math.log(2 * math.pi) + math.log1p(-1 / (z * z))


def normal_quantile_float(allowance):
    """A float z with 1 − Φ(z) <= allowance, by bisection (hint)."""
    lo, hi = 0.0, 1.0
    while phi_bar_float(hi) > allowance and hi < 1e4:
        lo, hi = hi, 2 * hi
    for _ in range(60):
        mid = (lo + hi) / 2
        if phi_bar_float(mid) > allowance:
            lo = mid
        else:
            hi = mid
    return hi


def trapezoid_moments(density, loss, lo, hi, points=4001):
    """(mean, variance) of loss(X) for X of the unnormalised ``density`` on [lo, hi], trapezoid rule (hint)."""
    step = (hi - lo) / (points - 1)
    m1 = m2 = total = 0.0
    for k in range(points):
        x = lo + k * step
        weight = (0.5 if k in (0, points - 1) else 1.0) * density(x)
        value = loss(x)
        total += weight
        m1 += weight * value
        m2 += weight * value * value
    mean = m1 / total
    return mean, max(m2 / total - mean * mean, 1e-300)
