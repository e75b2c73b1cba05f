"""Rational enclosures of exp, log and sqrt, each with a proved error bound.

All arithmetic is on Python integers and Fractions.  A *fixed-point pair* at
``w`` bits is (lo, hi) integers with lo / 2^w <= value <= hi / 2^w.

exp(y), 0 <= y <= 1/2:  S_N = Σ_{i<=N} y^i / i!,  0 <= exp(y) - S_N <=
    2 y^(N+1) / (N+1)!  (the tail is dominated by a geometric series of ratio
    y/(N+2) <= 1/4).  Larger arguments are halved k times and the result
    squared k times (squaring is increasing on positives, so lower and upper
    ends stay ordered); negative arguments use exp(-x) = 1/exp(x).
log(x), x > 0:  x = 2^k y with 1 <= y < 2, u = (y-1)/(y+1) in [0, 1/3),
    log y = 2 Σ u^(2i+1)/(2i+1), tail after N terms <=
    2 u^(2N+3) / ((2N+3)(1-u^2)) <= (9/4) u^(2N+3); log 2 = 2 atanh(1/3).
sqrt(x): floor(sqrt(p 4^w / q)) = isqrt(floor(p 4^w / q)).
"""

from fractions import Fraction
from math import isqrt

GUARD = 24


def _floor(x):
    return x.numerator // x.denominator


def _ceil(x):
    return -((-x.numerator) // x.denominator)


def _fixed(x, w):
    """(floor, ceil) of x 2^w."""
    y = Fraction(x) * (1 << w)
    return _floor(y), _ceil(y)


def _pair(lo, hi, w):
    return Fraction(lo, 1 << w), Fraction(hi, 1 << w)


def sqrt_bounds(x, bits):
    """(lo, hi) with lo <= sqrt(x) <= hi, width <= 2^-bits; exact for squares."""
    x = Fraction(x)
    if x < 0:
        raise ValueError("sqrt of a negative number")
    p, q = x.numerator, x.denominator
    rp, rq = isqrt(p), isqrt(q)
    if rp * rp == p and rq * rq == q:
        return Fraction(rp, rq), Fraction(rp, rq)
    n = isqrt((p << (2 * bits)) // q)
    return Fraction(n, 1 << bits), Fraction(n + 1, 1 << bits)


def _exp_small(y, w):
    """Fixed-point pair of exp(y), 0 <= y <= 1/2, at w bits.

    After adding the term y^i/i! (i >= 1) the tail is at most
    y^i/i! * (y/(i+1)) / (1 - y/(i+1)) <= y^i/i! / 3, so adding the current
    upper term once more bounds it.
    """
    ylo, yhi = _fixed(y, w)
    one = 1 << w
    s_lo, s_hi = one, one
    t_lo, t_hi = one, one  # bounds of y^i / i! at w bits
    i = 0
    while True:
        i += 1
        t_lo = ((t_lo * ylo) >> w) // i
        c = -((-(t_hi * yhi)) >> w)  # ceil(t_hi * yhi / 2^w)
        t_hi = -(-c // i)  # ceil(c / i)
        s_lo += t_lo
        s_hi += t_hi
        if t_hi <= 1:
            return s_lo, s_hi + t_hi


def exp_bounds(x, bits):
    """(lo, hi) rationals with lo <= e^x <= hi (relative width about 2^-bits)."""
    x = Fraction(x)
    if x == 0:
        return Fraction(1), Fraction(1)
    if x < 0:
        lo, hi = exp_bounds(-x, bits)
        return 1 / hi, 1 / lo
    k = 0
    y = x
    while y > Fraction(1, 2):
        y /= 2
        k += 1
    w = bits + 2 * k + GUARD + max(0, _ceil(x) * 2)
    lo, hi = _exp_small(y, w)
    for _ in range(k):
        lo = (lo * lo) >> w
        hi = -((-(hi * hi)) >> w)
    return _pair(lo, hi, w)


def _atanh_series(u, w):
    """Fixed-point pair of 2 atanh(u) = log((1+u)/(1-u)), 0 <= u <= 1/3."""
    ulo, uhi = _fixed(u, w)
    u2lo, u2hi = (ulo * ulo) >> w, -((-(uhi * uhi)) >> w)
    p_lo, p_hi = ulo, uhi  # u^(2i+1)
    s_lo, s_hi = 0, 0
    i = 0
    while True:
        s_lo += p_lo // (2 * i + 1)
        s_hi += -((-p_hi) // (2 * i + 1))
        p_lo = (p_lo * u2lo) >> w
        p_hi = -((-(p_hi * u2hi)) >> w)
        i += 1
        if p_hi <= 2:
            # tail Σ_{j>=i} u^(2j+1)/(2j+1) <= p_hi / (1 - u^2) <= (9/8) p_hi
            s_hi += 2 * p_hi + 2
            return 2 * s_lo, 2 * s_hi


def log_bounds(x, bits):
    """(lo, hi) rationals with lo <= log(x) <= hi, width about 2^-bits."""
    x = Fraction(x)
    if x <= 0:
        raise ValueError("log of a non-positive number")
    k = x.numerator.bit_length() - x.denominator.bit_length()
    y = x / Fraction(2) ** k
    while y >= 2:
        y /= 2
        k += 1
    while y < 1:
        y *= 2
        k -= 1
    w = bits + GUARD + abs(k).bit_length()
    ly_lo, ly_hi = _atanh_series((y - 1) / (y + 1), w)
    l2_lo, l2_hi = _atanh_series(Fraction(1, 3), w)
    if k >= 0:
        lo, hi = ly_lo + k * l2_lo, ly_hi + k * l2_hi
    else:
        lo, hi = ly_lo + k * l2_hi, ly_hi + k * l2_lo
    return _pair(lo, hi, w)


def outward(lo, hi, bits):
    """Round an enclosure outward to denominators 2^bits (keeps sizes small)."""
    s = 1 << bits
    return Fraction(_floor(Fraction(lo) * s), s), Fraction(_ceil(Fraction(hi) * s), s)


def decide(predicate, start=160, limit=2560):
    """True when ``predicate(bits)`` holds at some precision up to ``limit``
    (doubling from ``start``); False when it never does (undecided counts as
    not certified)."""
    bits = start
    while bits <= limit:
        if predicate(bits):
            return True
        bits *= 2
    return False
