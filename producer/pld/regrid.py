"""Coarser grids during a power: the regrids of a pld recipe (docs/dpsgd.md §6, "Regrids").

The late products of a T-fold power hold laws about √T times wider than one
step's, on the step's grid.  A regrid moves every array of a chain (the
running power and the base it multiplies by) from its grid g·h to r·g·h:

- UPPER: the mass v at k = r·m + i goes to m (i = 0), or ⌈v·d_i/2^S⌉ to m and
  ⌈v·b_i/2^S⌉ to m + 1, with b_i >= 2^S·β_i, d_i >= 2^S·(1 − β_i) and
  β_i = (1 − e^{−i·g·h})/(1 − e^{−r·g·h}): the split that keeps the atom's
  tied Q-mass, so the coarse pair dominates (merging its two atoms back is
  post-processing) and rounding up only adds mass;
- LOWER_P, LOWER_Q: the mass at k goes to ⌊k/r⌋ (a nondecreasing function of
  the index sum: its threshold events are events).

Atoms are kept.  The shares are integers the certificate records (hints a
checker confirms with its own enclosures).  Which products a regrid follows
is the producer's choice (:func:`schedule`); any choice is valid.
"""

import math

from flint import arb, ctx
from gmpy2 import mpz

from producer.pld.convolution import Packed, scaled_up
from producer.sources.enclosures import to_arb

__all__ = ["Regrid", "MAX_SPACING", "SHARE_EXTRA_BITS", "GRID_RULE", "schedule", "within", "powers_made", "savings",
           "shares", "regrid", "spacing_after"]

SHARE_EXTRA_BITS = 32
"""S = K + this: each share's rounding adds at most about 2^−S of the mass it splits."""
MAX_SPACING = 1
"""No regrid makes the grid coarser than one unit of loss (the auditor checks up to 64)."""
GRID_RULE = 4.0
"""c of :func:`schedule` (measured at 2, 4 and 8: docs/benchmarks.md, "Regrids during the power, built")."""


class Regrid:
    """After product ``after`` of a stage's power, the grid times ``factor``; ``shares`` [(b_i, d_i)] over 2^bits."""

    __slots__ = ("after", "factor", "bits", "shares")

    def __init__(self, after, factor, bits, shares):
        self.after, self.factor, self.bits, self.shares = int(after), int(factor), int(bits), tuple(shares)
        if self.factor < 2 or len(self.shares) != self.factor - 1:
            raise ValueError(f"a regrid needs a factor >= 2 and factor − 1 shares: {self.factor}, {len(self.shares)}")

    def as_json(self):
        return {"after": self.after, "factor": self.factor, "share_bits": self.bits,
                "shares": [[str(int(b)), str(int(d))] for b, d in self.shares]}


def schedule(steps, rule=None, finest=None):
    """[(product index, factor)] for the power of ``steps`` (a hint: any schedule is valid), its grid factor at
    most the final one of the power of ``finest`` steps when given (a split's power of T − 1 steps ends one
    product before the power of T, and a coarser grid there widens its answer: docs/dpsgd.md §8).

    The power is made from the most significant bit of T, so the running array
    after a product stands for p steps and about T/p copies of it are in the
    result; a grid G·h there adds about (G·h)²/6 of loss variance to each.  The
    grid factor after the product that makes p is the largest power of two G
    with (2G)² <= c·p / (bit length of T): summed over the regrids (and the
    multiplications by the coarsened base) the added variance is a fraction
    of about c/4 of the connect-the-dots grid's own T·h²/6.  None follows the
    last product.
    """
    rule = GRID_RULE if rule is None else rule
    cap = math.inf if finest is None else math.prod(f for _, f in schedule(finest, rule))
    levels, out, current = max(1, steps.bit_length()), [], 1
    made = list(powers_made(steps))
    for index, exponent in enumerate(made[:-1]):
        wanted = 1
        while (4 * wanted) ** 2 <= rule * exponent / levels and 2 * wanted <= cap:
            wanted *= 2
        if wanted > current:
            out.append((index, wanted // current))
            current = wanted
    return out


def within(steps, h, finest=None):
    """[(product index, factor)]: :func:`schedule`'s regrids up to the first that would make the grid coarser than
    :data:`MAX_SPACING` (``h`` the fine grid's spacing, a rational or a float)."""
    out, spacing = [], h
    for after, factor in schedule(steps, finest=finest):
        if spacing * factor > MAX_SPACING:
            break
        out.append((after, factor))
        spacing *= factor
    return out


def savings(steps, spread, rule=None):
    """The share of a power's product work left with :func:`schedule`'s regrids (a float hint for the planner):
    Σ_j spread(p_j/T)/G_j over Σ_j spread(p_j/T), p_j the steps product j makes and G_j its inputs' grid factor,
    ``spread(share)`` the loss range of a power of share·T steps."""
    factors, current, done, total = dict(schedule(steps, rule)), 1, 0.0, 0.0
    for index, exponent in enumerate(powers_made(steps)):
        size = spread(exponent / steps)
        total, done = total + size, done + size / current
        current *= factors.get(index, 1)
    return done / total if total else 1.0


def powers_made(steps):
    """The power each product of the ``steps``-fold power makes, in order (from the most significant bit)."""
    exponent = 1
    for bit in bin(steps)[3:]:
        exponent *= 2
        yield exponent
        if bit == "1":
            exponent += 1
            yield exponent


def shares(spacing, factor, bits):
    """[(b_i, d_i)], i = 1 … factor − 1: ⌈⌉ of the upper ends of 2^bits·β_i and 2^bits·(1 − β_i) (arb).

    ``spacing`` is the current grid g·h (a rational).
    """
    out = []
    with ctx.workprec(bits + 64):
        x = to_arb(spacing)
        denominator = 1 - (-factor * x).exp()
        scale = arb(2) ** bits
        for i in range(1, factor):
            beta = (1 - (-i * x).exp()) / denominator
            out.append((_ceil_upper(beta * scale), _ceil_upper((1 - beta) * scale)))
    return out


def _ceil_upper(value):
    """An integer >= every point of the ball ``value``: its upper end (an exact number), rounded up."""
    return mpz(int(value.upper().ceil().unique_fmpz()))


def regrid(packed, up, factor, pairs=None, bits=0):
    """``packed`` (a :class:`Packed` array) on the grid ``factor`` times coarser.

    ``up``: an UPPER array (shares ``pairs`` over 2^``bits``), else a lower one
    (the mass at k to ⌊k/r⌋).  The atom is kept.
    """
    r, offset, values = factor, packed.offset, packed.values()
    first, last = offset // r, packed.last // r + (1 if up else 0)
    out = [mpz(0)] * (last - first + 1)
    for i in range(r):
        start = (i - offset) % r                   # the first position whose index has residue i
        part = values[start::r]
        if not part:
            continue
        at = (offset + start) // r - first        # its coarse position
        if not up or i == 0:
            _add(out, at, part)
            continue
        b, d = pairs[i - 1]
        _add(out, at, scaled_up(part, d, bits))
        _add(out, at + 1, scaled_up(part, b, bits))
    return Packed.from_values(out, first, packed.atom, width=max(packed.width, sum(out).bit_length() + 1))


def _add(out, at, part):
    out[at:at + len(part)] = map(mpz.__add__, out[at:at + len(part)], part)


def spacing_after(h, regrids):
    """The grid spacing after ``regrids`` (a rational h times the product of the factors)."""
    return h * math.prod(g.factor for g in regrids)
