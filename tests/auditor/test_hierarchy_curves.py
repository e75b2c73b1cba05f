"""The auditor's exact hierarchy curves (auditor/hierarchy/curves.py, exact.py) against independent routes.

- G_C (the cut game with no cuts) against the plain finite-game reference (tests/reference_game.py);
- every P_H and U_S between the plain proof-function lower lines and the plain upper tables of
  tests/reference_hierarchy.py (written from the docs alone, pure Python), the lines checked at every
  grid prior (a line is a minorant everywhere);
- the orderings of the hierarchy (G_C <= P_{H+1} <= P_H, U_{S0} <= U_{S1} for S0 ⊆ S1, P_1 = U_all,
  P_H <= Q_H <= U_S for cut sets with blocks <= H);
- Cvx(min) against a brute force over pairs of vertices, the perspective sum against its definition.
"""

from fractions import Fraction
from itertools import combinations

import pytest
from hypothesis import given, settings, strategies as st

from auditor.hierarchy.curves import convex_minimum, perspective_sum, t_vertices, value_at
from auditor.hierarchy.exact import ExactGame
from auditor.hierarchy.graph import Graph, Row
from auditor.hierarchy.model import Model
from auditor.hierarchy.words import Words
from auditor.game.curves import Chain
from tests.reference_game import ReferenceGame
from tests.reference_hierarchy import PlainCheck, PlainLines

PRIORS = [Fraction(0), Fraction(1, 7), Fraction(1, 3), Fraction(1, 2), Fraction(5, 8), Fraction(1)]


def _root(weights, offset, a, B, model):
    graph = Graph(weights, offset, a, B, model, Words(a, B))
    return ExactGame(graph, "/test")


def _values(game_or_chain, priors=PRIORS):
    chain = game_or_chain.root() if isinstance(game_or_chain, ExactGame) else game_or_chain
    return [Fraction(value_at(chain, t)) for t in priors]


laws = st.sampled_from([((1, 1, 1), -1), ((1, 2, 1), -1), ((2, 1, 3), 0), ((1, 3, 3, 1), -2), ((1, 0, 2), -1)])
gammas = st.sampled_from([(1, 2), (1, 3), (2, 3), (2, 5)])


def _full_game_matches(law, gamma, C):
    (weights, offset), (a, B) = law, gamma
    mine = _values(_root(weights, offset, a, B, Model(C, cuts=())))
    reference = ReferenceGame(weights, offset, a, B)
    assert mine == [reference.G(C, t, 1 - t) for t in PRIORS]


@settings(max_examples=12, deadline=None)
@given(laws, gammas, st.integers(1, 2))
def test_full_game_equals_the_plain_finite_game(law, gamma, C):
    _full_game_matches(law, gamma, C)


@pytest.mark.slow
@pytest.mark.parametrize("law", [((1, 1, 1), -1), ((2, 1, 3), 0)])
def test_full_game_equals_the_plain_finite_game_at_budget_3(law):
    _full_game_matches(law, (1, 2), 3)


def _plain_cert(weights, a, B, C, spec, grid, K, F):
    L = len(weights) // 2
    return {"input": {"gamma": f"{a}/{B}", "budget": C, "model": spec},
            "result": {"source": {"radius": L, "weights": [str(w) for w in weights], "scale": str(sum(weights))},
                       "grid": {"bits": K, "numerators": [str(g) for g in grid]}, "scale_bits": F}}


@settings(max_examples=8, deadline=None)
@given(st.sampled_from([(1, 1, 1), (1, 2, 1), (1, 4, 1)]), gammas,
       st.sampled_from([(2, {"game": "depth", "depth": 1}), (2, {"game": "depth", "depth": 2}),
                        (3, {"game": "depth", "depth": 2}), (3, {"game": "cuts", "cuts": [0]}),
                        (3, {"game": "cuts", "cuts": [1]}), (3, {"game": "cuts", "cuts": []})]))
