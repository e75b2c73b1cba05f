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

Windowed powers.  :func:`windowed_power` raises an upper list to the C-th
power keeping, after every product, only a window of sums, and charges the
mass it drops (proof in its docstring).  Its lists stay packed from the first
product to the last: rounding up and cutting are done on the packed integer
(a mask adds 2^K − 1 to every slot and clears the low K bits, a shift and a
power-of-two modulus cut the window), and the sum of all slots is the packed
integer modulo 2^s − 1, so only the final list is unpacked.  The list
lengths depend on the sizes alone (:func:`windowed_lengths`), so the work is
known exactly before it starts.
"""

from gmpy2 import f_mod_2exp, mpz

from auditor.rationals import ceil_div

__all__ = ["exact_product", "product", "power", "slot_bits", "power_schedule", "windowed_lengths",
           "slot_width", "windowed_power"]


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


# ---- powers with their tails cut off ------------------------------------------------------

def power_schedule(exponent):
    """The steps of left-to-right binary powering: for each bit after the first,
    (copies after the step, whether the base is multiplied in).

    >>> power_schedule(5)
    [(2, False), (5, True)]
    """
    out, copies = [], 1
    for bit in bin(exponent)[3:]:
        copies = 2 * copies + (bit == "1")
        out.append((copies, bit == "1"))
    return out


def _window(first, length, half):
    """The kept index range [start, stop) of a list over the sums first..first+length−1: |s| <= half."""
    if half is None:
        return 0, length
    start = min(max(0, -half - first), length - 1)     # never empty: a window around the mean
    stop = max(min(length, half - first + 1), start + 1)
    return start, stop


def _cuts(base_length, base_first, exponent, half_width):
    """[(first factor is the base?, product first, product length, start, stop)] of every product."""
    out, length, first = [], base_length, base_first
    reach = -base_first                       # the base covers −reach..base_length − 1 − reach
    for copies, add in power_schedule(exponent):
        half = half_width(copies)
        steps = [(False, half if half is None or not add else half + max(reach, base_length - 1 - reach))]
        if add:
            steps.append((True, half))
        for with_base, h in steps:
            other_length, other_first = (base_length, base_first) if with_base else (length, first)
            first, length = first + other_first, length + other_length - 1
            start, stop = _window(first, length, h)
            out.append((with_base, first, length, start, stop))
            first, length = first + start, stop - start
    return out


def windowed_lengths(base_length, base_first, exponent, half_width):
    """[(length of the first factor, of the second, kept)] of every product of :func:`windowed_power`,
    computed without the work (the estimate before it)."""
    out, length = [], base_length
    for with_base, _, _, start, stop in _cuts(base_length, base_first, exponent, half_width):
        out.append((length, base_length if with_base else length, stop - start))
        length = stop - start
    return out


def _repunit(count, width):
    """Σ_{m < count} 2^(width·m): one 1 in every slot (by doubling, O(log count) big-integer steps)."""
    ones, have, block = mpz(0), 0, mpz(1)
    size = 1
    while count:
        if count & 1:
            ones |= block << (width * have)
            have += size
        block |= block << (width * size)
        size *= 2
        count >>= 1
    return ones


class _Packed:
    """A list of non-negative integers packed into one integer, ``width`` bits a slot, with its exact sum."""

    __slots__ = ("value", "length", "total")

    def __init__(self, value, length, total):
        self.value, self.length, self.total = value, length, total


def slot_width(scale, mass):
    """Bits a slot so that a product of two lists of total at most ``mass`` each, rounded up at 2^scale,
    never carries: every exact coefficient plus 2^scale − 1 stays below 2^width (a multiple of 8)."""
    need = (mass * mass + (1 << scale)).bit_length() + 1
    return (need + 7) // 8 * 8


def _round_cut(whole, count, width, scale, start, stop):
    """The packed ceil(c_m / 2^scale) of an exact packed product, kept on slots start..stop−1.

    Adding 2^scale − 1 to every slot (no slot overflows: the caller's width)
    and clearing each slot's low ``scale`` bits before shifting right by
    ``scale`` rounds every slot up in place, without unpacking it.
    """
    ones = _repunit(count, width)
    low = ones * ((1 << scale) - 1)
    high = ones * (((1 << width) - 1) ^ ((1 << scale) - 1))
    rounded = ((whole + low) & high) >> scale
    kept = f_mod_2exp(rounded >> (width * start), width * (stop - start))
    return rounded, kept


def _slot_sum(value, width):
    """Σ of the slots of a packed integer whose slot sum is below 2^width − 1 (caller's bound):
    2^width ≡ 1 modulo 2^width − 1."""
    return int(value % ((mpz(1) << width) - 1))


def windowed_power(upper, first, exponent, scale, half_width, excess, width):
    """The C-th convolution power of an upper list, cut to a window after every product.

    ``upper`` is a fixed-point list (scale 2^scale) over the sum values first,
    first + 1, ... bounding a measure p pointwise from above, with
    Σ (upper − p) <= ``excess`` (units of 2^-scale); ``half_width(copies)`` is
    the H of the window |s| <= H kept after the step producing a block of
    ``copies`` factors (None: keep everything; before a product with the base
    the square keeps |s| <= H + the base's reach, which drops nothing the
    product keeps); ``width`` is the bits of a packed slot (:func:`slot_width`).
    Returns (hi, first, lost, excess), lost and excess integers in units of
    2^-scale, with

        p~(s) <= hi_s,   Σ_s (hi_s − p~(s)) <= excess,   p~ <= p^{*C},
        Σ_s (p^{*C}(s) − p~(s)) <= lost

    for a measure p~ (when p has mass at most 1).

    Proof.  Read a block of c factors as the sum of c independent draws of
    p.  Dropping the coefficients outside a window is the law of the block
    *restricted* to the vectors whose partial sums (the blocks of every earlier
    product) all stayed inside their windows: the restriction of a product of
    independent blocks to a product set, then to the window; call it p~.
    (i) hi >= p~ pointwise: a rounded-up product of upper lists is an upper
    list of the product (module docstring), and a cut removes the same sums
    from both.  (ii) The excess: with masses |·| in units U = 2^scale and
    |p~| <= U, the kept coefficients rounded up sum to at most their exact
    sum plus n (n kept coefficients), the exact product exceeds p~_a * p~_b
    pointwise, and |a||b| − |p~_a||p~_b| <= (|p~_a| + e_a)(|p~_b| + e_b) −
    |p~_a||p~_b|, so the new excess is at most e_a + e_b + e_a e_b/U + n.
    (iii) The lost mass obeys lost(a·b cut) <= lost(a) + lost(b) + (mass of
    the product outside the window), by the union bound over "the first block
    left its windows", "the second did", "both stayed but the sum is
    outside"; the last term is at most the dropped coefficients of the upper
    product, by (i).  A square counts lost(a) twice, the base loses nothing.

    Packing.  The lists stay packed (Kronecker substitution, one slot of
    ``width`` bits per coefficient) from the first product to the last: a
    coefficient of an exact product is at most the product of the two lists'
    totals, which the width keeps below 2^width − 2^scale, so no
    product carries across slots, the rounding adds no carry either, and a
    slot sum (every total used here) is the packed integer modulo
    2^width − 1.  The widths are checked against the exact totals at every
    product (an ArithmeticError would be a bug of the plan, never a verdict).
    """
    unit = 1 << scale
    nbytes = width // 8
    base = _Packed(_pack(upper, nbytes), len(upper), sum(upper))
    base_excess = excess
    hi, lost = base, 0
    for with_base, product_first, count, start, stop in _cuts(len(upper), first, exponent, half_width):
        other, other_excess = (base, base_excess) if with_base else (hi, excess)
        if hi.total * other.total + unit >= 1 << width:
            raise ArithmeticError("a packed product would carry across slots (the slot width is too small)")
        whole = hi.value * hi.value if other is hi else hi.value * other.value
        rounded, kept = _round_cut(whole, count, width, scale, start, stop)
        if hi.total * other.total // unit + count + 1 >= (1 << width) - 1:
            raise ArithmeticError("a slot sum would wrap modulo 2^width - 1 (the slot width is too small)")
        total = _slot_sum(rounded, width)
        kept_total = _slot_sum(kept, width)
        lost = (lost if with_base else 2 * lost) + total - kept_total
        excess = excess + other_excess + ceil_div(excess * other_excess, unit) + (stop - start)
        hi, first = _Packed(kept, stop - start, kept_total), product_first + start
    return _unpack(hi.value, hi.length, nbytes), first, lost, excess
