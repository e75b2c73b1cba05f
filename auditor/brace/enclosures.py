"""The brace replay's enclosures of exp, log and sqrt: its precision schedule and sqrt.

The series and their proofs are :mod:`auditor.enclosures.exponential`'s
(steps 1-6 there); this module fixes only how the replay calls them, which a
brace certificate's check depends on bit for bit:

- exp(x), x > 0: y = x/2^k <= 1/2 (k halvings) is itself rounded to w-bit fixed
  point, ylo <= 2^w·y <= yhi, at w = bits + 2k + GUARD + 2·max(0, ceil x); the
  Taylor sum runs from one term, then k squarings; exp(−x) = [1/hi, 1/lo],
  exact.
- log(x): with x = 2^k·y, u = (y − 1)/(y + 1) and z = u or 1/3, the powers of z
  run at w = bits + GUARD + bitlen|k| from w-bit roundings of z and z², until the
  upper power is <= 2; the rest of the series is covered by 2·last + 2 >=
  (9/8)·last (step 5).
- sqrt(x): floor(sqrt(p 4^w / q)) = isqrt(floor(p 4^w / q)).

All arithmetic is on Python integers and Fractions.  A *fixed-point pair* at
``w`` bits is (lo, hi) integers with lo / 2^w <= value <= hi / 2^w.
"""

from fractions import Fraction
from math import isqrt

from auditor.enclosures.exponential import (atanh_series_fixed, binary_split, exp_series_fixed, fixed_rounding,
                                            halvings, square)
from auditor.rationals import ceil, ceil_div, floor

GUARD = 24


def _fixed(x, w):
    """(floor, ceil) of x 2^w."""
    y = Fraction(x) * (1 << w)
    return floor(y), ceil(y)


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


def exp_bounds(x, bits):
    """(lo, hi) rationals with lo <= e^x <= hi (relative width about 2^-bits)."""
    x = Fraction(x)
    if x == 0:
        return Fraction(1), Fraction(1)
    if x < 0:
        lo, hi = exp_bounds(-x, bits)
        return 1 / hi, 1 / lo
    k, y = halvings(x)
    w = bits + 2 * k + GUARD + max(0, ceil(x) * 2)
    ylo, yhi = _fixed(y, w)
    lo, hi = exp_series_fixed(ylo, yhi, 1 << w, w)
    lo, hi = square(lo, hi, k, *fixed_rounding(w))
    return _pair(lo, hi, w)


def _atanh_series(u, w):
    """Fixed-point pair of 2 atanh(u) = log((1+u)/(1-u)), 0 <= u <= 1/3."""
    ulo, uhi = _fixed(u, w)
    u2lo, u2hi = (ulo * ulo) >> w, ceil_div(uhi * uhi, 1 << w)
    s_lo, s_hi, last, _ = atanh_series_fixed(ulo, uhi, u2lo, u2hi, 1 << w, stop=2)
    return 2 * s_lo, 2 * (s_hi + 2 * last + 2)


def log_bounds(x, bits):
    """(lo, hi) rationals with lo <= log(x) <= hi, width about 2^-bits."""
    x = Fraction(x)
    if x <= 0:
        raise ValueError("log of a non-positive number")
    k, y = binary_split(x)
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
    return Fraction(floor(Fraction(lo) * s), s), Fraction(ceil(Fraction(hi) * s), s)


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
