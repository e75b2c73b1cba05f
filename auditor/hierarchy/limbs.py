"""Exact weighted sums of gathered tables in int64 limbs (no floating point).

A table value v (a Python int, any sign) is split into ``nl`` limbs of ``ba``
bits, v = Σ_a l_a·2^(a·ba), the low limbs in [0, 2^ba), the top one signed
(arithmetic shift); a row numerator P >= 0 into ``np`` unsigned limbs of ``bp``
bits, P = Σ_b p_b·2^(b·bp).  Then

    Σ_n P_n·v_n = Σ_{a,b} R_{a,b}·2^(a·ba + b·bp),   R_{a,b} = Σ_n l_{n,a}·p_{n,b},

all R_{a,b} at once as one int64 matrix product (gathered limbs, outputs × nl
columns, times a block matrix of the numerators' limbs).  Each |l_{n,a}·p_{n,b}|
is below 2^(ba+bp) and a column sums at most ``outputs`` of them;
:func:`plan` chooses ba + bp <= 62 − bitlen(outputs), so every |R_{a,b}| < 2^62
and no int64 operation overflows.  The recombination is in Python integers.
"""

import numpy as np

from auditor.rationals import ceil_div

__all__ = ["plan", "split_signed", "weight_matrix", "recombine"]

INT64_BITS = 62        # |every partial sum| < 2^62 < 2^63


def plan(value_bits, numerator_bits, outputs):
    """(ba, nl, bp, np): limb sizes for |values| < 2^value_bits, numerators < 2^numerator_bits.

    Minimises the number of product columns nl·np (then nl) under
    ba·nl >= value_bits + 1 (room for the sign), bp·np >= numerator_bits and
    ba + bp <= 62 − bitlen(outputs).
    """
    room = INT64_BITS - outputs.bit_length()
    best = None
    for nl in range(1, 16):
        ba = ceil_div(value_bits + 1, nl)
        bp = room - ba
        if bp < 1:
            continue
        n_p = max(1, ceil_div(numerator_bits, bp))
        key = (nl * n_p, nl)
        if best is None or key < best[0]:
            best = (key, (ba, nl, bp, n_p))
    if best is None:
        raise ArithmeticError("no exact int64 limb plan for these sizes")
    return best[1]


def split_signed(values, ba, nl):
    """int64 matrix len(values) × nl of the limbs of the Python ints ``values``."""
    arr = np.array(values, dtype=object)
    mask = (1 << ba) - 1
    out = np.empty((len(values), nl), dtype=np.int64)
    for k in range(nl - 1):
        out[:, k] = ((arr >> (ba * k)) & mask).astype(np.int64)
    out[:, nl - 1] = (arr >> (ba * (nl - 1))).astype(np.int64)
    return out


def weight_matrix(numerators, nl, bp, n_p):
    """(len·nl) × (nl·np) int64 matrix W: (G @ W)[:, a·np + b] = R_{a,b}.

    Row n·nl + a, column a·np + b holds limb b of numerator n.
    """
    if min(numerators) < 0 or max(numerators).bit_length() > bp * n_p:
        raise ArithmeticError("row numerators outside the limb plan")
    mask = (1 << bp) - 1
    W = np.zeros((len(numerators) * nl, nl * n_p), dtype=np.int64)
    for n, p in enumerate(numerators):
        parts = [(p >> (bp * b)) & mask for b in range(n_p)]
        for a in range(nl):
            W[n * nl + a, a * n_p:(a + 1) * n_p] = parts
    return W


def recombine(R, ba, nl, bp, n_p):
    """List of Σ_{a,b} R[:, a·np + b]·2^(a·ba + b·bp) (exact Python integers)."""
    columns = R.T.tolist()
    total = columns[0]
    for a in range(nl):
        for b in range(n_p):
            if a == b == 0:
                continue
            shift = a * ba + b * bp
            total = [x + (y << shift) for x, y in zip(total, columns[a * n_p + b])]
    return total
