"""Directed fixed-point arithmetic: integers X standing for X/2^P, lower ends floored, upper ends ceiled.

The KL rewards need a few thousand exponentials and logarithms at one
precision; :mod:`auditor.enclosures.exponential` encloses single rationals,
and this module turns a handful of its enclosures into many by exact integer
recurrences, every step rounded in its own direction:

- exponentials along an arithmetic progression: if t_{n+1} = t_n·q with
  0 <= t_n, q <= 1, then floor(T⁻_n·Q⁻/2^P) <= 2^P·t_{n+1} <= ceil(T⁺_n·Q⁺/2^P)
  whenever T⁻_n <= 2^P·t_n <= T⁺_n and Q⁻ <= 2^P·q <= Q⁺ (products of nonnegative
  numbers are monotone in each factor);
- logarithms (:class:`FixedLog`): x = m·2^e with 1 <= m < 2, m = c·r with
  c = 1 + i/64 <= m (so 1 <= r < 1 + 1/64) and
  log r = 2·atanh(z), z = (r − 1)/(r + 1) <= 1/129, summed as
  Σ_k z^{2k+1}/(2k+1); after the terms with z^{2k+1} > 2^-P the rest is at most
  z^{2k+1}/((2k+1)(1 − z²)) <= 2·2^-P.  log 2 and the 64 values log c come from
  :func:`auditor.enclosures.exponential.log_bounds`.  log is increasing, so the
  lower end uses every quantity rounded down and the upper end rounded up.
"""

from fractions import Fraction

from auditor.enclosures.exponential import log_bounds
from auditor.rationals import ceil_div

__all__ = ["floor_fixed", "ceil_fixed", "FixedLog", "progression"]

TABLE_BITS = 6  # m is reduced by c = 1 + i/2^TABLE_BITS


def floor_fixed(x, P):
    """floor(x·2^P) for a Fraction x."""
    x = Fraction(x)
    return (x.numerator << P) // x.denominator


def ceil_fixed(x, P):
    """ceil(x·2^P) for a Fraction x."""
    x = Fraction(x)
    return ceil_div(x.numerator << P, x.denominator)


def progression(first, ratio, count, P):
    """[(lo, hi)] of t_0 .. t_{count−1}, t_{n+1} = t_n·q, from fixed enclosures of t_0 and q (both in [0, 1])."""
    (t_lo, t_hi), (q_lo, q_hi) = first, ratio
    one = 1 << P
    out = []
    for _ in range(count):
        out.append((t_lo, t_hi))
        t_lo = (t_lo * q_lo) >> P
        t_hi = min(one, ceil_div(t_hi * q_hi, one))
    return out


class FixedLog:
    """Lower and upper fixed-point logarithms at P fractional bits (cached log 2 and log c table)."""

    __slots__ = ("P", "_ln2", "_table")

    def __init__(self, P):
        self.P = P
        lo, hi = log_bounds(2, P + 8)
        self._ln2 = (floor_fixed(lo, P), ceil_fixed(hi, P))
        self._table = {}

    def _log_c(self, i):
        entry = self._table.get(i)
        if entry is None:
            lo, hi = log_bounds(Fraction((1 << TABLE_BITS) + i, 1 << TABLE_BITS), self.P + 8)
            entry = self._table[i] = (floor_fixed(lo, self.P), ceil_fixed(hi, self.P))
        return entry

    def lower(self, X):
        """An integer L with L/2^P <= log(X/2^P), for an integer X >= 1."""
        return self._log(X, -1)

    def upper(self, X):
        """An integer L with L/2^P >= log(X/2^P), for an integer X >= 1."""
        return self._log(X, +1)

    def _log(self, X, direction):
        P = self.P
        one = 1 << P
        e = X.bit_length() - 1 - P
        if e <= 0:
            mant = X << -e
        elif direction < 0:
            mant = X >> e
        else:
            mant = ceil_div(X, 1 << e)
            if mant == 2 * one:
                mant, e = one, e + 1
        i = (mant - one) >> (P - TABLE_BITS)
        base = (1 << TABLE_BITS) + i
        c_lo, c_hi = self._log_c(i)
        ln2_lo, ln2_hi = self._ln2
        if direction < 0:
            r = (mant << TABLE_BITS) // base
            z = ((r - one) << P) // (r + one)
            total = c_lo + 2 * _atanh_lower(z, P) + e * (ln2_lo if e >= 0 else ln2_hi)
        else:
            r = ceil_div(mant << TABLE_BITS, base)
            z = ceil_div((r - one) << P, r + one)
            total = c_hi + 2 * _atanh_upper(z, P) + e * (ln2_hi if e >= 0 else ln2_lo)
        return total


def _atanh_lower(Z, P):
    """floor-rounded partial sum of atanh(Z/2^P) (every term >= 0, so dropping the rest is a lower bound)."""
    shift = 2 * P
    z2 = Z * Z
    u, k, total = Z, 0, 0
    while u:
        total += u // (2 * k + 1)
        u = (u * z2) >> shift
        k += 1
    return total


def _atanh_upper(Z, P):
    """ceil-rounded partial sum of atanh(Z/2^P), Z/2^P <= 1/3, plus the remainder bound (2 units)."""
    one2 = 1 << (2 * P)
    z2 = Z * Z
    u, k, total = Z, 0, 0
    while u > 1:
        total += ceil_div(u, 2 * k + 1)
        u = ceil_div(u * z2, one2)
        k += 1
    return total + 2
