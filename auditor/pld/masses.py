"""The single-step integer arrays of one stage: connect-the-dots above, bucket laws below.

Notation of *DP-SGD accounting* (the project's docs/dpsgd.md, §3–5) and docs/accounting.md §5.  A stage is a
dominating pair (:mod:`auditor.pld.pairs`: its *forward* pair (P, Q)), a count T and the range [lo, hi] of its
forward loss's buckets on the grid h = 1/N.  The pair encloses the masses p_i = P(I_i), q_i = Q(I_i) of the buckets
I_i = {ℓ ∈ [i·h, (i+1)·h)}, lo <= i < hi, and of the low tail {ℓ < lo·h} and the high tail {ℓ >= hi·h}, atoms of the
loss law included.  The backward order (the pair (Q, P), loss −ℓ) uses the same buckets with the roles swapped
(j = −i − 1); on every bucket of both orders, closed ends included, e^{−(j+1)h}·P_j <= Q_j <= e^{−jh}·P_j.

Connect-the-dots (upper): b_j = (P_j − e^{jh}·Q_j)/(1 − e^{−h}) at (j+1)h and
a_j = P_j − b_j at jh, with 0 <= b_j <= P_j; the upper end of each is taken
from the ends of P_j, Q_j, e^{jh} and 1/(1 − e^{−h}) on the safe side, and
U[k] = ⌈2^K·(upper end of a_k + b_{k−1} (+ P_low at k = LO))⌉,
U_∞ = ⌈2^K·(upper end of P_high)⌉.  Lower: P_L[j] = ⌊2^K·(lower end of P_j)⌋,
P_L[HI] from P_high, Q_L[j] = ⌈2^K′·(upper end of Q_j)⌉ with Q_low added at
LO, Q_L[HI] = 0, X = ⌈2^K′·(upper end of Q_high)⌉.  Any integers on these
sides of the exact values are valid (docs/dpsgd.md, Claims U and L); the
enclosures are narrow enough (:func:`working_bits`) that they are the
producer's up to a unit or so, which its margins absorb.
"""


from auditor.pld.preimages import exp_grid
from auditor.rationals import ceil_div

__all__ = ["Stage", "SingleStep", "FORWARD", "BACKWARD", "working_bits", "single_step", "exp_bits_needed"]

FORWARD, BACKWARD = "forward", "backward"


class Stage:
    """One stage: its dominating ``pair`` (:mod:`auditor.pld.pairs`), its count T and its range [lo, hi].

    ``guard`` and ``parts`` are the kind's declared precision guard and number bits (the limits and the work
    estimate use them; a kind states them in its docs); by default the pair's own.
    """

    __slots__ = ("pair", "steps", "lo", "hi", "guard", "parts")

    def __init__(self, pair, steps, lo, hi, guard=None, parts=None):
        self.pair, self.steps, self.lo, self.hi = pair, steps, lo, hi
        self.guard = pair.guard_bits() if guard is None else guard
        self.parts = pair.parts() if parts is None else parts

    def __repr__(self):
        return f"Stage({self.pair!r}, T={self.steps}, range=[{self.lo}, {self.hi}])"


def exp_bits_needed(N, lo, hi):
    """An integer b >= log2 e^{jh} for every |j| <= max(|lo|, |hi|) + 1 (log2 e < 1.45)."""
    m = max(abs(lo), abs(hi)) + 1
    return ceil_div(145 * m, 100 * N) + 1


def working_bits(stage, N, K, K_q):
    """Target absolute precision (bits) of the masses of ``stage``.

    The lower Q arrays need 2^−(K′+8); the split b_j divides by 1 − e^{−h}
    (about h) and multiplies Q_j by e^{jh}, so the masses need 2^−(K+8) times
    h·e^{−|j|h}; the stage's declared guard covers the widths of the
    arguments and the sum of the units lost per bucket (a pair whose own
    analysis asks for more adds the difference inside, :func:`single_step`).
    """
    need = max(K_q + 8, K + 8 + N.bit_length() + exp_bits_needed(N, stage.lo, stage.hi))
    return need + stage.guard


def _order_masses(stage, N, W, pointer="/result/discretisation/ranges"):
    """Forward-order enclosures: (Wt, [p_i], [q_i], (p_low, q_low), (p_high, q_high)) over 2^Wt, Wt >= W."""
    return stage.pair.bucket_masses(N, stage.lo, stage.hi, W, pointer)


