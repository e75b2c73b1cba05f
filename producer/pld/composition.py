"""T-fold and staged compositions of the integer arrays, with truncation windows.

An array is a list of nonnegative integers on the indices offset, offset+1, …
(masses at the fixed point 2^-K), possibly with one extra atom.  Three kinds:

- ``UPPER`` (connect-the-dots P-masses, the atom at +∞): below a window the
  mass is moved up to its first index (lower loss → higher loss: the tied
  Q-mass only drops), above it into the atom at +∞;
- ``LOWER_P`` (bucket-index P-masses, no atom): below the window dropped,
  above it moved down to the window's last index;
- ``LOWER_Q`` (bucket-index Q-masses, the atom X counted in every event):
  below the window moved up to its first index, above it into X.

Each move keeps the side's inequality: for every k the upper side's mass at or
above k only grows, the lower P-mass at or above k only shrinks and the lower
Q-mass at or above k (X included) only grows; and these orders are kept by
convolution (docs/dpsgd.md, "Truncation").  Products with atoms follow the
atom's algebra: +∞ (or "in every event") plus anything is the atom again,

    (A, a) * (B, b) = (A * B, a·(ΣB + b) + ΣA·b),

all at 2^-2K, then rounded to 2^-K (up for UPPER and LOWER_Q, down for LOWER_P).

A T-fold power is computed by repeated squaring from the most significant bit
of T: A ← A·A, and A ← A·base for each 1 bit after the first; every product is
followed by one window [lo, hi] (absolute indices), which the certificate
records in that order.  A schedule multiplies the stage powers from the first
stage on, with one window after each of those products too.  Between the
products of a power or a schedule the arrays stay packed
(:mod:`producer.pld.convolution`): only the ends a window choice reads and the
results are unpacked.
"""

from itertools import accumulate

from producer.pld.convolution import Packed, product
from producer.pld.regrid import regrid

UPPER, LOWER_P, LOWER_Q = "upper", "lower-p", "lower-q"
_HAS_ATOM = {UPPER: True, LOWER_P: False, LOWER_Q: True}


class Array:
    """Integer masses ``values`` on the indices offset … offset + len − 1 and an ``atom``."""

    __slots__ = ("offset", "values", "atom")

    def __init__(self, offset, values, atom=0):
        self.offset, self.values, self.atom = int(offset), list(values), int(atom)

    @property
    def last(self):
        return self.offset + len(self.values) - 1

    def total(self):
        return sum(self.values) + self.atom

    def ints(self, start=0):
        """The values from position ``start`` on as Python ints (products leave gmpy2 mpz, which arb refuses)."""
        return [int(v) for v in self.values[start:]]

    def packed(self):
        return Packed.from_values(self.values, self.offset, self.atom)

    @classmethod
    def from_packed(cls, packed):
        return cls(packed.offset, packed.values(), packed.atom)

    def __repr__(self):
        return f"Array(offset={self.offset}, length={len(self.values)}, atom={self.atom})"


def _ceil_shift(value, bits):
    return -((-value) >> bits)


def _multiply(a, b, kind, bits):
    """The product of two packed arrays of ``kind`` (``b is a`` squares), rounded the kind's way."""
    out = product(a, b, bits, up=kind != LOWER_P)
    if _HAS_ATOM[kind] and (a.atom or b.atom):
        out.atom = _ceil_shift(a.atom * (b.total + b.atom) + a.total * b.atom, bits)
    return out


def _window(array, lo, hi, kind):
    """The packed ``array`` restricted to the indices [lo, hi] by the kind's rules."""
    if lo > hi:
        raise ValueError(f"empty window [{lo}, {hi}]")
    n, width, length = array.length, array.width, hi - lo + 1
    start = lo - array.offset                      # the position of lo in the array
    a, b = min(max(start, 0), n), min(max(hi - array.offset + 1, 0), n)
    below, above = array.field_sum(0, a), array.field_sum(b, n)
    kept = array.cut(a, b) << (width * (a - start)) if a < b else 0
    total, top, atom = array.total - below - above, array.top, array.atom
    if kind == LOWER_P:
        kept += above << (width * (length - 1))
        total, top = total + above, top + above
    else:
        kept += below
        total, top, atom = total + below, top + below, atom + above
    return Packed(lo, kept, length, width, atom, total, top)


