"""The window model of the hard-resource frontier (*Exact Compilation and Resource Laws
for Hidden Integer Feedback*, §6.3, H.2–H.4).

States (x, d), x ∈ [−M, M], d ∈ {−1, 0, 1} (the previous action); actions
j ∈ {−1, 0, 1}; reward the FULL-output g(x, d, j) (never a clipped-output KL);
transition y = c_M(K'_x) (the clamp to [−M, M]) under the common rational
source; next state (y, j).  K(x, y) below is that clamped row.

**Window LP (41).**  Variables z_{x,d,j} >= 0 (9(2M + 1) of them):

    maximise  τ·Σ g(x,d,j)·z_{x,d,j}
    s.t.      Σ_j z_{y,e,j} = Σ_{x,d} z_{x,d,e}·K(x,y)   for every (y, e)   (flow)
              Σ z = 1,     Σ |j|·z <= 1/τ.

The flow rows sum to Σz = Σz, so one is redundant: the row of (0, 0) is
dropped (its dual is h(0, 0) = 0); a slack turns the participation row into
an equality: 3(2M + 1) + 1 rows, 9(2M + 1) + 1 columns.  The dual is
h(y, e) free, a free, u >= 0 with, for every (x, d, j),

    g(x,d,j) − u|j| + Σ_y K(x,y)·h(y,j) − h(x,d) <= a,     value τ·a + u.

**Mirror symmetry.**  For a symmetric source the clamped rows satisfy
K(−x, −y) = K(x, y) and the rewards g(−x, −d, −j) = g(x, d, j), so the model
is invariant under (x, d, j) ↦ (−x, −d, −j).  Policy iteration runs on the
quotient (representatives (x, +1) and (x, 0) with x >= 0): a policy such as
"continue the current sign" has two recurrent classes (the +1 and the −1
layers) in the full model, whose Poisson system is singular, but one class in
the quotient.  Lifted potentials satisfy the full model's equations.
"""

from gmpy2 import mpq, mpz

from producer.resource import lp as exact_lp
from producer.resource.conversion import fq, mq
from producer.resource.poisson import ControlledChain, poisson
from producer.resource.rows import representative, window_rows

ACTIONS = (1, -1, 0)          # preference order when a policy is chosen among equals
POTENTIAL_BITS = 128          # potentials are stored as multiples of 2^-POTENTIAL_BITS
LP_PIVOT_BUDGET = 40          # exact LP repair pivots before the exact price search takes over


