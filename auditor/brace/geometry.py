"""Exact retrieval geometry: gates, Φ_B, and the truncated ball projections.

Gate I(B, z) = {i : ||B_i - z||^2 <= r^2}; Φ_B(z) = mean of the gate or z.
Projection onto B(c, R) (R^2 rational): the point itself when inside;
otherwise each coordinate of R w / ||w|| (w = p - c) truncated toward zero
onto 2^-g Z, computed as sign(w_i) isqrt(floor(R^2 w_i^2 4^g / ||w||^2)) / 2^g
(floor(sqrt(x)) = isqrt(floor(x)) for rational x >= 0).  Release rounding
also truncates an inside offset toward zero, so the result stays in the ball.
"""

from fractions import Fraction
from math import isqrt

from auditor.rationals import floor


def sqdist(u, v):
    return sum(((a - b) ** 2 for a, b in zip(u, v)), Fraction(0))


def sqnorm(u):
    return sum((a * a for a in u), Fraction(0))


def gate(points, z, r2):
    return [i for i, p in enumerate(points) if sqdist(p, z) <= r2]


def update(points, z, r2):
    """(gate, Φ(z))."""
    g = gate(points, z, r2)
    if not g:
        return g, tuple(z)
    d = len(z)
    return g, tuple(sum((points[i][k] for i in g), Fraction(0)) / len(g) for k in range(d))


def _toward_zero(x, g):
    s = 1 << g
    n = abs(x.numerator) * s // x.denominator
    return Fraction(-n if x < 0 else n, s)


def _radial(w, R2, g):
    n2 = sqnorm(w)
    out = []
    for c in w:
        x = R2 * c * c * (1 << (2 * g)) / n2
        k = isqrt(floor(x))
        out.append(Fraction(-k if c < 0 else k, 1 << g))
    return out


def project_inside(center, point, R2, g):
    """(Q, projected?): exact when inside B(center, R), radial-truncated otherwise."""
    w = [p - c for p, c in zip(point, center)]
    if sqnorm(w) <= R2:
        return tuple(point), False
    return tuple(c + o for c, o in zip(center, _radial(w, R2, g))), True


def release(center, point, R2, g):
    """(Y, projected?): projection onto B(center, R), truncated toward the
    centre onto center + 2^-g Z^d."""
    w = [p - c for p, c in zip(point, center)]
    if sqnorm(w) <= R2:
        off, projected = [_toward_zero(c, g) for c in w], False
    else:
        off, projected = _radial(w, R2, g), True
    return tuple(c + o for c, o in zip(center, off)), projected


def on_grid_round(center, point, g):
    """center + trunc_g(point - center) (used by the unprojected baselines)."""
    return tuple(c + _toward_zero(p - c, g) for p, c in zip(point, center))
