"""Closed intervals of Fractions with outward rounding to a fixed number of bits.

A pair ``(lo, hi)`` of Fractions is an enclosure of a real number.  After each
operation the ends are rounded outward to dyadic numbers with ``bits``
significant bits, so an enclosure of the exact result is returned.
"""

from fractions import Fraction

from auditor.rationals import ceil_div

ZERO = Fraction(0)
ONE = Fraction(1)


def _dyadic(m, e):
    return Fraction(m << e) if e >= 0 else Fraction(m, 1 << -e)


def down(q, bits):
    """Largest dyadic number with about ``bits`` significant bits that is <= q."""
    if q == 0:
        return ZERO
    if q < 0:
        return -up(-q, bits)
    num, den = q.numerator, q.denominator
    e = num.bit_length() - den.bit_length() - bits
    if e >= 0:
        return _dyadic(num // (den << e), e)
    return _dyadic((num << -e) // den, e)


def up(q, bits):
    """Smallest dyadic number with about ``bits`` significant bits that is >= q."""
    if q == 0:
        return ZERO
    if q < 0:
        return -down(-q, bits)
    num, den = q.numerator, q.denominator
    e = num.bit_length() - den.bit_length() - bits
    if e >= 0:
        return _dyadic(ceil_div(num, den << e), e)
    return _dyadic(ceil_div(num << -e, den), e)


class Interval:
    """[lo, hi] with Fraction ends; every result is rounded outward to ``bits``."""

    __slots__ = ("lo", "hi", "bits")

    def __init__(self, lo, hi, bits):
        if lo > hi:
            raise ValueError("empty interval")
        self.lo, self.hi, self.bits = lo, hi, bits

    @classmethod
    def point(cls, q, bits):
        q = Fraction(q)
        return cls(q, q, bits)

    @classmethod
    def rounded(cls, lo, hi, bits):
        return cls(down(lo, bits), up(hi, bits), bits)

    def _other(self, other):
        return other if isinstance(other, Interval) else Interval.point(other, self.bits)

    def __add__(self, other):
        o = self._other(other)
        return Interval.rounded(self.lo + o.lo, self.hi + o.hi, self.bits)

    def __sub__(self, other):
        o = self._other(other)
        return Interval.rounded(self.lo - o.hi, self.hi - o.lo, self.bits)

    def __neg__(self):
        return Interval(-self.hi, -self.lo, self.bits)

    def __mul__(self, other):
        o = self._other(other)
        if self.lo >= 0 and o.lo >= 0:
            return Interval.rounded(self.lo * o.lo, self.hi * o.hi, self.bits)
        c = (self.lo * o.lo, self.lo * o.hi, self.hi * o.lo, self.hi * o.hi)
        return Interval.rounded(min(c), max(c), self.bits)

    def __truediv__(self, other):
        o = self._other(other)
        if o.lo <= 0:
            raise ZeroDivisionError("divisor interval not positive")
        c = (self.lo / o.lo, self.lo / o.hi, self.hi / o.lo, self.hi / o.hi)
        return Interval.rounded(min(c), max(c), self.bits)

    def magnitude(self):
        """Enclosure of |x|."""
        if self.lo >= 0:
            return self
        if self.hi <= 0:
            return -self
        return Interval(ZERO, max(-self.lo, self.hi), self.bits)

    def meets(self, lo, hi):
        """Whether [lo, hi] intersects this interval."""
        return lo <= self.hi and self.lo <= hi

    @staticmethod
    def hull_max(items):
        """Enclosure of the maximum of the enclosed numbers."""
        return Interval(max(i.lo for i in items), max(i.hi for i in items), items[0].bits)

    @staticmethod
    def hull_min(items):
        return Interval(min(i.lo for i in items), min(i.hi for i in items), items[0].bits)
