"""The split of the single step by its number of tail steps (docs/dpsgd.md §6, The split by tail steps).

``discretisation.split`` {"body": {order: [a, b]}, "factor": r, "share_bits": S, "shares": [[b_i, d_i], ...]} (one
stage, T >= 2) labels each entry of an order's single-step arrays *body* (index in [a, b]) or *tail* (the rest).
The upper atom (+∞) is the body's; the lower atom X (the Q-mass of the top bucket and beyond) goes with the label
of the arrays' last index; P_L has no atom.  The T-fold product splits into the 2^T label patterns and the
hockey-stick divergence adds over labelled parts (upper side: the labels refine the outcome, so it only grows;
lower side: they are a function of the bucket indices, so it is unchanged).  Grouping the patterns by their number
k of tail steps:

    upper:  δ(ε) <= F(W0) + T·F(W1) + B2,        lower:  δ(ε) >= L(W0)⁺ + T·L(W1)⁺

W0 the body composed (the power of T − 1 steps, its windows and regrids as without a split, then one more product
by the base, windowed by the chain's last window), W1 that power coarsened by the split (the regrid rule with the
split's shares, on the final grid G·h) times the tail coarsened by every regrid and then by the split, not
windowed, on the grid G·r·h.  The patterns with k >= 2 are bounded by their P-mass, Σ_{k>=2} C(T, k)·m^k·b^{T−k}
<= C(T, 2)·m²·(b + m)^{T−2} (Taylor's remainder of (b + t)^T), with m the tail's upper mass and b + m <= 1 + x the
whole single step's (x its rounding excess over 1), and (1 + x)^{T−2} <= e^{(T−2)x} <= 1 + 2(T−2)·x when
(T−2)·x <= 1: B2 = T(T−1)/2·m²·(1 + 2(T−2)·x).  Beyond that B2 is not established (the order's upper bounds
establish nothing: its claims FAIL naming the split).  The lower side may drop every pattern with k >= 2 (its
events exclude them), and the events of W0 and W1 are chosen separately (their union is one event; either may be
empty, so each part adds at least 0).

A coarse tail (``"coarse_tail": true``; body [lo, c] forward and [−c, −lo] backward, lo < c < hi, ρ = G·r dividing
N, c and hi) labels the outcomes instead, by the forward loss: body ℓ < c/N, tail ℓ >= c/N.  Each part is a
sub-probability pair with its own single step (:func:`.masses.single_step`, the other part's outcomes left out:
:func:`parts`): the body's on the grid 1/N over [lo, c], the tail's on ρ/N over [c/ρ, hi/ρ], each with its own
atoms; the tail is already on the cross term's grid, so W1 takes it as it is.  The argument above holds part by
part (connect-the-dots dominates any sub-probability pair on its own buckets, and each part's bucket index is a
function of the outcome), and with the tail's atom in m.  The fine masses of the tail are never computed.
"""

from fractions import Fraction
from functools import partial
from typing import NamedTuple

from auditor import common
from auditor.certificate import Malformed
from auditor.pld import answer, composition, masses, regrid
from auditor.pld.composition import LOWER_P, LOWER_Q, UPPER, Array

__all__ = ["Split", "read", "order_range", "sizes", "parts", "pieces", "divide", "chain", "remainder", "bounds",
           "Upper", "Lower", "Unestablished"]


class Split(NamedTuple):
    """The split: ``body`` {order: (a, b)} and ``grid``, the coarsening of the cross term (a :class:`.regrid.Regrid`
    whose ``after`` is None and whose pointer is the split's); ``coarse`` (c, ρ) of a coarse tail, else None."""

    body: dict
    grid: regrid.Regrid
    pointer: str
    coarse: tuple = None


def order_range(stage, names, order):
    """(LO, HI): the indices of ``order``'s single-step arrays (the forward order's [lo, hi], the backward's
    [−hi, −lo])."""
    return (stage.lo, stage.hi) if order == names[0] else (-stage.hi, -stage.lo)


