"""Exact weighted sums of gathered tables in int64 limbs (no floating point).

A table value v (a Python int, any sign) is split into ``nl`` limbs of
LIMB_BITS = 24 bits: v = Σ_k l_k·2^(24k), the low limbs in [0, 2^24), the top
one signed (arithmetic shift), so |l_k| < 2^24 whenever bitlen|v| <= 24·nl − 1.
A row numerator P >= 0 is split into unsigned limbs the same way.  The sum
Σ_n P_n·v_n is then the limb convolution

    R_k = Σ_n Σ_{a+b=k} l_{n,a}·p_{n,b},   Σ_n P_n·v_n = Σ_k R_k·2^(24k),

computed as one int64 matrix product.  Every |R_k| is below
(outputs)·min(nl, np)·2^48, which :func:`weight_matrix` checks is below 2^63,
so no int64 operation overflows; the recombination is in Python integers.
"""

import numpy as np

__all__ = ["LIMB_BITS", "limbs_needed", "split_signed", "weight_matrix", "recombine"]

LIMB_BITS = 24
_MASK = (1 << LIMB_BITS) - 1
_INT64_HEADROOM = 1 << (63 - 2 * LIMB_BITS)


def limbs_needed(max_bits):
    """nl with max_bits <= 24·nl − 1."""
    return max(1, -(-(max_bits + 1) // LIMB_BITS))


def split_signed(values, nl):
    """int64 matrix len(values) × nl of the limbs of the object array ``values``."""
    out = np.empty((len(values), nl), dtype=np.int64)
    for k in range(nl - 1):
        out[:, k] = ((values >> (LIMB_BITS * k)) & _MASK).astype(np.int64)
    out[:, nl - 1] = (values >> (LIMB_BITS * (nl - 1))).astype(np.int64)
    return out


def weight_matrix(numerators, nl):
    """(len·nl) × (nl + np − 1) int64 matrix W with (G @ W)[:, k] = R_k.

    Row n·nl + a, column a + b holds limb b of numerator n.
    """
    top = max(numerators)
    if min(numerators) < 0:
        raise ArithmeticError("row numerators must be non-negative")
    n_p = limbs_needed(top.bit_length())
    if len(numerators) * min(nl, n_p) >= _INT64_HEADROOM:
        raise ArithmeticError("too many outputs for exact int64 limb sums")
    W = np.zeros((len(numerators) * nl, nl + n_p - 1), dtype=np.int64)
    for n, p in enumerate(numerators):
        parts = [(p >> (LIMB_BITS * b)) & _MASK for b in range(n_p)]
        for a in range(nl):
            W[n * nl + a, a:a + n_p] = parts
    return W


def recombine(R):
    """Object array of Σ_k R[:, k]·2^(24k) (exact Python integers)."""
    powers = np.array([1 << (LIMB_BITS * k) for k in range(R.shape[1])], dtype=object)
    return R.astype(object) @ powers
