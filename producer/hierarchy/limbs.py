"""Exact sums Σ_n c_n[j_n]·P_n in int64 limbs (a fast path of the integer sandwich; same integers).

Split every line coefficient c = c_hi·2^29 + c_lo (0 <= c_lo < 2^29, floor
shift, so |c_hi| < 2^29 when |c| < 2^58) and every row numerator
P = P_hi·2^25 + P_lo (0 <= P_lo < 2^25, P_hi < 2^25 when P < 2^50).  Each of
the four limb products is below 2^54 in absolute value, so a sum of at most
MAX_OUTPUTS = 256 of them stays below 2^62 and int64 arithmetic is exact.
The limb sums are recombined in Python integers:

    Σ c·P = 2^54·Σ c_hi·P_hi + 2^29·Σ c_hi·P_lo + 2^25·Σ c_lo·P_hi + Σ c_lo·P_lo.
"""

import numpy as np

COEFF_SHIFT, ROW_SHIFT = 29, 25
COEFF_LIMIT, ROW_LIMIT = 1 << 58, 1 << 50
MAX_OUTPUTS = 256
_CMASK, _RMASK = (1 << COEFF_SHIFT) - 1, (1 << ROW_SHIFT) - 1


def coefficient_limbs(values):
    """(hi, lo) int64 arrays of an object array of integers, or None if some |c| >= 2^58."""
    ints = [int(v) for v in values]
    if any(not -COEFF_LIMIT < v < COEFF_LIMIT for v in ints):
        return None
    hi = np.array([v >> COEFF_SHIFT for v in ints], dtype=np.int64)
    lo = np.array([v & _CMASK for v in ints], dtype=np.int64)
    return hi, lo


def row_limbs(numerators):
    """(hi, lo) int64 arrays of row numerators, or None if some P >= 2^50 or there are too many outputs."""
    ints = [int(v) for v in numerators]
    if len(ints) > MAX_OUTPUTS or any(not 0 <= v < ROW_LIMIT for v in ints):
        return None
    return (np.array([v >> ROW_SHIFT for v in ints], dtype=np.int64),
            np.array([v & _RMASK for v in ints], dtype=np.int64))


class LimbSum:
    """Accumulates Σ_k c_k[idx_k]·P_k exactly over int64 limbs."""

    __slots__ = ("hh", "hl", "lh", "ll")

    def __init__(self, size):
        self.hh = np.zeros(size, dtype=np.int64)
        self.hl = np.zeros(size, dtype=np.int64)
        self.lh = np.zeros(size, dtype=np.int64)
        self.ll = np.zeros(size, dtype=np.int64)

    def add(self, coeff, idx, p_hi, p_lo):
        c_hi, c_lo = coeff[0][idx], coeff[1][idx]
        self.hh += c_hi * p_hi
        self.hl += c_hi * p_lo
        self.lh += c_lo * p_hi
        self.ll += c_lo * p_lo

    def value(self):
        """The exact sum as an object array of Python integers."""
        hh, hl, lh, ll = (a.astype(object) for a in (self.hh, self.hl, self.lh, self.ll))
        return hh * (1 << (COEFF_SHIFT + ROW_SHIFT)) + hl * (1 << COEFF_SHIFT) + lh * (1 << ROW_SHIFT) + ll
