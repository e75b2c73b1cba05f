"""Logarithms of fixed-point integers, enclosed with a table of 65 constants (docs/accounting.md §5).

A positive integer X stands for x = X/2^P.  With k = bits(X) − 1, x = 2^{k−P}·r and r = X/2^k in [1, 2), so

    log x = (k − P)·log 2 + log c_j + 2·atanh ζ,     ζ = (r − c_j)/(r + c_j),

for a centre c_j = 1 + j/64 (j = 0 ... 64).  The centre is the largest one not above r, so that
0 <= ζ <= (1/64)/2 = 1/128 and the series atanh ζ = Σ_k ζ^{2k+1}/(2k + 1) gains 14 bits a term.

* log 2 and log c_j come from the auditor's enclosure (:func:`auditor.enclosures.log_bounds`), once each per
  table, the centres on demand.
* r is read at Q + 8 bits (floor and ceiling), ζ is increasing in r, so its lower end comes from r's lower end
  rounded down and its upper end from r's upper end rounded up (both >= 0: the centre is chosen at r's lower
  end, and r's upper end may pass the next centre by one unit, which keeps ζ <= 1/3).
* atanh on [ζ⁻, ζ⁺] by :func:`auditor.enclosures.atanh_series_fixed` (powers and terms rounded outward), plus the
  rest z^{2K+1}/((2K + 1)(1 − z²)) <= (9/8)·last/(2K + 1).
* A negative k − P multiplies log 2's upper end into the lower end.

Each enclosure is a handful of integer products, where :func:`auditor.enclosures.log_bounds` of a Fraction sums
two series of Q/3 terms each.
"""

from fractions import Fraction

from auditor.enclosures import log_bounds
from auditor.enclosures.exponential import atanh_series_fixed
from auditor.rationals import ceil, ceil_div, floor

__all__ = ["LogTable", "CENTRES"]

CENTRES = 64
"""Centres 1 + j/CENTRES, j = 0 ... CENTRES, of the reduced argument r in [1, 2)."""

_CENTRE_BITS = 6
_GUARD = 8


class LogTable:
    """2^Q·log(X/2^P) enclosed for positive integers X and any P >= 0: :meth:`log`."""

    __slots__ = ("bits", "_inner", "_log2", "_centres")

    def __init__(self, bits):
        self.bits = bits
        self._inner = bits + _GUARD
        self._log2 = self._fixed(Fraction(2))
        self._centres = {}

    def _fixed(self, c):
        lo, hi = log_bounds(c, self._inner + 16)
        one = 1 << self._inner
        return floor(lo * one), ceil(hi * one)

    def _centre(self, j):
        c = self._centres.get(j)
        if c is None:
            c = self._centres[j] = self._fixed(Fraction(CENTRES + j, CENTRES))
        return c

    def log(self, X_lo, X_hi, P):
        """(lo, hi) integers with lo <= 2^Q·log x <= hi for every x in [X_lo, X_hi]/2^P (0 < X_lo <= X_hi)."""
        lo = self._log_inner(X_lo, P, -1)
        hi = self._log_inner(X_hi, P, +1)
        shift = self._inner - self.bits
        return lo >> shift, ceil_div(hi, 1 << shift)

    def _log_inner(self, X, P, direction):
        """The lower (direction −1) or upper (+1) end of 2^{Q+8}·log(X/2^P)."""
        Qi = self._inner
        k = X.bit_length() - 1
        # r = X/2^k at Qi bits, rounded in the direction of the end wanted
        if k <= Qi:
            R = X << (Qi - k)
        else:
            R = X >> (k - Qi) if direction < 0 else ceil_div(X, 1 << (k - Qi))
        j = ((R - (1 << Qi)) << _CENTRE_BITS) >> Qi           # the largest centre not above R/2^Qi
        C = (CENTRES + j) << (Qi - _CENTRE_BITS)            # 2^Qi·c_j, exact
        num, den = (R - C) << Qi, R + C
        Z = num // den if direction < 0 else ceil_div(num, den)   # 2^Qi·ζ, ζ in [0, 1/128]
        a_lo, a_hi, last, terms = atanh_series_fixed(Z, Z, Z * Z, Z * Z, 1 << (2 * Qi))
        c_lo, c_hi = self._centre(j)
        l2_lo, l2_hi = self._log2
        e = k - P
        if direction < 0:
            return e * (l2_lo if e >= 0 else l2_hi) + c_lo + 2 * a_lo
        a_hi += ceil_div(9 * last, 8 * (2 * terms + 1))
        return e * (l2_hi if e >= 0 else l2_lo) + c_hi + 2 * a_hi