def multiply(a, b, kind, bits, square=False):
    """The product of two arrays of ``kind`` at the fixed point 2^-bits, rounded the kind's way."""
    packed = a.packed()
    return Array.from_packed(_multiply(packed, packed if square else b.packed(), kind, bits))


def window(array, lo, hi, kind):
    """``array`` restricted to the indices [lo, hi] by the kind's rules (lo <= hi)."""
    return Array.from_packed(_window(array.packed(), lo, hi, kind))


# ---- choosing windows -------------------------------------------------------------

def trim(array, allowance):
    """(k_lo, k_hi): drop ends of the packed ``array`` while each end's dropped total stays <= allowance.

    Only the ends are read: blocks of growing size are summed packed, and the one
    where the running total passes the allowance is unpacked.
    """
    n = array.length
    k_lo = _first_past(array, allowance, reverse=False)
    k_hi = _first_past(array, allowance, reverse=True)
    k_lo = max(n - 1, 0) if k_lo is None else k_lo
    k_hi = n - 1 if k_hi is None else n - 1 - k_hi
    if k_lo > k_hi:
        values = array.values()
        k_lo = k_hi = max(range(n), key=values.__getitem__)
    return k_lo, k_hi


def _first_past(array, allowance, reverse):
    """The first k (counted from the chosen end) whose running total exceeds ``allowance``; None if none.

    Blocks of 1024, 4096, … entries are summed packed until one passes the
    allowance; that block is halved (packed sums again) down to 1024 entries,
    and only those are unpacked.
    """
    n = array.length

    def span(done, count):          # the positions of ``count`` entries after the first ``done`` from the end
        return (n - done - count, n - done) if reverse else (done, done + count)

    done, count, running = 0, min(_BLOCK, n), 0
    while running + (block := array.field_sum(*span(done, count))) <= allowance:
        running, done = running + block, done + count
        if done >= n:
            return None
        count = min(4 * count, n - done)
    while count > _BLOCK:
        half = count // 2
        if running + (part := array.field_sum(*span(done, half))) > allowance:
            count = half
        else:
            running, done, count = running + part, done + half, count - half
    entries = array.values(*span(done, count))
    for k, total in enumerate(accumulate(reversed(entries) if reverse else entries, initial=running)):
        if total > allowance:
            return done + k - 1
    raise AssertionError("the block's sum passed the allowance")


_BLOCK = 1024


class Windows:
    """A window source: ``choose`` picks windows from the arrays, or ``replay`` a recorded list."""

    def __init__(self, choose=None, recorded=None):
        self.choose, self.recorded, self.used = choose, None if recorded is None else list(recorded), []

    def next(self, arrays, weight):
        if self.recorded is not None:
            lo, hi = self.recorded[len(self.used)]
        else:
            lo, hi = self.choose(arrays, weight)
        self.used.append((int(lo), int(hi)))
        return lo, hi


def _step(arrays, others, kinds, bits, windows, weight):
    """One product per kind (``others is arrays`` squares), then one window chosen from the products."""
    out = [_multiply(a, a if others is arrays else b, k, s) for a, b, k, s in zip(arrays, others, kinds, bits)]
    lo, hi = windows.next(out, weight)
    return [_window(a, lo, hi, k) for a, k in zip(out, kinds)]


