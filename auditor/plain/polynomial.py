"""Products and powers of nonnegative fixed-point polynomials with directed rounding.

A polynomial is a list of nonnegative Python ints c_0, c_1, ... standing for
the real coefficients c_m / 2^K (K the *scale*, fixed for a computation).

Directed rounding.  For real polynomials p, q with nonnegative coefficients
and integer lists a, b with a_m / 2^K <= p_m and b_m / 2^K <= q_m,

    (p·q)_m = Σ_j p_j q_{m−j}  >=  Σ_j a_j b_{m−j} / 2^{2K}  >=  floor((a*b)_m / 2^K) / 2^K,

because every product of nonnegative numbers is monotone in each factor.
The same with every inequality reversed and ceil instead of floor holds for
upper lists.  So :func:`product` with ``direction`` −1 (floor) maps lower
lists to a lower list of the product and with +1 (ceil) upper lists to an
upper list, and :func:`power` (repeated products) keeps the invariant for
p^C, the C-fold convolution.

Kronecker substitution.  With slots of s bits, a list is packed into the
integer A = Σ a_m 2^{s·m}.  When every coefficient of the exact integer
product a*b is below 2^s, the product of the packed integers is the packed
product (no carries cross slots), so one big-integer product (gmpy2, GMP's
subquadratic multiplication) gives every (a*b)_m exactly.  A coefficient of
a*b is a sum of at most min(len a, len b) products each below
2^(bits a + bits b), so s = bits(a) + bits(b) + bitlen(min(len a, len b))
suffices; :func:`product` uses that, rounded up to whole bytes.
"""

from gmpy2 import mpz

__all__ = ["exact_product", "product", "power", "slot_bits"]


def slot_bits(a_bits, b_bits, shorter):
    """Bits per slot (a multiple of 8) so that no product coefficient overflows its slot."""
    need = a_bits + b_bits + shorter.bit_length() + 1
    return (need + 7) // 8 * 8


def _max_bits(coeffs):
    return max(coeffs).bit_length() if coeffs else 0


def _pack(coeffs, nbytes):
    return mpz.from_bytes(b"".join(c.to_bytes(nbytes, "little") for c in coeffs), "little")


def _unpack(value, count, nbytes):
    data = value.to_bytes(count * nbytes, "little")
    return [int.from_bytes(data[i * nbytes:(i + 1) * nbytes], "little") for i in range(count)]


def exact_product(a, b):
    """The exact integer convolution a*b of two lists of nonnegative ints (Kronecker)."""
    if not a or not b:
        return []
    count = len(a) + len(b) - 1
    nbytes = slot_bits(_max_bits(a), _max_bits(b), min(len(a), len(b))) // 8
    if nbytes == 0:
        return [0] * count
    A = _pack(a, nbytes)
    prod = A * A if a is b else A * _pack(b, nbytes)
    return _unpack(prod, count, nbytes)


def product(a, b, scale, direction):
    """The list of (a*b)_m / 2^scale rounded down (direction −1) or up (+1)."""
    exact = exact_product(a, b)
    if direction < 0:
        return [c >> scale for c in exact]
    return [-((-c) >> scale) for c in exact]


def power(base, exponent, scale, direction):
    """base^exponent (C-fold convolution) with every product rounded in ``direction``.

    Left-to-right binary powering: square, then multiply by the (short) base
    when the next bit of the exponent is 1.  exponent >= 1.
    """
    if exponent < 1:
        raise ValueError(f"exponent must be at least 1, got {exponent}")
    result = list(base)
    for bit in bin(exponent)[3:]:
        result = product(result, result, scale, direction)
        if bit == "1":
            result = product(result, base, scale, direction)
    return result
