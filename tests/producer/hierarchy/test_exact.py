"""The hierarchy games on exact PL curves against the exact game G_C.

(*Exact Compilation and Resource Laws for Hidden Integer Feedback*, §5.1 and Appendices E.2, G.1.)
"""

from itertools import combinations

import pytest
from gmpy2 import mpq
from hypothesis import given, settings, strategies as st

from producer.game import values as api
from producer.hierarchy import exact, pl
from producer.hierarchy.graph import Graph, Rows
from producer.hierarchy.models import CutModel, DepthModel, all_cuts, block_length
from producer.laws import FiniteLaw, Gamma

UNIFORM, HALF_GAMMA, HALF = FiniteLaw([1, 1, 1], -1), Gamma(1, 2), mpq(1, 2)


def value_at_half(model):
    return pl.evaluate(exact.root_curve(model, UNIFORM, HALF_GAMMA), HALF)


def g_curve(law, gamma, budget):
    """G_C as a PL curve in t from the exact engine's testing curve: u(t) = max_k t·A_k + (1−t)·B_k."""
    lines = [((pl.ZERO, b), (pl.ONE, a)) for a, b in api.root_curve(law, gamma, budget)]
    return pl.pointwise_max(lines)


def test_published_chain_at_one_half():
    g4 = api.root_value(UNIFORM, HALF_GAMMA, 4, HALF, HALF).value
    chain = [g4] + [value_at_half(DepthModel(4, h)) for h in (3, 2)]
    q2, roots = exact.selector_portfolio(4, UNIFORM, HALF_GAMMA)
    chain += [pl.evaluate(q2, HALF), value_at_half(DepthModel(4, 1))]
    assert [v * 3888 for v in chain] == [3737, 3740, 3746, 3748, 3753]
    assert len(roots) == 5
    gaps = [value_at_half(DepthModel(4, h)) - g4 for h in (1, 2, 3)]
    assert gaps == [mpq(1, 243), mpq(1, 432), mpq(1, 1296)]
    assert value_at_half(DepthModel(4, 4)) == g4


def test_cut_sets_at_one_half():
    expected = {(1,): 3748, (1, 2): 3748, (0, 2): 3748, (0, 1): 3753, (0, 1, 2): 3753,
                (0,): 3743, (2,): 3740, (): 3737}
    assert {s: value_at_half(CutModel(4, s)) * 3888 for s in expected} == expected


def test_selector_domain_has_seven_states():
    assert len(exact.selector_states(4, 2)) == 7


@pytest.mark.parametrize("depth, pending", [(1, 16), (2, 40), (3, 72), (4, 104)])
def test_node_counts_c4_b2(depth, pending):
    counts = Graph(DepthModel(4, depth), Rows(UNIFORM, HALF_GAMMA)).counts()
    formula = 2 * sum(2 ** j for c in range(4) for j in range(1, min(depth, c + 1) + 1))
    assert counts["pending"] == pending == formula
    assert (counts["synchronised"], counts["free"]) == (5, 6)


def test_block_length_sentinel():
    assert block_length((), 3) == 4  # ℓ_∅(c − 1) = c
    assert [block_length((0, 2), r) for r in range(4)] == [1, 1, 2, 1]


@st.composite
def small_instances(draw, max_budget=3):
    B = draw(st.sampled_from([2, 3]))
    a = draw(st.sampled_from([x for x in range(1, B)]))
    n = draw(st.integers(3, 4))
    weights = draw(st.lists(st.integers(0, 3), min_size=n, max_size=n).filter(lambda w: sum(w) > 0))
    offset = draw(st.integers(-2, 0))
    budget = draw(st.integers(2, max_budget))
    return FiniteLaw(weights, offset), Gamma(a, B), budget


def check_ordering_facts(law, gamma, budget):
    g = g_curve(law, gamma, budget)
    assert pl.equal_everywhere(exact.root_curve(CutModel(budget, ()), law, gamma), g)
    depths = {h: exact.root_curve(DepthModel(budget, h), law, gamma) for h in range(1, budget + 1)}
    assert pl.equal_everywhere(depths[budget], g)
    for h in range(1, budget):
        assert pl.leq_everywhere(depths[h + 1], depths[h])
    cuts = {s: exact.root_curve(CutModel(budget, s), law, gamma)
            for k in range(budget) for s in combinations(all_cuts(budget), k)}
    for s0 in cuts:
        assert pl.leq_everywhere(g, cuts[s0])
        for s1 in cuts:
            if set(s0) <= set(s1):
                assert pl.leq_everywhere(cuts[s0], cuts[s1])
    assert pl.equal_everywhere(depths[1], cuts[all_cuts(budget)])
    for h in range(1, budget):
        admissible = [cuts[s] for s in cuts if all(block_length(s, r) <= h for r in range(budget))]
        assert pl.leq_everywhere(depths[h], pl.lower_hull(pl.pointwise_min(admissible)))
    if budget >= 2:
        q2, _ = exact.selector_portfolio(budget, law, gamma)
        admissible2 = [cuts[s] for s in cuts if all(block_length(s, r) <= 2 for r in range(budget))]
        assert pl.leq_everywhere(depths[min(2, budget)], q2)
        assert pl.leq_everywhere(q2, pl.lower_hull(pl.pointwise_min(admissible2)))


@settings(max_examples=6)
@given(small_instances(max_budget=2))
def test_ordering_facts_against_the_exact_game(instance):
    check_ordering_facts(*instance)


@pytest.mark.slow
@settings(max_examples=40)
@given(small_instances())
def test_ordering_facts_many_instances(instance):
    check_ordering_facts(*instance)
