"""The participation rate a* (*Exact Compilation and Resource Laws for Hidden Integer
Feedback*, §6.1, §7.3, H.1, H.5): a period-N upper certificate, the γ = 1/2 descent
lower certificate and the disclosed-rounding rate ρ.

**Upper (all actions, period N = B^m).**  Rational r and h(t, e), t ∈ ℤ/N,
e = ±1 (h(·, 0) ≡ 0), such that for every residue s mod B·N, d ∈ {−1, 0, 1},
j = ±1, and every t, e:

    g_hi(s mod B, d, j) + Σ_t P_N(t|s)·h(t, j) − [d ≠ 0]·h(s mod N, d) <= r      (participation)
    g_hi(s mod B, e, 0) <= h(s mod N, e)                                           (echo)

with P_N(t|s) = Pr(K' ≡ t mod N | k ≡ s mod B·N) from the rational source.
Both families range over every residue s of the hidden state mod B·N: the
echo from a pending state (k, e) earns g(k mod B, e, 0) and the potential
there is h(k mod N, e), so each pair (k mod B, k mod N) the state can take
needs its row.  For N = B^m with m >= 1, k mod N determines k mod B and the
echo rows are the N rows t = s mod N; for N = 1 they are the B rows
g_hi(s, e, 0) <= h(0, e), s ∈ [0, B).
Telescoping along any legal program (h >= 0 at pending states, h = 0 at
synchronised ones, idling is free and earns nothing) gives A_C <= r·C, so
a* <= r; the true discrete Gaussian adds tv·max_j span_t h(·, j).  (r, h) is
the exact dual of the occupation LP

    maximise Σ g_hi(s,d,j)·z_{s,d,j} + Σ ĝ(t,e)·w_{t,e}
    s.t. Σ z = 1;  for every (t, e):
         Σ_{s ≡ t (N), j} z_{s,e,j} + w_{t,e} − Σ_{s,d} z_{s,d,e}·P_N(t|s) = 0,

ĝ(t, e) = max_{s ≡ t (N)} g_hi(s mod B, e, 0) (its dual row h(t, e) >= ĝ(t, e)
is every echo row at once), 1 + 2N rows and 6BN + 2N columns (65 × 448 at
B = 2, N = 32).

**Lower (γ = 1/2, the descent program).**  Prepare the integer
k0 = (1 − (−2)^C)/3, participate with +1 C times, echo.  The centre
c_t = (1 − (−2)^{C−t})/3 is odd for t < C, and K_t = c_t + E_t with the
residual chain E_0 = 0, E_{t+1} = η − floor((E_t + 1 + U)/2) and reward
g((1 + E_t) mod 2, 1, 1).  A potential φ on [−W, W] (0 outside) with

    g_lo(1 + e, 1, 1) + Σ_{e'} P(e, e')·φ(e') − φ(e) >= r_lo      (|e| <= W)

gives, since outside the window the left side is >= m_out = min(0, min φ),

    a* >= r' − max(0, r' − m_out)·p_out,   r' = r_lo − tv·span(φ ∪ {0}),

with p_out >= P(|E_t| > W) = 2·exp(−(W + 1/3)²/(2H)) (E_t + 1/3 is a centred
AR(1) with proxy H; analytic).  φ is the bias of the clamped residual chain
(an exact Poisson solve), rounded to the grid 2^-60.

**Disclosed rounding (H.5).**  ρ = (1 + 3γ)/(2σ²) exactly.
"""

from gmpy2 import mpq, mpz

from producer.resource import lp as exact_lp
from producer.resource.constants import Constants
from producer.resource.poisson import ControlledChain, poisson
from producer.resource.rows import descent_rows, residue_rows, window_rows

SIGNS = (-1, 1)
DESCENT_WINDOW = 12
DESCENT_GRID_BITS = 60
MAX_DESCENT_WINDOW = 200


def _fq(v):
    return exact_lp.fmpq(exact_lp.fmpz(int(v.numerator)), exact_lp.fmpz(int(v.denominator)))


def _mq(v):
    return mpq(int(v.p), int(v.q))


