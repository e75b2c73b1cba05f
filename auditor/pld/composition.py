"""Exact products, windows and powers of the fixed-point loss arrays (docs/dpsgd.md §6).

An array is a list of nonnegative integers on consecutive indices
offset, offset + 1, ... and, for two of the three kinds, an atom:

=========  =======  ========  ========================  =========================
kind       scale    rounding  mass below a window       mass above a window
=========  =======  ========  ========================  =========================
UPPER      K        ceil      added to its first index  added to the atom (+∞)
LOWER_P    K        floor     dropped                   added to its last index
LOWER_Q    K′       ceil      added to its first index  added to the atom X
=========  =======  ========  ========================  =========================

Products.  C[k] = ⌈c_k/2^scale⌉ (⌊⌋ for LOWER_P), c_k = Σ_i A[i]·B[k − i]
exactly, and the atom ⌈(a·(ΣB + b) + ΣA·b)/2^scale⌉ (+∞ plus anything is
+∞; "in every event" stays in every event).

Packed form.  Inside a power or a composition an array stays one integer
X = Σ_k v_k·2^{w·k} (fields of w bits), with its length, its total Σ v_k
(exact, kept up to date, never re-read) and a bound top ≥ max v_k; the
invariant is Σ v_k < 2^w.  A product takes w with c_k + 2^scale − 1 < 2^w
(c_k ≤ min(ΣA·top B, top A·ΣB)), with the rounded product's total below 2^w
(Σ⌈c_k/2^scale⌉ ≤ (ΣA·ΣB + m·(2^scale − 1))/2^scale for m fields) and with
the operands' totals below 2^w; the operands are repacked only when their
width is narrower (never narrowed: a repack costs more than the bits save).
Then, ONE = Σ_{k<m} 2^{w·k} and Z = X_A·X_B, whose fields are the c_k with
no carry (Kronecker substitution, GMP's multiplication):

    ceil:  Y = ((Z + (2^scale − 1)·ONE) & ((2^w − 2^scale)·ONE)) >> scale
    floor: Y = (Z & ((2^w − 2^scale)·ONE)) >> scale

((2^scale − 1)·ONE is the mask's complement in the m fields: each field of the
two sums to 2^w − 1.  A power keeps its longest mask and cuts shorter ones.)

(the addition carries out of no field, the mask keeps the bits scale..w−1
of each field, the shift brings ⌈c_k/2^scale⌉ resp. ⌊c_k/2^scale⌋ to bit
w·k).  The sum of fields, and their OR (the new top), come from folding:
add (or OR) the upper half of the fields onto the lower half until one field
is left; no field overflows, as every partial sum is at most the total < 2^w.
A window cuts fields out with shifts and masks, sums the fields below and
above it the same way, and adds them to its first or last field (at most the
total: no overflow) or to the atom, as the table says.

Regrids.  A power may move itself and its base to a coarser grid after a product's window
(:mod:`.regrid`, on the list form: the power is unpacked and packed again).

Why the rounding and the windows are safe: each moves mass the way its side
tolerates (upper and Q arrays: up, towards the atom; P arrays: down or away),
and convolution with a nonnegative array keeps the order A ⪰ B (every upper
tail sum at least as large), so the composed arrays dominate (upper, Q) or
are dominated by (P) the exact composed laws; docs/dpsgd.md §4 (iv) and §5.
"""

from operator import add, or_
from typing import NamedTuple

import gmpy2

__all__ = ["UPPER", "LOWER_P", "LOWER_Q", "Array", "product", "window", "power", "compose",
           "products_in_power", "products"]

UPPER, LOWER_P, LOWER_Q = "upper", "lower_p", "lower_q"
# where a window puts the mass below and above it (the table of the module docstring; None: dropped)
_WINDOW_RULES = {UPPER: ("first", "atom"), LOWER_P: (None, "last"), LOWER_Q: ("first", "atom")}


class Array(NamedTuple):
    """Integers ``values`` on indices offset, offset + 1, ..., and an ``atom`` (0 for LOWER_P)."""

    offset: int
    values: list
    atom: int = 0


class _Packed(NamedTuple):
    """An array as one integer, entry k in the field of ``width`` bits at bit width·k; total = Σ entries
    < 2^width, top ≥ every entry."""

    offset: int
    packed: object
    length: int
    width: int
    atom: int
    total: int
    top: int


def products_in_power(steps):
    """Number of products of the T-fold power: (bit length of T − 1) + (popcount of T − 1)."""
    return steps.bit_length() - 1 + bin(steps).count("1") - 1


def _pack(A, width=1):
    """A packed at ``width`` bits a field, or wider if its total needs it."""
    total = sum(A.values)
    width = max(width, total.bit_length())
    return _Packed(A.offset, gmpy2.pack(A.values, width), len(A.values), width, A.atom, total, max(A.values))


def _unpack(X):
    """The list form (unpack stops at the top nonzero field: zeros pad it to the length)."""
    values = gmpy2.unpack(X.packed, X.width)[:X.length]
    values.extend([0] * (X.length - len(values)))
    return Array(X.offset, values, X.atom)


def _repack(X, width):
    return X if X.width == width else X._replace(packed=gmpy2.pack(_unpack(X).values, width), width=width)


def _fold(x, count, width, combine):
    """The ``count`` fields of x combined (add: their sum, when every partial sum is below 2^width; or_)."""
    while count > 1:
        half = (count + 1) // 2
        x = combine(gmpy2.f_mod_2exp(x, width * half), x >> (width * half))
        count = half
    return x


