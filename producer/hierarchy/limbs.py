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


def coefficient_limbs(alpha, beta):
    """int64 array (4, M) of (α_hi, α_lo, β_hi, β_lo), or None if some |α| or |β| >= 2^58."""
    ints = [[int(v) for v in alpha], [int(v) for v in beta]]
    if any(not -COEFF_LIMIT < v < COEFF_LIMIT for vs in ints for v in vs):
        return None
    return np.array([[v >> COEFF_SHIFT for v in ints[0]], [v & _CMASK for v in ints[0]],
                     [v >> COEFF_SHIFT for v in ints[1]], [v & _CMASK for v in ints[1]]], dtype=np.int64)


def row_limbs(numerators):
    """(hi, lo) int64 columns (n, 1) of row numerators, or None if some P >= 2^50 or n > MAX_OUTPUTS."""
    ints = [int(v) for v in numerators]
    if len(ints) > MAX_OUTPUTS or any(not 0 <= v < ROW_LIMIT for v in ints):
        return None
    return (np.array([v >> ROW_SHIFT for v in ints], dtype=np.int64).reshape(-1, 1),
            np.array([v & _RMASK for v in ints], dtype=np.int64).reshape(-1, 1))


def _recombine(hh, hl, lh, ll):
    hh, hl, lh, ll = (a.astype(object) for a in (hh, hl, lh, ll))
    return hh * (1 << (COEFF_SHIFT + ROW_SHIFT)) + hl * (1 << COEFF_SHIFT) + lh * (1 << ROW_SHIFT) + ll


def limb_sums(arena, child_ids, loc, p_limbs, q_limbs):
    """(Σ_k P_k·α_k[loc_k], Σ_k Q_k·β_k[loc_k]) exactly, as object arrays.

    ``arena`` is the int64 array (nodes, 4, M) of limb rows (α_hi, α_lo,
    β_hi, β_lo); ``child_ids`` the arena index of the child of each output k;
    ``loc`` the (n, M) array of locations.
    """
    _, rows, size = arena.shape
    flat = arena.reshape(-1)
    base = child_ids.reshape(-1, 1) * (rows * size) + loc  # (n, M) offsets of the α_hi entries
    a_hi, a_lo, b_hi, b_lo = (flat.take(base + r * size) for r in range(4))
    (ph, pl), (qh, ql) = p_limbs, q_limbs
    sum_p = _recombine((a_hi * ph).sum(axis=0), (a_hi * pl).sum(axis=0),
                       (a_lo * ph).sum(axis=0), (a_lo * pl).sum(axis=0))
    sum_q = _recombine((b_hi * qh).sum(axis=0), (b_hi * ql).sum(axis=0),
                       (b_lo * qh).sum(axis=0), (b_lo * ql).sum(axis=0))
    return sum_p, sum_q
