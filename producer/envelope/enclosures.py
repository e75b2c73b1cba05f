"""Rational enclosures with outward rounding.

An :class:`Enclosure` is a pair of exact rationals ``lo <= hi`` proved to
contain a real number.  Arithmetic returns enclosures of the exact result with
every endpoint rounded *outward* to a dyadic rational carrying at most
``bits`` significant bits, so sizes stay bounded while containment is kept:
if x ∈ [a, b] and y ∈ [c, d] then x ∘ y lies in the returned interval.

Transcendental values come from python-flint ``arb`` balls, whose endpoints
are exact dyadic numbers (:meth:`Enclosure.from_arb`).
"""

from gmpy2 import mpq, mpz

from producer.rationals import decimal_outward, format_rational

ZERO = mpq(0)
ONE = mpq(1)


def _shift(m, e):
    """m · 2^e as an exact mpq."""
    return mpq(m << e) if e >= 0 else mpq(m, mpz(1) << -e)


def round_down(q, bits):
    """The largest dyadic rational with ``bits`` significant bits that is <= q."""
    q = mpq(q)
    if q == 0:
        return ZERO
    if q < 0:
        return -round_up(-q, bits)
    num, den = q.numerator, q.denominator
    e = num.bit_length() - den.bit_length() - bits
    # floor(q / 2^e) has bits or bits + 1 bits; q is already short when den is a power of two
    if e >= 0:
        m = num // (den << e)
    else:
        m = (num << -e) // den
    return _shift(m, e)


def round_up(q, bits):
    """The smallest dyadic rational with ``bits`` significant bits that is >= q."""
    q = mpq(q)
    if q == 0:
        return ZERO
    if q < 0:
        return -round_down(-q, bits)
    num, den = q.numerator, q.denominator
    e = num.bit_length() - den.bit_length() - bits
    if e >= 0:
        m = -((-num) // (den << e))
    else:
        m = -((-(num << -e)) // den)
    return _shift(m, e)


def arb_lower(x):
    """The exact rational lower end of an arb ball (raises on non-finite balls)."""
    if not x.is_finite():
        raise ArithmeticError(f"non-finite arb ball {x}")
    man, exp = x.lower().man_exp()
    return _shift(mpz(int(man)), int(exp))


def arb_upper(x):
    """The exact rational upper end of an arb ball."""
    if not x.is_finite():
        raise ArithmeticError(f"non-finite arb ball {x}")
    man, exp = x.upper().man_exp()
    return _shift(mpz(int(man)), int(exp))


class Enclosure:
    """A closed rational interval [lo, hi] containing a real number; immutable."""

    __slots__ = ("lo", "hi", "bits")

    def __init__(self, lo, hi, bits):
        lo, hi = mpq(lo), mpq(hi)
        if lo > hi:
            raise ValueError(f"empty enclosure [{lo}, {hi}]")
        self.lo, self.hi, self.bits = lo, hi, int(bits)

    @classmethod
    def from_arb(cls, x, bits):
        return cls(round_down(arb_lower(x), bits), round_up(arb_upper(x), bits), bits)

    @classmethod
    def exact(cls, q, bits):
        q = mpq(q)
        return cls(q, q, bits)

    def _make(self, lo, hi):
        return Enclosure(round_down(lo, self.bits), round_up(hi, self.bits), self.bits)

    def __add__(self, other):
        if not isinstance(other, Enclosure):
            other = Enclosure.exact(other, self.bits)
        return self._make(self.lo + other.lo, self.hi + other.hi)

    def __sub__(self, other):
        if not isinstance(other, Enclosure):
            other = Enclosure.exact(other, self.bits)
        return self._make(self.lo - other.hi, self.hi - other.lo)

    def __mul__(self, other):
        if not isinstance(other, Enclosure):
            other = Enclosure.exact(other, self.bits)
        if self.lo >= 0 and other.lo >= 0:  # the common case: probabilities
            return self._make(self.lo * other.lo, self.hi * other.hi)
        ends = [self.lo * other.lo, self.lo * other.hi, self.hi * other.lo, self.hi * other.hi]
        return self._make(min(ends), max(ends))

    def __truediv__(self, other):
        """Division by an enclosure of a positive number."""
        if not isinstance(other, Enclosure):
            other = Enclosure.exact(other, self.bits)
        if other.lo <= 0:
            raise ZeroDivisionError("divisor enclosure is not positive")
        ends = [self.lo / other.lo, self.lo / other.hi, self.hi / other.lo, self.hi / other.hi]
        return self._make(min(ends), max(ends))

    def absolute(self):
        """An enclosure of |x|."""
        if self.lo >= 0:
            return self
        if self.hi <= 0:
            return Enclosure(-self.hi, -self.lo, self.bits)
        return Enclosure(ZERO, max(-self.lo, self.hi), self.bits)

    def square(self):
        a = self.absolute()
        return self._make(a.lo * a.lo, a.hi * a.hi)

    def sqrt(self):
        """An enclosure of √x for x >= 0 (uses arb on the exact endpoints)."""
        from flint import arb, ctx, fmpq
        if self.lo < 0:
            raise ValueError("sqrt of an enclosure reaching below zero")
        with ctx.workprec(self.bits + 20):
            lo = ZERO if self.lo == 0 else arb_lower(arb(fmpq(int(self.lo.numerator), int(self.lo.denominator))).sqrt())
            hi = arb_upper(arb(fmpq(int(self.hi.numerator), int(self.hi.denominator))).sqrt())
        return self._make(lo, hi)

    @staticmethod
    def maximum(items):
        """An enclosure of max(x_1, ..., x_m) from enclosures of the x_i."""
        items = list(items)
        return Enclosure(max(e.lo for e in items), max(e.hi for e in items), items[0].bits)

    @staticmethod
    def minimum(items):
        items = list(items)
        return Enclosure(min(e.lo for e in items), min(e.hi for e in items), items[0].bits)

    def as_json(self):
        return {"lo": format_rational(self.lo), "hi": format_rational(self.hi)}

    def __repr__(self):
        return f"Enclosure({float(self.lo)!r}, {float(self.hi)!r})"


def decimal_display(q, digits, direction):
    """Decimal string of q with ``digits`` places, rounded down (−1) or up (+1), exactly."""
    return decimal_outward(q, digits, direction)
