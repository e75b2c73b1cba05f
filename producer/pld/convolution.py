"""Exact products of nonnegative integer sequences by Kronecker substitution (gmpy2).

The sequence a_0, …, a_{n−1} is packed into the integer A = Σ a_i·2^{w·i}
with a field of w bits per entry.  If every coefficient of the product,
c_k = Σ_i a_i·b_{k−i}, is below 2^w, then A·B = Σ c_k·2^{w·k} with no carry
between fields, so the c_k are read back exactly from the fields of one big
product (GMP's FFT multiplication).  w = bits(max a) + bits(max b) +
bits(min(n_a, n_b)) bounds every c_k, rounded up to whole bytes so that
packing and unpacking are byte copies.

The coefficients are returned divided by 2^s and rounded up (the upper side
and the lower side's Q-masses) or down (the lower side's P-masses), s a
multiple of 8: the rounding of each field is then a test of its low bytes.
"""

from gmpy2 import mpz


def _pack(values, width):
    return mpz.from_bytes(b"".join(v.to_bytes(width, "little") for v in values), "little")


def product(a, b, shift, up, square=False):
    """[⌈c_k/2^shift⌉] (``up``) or [⌊c_k/2^shift⌋] of c = a * b; ``square`` when b is a.

    ``a`` and ``b`` are nonempty lists of nonnegative ints; ``shift`` is a
    multiple of 8.
    """
    if shift % 8:
        raise ValueError("the fixed-point shift must be a multiple of 8 bits")
    length = len(a) + len(b) - 1
    bits = max(a).bit_length() + max(b).bit_length() + min(len(a), len(b)).bit_length()
    width = max(1, (bits + 7) // 8)
    packed = _pack(a, width)
    whole = packed * packed if square else packed * _pack(b, width)
    raw = whole.to_bytes(width * length, "little")
    low = shift // 8
    if low >= width:
        low = width
    zeros = bytes(low)
    out = []
    append = out.append
    from_bytes = int.from_bytes
    for start in range(0, width * length, width):
        high = from_bytes(raw[start + low:start + width], "little")
        if up and raw[start:start + low] != zeros:
            high += 1
        append(high)
    if low < shift // 8:  # shift beyond the field: every entry is 0 (floor) or at most 1 (ceil)
        return [min(v, 1) if up else 0 for v in out]
    return out