def read(value, stages, names, pointer, N=None, G=1):
    """The split of ``discretisation.split`` (None: none), checked for shape (MALFORMED): one stage, T >= 2, each
    order's body a <= b meeting its single-step range, the shares as a regrid's (:func:`.regrid.read_shares`), and
    a coarse tail's shape (:func:`_coarse`; N the grid, G the regrids' factors)."""
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
    cut = Split(body, regrid.Regrid(None, *regrid.read_shares(value, pointer), pointer), pointer)
    if "coarse_tail" not in value:
        return cut
    return cut._replace(coarse=_coarse(value["coarse_tail"], cut, stage, names, N, G))


def _coarse(flag, cut, stage, names, N, G):
    """(c, ρ) of a coarse tail, checked for shape (MALFORMED): the flag true (absent: none), the forward body
    [lo, c] and the backward [−c, −lo] with lo < c < hi, and ρ = G·r dividing N, c and hi (the tail's grid is
    N/ρ, its range [c/ρ, hi/ρ])."""
    at, forward, backward = cut.pointer, *names
    if not common.boolean(flag, f"{at}/coarse_tail"):
        raise Malformed(f"{at}/coarse_tail: false (the field is true or absent; absent: no coarse tail)")
    (a, c), lo, hi = cut.body[forward], stage.lo, stage.hi
    if a != lo or not lo < c < hi:
        raise Malformed(f"{at}/body/{forward}: [{common.magnitude(a)}, {common.magnitude(c)}] is not [lo, c] with "
                        f"lo < c < hi for the range [{lo}, {hi}] (a coarse tail)")
    if cut.body[backward] != (-c, -lo):
        b = cut.body[backward]
        raise Malformed(f"{at}/body/{backward}: [{common.magnitude(b[0])}, {common.magnitude(b[1])}] is not "
                        f"[−c, −lo] = [{-c}, {-lo}] (a coarse tail: the outcomes of the forward body)")
    rho, recipe = G * cut.grid.factor, at.rsplit("/", 1)[0]
    for value, where, name in ((N, f"{recipe}/grid", "N"), (c, f"{at}/body/{forward}/1", "c"),
                               (hi, f"{recipe}/ranges/0/1", "hi")):
        if value % rho:
            raise Malformed(f"{where}: {name} = {common.magnitude(value)} is not a multiple of ρ = G·r = {rho} "
                            f"(a coarse tail is on the grid N/ρ over [c/ρ, hi/ρ])")
    return c, rho


def sizes(split, stage, names, order):
    """(body length, tail length) of ``order``'s single-step arrays: the body clipped to [LO, HI]; the tail is one
    array from its first index to its last (the whole range when the body lies strictly inside it).  A coarse
    tail's: (c − lo + 1, (hi − c)/ρ + 1), the two parts' (:func:`parts`), in either order."""
    if split.coarse:
        c, rho = split.coarse
        return c - stage.lo + 1, (stage.hi - c) // rho + 1
    (a, b), (LO, HI) = split.body[order], order_range(stage, names, order)
    a, b = max(a, LO), min(b, HI)
    n = HI - LO + 1
    if a == LO and b == HI:
        return n, 0
    return b - a + 1, (n if LO < a and b < HI else n - (b - a + 1))