class SingleStep:
    """The integer arrays of one order of one stage, on the indices LO ... HI."""

    __slots__ = ("order", "LO", "HI", "upper", "upper_atom", "lower_p", "lower_q", "lower_atom")

    def __init__(self, order, LO, HI, upper, upper_atom, lower_p, lower_q, lower_atom):
        self.order, self.LO, self.HI = order, LO, HI
        self.upper, self.upper_atom = upper, upper_atom
        self.lower_p, self.lower_q, self.lower_atom = lower_p, lower_q, lower_atom


def single_step(stage, N, K, K_q, names=(FORWARD, BACKWARD), lower=(), guard=0,
                pointer="/result/discretisation/ranges", tails=(True, True)):
    """{name: SingleStep} of both orders of ``stage`` on grid 1/N, named ``names`` (forward, backward); lower
    arrays only for the names in ``lower``.

    ``guard``: bits beyond :func:`working_bits` (a retry's); ``pointer``: where a grid level that cannot be placed
    is reported; ``tails``: whether the forward low and high tails are kept (a part of a coarse tail,
    :mod:`.split`, leaves out the outcomes the other part holds: their masses are zero here).
    """
    W = working_bits(stage, N, K, K_q) + guard + max(0, stage.pair.guard_bits() - stage.guard)
    Wt, p_list, q_list, low, high = _order_masses(stage, N, W, pointer)
    none = ((0, 0), (0, 0))
    low, high = (low if tails[0] else none), (high if tails[1] else none)
    lo, hi = stage.lo, stage.hi
    first, last = min(lo, -hi), max(hi, -lo)
    exps = exp_grid(N, first, last, Wt)
    one = 1 << Wt
    em_lo, em_hi = exp_grid(N, -1, -1, Wt)[0]  # e^{−h}
    D_lo = (one << Wt) // (one - em_lo)          # 2^W/(1 − e^{−h}), rounded outward
    D_hi = ceil_div(one << Wt, one - em_hi)
    out = {}
    forward, backward = names
    for order in names:
        if order == forward:
            LO, HI = lo, hi
            P, Q = p_list, q_list
            (P_low, Q_low), (P_high, Q_high) = low, high
        else:
            LO, HI = -hi, -lo
            P, Q = q_list[::-1], p_list[::-1]   # j = −i − 1
            (P_low, Q_low), (P_high, Q_high) = (high[1], high[0]), (low[1], low[0])
        upper, upper_atom = _connect_the_dots(P, Q, P_low, P_high, LO, exps, first, (D_lo, D_hi), Wt, K)
        arrays = (None, None, None)
        if order in lower:
            arrays = _bucket_laws(P, Q, Q_low, P_high, Q_high, Wt, K, K_q)
        out[order] = SingleStep(order, LO, HI, upper, upper_atom, *arrays)
    return out


def _connect_the_dots(P, Q, P_low, P_high, LO, exps, first, D, W, K):
    """(U on LO ... HI, U_∞): ceilings of 2^K times the upper ends of the split masses."""
    D_lo, D_hi = D
    shift = W - K
    a_hi, b_hi = [], []
    for j, ((p_lo, p_hi), (q_lo, q_hi)) in enumerate(zip(P, Q)):
        e_lo, e_hi = exps[LO + j - first]
        num_lo = p_lo - ceil_div(e_hi * q_hi, 1 << W)
        num_hi = p_hi - ((e_lo * q_lo) >> W)
        b_low = (max(0, num_lo) * D_lo) >> W
        b_high = min(p_hi, ceil_div(max(0, num_hi) * D_hi, 1 << W))
        a_hi.append(max(0, p_hi - min(b_low, b_high)))
        b_hi.append(max(0, b_high))
    n = len(P)
    upper = []
    for k in range(n + 1):
        u = (a_hi[k] if k < n else 0) + (b_hi[k - 1] if k else 0) + (P_low[1] if k == 0 else 0)
        upper.append(-((-u) >> shift))
    return upper, -((-P_high[1]) >> shift)


def _bucket_laws(P, Q, Q_low, P_high, Q_high, W, K, K_q):
    """(P_L, Q_L, X): floors of 2^K·P (P_high at HI), ceilings of 2^K′·Q (Q_low at LO, 0 at HI)."""
    sp, sq = W - K, W - K_q
    lower_p = [p_lo >> sp for p_lo, _ in P] + [P_high[0] >> sp]
    lower_q = [-((-q_hi) >> sq) for _, q_hi in Q] + [0]
    lower_q[0] += -((-Q_low[1]) >> sq)
    return lower_p, lower_q, -((-Q_high[1]) >> sq)
