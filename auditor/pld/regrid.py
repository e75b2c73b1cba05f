"""Regrids: a power's arrays moved to a coarser grid during the power (docs/dpsgd.md §6, Regrids).

A regrid {"after": j, "factor": r, "share_bits": S, "shares": [[b_1, d_1], ..., [b_{r−1}, d_{r−1}]]} moves, after
the window of product j of the one stage's power, every array of every chain and the base of the power from the
grid g·h to r·g·h (g the product of the earlier factors).  With k = r·m + i, 0 <= i < r (floor division):

=========  ===============================================================  =====================
kind       the mass v at index k goes to                                     indices of the result
=========  ===============================================================  =====================
UPPER      i = 0: v to m; i > 0: ⌈v·d_i/2^S⌉ to m and ⌈v·b_i/2^S⌉ to m + 1  ⌊lo/r⌋ ... ⌊hi/r⌋ + 1
LOWER_P/Q  v to m (exact sums)                                               ⌊lo/r⌋ ... ⌊hi/r⌋
=========  ===============================================================  =====================

and the atom (+∞, or X) is kept.  Why this is sound.  *Upper*: with β_i = (1 − e^{−igh})/(1 − e^{−rgh}), an atom at
(rm + i)·gh of P-mass v and tied Q-mass v·e^{−(rm+i)gh} is the merger of P-masses (1 − β_i)·v at m·rgh and β_i·v
at (m + 1)·rgh whose tied Q-masses add up to the atom's own (that is what β_i solves); merging is post-processing,
so the coarse pair dominates the fine one and is again tied, on the grid r·g·h.  The map is monotone for ⪰ (the
share of index k landing at or above m, 0, β_1, ..., β_{r−1}, then 1, grows with k: by Abel summation every coarse
tail sum is a nonnegative combination of fine ones), and shares b_i >= 2^S·β_i, d_i >= 2^S·(1 − β_i) and the
ceilings only add mass: the chain stays ⪰ the exact one (docs/dpsgd.md §4 (iv), (v)).  *Lower*: k ↦ ⌊k/r⌋ is
nondecreasing, so the coarse index sum is a function of the outputs and its tail at m is the fine tail at r·m: the
events are events of docs/dpsgd.md §5, and P_L ⪯, Q_L + X ⪰ carry over.

The shares are hints, confirmed by :func:`check_shares` with the auditor's own e^x enclosures.  With y = e^{−gh},
β_i = Σ_{j<i} y^j / Σ_{j<r} y^j and 1 − β_i = Σ_{i<=j<r} y^j / Σ_{j<r} y^j: sums of positive powers, increasing
in y, so an enclosure y⁻ <= y <= y⁺ encloses each sum by the powers of y⁻ rounded down and of y⁺ rounded up, with
no cancellation.  The inequalities are strict one way or the other: y is transcendental (Lindemann), and a rational
β_i = c would make it a root of the nonzero polynomial 1 − y^i − c·(1 − y^r).  So enough precision decides each;
one still open at :data:`SHARE_GUARD` bits beyond S, and again at four times that, is not established: the
recipe does not establish its claims (FAIL), as is a share that is false.
"""

from fractions import Fraction
from operator import add
from typing import NamedTuple

from auditor import common
from auditor.certificate import Malformed
from auditor.decide import OPEN, PROVED, RETRY_FACTOR, state
from auditor.enclosures import exp_bounds
from auditor.pld.composition import UPPER, products_in_power
from auditor.rationals import ceil_div, read_integer

__all__ = ["Regrid", "MAX_FACTOR", "MAX_SHARE_BITS", "SHARE_GUARD", "read", "read_shares", "coarsen", "check_shares",
           "excess", "factors"]

MAX_FACTOR, MAX_SHARE_BITS = 64, 4096
"""The schema's bounds of r and S."""
SHARE_GUARD = 128
"""Bits beyond S of the first enclosure of the shares (the second: :data:`auditor.decide.RETRY_FACTOR` times)."""


class Regrid(NamedTuple):
    """One regrid: after product ``after``, the grid times ``factor``; ``shares`` [(b_i, d_i)] over 2^``bits``."""

    after: int
    factor: int
    bits: int
    shares: tuple
    pointer: str


def read(value, stages, pointer, steps=None):
    """The regrids of ``discretisation.regrids`` (None: none) for the stages ``[Stage]``, checked for shape
    (MALFORMED): one stage; ``after`` strictly increasing, below the number of products of its power (of ``steps``
    steps, T by default; T − 1 under a split); factor and share bits within the schema's bounds; r − 1 shares,
    each integer at most 2^S."""
    if value is None:
        return ()
    if len(stages) != 1:
        raise Malformed(f"{pointer}: regrids with {len(stages)} stages (only the power of a single stage regrids)")
    steps = stages[0].steps if steps is None else steps
    products, regrids = products_in_power(steps), []
    for j, item in enumerate(value):
        at = f"{pointer}/{j}"
        after = common.integer(item["after"], at + "/after", 0)
        if regrids and after <= regrids[-1].after:
            raise Malformed(f"{at}/after: {common.magnitude(after)} does not exceed the previous regrid's "
                            f"{regrids[-1].after} (strictly increasing)")
        if after >= products:
            raise Malformed(f"{at}/after: product {common.magnitude(after)}, but the power of "
                            f"{'T' if steps == stages[0].steps else 'T − 1'} = {steps} has {products} products")
        regrids.append(Regrid(after, *read_shares(item, at), at))
    return tuple(regrids)


