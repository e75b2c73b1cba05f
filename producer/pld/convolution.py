"""Exact products of nonnegative integer sequences by Kronecker substitution (gmpy2).

The sequence a_0, …, a_{n−1} is packed into the integer A = Σ a_i·2^{w·i}
with a field of w bits per entry.  If every coefficient of the product,
c_k = Σ_i a_i·b_{k−i}, is below 2^w, then A·B = Σ c_k·2^{w·k} with no carry
between fields, so the c_k are read back exactly from the fields of one big
product (GMP's FFT multiplication).  w = bits(max a) + bits(max b) +
bits(min(n_a, n_b)) bounds every c_k.  Packing and unpacking are gmpy2's
``pack`` and ``unpack`` (one C loop each, no per-entry Python bytes).

The coefficients are returned divided by 2^s and rounded up (the upper side
and the lower side's Q-masses) or down (the lower side's P-masses).
"""

from gmpy2 import pack, unpack


def product(a, b, shift, up, square=False):
    """[⌈c_k/2^shift⌉] (``up``) or [⌊c_k/2^shift⌋] of c = a * b; ``square`` when b is a.

    ``a`` and ``b`` are nonempty lists of nonnegative integers (int or mpz);
    ``shift`` is a multiple of 8.  The entries returned are gmpy2 mpz.
    """
    if shift % 8:
        raise ValueError("the fixed-point shift must be a multiple of 8 bits")
    length = len(a) + len(b) - 1
    bits = max(a).bit_length() + max(b).bit_length() + min(len(a), len(b)).bit_length()
    packed = pack(a, bits)
    whole = unpack(packed * packed if square else packed * pack(b, bits), bits)
    if len(whole) < length:          # unpack stops at the highest nonzero field
        whole.extend([0] * (length - len(whole)))
    if up:
        mask = (1 << shift) - 1
        return [(c + mask) >> shift for c in whole[:length]]
    return [c >> shift for c in whole[:length]]