def nearest(value, bits=POTENTIAL_BITS):
    """The multiple of 2^-bits nearest to ``value`` (ties up)."""
    scale = mpz(2) ** bits
    x = mpq(value) * scale
    return mpq((x.numerator * 2 + x.denominator) // (2 * x.denominator), scale)


def mirror(state):
    x, d = state
    return (-x, -d)


class WindowModel:
    """The clamped window chain of radius M under one rational source (rows over den = B·S)."""

    __slots__ = ("gamma", "M", "rows", "den", "states", "index", "reps", "rep_index")

    def __init__(self, law, gamma, radius):
        self.gamma, self.M = gamma, int(radius)
        self.rows = window_rows(law, gamma, self.M)
        self.den = gamma.B * int(law.total)
        self.states = [(x, d) for x in range(-self.M, self.M + 1) for d in (-1, 0, 1)]
        self.index = {s: i for i, s in enumerate(self.states)}
        self.reps = [s for s in self.states if representative(s)[0] == s]
        self.rep_index = {s: i for i, s in enumerate(self.reps)}

    # ---- the window LP (41) ----------------------------------------------

    def columns(self):
        """The LP's structural columns, in order: (x, d, j) for every state and action."""
        return [(x, d, j) for (x, d) in self.states for j in (-1, 0, 1)]

    def lp(self, rewards, tau):
        """The LP (41) with reward ``rewards[(x mod B, d, j)]`` at price 1/τ; rows: flows but (0,0), Σz, Σ|j|z."""
        flows = [s for s in self.states if s != (0, 0)]
        flow_row = {s: i for i, s in enumerate(flows)}
        norm, part = len(flows), len(flows) + 1
        B, tau = self.gamma.B, mpq(tau)
        columns, cost = [], []
        for (x, d, j) in self.columns():
            col = {}
            if (x, d) != (0, 0):
                col[flow_row[(x, d)]] = mpq(1)
            for y, v in self.rows[x]:
                if (y, j) != (0, 0):
                    r = flow_row[(y, j)]
                    col[r] = col.get(r, mpq(0)) - mpq(v, self.den)
            col[norm] = mpq(1)
            if j:
                col[part] = mpq(1)
            columns.append(sorted((r, v) for r, v in col.items() if v != 0))
            cost.append(tau * rewards[(x % B, d, j)])
        columns.append([(part, mpq(1))])        # the participation slack
        cost.append(mpq(0))
        rhs = [0] * len(flows) + [1, 1 / tau]
        return exact_lp.LinearProgram(columns, rhs, cost), flows

    def solve_lp(self, rewards, tau, progress=None):
        """The exact LP optimum: (z dict (x,d,j) -> mpq, slack, h dict, a, u, value).

        The exact LP engine first (HiGHS proposes, exact arithmetic accepts or
        repairs); when the repair exceeds :data:`LP_PIVOT_BUDGET` pivots, the
        exact parametric policy iteration of :mod:`producer.resource.parametric`.
        """
        problem, flows = self.lp(rewards, tau)
        if progress:
            progress(f"window LP: radius {self.M}, {problem.m} rows x {problem.n} columns")
        try:
            sol = exact_lp.solve(problem, progress=progress, max_pivots=LP_PIVOT_BUDGET)
        except exact_lp.RepairTooLong:
            from producer.resource.parametric import window_optimum
            if progress:
                progress(f"window LP: repair beyond {LP_PIVOT_BUDGET} pivots; exact price search instead")
            optimum = window_optimum(self, rewards, tau, progress)
            if not optimum.pop("check"):  # pragma: no cover - both policies are optimal at u*
                raise ArithmeticError("window LP: the price search's primal and dual values differ") from None
            return optimum
        tau = mpq(tau)
        cols = self.columns()
        z = {c: mpq(0) for c in cols}
        slack = mpq(0)
        for j, v in sol.x.items():
            if j < len(cols):
                z[cols[j]] = mq(v)
            else:
                slack = mq(v)
        y = [mq(v) for v in sol.y]
        h = {s: y[i] / tau for i, s in enumerate(flows)}
        h[(0, 0)] = mpq(0)
        a, u = y[len(flows)] / tau, y[len(flows) + 1] / tau
        return {"z": z, "slack": slack, "h": h, "a": a, "u": u, "value": mq(sol.value), "route": sol.route,
                "pivots": sol.pivots}

    # ---- rows and potentials ---------------------------------------------

    def expectation(self, x, j, h):
        """Σ_y K(x, y)·h(y, j), exact."""
        return sum((h[(y, j)] * v for y, v in self.rows[x]), mpq(0)) / self.den

    def bellman_row(self, rewards, u, h, x, d, j):
        """g(x,d,j) − u|j| + Σ_y K(x,y)·h(y,j) − h(x,d)."""
        return rewards[(x % self.gamma.B, d, j)] - u * abs(j) + self.expectation(x, j, h) - h[(x, d)]

    def bellman_max(self, rewards, u, h):
        """The largest Bellman row over ALL states and actions (the gain a of the upper certificate)."""
        return max(self.bellman_row(rewards, u, h, x, d, j) for (x, d) in self.states for j in (-1, 0, 1))

    def reachable(self, policy):
        """S*(π): the states reachable from (0, 0) when every y ∈ [−M, M] may follow (true rows have full support)."""
        seen, stack = {(0, 0)}, [(0, 0)]
        while stack:
            s = stack.pop()
            j = policy[s]
            for y in range(-self.M, self.M + 1):
                t = (y, j)
                if t not in seen:
                    seen.add(t)
                    stack.append(t)
        return sorted(seen, key=self.index.get)

    def policy_rows(self, reward, policy, phi, states):
        """reward(s, π(s)) + Σ K φ(·, π(s)) − φ(s) for s in ``states`` (a list of exact values)."""
        out = []
        for (x, d) in states:
            j = policy[(x, d)]
            out.append(reward((x, d), j) + self.expectation(x, j, phi) - phi[(x, d)])
        return out

    def span_and_lip(self, h, states=None):
        """(max_j span_x h(·, j), max |h(x+1, d) − h(x, d)|) over the states given (default all)."""
        have = set(self.states if states is None else states)
        span = mpq(0)
        for j in (-1, 0, 1):
            layer = [h[(x, j)] for x in range(-self.M, self.M + 1) if (x, j) in have]
            if layer:
                span = max(span, max(layer) - min(layer))
        lip = mpq(0)
        for d in (-1, 0, 1):
            for x in range(-self.M, self.M):
                if (x, d) in have and (x + 1, d) in have:
                    lip = max(lip, abs(h[(x + 1, d)] - h[(x, d)]))
        return span, lip

    # ---- chains for Poisson solves and policy iteration ---------------------

    def full_chain(self):
        """The controlled chain on all 3(2M + 1) states (actions −1, 0, 1)."""
        succ = []
        for (x, _d) in self.states:
            succ.append({j: [(self.index[(y, j)], int(v)) for y, v in self.rows[x]] for j in ACTIONS})
        return ControlledChain(succ, self.den, [list(ACTIONS)] * len(self.states))

    def quotient_chain(self):
        """The controlled chain on the mirror representatives (rows merged per representative)."""
        succ = []
        for (x, _d) in self.reps:
            out = {}
            for j in ACTIONS:
                acc = {}
                for y, v in self.rows[x]:
                    t = self.rep_index[representative((y, j))[0]]
                    acc[t] = acc.get(t, 0) + int(v)
                out[j] = sorted(acc.items())
            succ.append(out)
        return ControlledChain(succ, self.den, [list(ACTIONS)] * len(self.reps))

    def lift_policy(self, quotient_policy):
        """A full-model policy from a quotient policy (mirror states take the mirrored action)."""
        policy = {}
        for s in self.states:
            rep, flipped = representative(s)
            j = quotient_policy[self.rep_index[rep]]
            policy[s] = -j if flipped else j
        return policy

    def lift_potential(self, values):
        """A full-model potential from quotient values (indexed like ``reps``)."""
        return {s: values[self.rep_index[representative(s)[0]]] for s in self.states}

    def quotient_reward(self, rewards, u):
        B = self.gamma.B

        def reward(i, j):
            x, d = self.reps[i]
            return fq(rewards[(x % B, d, j)] - u * abs(j))
        return reward

    def evaluate_symmetric(self, quotient_policy, reward):
        """(gain, full potential) of a quotient policy on the representatives reachable from (0, 0)."""
        chain = self.quotient_chain()
        start = self.rep_index[(0, 0)]

        def reach(i, j):
            return {self.rep_index[representative((y, j))[0]] for y in range(-self.M, self.M + 1)}
        states = chain.closure(quotient_policy, start, reach)
        gain, phi = poisson(chain, quotient_policy, reward, states, start)
        values = [phi.get(i) for i in range(len(self.reps))]
        full = {}
        for s in self.states:
            v = values[self.rep_index[representative(s)[0]]]
            if v is not None:
                full[s] = mq(v)
        return mq(gain), full

    def evaluate_full(self, policy, reward):
        """(gain, potential) of a full-model policy on S*(π) (must be unichain there)."""
        chain = self.full_chain()
        states = [self.index[s] for s in self.reachable(policy)]
        pol = {self.index[s]: policy[s] for s in self.states}

        def r(i, j):
            return fq(reward(self.states[i], j))
        gain, phi = poisson(chain, pol, r, states, self.index[(0, 0)])
        return mq(gain), {self.states[i]: mq(v) for i, v in phi.items()}
