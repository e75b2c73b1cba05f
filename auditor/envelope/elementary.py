"""The envelope's exp, log and sqrt as Intervals: its precision schedule and sqrt.

The series and their proofs are :mod:`auditor.enclosures.exponential`'s
(steps 1-6 there); this module fixes only how the envelope calls them, which an
envelope certificate's check depends on bit for bit:

- exp(r), r > 0: r = 2^s·y with 0 < y <= 2^-REDUCE; the Taylor sum of
  N = work/REDUCE + 2 terms by Horner's rule, every step rounded to ``work`` =
  bits + s + 24 significant bits (:func:`auditor.envelope.interval.down`/``up``),
  with the rest 2·y^{N+1}/(N+1)!, which is <= 2^-work for y <= 2^-REDUCE; then s
  squarings at ``work`` bits.  exp(−r) = 1/exp(r).
- log(m), integer m >= 1: m = 2^e·v, log m = 2e·atanh(1/3) + 2·atanh((v − 1)/(v + 1)),
  each atanh by exact partial sums until the rest is below 2^-(bits+16).
- sqrt(q): integer square roots of q·4^m, rounded down and up.
"""

from fractions import Fraction
from math import isqrt

from auditor.enclosures.exponential import atanh_series_exact, binary_split, exp_series_horner, square
from auditor.envelope.interval import Interval, down, up
from auditor.rationals import ceil, floor

REDUCE = 10  # y <= 2^-REDUCE before the Taylor series


def _exp_positive(r, bits):
    """(lo, hi) with lo <= exp(r) <= hi for a Fraction r >= 0."""
    if r == 0:
        return Fraction(1), Fraction(1)
    s = max(0, r.numerator.bit_length() - r.denominator.bit_length() + 1 + REDUCE)
    y = r / (1 << s)
    work = bits + s + 24
    # N with y^{N+1}/(N+1)! <= 2^-work: y <= 2^-REDUCE suffices for N + 1 >= work / REDUCE
    n_terms = work // REDUCE + 2

    def lower(q):
        return down(q, work)

    def upper(q):
        return up(q, work)

    lo, hi = exp_series_horner(y, n_terms, lower, upper)
    lo, hi = square(lo, hi, s, lower, upper)
    return down(lo, bits + 8), up(hi, bits + 8)


def exp_point(r, bits):
    """An Interval containing exp(r) for a Fraction r."""
    r = Fraction(r)
    if r >= 0:
        lo, hi = _exp_positive(r, bits)
        return Interval.rounded(lo, hi, bits)
    lo, hi = _exp_positive(-r, bits)
    return Interval.rounded(1 / hi, 1 / lo, bits)


def exp_interval(x):
    """An Interval containing exp(t) for every t in the Interval x (exp is increasing)."""
    return Interval(exp_point(x.lo, x.bits).lo, exp_point(x.hi, x.bits).hi, x.bits)


def log_integer(m, bits):
    """An Interval containing log(m) for an integer m >= 1."""
    if m < 1:
        raise ValueError("log of a non-positive integer")
    e, v = binary_split(Fraction(m))
    bound = Fraction(1, 1 << (bits + 16))
    l2lo, l2hi = atanh_series_exact(Fraction(1, 3), bound)
    zlo, zhi = atanh_series_exact((v - 1) / (v + 1), bound)
    return Interval.rounded(e * 2 * l2lo + 2 * zlo, e * 2 * l2hi + 2 * zhi, bits)


def sqrt_interval(x):
    """An Interval containing sqrt(t) for every t >= 0 in the Interval x."""
    bits = x.bits
    if x.lo < 0:
        raise ValueError("sqrt of an interval reaching below zero")

    def root(q, upward):
        if q == 0:
            return Fraction(0)
        m = max(0, bits + 4 - (q.numerator.bit_length() - q.denominator.bit_length()) // 2)
        scaled = q * (1 << (2 * m))
        if upward:
            n = ceil(scaled)
            s = isqrt(n)
            if s * s < n:
                s += 1
        else:
            s = isqrt(floor(scaled))
        return Fraction(s, 1 << m)

    return Interval.rounded(root(x.lo, False), root(x.hi, True), bits)


def euler(bits):
    """An Interval containing e."""
    return exp_point(Fraction(1), bits)