def parts(split, stage, N):
    """[(stage, grid, tails kept)] of a coarse tail's two parts, for :func:`.masses.single_step`: the body [lo, c]
    on the grid N without its high tail (the outcomes ℓ >= c/N are the tail's), the tail [c/ρ, hi/ρ] on N/ρ
    without its low tail (ℓ < c/N: the body's)."""
    (c, rho), (pair, steps, guard, bits) = split.coarse, (stage.pair, stage.steps, stage.guard, stage.parts)
    return [(masses.Stage(pair, steps, stage.lo, c, guard, bits), N, (True, False)),
            (masses.Stage(pair, steps, c // rho, stage.hi // rho, guard, bits), N // rho, (False, True))]


def pieces(ones, body):
    """{kind: (body, tail or None)} of one order: ``ones`` [its single step] divided by ``body`` (:func:`divide`;
    the upper atom with the body, X with the part of the last index), or a coarse tail's [body part, tail part],
    each whole with its own atoms; the lower kinds when computed."""
    def arrays(one):
        out = {UPPER: Array(one.LO, one.upper, one.upper_atom)}
        if one.lower_p is not None:
            out.update({LOWER_P: Array(one.LO, one.lower_p), LOWER_Q: Array(one.LO, one.lower_q, one.lower_atom)})
        return out

    if len(ones) == 2:
        body_part, tail_part = map(arrays, ones)
        return {kind: (body_part[kind], tail_part[kind]) for kind in body_part}
    with_body = {UPPER: True, LOWER_P: True, LOWER_Q: body[1] >= ones[0].HI}
    return {kind: divide(A, body, with_body[kind]) for kind, A in arrays(ones[0]).items()}


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


def chain(body, tail, steps, windows, kind, scale, regrids, grid, coarse_tail=False):
    """(W0, W1) of one chain kind (module docstring); W1 None without a tail.  ``coarse_tail``: the tail is already
    on the cross term's grid (the coarsened power's index j is the loss j·G·r/N, as the tail's), so not coarsened."""
    coarse = {rg.after: partial(regrid.coarsen, kind=kind, regrid=rg) for rg in regrids}
    power = composition.power(body, steps - 1, windows[:-1], kind, scale, coarse)
    base = _coarsened(body, kind, regrids)      # the base the power ended with
    whole = composition.window(composition.product(power, base, kind, scale), *windows[-1], kind)
    if tail is None:
        return whole, None
    cross = composition.product(regrid.coarsen(power, kind, grid),
                                _coarsened(tail, kind, () if coarse_tail else (*regrids, grid)), kind, scale)
    return whole, cross


def _mass(array):
    return sum(array.values) + array.atom if array else 0


def remainder(steps, body, tail, K):
    """B2 of the module docstring (a rational) from the order's upper ``body`` and ``tail`` (None: empty), atoms
    included: m the tail's mass, 1 + x the whole single step's; None when (T − 2)·x > 1 (B2 not established)."""
    m = Fraction(_mass(tail), 1 << K)
    x = Fraction(max(0, _mass(body) + _mass(tail) - (1 << K)), 1 << K)
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
    """L(W0)⁺ + T·L(W1)⁺ (the interface of :class:`.answer.LowerEvents`): each part's divergence is at least 0 (its
    empty event), so a part whose every threshold event is negative (X is in each) adds 0, not its best value."""

    __slots__ = ("body", "cross", "steps")

    def __init__(self, body, cross, steps):
        self.body, self.cross, self.steps = body, cross, steps

    def bound(self, lam):
        cross = self.cross.bound(lam) if self.cross is not None else 0
        return max(0, self.body.bound(lam)) + self.steps * max(0, cross)


class Unestablished:
    """The upper bound δ(ε) <= 1 (always true; it proves no claim below 1) of an order whose B2 is not
    established."""

    __slots__ = ()

    def bound(self, epsilon):
        return Fraction(1)


def bounds(ones, steps, split, chains, regrids, scales, N, value_bits):
    """(upper, lower or None) of one order (``ones`` [its :class:`.masses.SingleStep`], or a coarse tail's [body
    part, tail part]), ``chains`` its {"upper", "lower"} window lists, ``scales`` (K, K′); upper is
    :class:`Unestablished` when B2 is not established."""
    K, K_q = scales
    arrays, coarse = pieces(ones, split.body[ones[0].order]), split.coarse is not None
    G = regrid.factors(regrids)
    windows = chains["upper"][0][0]
    U_body, U_tail = arrays[UPPER]
    rest = remainder(steps, U_body, U_tail, K)
    W0, W1 = chain(U_body, U_tail, steps, windows, UPPER, K, regrids, split.grid, coarse)
    F0 = answer.UpperTail(W0, K, N, value_bits + len(W0.values).bit_length(), G)
    F1 = None if W1 is None else answer.UpperTail(W1, K, N, value_bits + steps.bit_length()
                                                   + len(W1.values).bit_length(), G * split.grid.factor)
    upper = Unestablished() if rest is None else Upper(F0, F1, steps, rest)
    if chains["lower"] is None:
        return upper, None
    windows = chains["lower"][0][0]
    P0, P1 = chain(*arrays[LOWER_P], steps, windows, LOWER_P, K, regrids, split.grid, coarse)
    Q0, Q1 = chain(*arrays[LOWER_Q], steps, windows, LOWER_Q, K_q, regrids, split.grid, coarse)
    L1 = None if P1 is None else answer.LowerEvents(P1, Q1, K, K_q)
    return upper, Lower(answer.LowerEvents(P0, Q0, K, K_q), L1, steps)
