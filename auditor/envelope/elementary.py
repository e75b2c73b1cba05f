"""exp, log and sqrt as rational enclosures with explicit remainders (no floats).

exp(r), r > 0: write r = 2^s·y with 0 < y <= 2^-10.  The Taylor sum
S_N(y) = Σ_{i ≤ N} y^i/i! is evaluated by Horner's rule with every
intermediate rounded down (for the lower end) or up (for the upper end);
all steps are increasing in their inputs, so this brackets S_N.  The tail is
Σ_{i > N} y^i/i! <= y^{N+1}/(N+1)! · 1/(1 − y) <= 2·y^{N+1}/(N+1)!.  Then
exp(r) = exp(y)^(2^s) by s outward-rounded squarings.  exp(−r) = 1/exp(r).

log(m), integer m >= 1: m = 2^e·v with 1 <= v < 2, log v = 2·atanh(z) with
z = (v − 1)/(v + 1) ∈ [0, 1/3), atanh(z) = Σ_i z^{2i+1}/(2i+1) with tail
<= z^{2N+3} / ((2N+3)·(1 − z²)); log 2 = 2·atanh(1/3).

sqrt(q): integer square roots of q·4^m, rounded down and up.
"""

from fractions import Fraction
from math import isqrt

from auditor.envelope.interval import Interval, down, up

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
    lo, hi = Fraction(1), Fraction(1)
    for i in range(n_terms, 0, -1):
        lo = Fraction(1) + down(y * lo / i, work)
        hi = Fraction(1) + up(y * hi / i, work)
    tail = 2 * y ** (n_terms + 1)
    fact = 1
    for i in range(2, n_terms + 2):
        fact *= i
    hi = up(hi + tail / fact, work)
    for _ in range(s):
        lo = down(lo * lo, work)
        hi = up(hi * hi, work)
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


def _atanh(z, bits):
    """(lo, hi) enclosing atanh(z) for a Fraction 0 <= z <= 1/3."""
    if z == 0:
        return Fraction(0), Fraction(0)
    total, power, i = Fraction(0), z, 0
    bound = Fraction(1, 1 << (bits + 8))
    z2 = z * z
    while True:
        total += power / (2 * i + 1)
        power *= z2
        i += 1
        tail = power / ((2 * i + 1) * (1 - z2))
        if tail < bound:
            return total, total + tail
        # the exact partial sums stay small: they are needed only for a few constants


def log_integer(m, bits):
    """An Interval containing log(m) for an integer m >= 1."""
    if m < 1:
        raise ValueError("log of a non-positive integer")
    e = m.bit_length() - 1
    v = Fraction(m, 1 << e)
    l2lo, l2hi = _atanh(Fraction(1, 3), bits + 8)
    zlo, zhi = _atanh((v - 1) / (v + 1), bits + 8)
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
            n = -((-scaled.numerator) // scaled.denominator)
            s = isqrt(n)
            if s * s < n:
                s += 1
        else:
            s = isqrt(scaled.numerator // scaled.denominator)
        return Fraction(s, 1 << m)

    return Interval.rounded(root(x.lo, False), root(x.hi, True), bits)


def euler(bits):
    """An Interval containing e."""
    return exp_point(Fraction(1), bits)
