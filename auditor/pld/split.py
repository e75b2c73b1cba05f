"""The split of the single step by its number of tail steps (docs/dpsgd.md §6, The split by tail steps).

``discretisation.split`` {"body": {order: [a, b]}, "factor": r, "share_bits": S, "shares": [[b_i, d_i], ...]} (one
stage, T >= 2) labels each entry of an order's single-step arrays *body* (index in [a, b]) or *tail* (the rest).
The upper atom (+∞) is the body's; the lower atom X (the Q-mass of the top bucket and beyond) goes with the label
of the arrays' last index; P_L has no atom.  The T-fold product splits into the 2^T label patterns and the
hockey-stick divergence adds over labelled parts (upper side: the labels refine the outcome, so it only grows;
lower side: they are a function of the bucket indices, so it is unchanged).  Grouping the patterns by their number
k of tail steps:

    upper:  δ(ε) <= F(W0) + T·F(W1) + B2,        lower:  δ(ε) >= L(W0) + T·L(W1)

W0 the body composed (the power of T − 1 steps, its windows and regrids as without a split, then one more product
by the base, windowed by the chain's last window), W1 that power coarsened by the split (the regrid rule with the
split's shares, on the final grid G·h) times the tail coarsened by every regrid and then by the split, not
windowed, on the grid G·r·h.  The patterns with k >= 2 are bounded by their P-mass, Σ_{k>=2} C(T, k)·m^k·b^{T−k}
<= C(T, 2)·m²·(b + m)^{T−2} (Taylor's remainder of (b + t)^T), with m the tail's upper mass and b + m <= 1 + x the
whole single step's (x its rounding excess over 1), and (1 + x)^{T−2} <= e^{(T−2)x} <= 1 + 2(T−2)·x when
(T−2)·x <= 1: B2 = T(T−1)/2·m²·(1 + 2(T−2)·x).  Beyond that B2 is not established (the order's upper bounds
establish nothing: its claims FAIL naming the split).  The lower side may drop every pattern with k >= 2 (its
events exclude them), and the events of W0 and W1 are chosen separately (their union is one event).
"""

from fractions import Fraction
from functools import partial
from typing import NamedTuple

from auditor import common
from auditor.certificate import Malformed
from auditor.pld import answer, composition, regrid
from auditor.pld.composition import LOWER_P, LOWER_Q, UPPER, Array

__all__ = ["Split", "read", "order_range", "sizes", "divide", "chain", "remainder", "bounds", "Upper", "Lower",
           "Unestablished"]


class Split(NamedTuple):
    """The split: ``body`` {order: (a, b)} and ``grid``, the coarsening of the cross term (a :class:`.regrid.Regrid`
    whose ``after`` is None and whose pointer is the split's)."""

    body: dict
    grid: regrid.Regrid
    pointer: str


def order_range(stage, names, order):
    """(LO, HI): the indices of ``order``'s single-step arrays (the forward order's [lo, hi], the backward's
    [−hi, −lo])."""
    return (stage.lo, stage.hi) if order == names[0] else (-stage.hi, -stage.lo)


def read(value, stages, names, pointer):
    """The split of ``discretisation.split`` (None: none), checked for shape (MALFORMED): one stage, T >= 2, each
    order's body a <= b meeting its single-step range, and the shares as a regrid's (:func:`.regrid.read_shares`)."""
    if value is None:
        return None
    if len(stages) != 1:
        raise Malformed(f"{pointer}: a split with {len(stages)} stages (only the power of a single stage splits)")
    stage = stages[0]
    if stage.steps < 2:
        raise Malformed(f"{pointer}: a split of T = {common.magnitude(stage.steps)} steps (needs T >= 2)")
    body = {}
    for order in names:
        at = f"{pointer}/body/{order}"
        a, b = (common.integer(value["body"][order][i], f"{at}/{i}") for i in (0, 1))
        LO, HI = order_range(stage, names, order)
        if a > b:
            raise Malformed(f"{at}: body [{common.magnitude(a)}, {common.magnitude(b)}] has a > b")
        if b < LO or a > HI:
            raise Malformed(f"{at}: body [{common.magnitude(a)}, {common.magnitude(b)}] misses the single step's "
                            f"indices [{LO}, {HI}]")
        body[order] = (a, b)
    return Split(body, regrid.Regrid(None, *regrid.read_shares(value, pointer), pointer), pointer)


def sizes(split, stage, names, order):
    """(body length, tail length) of ``order``'s single-step arrays: the body clipped to [LO, HI]; the tail is one
    array from its first index to its last (the whole range when the body lies strictly inside it)."""
    (a, b), (LO, HI) = split.body[order], order_range(stage, names, order)
    a, b = max(a, LO), min(b, HI)
    n = HI - LO + 1
    if a == LO and b == HI:
        return n, 0
    return b - a + 1, (n if LO < a and b < HI else n - (b - a + 1))


