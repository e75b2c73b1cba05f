"""producer.resource.poisson: exact Poisson solves and policy iteration against brute force.

The gain of a policy is checked against the stationary law π (solved
independently over Fractions: πP = π, Σπ = 1) on random chains with positive
rows; policy iteration against the best of all deterministic policies.
"""

from fractions import Fraction
from itertools import product

from hypothesis import given, settings
from hypothesis import strategies as st

from producer.resource.poisson import ControlledChain, Multichain, poisson, policy_iteration

import pytest


def _frac(v):
    return Fraction(int(v.p), int(v.q))


def _stationary(P):
    n = len(P)
    # (P^T − I) π = 0 with the last equation replaced by Σπ = 1
    a = [[Fraction(P[j][i]) - (1 if i == j else 0) for j in range(n)] for i in range(n)]
    a[-1] = [Fraction(1)] * n
    rhs = [Fraction(0)] * (n - 1) + [Fraction(1)]
    m = [row + [v] for row, v in zip(a, rhs)]
    for col in range(n):
        piv = next(i for i in range(col, n) if m[i][col] != 0)
        m[col], m[piv] = m[piv], m[col]
        for i in range(n):
            if i != col and m[i][col]:
                f = m[i][col] / m[col][col]
                m[i] = [x - f * y for x, y in zip(m[i], m[col])]
    return [m[i][n] / m[i][i] for i in range(n)]


@st.composite
def chains(draw):
    n = draw(st.integers(1, 4))
    actions = draw(st.integers(1, 2))
    den = draw(st.integers(max(n, 2), 12))
    succ = []
    for _ in range(n):
        per = {}
        for a in range(actions):
            cuts = sorted(draw(st.lists(st.integers(1, den - 1), min_size=n - 1, max_size=n - 1)))
            weights = [hi - lo for lo, hi in zip([0] + cuts, cuts + [den])]
            per[a] = [(t, w) for t, w in enumerate(weights) if w]
        succ.append(per)
    rewards = {(s, a): Fraction(draw(st.integers(-6, 6)), draw(st.integers(1, 4))) for s in range(n)
               for a in range(actions)}
    return ControlledChain(succ, den, [list(range(actions))] * n), rewards


def _matrix(chain, policy):
    P = [[Fraction(0)] * chain.n for _ in range(chain.n)]
    for s in range(chain.n):
        for t, v in chain.succ[s][policy[s]]:
            P[s][t] += Fraction(v, chain.den)
    return P


@settings(max_examples=150, deadline=None)
@given(chains())
def test_gain_is_the_stationary_average_reward(case):
    chain, rewards = case
    policy = {s: 0 for s in range(chain.n)}
    P = _matrix(chain, policy)
    try:
        gain, phi = poisson(chain, policy, lambda s, a: rewards[(s, a)], range(chain.n), 0)
    except Multichain:
        return  # zero-weight rows can split the chain; brute force below needs one class
    pi = _stationary(P)
    assert _frac(gain) == sum(p * rewards[(s, 0)] for s, p in enumerate(pi))
    for s in range(chain.n):  # the Poisson equation holds exactly
        assert _frac(phi[s]) + _frac(gain) - sum(P[s][t] * _frac(phi[t]) for t in range(chain.n)) == rewards[(s, 0)]


@settings(max_examples=100, deadline=None)
@given(chains())
def test_policy_iteration_finds_the_best_deterministic_policy(case):
    chain, rewards = case
    best = None
    for choice in product(*chain.actions):
        policy = dict(enumerate(choice))
        try:
            gain, _ = poisson(chain, policy, lambda s, a: rewards[(s, a)], range(chain.n), 0)
        except Multichain:
            return
        best = _frac(gain) if best is None else max(best, _frac(gain))
    policy, gain, _phi = policy_iteration(chain, lambda s, a: rewards[(s, a)], {s: 0 for s in range(chain.n)}, 0)
    assert _frac(gain) == best


def test_two_closed_classes_are_reported():
    chain = ControlledChain([{0: [(0, 1)]}, {0: [(1, 1)]}], 1, [[0], [0]])
    with pytest.raises(Multichain):
        poisson(chain, {0: 0, 1: 0}, lambda s, a: Fraction(s), range(2), 0)
