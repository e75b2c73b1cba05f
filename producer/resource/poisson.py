"""Exact Poisson equations and policy iteration for finite controlled chains.

A controlled chain has states 0..n−1, actions per state, transition rows
``succ[s][a]`` = [(s', numerator)] over one common denominator ``den``, and
rewards r(s, a) (exact rationals).  For a stationary policy π and a set S of
states closed under π, the **Poisson equation** is

    φ(s) + b − Σ_{s'} P_π(s, s')·φ(s') = r(s, π(s))      (s ∈ S),   φ(anchor) = 0.

When π restricted to S has one recurrent class (unichain) the system has a
unique solution: b is the gain (long-run reward per step) from every state
of S and φ the bias.  Two recurrent classes make the matrix singular
(:class:`Multichain`).  Solved exactly with python-flint (integer matrix
over the rows scaled by ``den``).

**Policy iteration** alternates an exact evaluation with an improvement that
switches a state's action only when another action is *strictly* better
(Q(s, a) = r(s, a) + Σ P(s, s')φ(s')); ties keep the current action, so the
gains increase and the iteration ends at a policy whose bias satisfies the
average-reward Bellman equation  max_a Q(s, a) = b + φ(s)  at every state.
"""

from flint import fmpq, fmpz, fmpz_mat

from producer.errors import LimitError

MAX_ITERATIONS = 200


class Multichain(ArithmeticError):
    """The policy has more than one recurrent class on the states (the Poisson system is singular)."""


class ControlledChain:
    """``succ[s][a]`` = [(s', numerator)] over ``den``; ``actions[s]`` the actions of s (in preference order)."""

    __slots__ = ("n", "succ", "den", "actions")

    def __init__(self, succ, den, actions):
        self.n, self.succ, self.den, self.actions = len(succ), succ, int(den), actions

    def closure(self, policy, start, reach):
        """States reachable from ``start`` when π(s) leads to ``reach(s, π(s))`` (an iterable of states)."""
        seen, stack = {start}, [start]
        while stack:
            s = stack.pop()
            for t in reach(s, policy[s]):
                if t not in seen:
                    seen.add(t)
                    stack.append(t)
        return sorted(seen)

    def q_value(self, s, a, reward, phi):
        """r(s, a) + Σ P(s, s')·φ(s'), exact."""
        total = fmpq(0)
        for t, v in self.succ[s][a]:
            total += phi[t] * v
        return _q(reward(s, a)) + total / self.den


def _q(v):
    if isinstance(v, fmpq):
        return v
    return fmpq(fmpz(int(v.numerator)), fmpz(int(v.denominator))) if hasattr(v, "denominator") else fmpq(v)


def poisson(chain, policy, reward, states, anchor):
    """(b, φ) of the Poisson equation on ``states`` (closed under π), φ(anchor) = 0; φ a dict.

    ``reward(s, a)`` gives exact rationals.  Raises :class:`Multichain` when singular.
    """
    states = list(states)
    if anchor not in states:
        raise ValueError("the anchor must be one of the states")
    index = {s: i for i, s in enumerate(states)}
    size = len(states)
    unknown = {}                                   # state -> column (the anchor's column holds b)
    col = 0
    for s in states:
        if s != anchor:
            unknown[s] = col
            col += 1
    b_col = size - 1
    den = chain.den
    entries = [0] * (size * size)
    rhs = []
    for i, s in enumerate(states):
        a = policy[s]
        base = i * size
        if s != anchor:
            entries[base + unknown[s]] += den
        for t, v in chain.succ[s][a]:
            if t not in index:
                raise ValueError(f"state {t} reached from {s} is outside the closed set")
            if t != anchor:
                entries[base + unknown[t]] -= int(v)
        entries[base + b_col] += den
        rhs.append(_q(reward(s, a)) * den)
    common = fmpz(1)
    for v in rhs:
        common = common * v.q // _gcd(common, v.q)
    rhs_int = fmpz_mat(size, 1, [int(v * common) for v in rhs])
    try:
        sol = fmpz_mat(size, size, entries).solve(rhs_int)
    except ZeroDivisionError:
        raise Multichain("the policy has more than one recurrent class") from None
    values = [sol[i, 0] / common for i in range(size)]
    phi = {s: values[c] for s, c in unknown.items()}
    phi[anchor] = fmpq(0)
    return values[b_col], phi


def _gcd(a, b):
    a, b = int(a), int(b)
    while b:
        a, b = b, a % b
    return fmpz(a)


def optimal_actions(chain, s, reward, phi):
    """(best value, the actions attaining it, in the chain's preference order) at state s."""
    values = {a: chain.q_value(s, a, reward, phi) for a in chain.actions[s]}
    best = max(values.values())
    return best, [a for a in chain.actions[s] if values[a] == best], values


def policy_iteration(chain, reward, policy, anchor, progress=None):
    """A Bellman-optimal policy on all states, with its gain and bias (exact).

    Starts from ``policy`` (a dict state -> action); every evaluation is over
    all states (each policy visited must be unichain there, else
    :class:`Multichain`).
    """
    policy = dict(policy)
    states = list(range(chain.n))
    for step in range(1, MAX_ITERATIONS + 1):
        gain, phi = poisson(chain, policy, reward, states, anchor)
        changed = False
        for s in states:
            best, arg, values = optimal_actions(chain, s, reward, phi)
            if values[policy[s]] < best:
                policy[s] = arg[0]
                changed = True
        if progress:
            progress(f"policy iteration: step {step}, gain {float(gain):.15g}")
        if not changed:
            return policy, gain, phi
    raise LimitError(f"policy iteration did not settle in {MAX_ITERATIONS} steps (the limit)")
