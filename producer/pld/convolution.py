"""Exact products of nonnegative integer sequences held packed between products (gmpy2).

A sequence v_0, …, v_{n−1} is held as one integer X = Σ v_k·2^{w·k} with
fields of w bits.  While every field stays below 2^w, integer operations on X
act on all fields at once, so a whole power is computed without reading the
entries back:

- **product** (Kronecker substitution): X_a·X_b = Σ c_k·2^{w·k} with
  c_k = Σ_i a_i·b_{k−i}, carry-free when every c_k < 2^w.  Since
  c_k ≤ min(Σa·max b, max a·Σb), the width follows from the totals and a bound
  on the largest entry, both carried along (no entry is read);
- **rounding to 2^-s**: adding 2^s − 1 to every field (rounding up), clearing
  the low s bits of every field with one AND, and shifting right by s leaves
  ⌈c_k/2^s⌉ (or ⌊c_k/2^s⌋ without the addition) in field k — the width also
  leaves room for that addition;
- **sums of fields**: adding the upper half of the fields onto the lower half,
  again and again, leaves the sum of the fields in one field, as long as that
  sum is below 2^w (every width here exceeds the bit length of the total);
- **cuts**: a shift and a power-of-two modulus keep the fields i … j − 1.

Only the ends a window choice reads and the final arrays are unpacked.
"""

from gmpy2 import f_mod_2exp, mpz, pack, unpack


class Packed:
    """v_0 … v_{n−1} ≥ 0 as Σ v_k·2^{width·k}, with their ``total`` and a bound ``top`` on the largest.

    ``offset`` and ``atom`` ride along for the arrays of :mod:`producer.pld.composition`;
    every width satisfies total < 2^(width − 1).
    """

    __slots__ = ("offset", "number", "length", "width", "atom", "total", "top")

    def __init__(self, offset, number, length, width, atom, total, top):
        if length < 1 or total.bit_length() >= width:
            raise ValueError(f"a packed array needs length >= 1 and total < 2^(width - 1): {length}, {width}")
        self.offset, self.number, self.length, self.width = int(offset), mpz(number), int(length), int(width)
        self.atom, self.total, self.top = int(atom), int(total), int(top)

    @classmethod
    def from_values(cls, values, offset=0, atom=0, width=None):
        """The sequence ``values`` (nonempty), at ``width`` or the smallest width that holds its total."""
        total = sum(values)
        width = width or total.bit_length() + 1
        return cls(offset, pack(list(values), width), len(values), width, atom, total, max(values))

    @property
    def last(self):
        return self.offset + self.length - 1

    def values(self, start=0, stop=None):
        """The entries at positions start … stop − 1 (clipped to the sequence), as gmpy2 mpz."""
        stop = self.length if stop is None else min(stop, self.length)
        start = max(0, start)
        if start >= stop:
            return []
        out = unpack(self.cut(start, stop), self.width)[:stop - start]
        return out + [0] * (stop - start - len(out))     # unpack stops at the highest nonzero field

    def field_sum(self, start, stop):
        """Σ of the entries at positions start … stop − 1 (clipped), summed packed."""
        start, stop = max(0, start), min(stop, self.length)
        if start >= stop:
            return 0
        return _field_sum(self.cut(start, stop), stop - start, self.width)

    def cut(self, start, stop):
        """The integer of the fields start … stop − 1 (0 <= start < stop <= length)."""
        number = self.number >> (self.width * start) if start else self.number
        return f_mod_2exp(number, self.width * (stop - start)) if stop < self.length else number

    def repacked(self, width):
        """The same entries at another width (one unpack and pack; rare)."""
        return Packed.from_values(self.values(), self.offset, self.atom, width)


def _ones(count, width):
    """Σ_{k < count} 2^{width·k}: a 1 in every field (doubling, then cut)."""
    ones, fields = mpz(1), 1
    while fields < count:
        ones |= ones << (width * fields)
        fields *= 2
    return f_mod_2exp(ones, width * count)