class PeriodLP:
    """The period-N occupation LP: columns z_{s,d,j} then w_{t,e}; rows Σz = 1 then the flows (t, e)."""

    __slots__ = ("B", "N", "rows", "den", "columns", "labels", "lp")

    def __init__(self, law, gamma, period, rewards):
        self.B, self.N = gamma.B, int(period)
        self.rows = residue_rows(law, gamma, self.N)
        self.den = gamma.B * int(law.total)
        columns, cost, labels = [], [], []
        for s in range(self.B * self.N):
            for d in (-1, 0, 1):
                for j in SIGNS:
                    col = [(0, 1)]
                    if d != 0:
                        col.append((self.flow(s % self.N, d), 1))
                    for t, v in self.rows[s]:
                        col.append((self.flow(t, j), mpq(-v, self.den)))
                    columns.append(_merge(col))
                    cost.append(rewards.hi[rewards.key(s, d, j)])
                    labels.append(("z", s, d, j))
        for t in range(self.N):
            for e in SIGNS:
                columns.append([(self.flow(t, e), 1)])
                cost.append(echo_bound(rewards, self.B, self.N, t, e))
                labels.append(("w", t, e))
        self.columns, self.labels = columns, labels
        self.lp = exact_lp.LinearProgram(columns, [1] + [0] * (2 * self.N), cost)

    def flow(self, t, e):
        return 1 + 2 * t + (0 if e < 0 else 1)