def test_exact_curves_lie_between_the_plain_lower_lines_and_upper_tables(weights, gamma, case):
    (a, B), (C, spec) = gamma, case
    K, F = 8, 24
    grid = [0, 13, 40, 77, 128, 150, 201, 240, 256]
    cert = _plain_cert(weights, a, B, C, spec, grid, K, F)
    model = Model.from_json(C, spec)
    ts = [Fraction(g, 1 << K) for g in grid]
    exact = _values(_root(weights, -(len(weights) // 2), a, B, model), ts)
    lines = PlainLines(cert).root_lines()
    table = PlainCheck(cert).root_table()
    unit = Fraction(1 << F)
    for t, u, e in zip(ts, exact, table):
        assert u <= max(t, 1 - t) + e / unit
        for la, lb in lines:                 # every line is a minorant at every prior
            assert (t * la + (1 - t) * lb) / unit <= u


def _between(lo, hi):
    return all(x <= y for x, y in zip(lo, hi))


@settings(max_examples=8, deadline=None)
@given(laws, gammas)
def test_the_hierarchy_is_ordered(law, gamma):
    (weights, offset), (a, B) = law, gamma
    C = 3
    full = _values(_root(weights, offset, a, B, Model(C, cuts=())))
    depths = [_values(_root(weights, offset, a, B, Model(C, depth=H))) for H in (3, 2, 1)]
    assert _between(full, depths[0]) and _between(depths[0], depths[1]) and _between(depths[1], depths[2])
    cuts = {S: _values(_root(weights, offset, a, B, Model(C, cuts=S))) for r in range(C) for S in
            combinations(range(C - 1), r)}
    for S0 in cuts:
        for S1 in cuts:
            if set(S0) <= set(S1):
                assert _between(cuts[S0], cuts[S1])
    assert cuts[(0, 1)] == depths[2] and cuts[()] == full
    portfolio = _root(weights, offset, a, B, Model(C, depth=2))
    q2 = _values(convex_minimum(portfolio.selector_roots()))
    assert _between(depths[1], q2)
    for S in cuts:                           # every cut set of C = 3 has blocks <= 2 except S = {}
        if S:
            assert _between(q2, cuts[S])


def _random_chain(draw):
    n = draw(st.integers(1, 5))
    pts = [(draw(st.integers(0, 40)), draw(st.integers(0, 40))) for _ in range(n)]
    return Chain.from_points(pts + [(40, 0), (0, 40)], draw(st.integers(1, 5)))


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_convex_minimum_against_pairs_of_vertices(data):
    chains = [_random_chain(data.draw) for _ in range(data.draw(st.integers(2, 3)))]
    hull = convex_minimum(chains)
    vertices = [(Fraction(t), Fraction(u)) for c in chains for t, u in t_vertices(c)]
    for k in range(0, 21):
        t = Fraction(k, 20)
        best = min(u for s, u in vertices if s == t) if any(s == t for s, _ in vertices) else None
        for (s0, u0) in vertices:
            for (s1, u1) in vertices:
                if s0 < t < s1:
                    v = u0 + (u1 - u0) * (t - s0) / (s1 - s0)
                    best = v if best is None else min(best, v)
        assert Fraction(value_at(hull, t)) == best


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_perspective_sum_is_its_definition(data):
    kids = [_random_chain(data.draw) for _ in range(3)]
    D = 12
    P = [data.draw(st.integers(0, 6)) for _ in range(3)]
    Q = [data.draw(st.integers(0, 6)) for _ in range(3)]
    P[0] += D - sum(P) if sum(P) < D else 0
    Q[0] += D - sum(Q) if sum(Q) < D else 0
    if sum(P) != D or sum(Q) != D:
        return
    row = Row("r", [(n, p, q) for n, (p, q) in enumerate(zip(P, Q))], D)
    keys = [i for i, (p, q) in enumerate(zip(P, Q)) if p + q > 0]
    chain = perspective_sum(row, keys, dict(enumerate(kids)), D)
    for t in PRIORS:
        direct = Fraction(0)
        for i in keys:
            x, y = t * P[i] / D, (1 - t) * Q[i] / D
            direct += Fraction(kids[i].value(x, y))
        assert Fraction(value_at(chain, t)) == direct