def power(base, steps, kinds, bits, windows, progress=None, regrids=()):
    """The ``steps``-fold power of the arrays ``base`` (one per kind), windowed after every product.

    ``windows.next(arrays, weight)`` is called with weight = p/steps for the
    product that makes power p (the share of the final mass it stands for),
    on the packed products (:class:`producer.pld.convolution.Packed`).
    After the window of product ``g.after`` of each :class:`producer.pld.regrid.Regrid`
    ``g``, the arrays and the base move to the grid ``g.factor`` times coarser.
    """
    arrays, _ = _power([array.packed() for array in base], steps, steps, kinds, bits, windows, progress, regrids)
    return [Array.from_packed(array) for array in arrays]


def _power(base, steps, total, kinds, bits, windows, progress, regrids):
    """(the packed ``steps``-fold power, the base after its regrids); weights p/``total``."""
    arrays, exponent, made, pending = list(base), 1, 0, {g.after: g for g in regrids}
    for bit in bin(steps)[3:]:
        exponent *= 2
        arrays = _step(arrays, arrays, kinds, bits, windows, exponent / total)
        arrays, base, made = *_coarsened(pending.pop(made, None), arrays, base, kinds), made + 1
        if bit == "1":
            exponent += 1
            base = [b if b.width == a.width else b.repacked(a.width) for a, b in zip(arrays, base)]
            arrays = _step(arrays, base, kinds, bits, windows, exponent / total)
            arrays, base, made = *_coarsened(pending.pop(made, None), arrays, base, kinds), made + 1
        if progress is not None:
            progress(exponent, total, arrays[0].length)
    if pending:
        raise ValueError(f"a regrid after product {min(pending)} of a power of {steps} steps ({made} products)")
    return arrays, base


def split_power(body, tail, steps, kinds, bits, windows, split, progress=None, regrids=()):
    """(body^T, the cross term) of :mod:`producer.pld.split`, as lists of arrays (one per kind).

    body^T: the power of ``steps`` − 1 steps (windows and ``regrids`` as :func:`power`), then one product by the
    base and its window.  The cross term: that (T−1)-power regridded by ``split``, times ``tail`` regridded by
    every regrid and then by ``split`` (a coarse split's tail is on that grid already); no window (None when the
    tail holds no mass).
    """
    base = [array.packed() for array in body]
    arrays, base = _power(base, steps - 1, steps, kinds, bits, windows, progress, regrids)
    whole = _step(arrays, base, kinds, bits, windows, 1.0)
    if tail is None:
        return [Array.from_packed(array) for array in whole], None
    g = split.regrid
    coarse = [regrid(a, k == UPPER, g.factor, g.shares, g.bits) for a, k in zip(arrays, kinds)]
    parts = [array.packed() for array in tail]
    for r in (() if split.coarse else (*regrids, g)):
        parts = [regrid(t, k == UPPER, r.factor, r.shares, r.bits) for t, k in zip(parts, kinds)]
    cross = [_multiply(a, t, k, s) for a, t, k, s in zip(coarse, parts, kinds, bits)]
    return [Array.from_packed(array) for array in whole], [Array.from_packed(array) for array in cross]


def _coarsened(g, arrays, base, kinds):
    """The running arrays and the base after the regrid ``g`` (None: as they are)."""
    if g is None:
        return arrays, base
    return ([regrid(a, k == UPPER, g.factor, g.shares, g.bits) for a, k in zip(arrays, kinds)],
            [regrid(b, k == UPPER, g.factor, g.shares, g.bits) for b, k in zip(base, kinds)])


def combine(stage_arrays, kinds, bits, windows):
    """The product of the stages' powers, first stage first, windowed after each product."""
    if len(stage_arrays) == 1:          # one stage: its power as it is (no pack and unpack again)
        return list(stage_arrays[0])
    arrays = [array.packed() for array in stage_arrays[0]]
    for others in stage_arrays[1:]:
        arrays = _step(arrays, [array.packed() for array in others], kinds, bits, windows, 1.0)
    return [Array.from_packed(array) for array in arrays]


def products_of(steps):
    """How many products (and so windows) the power of ``steps`` takes."""
    return steps.bit_length() - 1 + bin(steps).count("1") - 1