def _ones(width, count):
    """Σ_{k<count} 2^{width·k}, by doubling: the first 2j fields are the first j and those j fields shifted by j."""
    ones, fields = gmpy2.mpz(1), 1
    while 2 * fields <= count:
        ones, fields = ones + (ones << (width * fields)), 2 * fields
    return ones + (gmpy2.f_mod_2exp(ones, width * (count - fields)) << (width * fields))


def _one_width(A, B, scale):
    """A and B at one width that holds A·B's fields plus 2^scale − 1, its rounded total and A's and B's totals
    (the module docstring); A is not narrowed."""
    low = (1 << scale) - 1
    entry = min(A.total * B.top, A.top * B.total) + low
    total = (A.total * B.total + (A.length + B.length - 1) * low) >> scale
    width = max(A.width, entry.bit_length(), total.bit_length(), B.total.bit_length())
    A_at = _repack(A, width)
    return A_at, (A_at if B is A else _repack(B, width))     # B is A: one integer, squared by GMP


class _Masks:
    """The masks (2^w − 2^scale)·ONE of one power's products (one scale): the longest made so far at each width
    is kept and shorter ones are cut from it, one copy a product instead of ONE and two multiples of it."""

    def __init__(self, scale):
        self.scale, self.kept = scale, {}

    def mask(self, width, count):
        fields, mask = self.kept.get(width, (0, 0))
        if fields < count:
            fields, mask = count, ((1 << width) - (1 << self.scale)) * _ones(width, count)
            self.kept = {width: (fields, mask)}
        return mask if fields == count else gmpy2.f_mod_2exp(mask, width * count)


def _product(A, B, kind, scale, masks=None):
    """A·B (both at the width of :func:`_one_width`), rounded as the kind requires, entries untouched."""
    width, count, low = A.width, A.length + B.length - 1, (1 << scale) - 1
    exact = A.packed * B.packed
    mask = (masks or _Masks(scale)).mask(width, count)
    if kind != LOWER_P:     # + (2^scale − 1)·ONE: the mask's complement within the count fields
        exact += mask ^ ((gmpy2.mpz(1) << (width * count)) - 1)
    packed = (exact & mask) >> scale
    atom = 0 if kind == LOWER_P else (A.atom * (B.total + B.atom) + A.total * B.atom + low) >> scale
    return _Packed(A.offset + B.offset, packed, count, width, atom, _fold(packed, count, width, add),
                   _fold(packed, count, width, or_))


def _window(A, lo, hi, kind):
    """A on exactly the indices lo ... hi, the mass outside moved as ``kind`` requires."""
    X, n, width = A.packed, A.length, A.width
    start, stop = lo - A.offset, hi - A.offset + 1     # fields of lo and of hi + 1 in A
    a, b = min(max(start, 0), n), max(min(stop, n), 0)   # A's fields [a, b) are kept, at field a − start
    below = _fold(gmpy2.f_mod_2exp(X, width * a), a, width, add)
    above = _fold(X >> (width * b), n - b, width, add)
    kept = gmpy2.f_mod_2exp(X >> (width * a), width * (b - a)) << (width * (a - start)) if a < b else 0
    to_below, to_above = _WINDOW_RULES[kind]
    total, top, atom = A.total, A.top, A.atom
    if to_below == "first":
        kept, top = kept + below, top + below
    else:
        total -= below
    if to_above == "last":
        kept, top = kept + (above << (width * (hi - lo))), top + above
    else:
        total, atom = total - above, atom + above
    return _Packed(lo, kept, hi - lo + 1, width, atom, total, top)


def _step(A, B, window, kind, scale, masks):
    """The windowed product of A and B, and B at the width used (for the next product by it)."""
    A, B = _one_width(A, B, scale)
    return _window(_product(A, B, kind, scale, masks), *window, kind), B


def product(A, B, kind, scale):
    """A·B of one kind at fixed point ``scale`` (K or K′), rounded as the kind requires."""
    X = _pack(A)
    X, Y = _one_width(X, X if B is A else _pack(B), scale)
    return _unpack(_product(X, Y, kind, scale))


def window(A, lo, hi, kind):
    """A on exactly the indices lo ... hi, the mass outside moved as ``kind`` requires."""
    return _unpack(_window(_pack(A), lo, hi, kind))


def products(steps):
    """The products of the ``steps``-fold power in order: True for a squaring, False for a product by the base."""
    for bit in bin(steps)[3:]:
        yield True
        if bit == "1":
            yield False


def power(base, steps, windows, kind, scale, regrids=None):
    """The ``steps``-fold power of ``base``, windowed after each product as ``windows`` lists them; ``regrids``
    {j: f} moves the power and the base to a coarser grid (f of an :class:`Array`) after product j's window."""
    windows, regrids, masks = iter(windows), regrids or {}, _Masks(scale)
    A = B = _pack(base)
    for j, square in enumerate(products(steps)):
        if square:
            A, _ = _step(A, A, next(windows), kind, scale, masks)
        else:
            A, B = _step(A, B, next(windows), kind, scale, masks)
        if j in regrids:
            A, B = _pack(regrids[j](_unpack(A))), _pack(regrids[j](_unpack(B)))
    return _unpack(A)


def compose(powers, windows, kind, scale):
    """The stage powers multiplied in order, windowed after each product."""
    if len(powers) == 1:
        return powers[0]        # nothing to multiply: no round trip through the packed form
    result, masks = _pack(powers[0]), _Masks(scale)
    for array, window_ in zip(powers[1:], windows):
        result, _ = _step(result, _pack(array, result.width), window_, kind, scale, masks)
    return _unpack(result)
