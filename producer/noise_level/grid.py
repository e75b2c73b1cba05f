"""A relative grid of short decimals: consecutive points x < y have y <= x·(1 + R).

The unit u is the largest of 1·10^-k, 2·10^-k, 5·10^-k (k >= 0) with u <= R,
so 1/u is an integer.  In the decade [10^m, 10^(m+1)) the grid points are
j·u·10^m for the integers j with 1/u <= j < 10/u: the step there is u·10^m
and every point is at least 10^m, so the relative step is at most u <= R;
from the last point of a decade, (10/u − 1)·u·10^m, to 10^(m+1) it is
u/(10 − u) < u.  Every point is a decimal with at most the digits of u plus
one: for R = 1/1000, four significant digits (20.51, 1.000, 9.999, 10.00).

Indices run over all decades: n = m·N + (j − 1/u) with N = 9/u points per
decade, so index n + 1 is the next grid point after index n.
"""

from gmpy2 import mpq, mpz

from producer.errors import InputError


def unit_of(precision):
    """u: the largest 1, 2 or 5 times 10^-k (k >= 0) with u <= R."""
    R = mpq(precision)
    if not 0 < R < 1:
        raise InputError(f"precision: need 0 < R < 1, got {R}")
    k = 0
    while True:
        power = mpq(1, mpz(10) ** k)
        for mantissa in (5, 2, 1):
            if mantissa * power <= R:
                return mantissa * power
        k += 1


class RelativeGrid:
    """The grid of unit u (see the module docstring): index <-> value, exactly."""

    __slots__ = ("unit", "first", "per_decade")

    def __init__(self, precision):
        self.unit = unit_of(precision)
        self.first = int(1 / self.unit)           # j of the decade's first point (the value 10^m)
        self.per_decade = 9 * self.first          # N = 9/u

    def value(self, index):
        """The grid point of ``index`` (an mpq)."""
        m, r = divmod(int(index), self.per_decade)
        return (self.first + r) * self.unit * _power(m)

    def index_below(self, x):
        """The largest index whose point is <= x (x > 0, exact)."""
        x = mpq(x)
        if x <= 0:
            raise ValueError("the grid holds positive numbers only")
        m = _floor_log10(x)
        j = int((x / _power(m)) / self.unit)          # floor: j·u·10^m <= x
        return m * self.per_decade + (j - self.first)

    def index_above(self, x):
        """The smallest index whose point is >= x."""
        n = self.index_below(x)
        return n if self.value(n) == mpq(x) else n + 1


def _power(m):
    return mpq(mpz(10) ** m) if m >= 0 else mpq(1, mpz(10) ** -m)


def _floor_log10(x):
    """m with 10^m <= x < 10^(m+1), exactly."""
    m = len(str(int(x.numerator // x.denominator))) - 1 if x >= 1 else 0
    while _power(m) > x:
        m -= 1
    while _power(m + 1) <= x:
        m += 1
    return m