def _rounding_mask(count, width, shift):
    """(2^width − 2^shift)·ONE over ``count`` fields (ONE = :func:`_ones`): the bits shift … width − 1 of each.

    A chain multiplies at one width and shift throughout, so the longest mask made for a (width, shift) is
    kept (two of them, the most recent) and shorter ones cut from it: one copy instead of building ONE and
    multiplying by it for every product."""
    key = (width, shift)
    fields, mask = _MASKS.pop(key, (0, None))
    if fields < count:
        fields, mask = count, _ones(count, width) * ((1 << width) - (1 << shift))
    _MASKS[key] = fields, mask
    while len(_MASKS) > _MASKS_KEPT:
        del _MASKS[next(iter(_MASKS))]
    return mask if fields == count else f_mod_2exp(mask, width * count)


def forget_masks():
    """Let go of the kept masks (tens of MB on long chains): called when a chain is done."""
    _MASKS.clear()


_MASKS = {}          # (width, shift) -> (fields, mask), most recently used last
_MASKS_KEPT = 2      # a lower chain alternates two (width, shift); an upper chain uses one


def _field_sum(number, count, width):
    """The sum of the ``count`` fields of ``number``, folding the upper fields onto the lower ones.

    Valid while the sum stays below 2^width: no fold then carries out of a field.
    """
    while count > 1:
        keep = count - count // 2
        number = (number >> (width * keep)) + f_mod_2exp(number, width * keep)
        count = keep
    return int(number)


def product_width(a, b, shift, up):
    """A width that holds every coefficient of a·b (plus 2^shift − 1 when ``up``) and the total.

    It is never below the operands' widths (no repacking while it stays) and
    exceeds ``shift`` (the rounding masks clear the low ``shift`` bits of a field).
    """
    largest = min(a.total * b.top, a.top * b.total) + ((1 << shift) - 1 if up else 0)
    total = a.total * b.total      # each ⌈c/2^shift⌉ <= c for integers c >= 0: the rounded total is <= this
    return max(largest.bit_length(), total.bit_length() + 1, shift + 1, a.width, b.width)


def product(a, b, shift, up):
    """[⌈c_k/2^shift⌉] (``up``) or [⌊c_k/2^shift⌋] of c = a * b, packed (offset a + b, atom 0).

    a and b are :class:`Packed`; ``b is a`` squares.  They are repacked first if
    their widths differ or are too small for the product (:func:`product_width`).
    """
    width = product_width(a, b, shift, up)
    square = b is a
    if a.width != width:
        a = a.repacked(width)
    if square:
        b = a
    elif b.width != width:
        b = b.repacked(width)
    length = a.length + b.length - 1
    number = a.number * a.number if square else a.number * b.number
    if shift:
        mask = _rounding_mask(length, width, shift)
        if up:   # (2^shift − 1)·ONE: every bit of the fields that the mask clears
            number += mask ^ ((mpz(1) << (width * length)) - 1)
        number = (number & mask) >> shift
    total = _field_sum(number, length, width)
    top = min(a.total * b.top, a.top * b.total)
    top = -((-top) >> shift) if up else top >> shift
    return Packed(a.offset + b.offset, number, length, width, 0, total, top)


def scaled_up(part, factor, bits):
    """[⌈v·factor/2^bits⌉ for v in part], packed: one multiplication and the rounding of every field at once."""
    top = max(part)
    width = max(top.bit_length(), (top * factor + (1 << bits)).bit_length()) + 1
    number = pack(list(part), width) * factor
    ones = _ones(len(part), width)
    number = ((number + ones * ((1 << bits) - 1)) & (ones * ((1 << width) - (1 << bits)))) >> bits
    out = unpack(number, width)[:len(part)]
    return out + [mpz(0)] * (len(part) - len(out))
