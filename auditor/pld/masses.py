"""The single-step integer arrays of one stage: connect-the-dots above, bucket laws below.

Notation of *DP-SGD accounting* (the project's docs/dpsgd.md, §3–5).  For a
stage (q, σ), grid h = 1/N and range [lo, hi]: the remove-order buckets
I_i = [x_i, x_{i+1}), lo <= i < hi, have masses

    q_i = ΦC(z_i) − ΦC(z_{i+1}),      p_i = (1 − q)·q_i + q·(ΦC(z′_i) − ΦC(z′_{i+1}))

(z = x/σ, z′ = (x − 1)/σ, ΦC(−∞) = 1), the high tail [x_hi, ∞) has
q_high = ΦC(z_hi), p_high = (1 − q)·ΦC(z_hi) + q·ΦC(z′_hi), and the low tail
(−∞, x_lo) the complements.  Each is enclosed from the enclosures of the
ΦC values (interval arithmetic: a difference takes the opposite ends; factors
q, 1 − q >= 0 keep the order).  The add order uses the same buckets with the
roles swapped (j = −i − 1).

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


from auditor.pld.preimages import arguments, exp_grid
from auditor.pld.tails import TailTable
from auditor.rationals import ceil_div, floor

__all__ = ["Stage", "SingleStep", "working_bits", "single_step", "exp_bits_needed"]


class Stage:
    """One stage of the schedule: q, σ (Fractions), T, and its single-step range [lo, hi]."""

    __slots__ = ("q", "sigma", "steps", "lo", "hi")

    def __init__(self, q, sigma, steps, lo, hi):
        self.q, self.sigma, self.steps, self.lo, self.hi = q, sigma, steps, lo, hi

    def __repr__(self):
        return f"Stage(q={self.q}, sigma={self.sigma}, T={self.steps}, range=[{self.lo}, {self.hi}])"


def exp_bits_needed(N, lo, hi):
    """An integer b >= log2 e^{jh} for every |j| <= max(|lo|, |hi|) + 1 (log2 e < 1.45)."""
    m = max(abs(lo), abs(hi)) + 1
    return ceil_div(145 * m, 100 * N) + 1


def working_bits(stage, N, K, K_q):
    """Target absolute precision (bits) of the masses of ``stage``.

    The lower Q arrays need 2^−(K′+8); the split b_j divides by 1 − e^{−h}
    (about h) and multiplies Q_j by e^{jh}, so the masses need 2^−(K+8) times
    h·e^{−|j|h}; the guard covers the widths of the arguments (the log chain,
    up to 1/q and σ in the slope of ΦC near the bottom of the range) and the
    sum of the units lost per bucket.
    """
    need = max(K_q + 8, K + 8 + N.bit_length() + exp_bits_needed(N, stage.lo, stage.hi))
    q, sigma = stage.q, stage.sigma
    guard = (24 + (q.denominator // q.numerator).bit_length()
             + 2 * (floor(sigma) + 1).bit_length())
    return need + guard


def _tails(table, points):
    """[(lo, hi)] of 2^W·ΦC at each point (None: −∞, ΦC = 1)."""
    one = 1 << table.bits
    finite = [p for p in points if p is not None]
    values = iter(table.many(finite))
    return [(one, one) if p is None else next(values) for p in points]


def _order_masses(stage, N, W):
    """Remove-order enclosures: ([p_i], [q_i]) for lo <= i < hi, and the tails (p, q) low and high."""
    table = TailTable(W)
    Wt = table.bits
    z, zp = arguments(stage.q, stage.sigma, N, stage.lo, stage.hi, Wt)
    tz, tzp = _tails(table, z), _tails(table, zp)
    q = stage.q
    one = 1 << Wt
    p_list, q_list = [], []
    for i in range(len(z) - 1):
        a_lo = max(0, tz[i][0] - tz[i + 1][1])
        a_hi = max(0, tz[i][1] - tz[i + 1][0])
        b_lo = max(0, tzp[i][0] - tzp[i + 1][1])
        b_hi = max(0, tzp[i][1] - tzp[i + 1][0])
        q_list.append((a_lo, a_hi))
        p_list.append(_sum_mixture(q, (a_lo, a_hi), (b_lo, b_hi)))
    q_high = tz[-1]
    p_high = _sum_mixture(q, tz[-1], tzp[-1])
    q_low = (one - tz[0][1], one - tz[0][0])
    p_low = _sum_mixture(q, q_low, (one - tzp[0][1], one - tzp[0][0]))
    return Wt, p_list, q_list, (p_low, q_low), (p_high, q_high)


def _sum_mixture(q, first, second):
    """(1 − q)·first + q·second, intervals of nonnegative integers, rounded outward."""
    n, d = q.numerator, q.denominator
    lo = ((d - n) * first[0] + n * second[0]) // d
    hi = ceil_div((d - n) * first[1] + n * second[1], d)
    return lo, hi


class SingleStep:
    """The integer arrays of one order of one stage, on the indices LO ... HI."""

    __slots__ = ("order", "LO", "HI", "upper", "upper_atom", "lower_p", "lower_q", "lower_atom")

    def __init__(self, order, LO, HI, upper, upper_atom, lower_p, lower_q, lower_atom):
        self.order, self.LO, self.HI = order, LO, HI
        self.upper, self.upper_atom = upper, upper_atom
        self.lower_p, self.lower_q, self.lower_atom = lower_p, lower_q, lower_atom


def single_step(stage, N, K, K_q, orders=("remove", "add"), lower=(), guard=0):
    """{order: SingleStep} for ``stage`` on grid 1/N; lower arrays only for the orders in ``lower``.

    ``guard``: bits beyond :func:`working_bits` (a retry's).
    """
    W = working_bits(stage, N, K, K_q) + guard
    Wt, p_list, q_list, low, high = _order_masses(stage, N, W)
    lo, hi = stage.lo, stage.hi
    first, last = min(lo, -hi), max(hi, -lo)
    exps = exp_grid(N, first, last, Wt)
    one = 1 << Wt
    em_lo, em_hi = exp_grid(N, -1, -1, Wt)[0]  # e^{−h}
    D_lo = (one << Wt) // (one - em_lo)          # 2^W/(1 − e^{−h}), rounded outward
    D_hi = ceil_div(one << Wt, one - em_hi)
    out = {}
    for order in orders:
        if order == "remove":
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