def divide(array, body, atom_with_body):
    """(body, tail) of a single-step ``array``: the entries with index in ``body`` (clipped), and the others on one
    array (zeros where the body lies; None when there are none); the atom goes with the body or the tail."""
    LO, values = array.offset, array.values
    HI = LO + len(values) - 1
    a, b = max(body[0], LO), min(body[1], HI)
    kept = Array(a, values[a - LO:b - LO + 1], array.atom if atom_with_body else 0)
    if a == LO and b == HI:
        return kept, None
    first, last = (LO if a > LO else b + 1), (HI if b < HI else a - 1)
    rest = values[first - LO:last - LO + 1]
    rest[max(a, first) - first:min(b, last) - first + 1] = [0] * max(0, min(b, last) - max(a, first) + 1)
    return kept, Array(first, rest, 0 if atom_with_body else array.atom)


def _coarsened(array, kind, grids):
    for rg in grids:
        array = regrid.coarsen(array, kind, rg)
    return array


def chain(body, tail, steps, windows, kind, scale, regrids, grid):
    """(W0, W1) of one chain kind (module docstring); W1 None without a tail."""
    coarse = {rg.after: partial(regrid.coarsen, kind=kind, regrid=rg) for rg in regrids}
    power = composition.power(body, steps - 1, windows[:-1], kind, scale, coarse)
    base = _coarsened(body, kind, regrids)      # the base the power ended with
    whole = composition.window(composition.product(power, base, kind, scale), *windows[-1], kind)
    if tail is None:
        return whole, None
    cross = composition.product(regrid.coarsen(power, kind, grid), _coarsened(tail, kind, (*regrids, grid)),
                                kind, scale)
    return whole, cross


def remainder(steps, upper, atom, tail, K):
    """B2 of the module docstring (a rational) from the order's single-step upper array (``upper``, ``atom``) and
    its tail (None: empty); None when (T − 2)·x > 1 (B2 not established)."""
    m = Fraction(sum(tail.values) if tail else 0, 1 << K)
    x = Fraction(max(0, sum(upper) + atom - (1 << K)), 1 << K)
    if (steps - 2) * x > 1:
        return None
    return Fraction(steps * (steps - 1), 2) * m * m * (1 + 2 * (steps - 2) * x)


class Upper:
    """F⁺(W0) + T·F⁺(W1) + B2 (the interface of :class:`.answer.UpperTail`)."""

    __slots__ = ("body", "cross", "steps", "rest")

    def __init__(self, body, cross, steps, rest):
        self.body, self.cross, self.steps, self.rest = body, cross, steps, rest

    def bound(self, epsilon):
        cross = self.cross.bound(epsilon) if self.cross is not None else 0
        return self.body.bound(epsilon) + self.steps * cross + self.rest


class Lower:
    """L(W0) + T·L(W1) (the interface of :class:`.answer.LowerEvents`)."""

    __slots__ = ("body", "cross", "steps")

    def __init__(self, body, cross, steps):
        self.body, self.cross, self.steps = body, cross, steps

    def bound(self, lam):
        cross = self.cross.bound(lam) if self.cross is not None else 0
        return self.body.bound(lam) + self.steps * cross


class Unestablished:
    """The upper bound δ(ε) <= 1 (always true; it proves no claim below 1) of an order whose B2 is not
    established."""

    __slots__ = ()

    def bound(self, epsilon):
        return Fraction(1)


def bounds(one, steps, split, chains, regrids, scales, N, value_bits):
    """(upper, lower or None) of one order (``one`` its :class:`.masses.SingleStep`), ``chains`` its {"upper",
    "lower"} window lists, ``scales`` (K, K′); upper is :class:`Unestablished` when B2 is not established."""
    K, K_q = scales
    body = split.body[one.order]
    G = regrid.factors(regrids)
    windows = chains["upper"][0][0]
    U_body, U_tail = divide(Array(one.LO, one.upper, one.upper_atom), body, True)
    rest = remainder(steps, one.upper, one.upper_atom, U_tail, K)
    W0, W1 = chain(U_body, U_tail, steps, windows, UPPER, K, regrids, split.grid)
    F0 = answer.UpperTail(W0, K, N, value_bits + len(W0.values).bit_length(), G)
    F1 = None if W1 is None else answer.UpperTail(W1, K, N, value_bits + steps.bit_length()
                                                   + len(W1.values).bit_length(), G * split.grid.factor)
    upper = Unestablished() if rest is None else Upper(F0, F1, steps, rest)
    if chains["lower"] is None:
        return upper, None
    windows = chains["lower"][0][0]
    top = body[1] >= one.HI       # X goes with the label of the last index
    P0, P1 = chain(*divide(Array(one.LO, one.lower_p), body, True), steps, windows, LOWER_P, K, regrids, split.grid)
    Q0, Q1 = chain(*divide(Array(one.LO, one.lower_q, one.lower_atom), body, top), steps, windows, LOWER_Q, K_q,
                   regrids, split.grid)
    L1 = None if P1 is None else answer.LowerEvents(P1, Q1, K, K_q)
    return upper, Lower(answer.LowerEvents(P0, Q0, K, K_q), L1, steps)