def _solve_period(law, gamma, period, rewards, progress=None):
    """(the period-N LP, its exact optimal Solution), warm-started from period N/B when HiGHS is not exact."""
    problem = PeriodLP(law, gamma, period, rewards)
    if progress:
        progress(f"period-{period} LP, {problem.lp.m} rows x {problem.lp.n} columns")

    def warm():
        if progress:
            progress(f"period-{period} LP: HiGHS's bases are not exactly optimal; warm start from period "
                     f"{period // gamma.B}")
        smaller, solution = _solve_period(law, gamma, period // gamma.B, rewards)
        return lifted_order(problem, smaller, solution)
    return problem, exact_lp.solve(problem.lp, progress=progress, warm=warm if period > 1 else None)


def lifted_order(problem, previous, solution):
    """The columns of the period-N LP ordered by their slack under the lifted period-N/B optimum (tight first).

    The period-N/B dual (r, h′) lifted to h(t, e) = h′(t mod N/B, e) is dual
    feasible for the period-N LP with the same value: the period-N/B residue
    rows are the period-N rows folded mod N/B, and the rows depend on s only
    through s mod N.  Its tight columns are the likely basis (a hint only: the
    exact solve accepts or repairs it).
    """
    small = previous.N
    y = [solution.y[0]] + [None] * (2 * problem.N)
    for t in range(problem.N):
        for e in SIGNS:
            y[problem.flow(t, e)] = solution.y[previous.flow(t % small, e)]
    lp = problem.lp
    slack = [sum((v * y[i] for i, v in col), exact_lp.fmpq(0)) - c for col, c in zip(lp.columns, lp.cost)]
    return sorted(range(lp.n), key=lambda j: (slack[j], j))


def echo_residues(B, period, t):
    """The residues k mod B of the hidden states k ≡ t (mod N) (all of [0, B) when N = 1; t mod B when B | N)."""
    return sorted({s % B for s in range(t, B * period, period)})


def echo_bound(rewards, B, period, t, e):
    """ĝ(t, e) = max over k ≡ t (mod N) of g_hi(k mod B, e, 0): the least h(t, e) meeting every echo row there."""
    return max(rewards.hi[rewards.key(k, e, 0)] for k in echo_residues(B, period, t))


def _merge(col):
    acc = {}
    for i, v in col:
        acc[i] = acc.get(i, 0) + v
    return sorted((i, v) for i, v in acc.items() if v != 0)


def period_upper(law, gamma, period, rewards, progress=None):
    """(r, h) exact: r the LP optimum, h[(t, e)] its dual potential; plus the LP solution (route, pivots).

    HiGHS proposes bases first; when none is exactly optimal, the period-N/B
    LP is solved the same way (recursively) and its exact optimum, lifted,
    gives a warm start (:func:`lifted_order`) that is repaired in turn with
    HiGHS's best basis (the first to finish wins).  At small σ² HiGHS's bases
    are far off: at γ = 1/2, σ² = 1/100 its best period-32 basis needs more
    than 5000 exact pivots, the warm start ten.
    """
    problem, solution = _solve_period(law, gamma, period, rewards, progress)
    y = solution.y
    r = _mq(y[0])
    h = {(t, e): _mq(y[problem.flow(t, e)]) for t in range(problem.N) for e in SIGNS}
    return r, h, solution


def period_rows(law, gamma, period, rewards, r, h):
    """The largest left side minus r over all participation rows, and the smallest h − g_hi over the echo rows
    at every residue s mod B·N (h(s mod N, e) − g_hi(s mod B, e, 0))."""
    rows = residue_rows(law, gamma, period)
    den = gamma.B * int(law.total)
    worst = None
    for s in range(gamma.B * period):
        for d in (-1, 0, 1):
            for j in SIGNS:
                lhs = rewards.hi[rewards.key(s, d, j)] + sum((h[(t, j)] * v for t, v in rows[s]), mpq(0)) / den
                if d != 0:
                    lhs -= h[(s % period, d)]
                worst = lhs - r if worst is None else max(worst, lhs - r)
    echo = min(h[(s % period, e)] - rewards.hi[rewards.key(s, e, 0)] for s in range(gamma.B * period)
               for e in SIGNS)
    return worst, echo


def potential_span(h):
    """max_j span_t h(t, j) over j = ±1."""
    return max(max(h[(t, e)] for (t, f) in h if f == e) - min(h[(t, e)] for (t, f) in h if f == e)
               for e in SIGNS)


def descent_window(constants):
    """W: 12, or the least W >= 12 with p_out <= 2^-64 (at most MAX_DESCENT_WINDOW)."""
    W = DESCENT_WINDOW
    while constants.outside_probability(W) > mpq(1, mpz(2) ** 64) and W < MAX_DESCENT_WINDOW:
        W += 4
    return W


def descent_lower(law, gamma, rewards, tv, constants, window):
    """The descent certificate at γ = 1/2: φ (dict e -> dyadic), r_lo, m_out, span, p_out, the lower end."""
    rows = descent_rows(law, gamma, window)
    den = gamma.B * int(law.total)
    # the clamped chain for the Poisson solve: mass outside the window folded onto ±W
    succ = []
    states = list(range(-window, window + 1))
    for e in states:
        folded = {}
        for n, v in _full_row(law, gamma, e):
            t = max(-window, min(window, n)) + window
            folded[t] = folded.get(t, 0) + int(v)
        succ.append({0: sorted(folded.items())})
    chain = ControlledChain(succ, den, [[0]] * len(states))

    def reward(i, _a):
        return _fq(rewards.lo[rewards.key(1 + states[i], 1, 1)])

    _gain, bias = poisson(chain, {i: 0 for i in range(len(states))}, reward, range(len(states)), window)
    scale = mpz(2) ** DESCENT_GRID_BITS
    phi = {e: _nearest(_mq(bias[i]), scale) for i, e in enumerate(states)}
    r_lo = min(descent_row(rewards, rows, den, phi, e) for e in states)
    values = list(phi.values()) + [mpq(0)]
    span = max(values) - min(values)
    m_out = min(mpq(0), min(phi.values()))
    r_prime = r_lo - tv * span
    p_out = constants.outside_probability(window)
    lower = max(mpq(0), r_prime - max(mpq(0), r_prime - m_out) * p_out)
    return {"phi": phi, "r_lo": r_lo, "span": span, "m_out": m_out, "r_prime": r_prime, "p_out": p_out,
            "lower": lower, "window": window}


def descent_row(rewards, rows, den, phi, e):
    """g_lo(1 + e, 1, 1) + Σ_{e' in window} P(e, e')·φ(e') − φ(e)."""
    return (rewards.lo[rewards.key(1 + e, 1, 1)] + sum((phi[t] * v for t, v in rows[e]), mpq(0)) / den
            - phi[e])


def _full_row(law, gamma, e):
    from producer.resource.rows import state_row
    return state_row(law, gamma, e + 1)


def _nearest(value, scale):
    x = value * scale
    return mpq((x.numerator * 2 + x.denominator) // (2 * x.denominator), scale)


def disclosed_rate(gamma, sigma2):
    """ρ = (1 + 3γ)/(2σ²)."""
    return (1 + 3 * mpq(gamma.a, gamma.B)) / (2 * mpq(sigma2))


__all__ = ["period_upper", "period_rows", "potential_span", "descent_lower", "descent_window", "disclosed_rate",
           "Constants", "window_rows"]