def read_shares(item, at):
    """(r, S, shares) of a regrid-like ``item`` at ``at``: factor and share bits within the schema's bounds, r − 1
    shares, each integer at most 2^S (MALFORMED otherwise)."""
    factor = _at_most(common.integer(item["factor"], at + "/factor", 2), MAX_FACTOR, at + "/factor")
    bits = _at_most(common.integer(item["share_bits"], at + "/share_bits", 8), MAX_SHARE_BITS, at + "/share_bits")
    if len(item["shares"]) != factor - 1:
        raise Malformed(f"{at}/shares: {len(item['shares'])} shares for the factor {factor} (need {factor - 1})")
    shares = []
    for i, pair in enumerate(item["shares"]):
        if not isinstance(pair, list) or len(pair) != 2:
            raise Malformed(f"{at}/shares/{i}: expected a pair [b, d]")
        shares.append(tuple(_at_most(_share(x, f"{at}/shares/{i}/{n}"), 1 << bits, f"{at}/shares/{i}/{n}",
                                     "2^share_bits") for n, x in enumerate(pair)))
    return factor, bits, tuple(shares)


def _share(text, pointer):
    """A share: a nonnegative integer written as a string (an exact number, docs/certificates.md)."""
    value = read_integer(text, pointer)
    if value < 0:
        raise Malformed(f"{pointer}: {common.magnitude(value)} is below 0")
    return value


def _at_most(value, limit, pointer, text=None):
    if value > limit:
        raise Malformed(f"{pointer}: {common.magnitude(value)} exceeds {text or limit}")
    return value


def excess(regrid, scale):
    """Units over 2^scale that the shares' excess over 2^S, max_i (b_i + d_i) − 2^S, adds to an upper array whose
    total is below 2^(scale+1) (the ceilings add at most 2 units an entry besides)."""
    over = max(max(b + d for b, d in regrid.shares) - (1 << regrid.bits), 0)
    return ceil_div(over << (scale + 1), 1 << regrid.bits)


def factors(regrids):
    """G, the product of all factors: the final arrays are on the grid G·h."""
    g = 1
    for rg in regrids:
        g *= rg.factor
    return g


def coarsen(array, kind, regrid):
    """``array`` (:class:`auditor.pld.composition.Array` of ``kind``) on the grid ``regrid.factor`` times coarser
    (the table of the module docstring): each residue class i of the indices k = r·m + i is one slice of the list,
    its masses (scaled by d_i and b_i and rounded up, for UPPER and i > 0) added at the positions of their m (and
    m + 1)."""
    r, S, values, offset = regrid.factor, regrid.bits, array.values, array.offset
    upper = kind == UPPER
    first = offset // r
    out = [0] * ((offset + len(values) - 1) // r - first + 1 + upper)
    low = (1 << S) - 1
    for i in range(r):
        start = (i - offset) % r                  # the first position of an index k ≡ i (mod r)
        part = values[start::r]
        at = (offset + start) // r - first        # the position of that index's m in the result
        moves = [(part, at)]
        if upper and i > 0:
            b, d = regrid.shares[i - 1]
            moves = [([(v * d + low) >> S for v in part], at), ([(v * b + low) >> S for v in part], at + 1)]
        for masses, at in moves:
            out[at:at + len(masses)] = map(add, out[at:at + len(masses)], masses)
    return type(array)(first, out, array.atom)


def _sums(x, r, bits):
    """Lower and upper bounds of Σ_{j<i} y^j for i = 0 ... r, y = e^{−x}: integers over 2^bits (the powers' lower
    ends rounded down, upper ends up)."""
    lo, hi = exp_bounds(-x, bits + 8)
    ends = [(lo.numerator << bits) // lo.denominator, ceil_div(hi.numerator << bits, hi.denominator)]
    sums = []
    for y, up in zip(ends, (0, 1)):
        power, total, out = 1 << bits, 0, [0]
        for _ in range(r):
            total += power
            out.append(total)
            power = (power * y + up * ((1 << bits) - 1)) >> bits
        sums.append(out)
    return sums


def check_shares(regrids, N, report):
    """Record, for every share, b_i >= 2^S·β_i or d_i >= 2^S·(1 − β_i) (a check when proved, a failure naming the
    share when false, or still open at the second precision); True when every one is proved."""
    g, ok = 1, True
    for rg in regrids:
        r, S, x = rg.factor, rg.bits, Fraction(g, N)
        decided = {}
        for bits in (S + SHARE_GUARD, RETRY_FACTOR * (S + SHARE_GUARD)):
            lo, hi = _sums(x, r, bits)
            for i, pair in enumerate(rg.shares, 1):
                # b_i against Σ_{j<i} y^j, d_i against Σ_{i<=j<r} y^j, both over Σ_{j<r} y^j
                parts = ((lo[i], hi[i]), (lo[r] - lo[i], hi[r] - hi[i]))
                for n, (value, (low, high)) in enumerate(zip(pair, parts)):
                    if decided.get((i, n), (OPEN,))[0] == OPEN:
                        decided[i, n] = (state(value * lo[r] >= high << S, value * hi[r] < low << S),
                                         ceil_div(low << S, hi[r]))
            if all(d != OPEN for d, _ in decided.values()):
                break
        for (i, n), (decision, need) in decided.items():
            value = rg.shares[i - 1][n]
            what = (f"{'bd'[n]}_{i} >= 2^{S}·{('β', '(1 − β)')[n]}_{i} with β_{i} = (1 − e^(−{i}·x))/(1 − e^(−{r}·x)), "
                    f"x = {x}")
            pointer = f"{rg.pointer}/shares/{i - 1}/{n}"
            if decision == OPEN:
                report.not_established(pointer, value, f"undecided at {RETRY_FACTOR * (S + SHARE_GUARD)} bits", what)
            else:
                report.check(decision == PROVED, pointer, value, f"at least {need}",
                             f"the share is below its bound: {what} is false (the regrid would lose mass)")
            ok = ok and decision == PROVED
        g *= r
    return ok
