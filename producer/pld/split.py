"""The single step split by its number of tail steps (docs/dpsgd.md §6, "The split by tail steps").

Every chain keeps the single step's far tail: any of the T copies of a step
may be the one whose loss is there, so its first products are as long as the
step's whole range.  Label each entry of the single step's arrays *body*
(indices a … b of its order) or *tail* (the rest); the upper atom at +∞ is
body, the lower Q-array's atom X goes with the part holding that array's last
index (X is the Q-mass of its top bucket and beyond).  The T-fold product is
the sum over the 2^T label patterns, and the hockey-stick divergence adds over
labelled parts (upper: the labels refine the outcome, which only raises it;
lower: they are a function of the bucket index).  Grouping the patterns by the
number k of tail steps, with m the tail's and b the body's P-mass of the
upper array,

    F ≤ F(body^T) + T·F(body^(T−1) ⊗ tail) + C(T, 2)·m²·(b + m)^(T−2),
    L ≥ L(body^T) + T·L(body^(T−1) ⊗ tail),

the patterns with k ≥ 2 bounded by their P-mass (Σ_{k≥2} C(T,k)·m^k·b^(T−k)
is the second-order remainder of (b + t)^T at t = m).  The chains compose the
body only: the power of T − 1 steps, then one product by the base.  The
cross term holds little mass, so it is composed coarse: the (T−1)-power
regridded by the split's factor r, the tail by every regrid of the power (as
the base is) and then by r, and one product without a window.
"""

import math
from fractions import Fraction

from gmpy2 import mpq

from producer.pld.regrid import Regrid, shares
from producer.sources.enclosures import working_precision

__all__ = ["Split", "SplitUpper", "SplitLower", "TAIL_SHARE", "FACTOR", "allowance", "choose", "cut", "remainder",
           "body_of", "tail_of"]

TAIL_SHARE = 4
"""The tail's P-mass m is chosen with C(T, 2)·m² <= τ/this (τ the plan's truncation mass)."""
FACTOR = 4
"""r: the cross term's grid is this many times the chains' final grid (measured: docs/benchmarks.md)."""
HINT_BITS = 64
"""The working precision of :func:`cut`'s tail masses (a hint)."""


def allowance(tau, steps):
    """The tail's P-mass m with C(T, 2)·m² = τ/:data:`TAIL_SHARE` (a float, a hint)."""
    return math.sqrt(tau / TAIL_SHARE / (steps * (steps - 1) / 2))


class Split:
    """Each order's body [a, b] (``body`` {order: (a, b)}) and the cross term's regrid (``factor``, shares);
    ``coarse``: the tail's masses are the step's on the cross term's grid (:func:`cut`), not cut from its arrays."""

    __slots__ = ("body", "regrid", "coarse")

    def __init__(self, body, regrid, coarse=False):
        self.body, self.regrid = {o: (int(a), int(b)) for o, (a, b) in body.items()}, regrid
        self.coarse = bool(coarse)
        if any(a > b for a, b in self.body.values()):
            raise ValueError(f"a body needs a <= b: {self.body}")

    @classmethod
    def from_spacing(cls, body, spacing, factor, bits, coarse=False):
        """The split whose cross term is regridded by ``factor`` from the chains' final grid ``spacing``."""
        return cls(body, Regrid(0, factor, bits, shares(spacing, factor, bits)), coarse)

    @property
    def factor(self):
        return self.regrid.factor

    def as_json(self, names):
        out = self.regrid.as_json()
        del out["after"]
        out["body"] = {names[o]: list(ab) for o, ab in self.body.items()}
        if self.coarse:
            out["coarse_tail"] = True
        return out


def cut(law, h, lo, hi, ratio, allowance):
    """c: the least multiple of ``ratio`` in (lo, hi) whose forward losses >= c·h hold a P-mass of at most
    ``allowance`` by the law's tail (a float hint: the remainder is computed from the arrays), or None.

    The labels of a coarse tail are body {ℓ < c·h} and tail {ℓ >= c·h} of the true loss: a function of the
    outcome, as the index labels are, and the backward order's tail is the same outcomes (its P-mass the
    forward Q-mass there, which is smaller)."""
    def heavy(k):
        with working_precision(HINT_BITS):
            return float(law.upper_tail(mpq(k * ratio) * h)[0].mid()) > allowance
    low, high = lo // ratio + 1, -(-hi // ratio) - 1     # the multiples of ratio strictly inside (lo, hi)
    if low > high or heavy(high):
        return None
    while low < high:
        mid = (low + high) // 2
        low, high = (mid + 1, high) if heavy(mid) else (low, mid)
    return low * ratio


def choose(array, bits, allowance, forward):
    """(a, b): the body of a single-step UPPER array, its tail the entries of the far end (the top in the forward
    order, the bottom in the backward one) whose mass stays at most ``allowance`` (a float, a hint)."""
    values, limit, run = array.values, allowance * 2.0 ** bits, 0
    if forward:
        stop = len(values)
        while stop > 1 and run + values[stop - 1] <= limit:
            run, stop = run + values[stop - 1], stop - 1
        return array.offset, array.offset + stop - 1
    start = 0
    while start < len(values) - 1 and run + values[start] <= limit:
        run, start = run + values[start], start + 1
    return array.offset + start, array.last


def body_of(values, offset, atom, body, atom_to_body):
    """(offset, values, atom) of the entries with indices in ``body`` (None when there is none)."""
    a, b = max(body[0], offset), min(body[1], offset + len(values) - 1)
    if a > b:
        return None
    return a, values[a - offset:b - offset + 1], atom if atom_to_body else 0


def tail_of(values, offset, atom, body, atom_to_body):
    """(offset, values, atom) of the entries outside ``body`` (zeros inside); one zero entry when it has none."""
    a, b = max(body[0], offset), min(body[1], offset + len(values) - 1)
    kept = [0 if a <= offset + k <= b else v for k, v in enumerate(values)]
    nonzero = [k for k, v in enumerate(kept) if v] or [len(values) - 1]
    return offset + nonzero[0], kept[nonzero[0]:nonzero[-1] + 1], 0 if atom_to_body else atom


def remainder(steps, tail, total, bits):
    """An upper end of Σ_{k≥2} C(T,k)·m^k·b^(T−k): C(T,2)·m²·(1 + 2·(T−2)·x), m = tail/2^K and x the excess of the
    upper array's total over 2^K (its b + m = 1 + x); None when (T − 2)·x > 1 (the bound is not proved)."""
    m, x = Fraction(tail, 1 << bits), Fraction(max(0, total - (1 << bits)), 1 << bits)
    if (steps - 2) * x > 1:
        return None
    return Fraction(steps * (steps - 1), 2) * m * m * (1 + 2 * (steps - 2) * x)


class SplitUpper:
    """F of a split order: F(body^T) + T·F(cross term) + :func:`remainder`."""

    __slots__ = ("profiles", "steps", "remainder")

    def __init__(self, profiles, steps, remainder):
        self.profiles, self.steps, self.remainder = profiles, steps, mpq(remainder)

    def value(self, epsilon):
        whole, *cross = self.profiles
        return whole.value(epsilon) + sum(self.steps * c.value(epsilon) for c in cross) + self.remainder


class SplitLower:
    """L of a split order: L(body^T) + T·L(cross term), each part's event chosen on its own."""

    __slots__ = ("profiles", "steps")

    def __init__(self, profiles, steps):
        self.profiles, self.steps = profiles, steps

    def value(self, epsilon):
        whole, *cross = self.profiles
        return whole.value(epsilon) + sum(self.steps * c.value(epsilon) for c in cross)
