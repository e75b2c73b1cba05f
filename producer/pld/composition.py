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
stage on, with one window after each of those products too.
"""

from itertools import accumulate

from producer.pld.convolution import product

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

    def __repr__(self):
        return f"Array(offset={self.offset}, length={len(self.values)}, atom={self.atom})"


def _ceil_shift(value, bits):
    return -((-value) >> bits)


def multiply(a, b, kind, bits, square=False):
    """The product of two arrays of ``kind`` at the fixed point 2^-bits, rounded the kind's way."""
    values = product(a.values, b.values, bits, up=kind != LOWER_P, square=square)
    atom = 0
    if _HAS_ATOM[kind] and (a.atom or b.atom):
        atom = _ceil_shift(a.atom * (sum(b.values) + b.atom) + sum(a.values) * b.atom, bits)
    return Array(a.offset + b.offset, values, atom)


def window(array, lo, hi, kind):
    """``array`` restricted to the indices [lo, hi] by the kind's rules (lo <= hi)."""
    if lo > hi:
        raise ValueError(f"empty window [{lo}, {hi}]")
    values, start = array.values, array.offset
    below = sum(values[:max(0, min(len(values), lo - start))])
    above = sum(values[max(0, hi - start + 1):])
    kept = [0] * (hi - lo + 1)
    first = max(lo, start)
    stop = min(hi, array.last)
    if first <= stop:
        kept[first - lo:stop - lo + 1] = values[first - start:stop - start + 1]
    atom = array.atom
    if kind == LOWER_P:
        kept[-1] += above
    else:
        kept[0] += below
        atom += above
    return Array(lo, kept, atom)


# ---- choosing windows -------------------------------------------------------------

def trim(values, allowance):
    """(k_lo, k_hi): drop ends of ``values`` while each end's dropped total stays <= allowance."""
    k_lo = next((k for k, total in enumerate(accumulate(values)) if total > allowance), max(len(values) - 1, 0))
    k_hi = len(values) - 1
    for k, total in enumerate(accumulate(reversed(values))):
        if total > allowance:
            k_hi = len(values) - 1 - k
            break
    if k_lo > k_hi:
        k_lo = k_hi = max(range(len(values)), key=values.__getitem__)
    return k_lo, k_hi


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


def _step(arrays, others, kinds, bits, windows, weight, square):
    out = [multiply(a, b, k, s, square=square) for a, b, k, s in zip(arrays, others, kinds, bits)]
    lo, hi = windows.next(out, weight)
    return [window(a, lo, hi, k) for a, k in zip(out, kinds)]


def power(base, steps, kinds, bits, windows, progress=None):
    """The ``steps``-fold power of the arrays ``base`` (one per kind), windowed after every product.

    ``windows.next(arrays, weight)`` is called with weight = p/steps for the
    product that makes power p (the share of the final mass it stands for).
    """
    arrays, exponent = list(base), 1
    for bit in bin(steps)[3:]:
        exponent *= 2
        arrays = _step(arrays, arrays, kinds, bits, windows, exponent / steps, True)
        if bit == "1":
            exponent += 1
            arrays = _step(arrays, base, kinds, bits, windows, exponent / steps, False)
        if progress is not None:
            progress(exponent, steps, len(arrays[0].values))
    return arrays


def combine(stage_arrays, kinds, bits, windows):
    """The product of the stages' powers, first stage first, windowed after each product."""
    arrays = list(stage_arrays[0])
    for others in stage_arrays[1:]:
        arrays = _step(arrays, others, kinds, bits, windows, 1.0, False)
    return arrays


def products_of(steps):
    """How many products (and so windows) the power of ``steps`` takes."""
    return steps.bit_length() - 1 + bin(steps).count("1") - 1
