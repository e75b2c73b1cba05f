"""Proof-function lower lines (cut games, proof hierarchies): valid everywhere, equal to a plain brute force."""

import random

import numpy as np
import pytest
from gmpy2 import mpq
from hypothesis import given, settings, strategies as st

from producer.hierarchy import exact, pl
from producer.hierarchy.grid import log_odds_grid
from producer.hierarchy.lines import Envelope, LineTree, _obj
from producer.hierarchy.models import CutModel, DepthModel, all_cuts
from producer.laws import FiniteLaw, Gamma
from tests.reference_hierarchy import PlainLines

K, F = 32, 40


@st.composite
def instances(draw):
    B = draw(st.sampled_from([2, 3]))
    a = draw(st.sampled_from(range(1, B)))
    weights = draw(st.lists(st.integers(0, 3), min_size=3, max_size=4).filter(lambda w: sum(w) > 0))
    budget = draw(st.integers(2, 3))
    cuts = draw(st.sampled_from(["all", "none", "one"]))
    cut_set = {"all": all_cuts(budget), "none": (), "one": (budget - 2,)}[cuts]
    return FiniteLaw(weights, draw(st.integers(-2, 0))), Gamma(a, B), CutModel(budget, cut_set)


@settings(max_examples=15, deadline=None)
@given(instances())
def test_every_root_line_lies_below_the_exact_curve(instance):
    law, gamma, model = instance
    grid = log_odds_grid(20, K, 6.0)
    a, b = LineTree(model, law, gamma, grid, K, F).solve()
    curve = exact.root_curve(model, law, gamma)
    unit = mpq(1 << F)
    for ai, bi in zip(a, b):
        assert 0 <= ai <= 1 << F and 0 <= bi <= 1 << F
        # a line below a convex piecewise-linear function: enough at its vertices
        assert all(t * ai / unit + (1 - t) * bi / unit <= u for t, u in curve)
    # and close to it at the grid priors (the recursion is a good lower end, not just a valid one)
    for g, ai, bi in zip(grid, a, b):
        t = mpq(g, 1 << K)
        assert pl.evaluate(curve, t) - (t * ai + (1 - t) * bi) / unit < mpq(1, 50)


def _plain(law, gamma, model, grid):
    cert = {"input": {"gamma": str(gamma), "budget": model.budget, "model": model.as_json()},
            "result": {"source": {"radius": -law.offset, "weights": [str(int(w)) for w in law.weights],
                                  "scale": str(int(law.total))},
                       "grid": {"bits": K, "numerators": [str(g) for g in grid]}, "scale_bits": F}}
    return PlainLines(cert).root_lines()


@pytest.mark.parametrize("weights, gamma, budget, cuts", [([1, 1, 1], Gamma(1, 2), 3, (0, 1)),
                                                          ([1, 2, 1], Gamma(1, 3), 3, (1,)),
                                                          ([2, 0, 1], Gamma(2, 3), 2, ())])
def test_lines_equal_the_plain_brute_force(weights, gamma, budget, cuts):
    """The docs' recursion re-implemented plainly (every child line scanned): the same integers."""
    law = FiniteLaw(weights, -1)
    model = CutModel(budget, cuts)
    grid = log_odds_grid(12, K, 5.0)
    a, b = LineTree(model, law, gamma, grid, K, F).solve()
    assert list(zip(a, b)) == _plain(law, gamma, model, grid)


def test_envelope_locates_the_lexicographic_best():
    rng = random.Random(7)
    for _ in range(30):
        n = rng.randint(1, 12)
        lines = [(rng.randint(0, 40), rng.randint(0, 40)) for _ in range(n)]
        lines += lines[: rng.randint(0, 3)]  # duplicates
        env = Envelope([a for a, _ in lines], [b for _, b in lines])
        X = _obj([rng.randint(0, 9) for _ in range(25)] + [0, 0, 5])
        Y = _obj([rng.randint(0, 9) for _ in range(25)] + [0, 5, 0])
        hints = np.array([rng.random() for _ in range(len(X))])  # deliberately wrong hints
        idx = env.locate(X, Y, hints)
        for i, j in enumerate(idx):
            want = max(lines, key=lambda ab: (ab[0] * X[i] + ab[1] * Y[i], ab[0], ab[1]))
            assert (env.a[j], env.b[j]) == want


@pytest.mark.parametrize("weights, gamma, budget, depth", [([1, 1, 1], Gamma(1, 2), 3, 2),
                                                           ([1, 2, 1], Gamma(1, 3), 3, 2),
                                                           ([2, 0, 1], Gamma(2, 3), 3, 1)])
def test_proof_hierarchy_lines_equal_the_plain_brute_force(weights, gamma, budget, depth):
    """Multi-group nodes: tangents of Cvx(min over groups), the same integers as a brute-force hull."""
    law, model = FiniteLaw(weights, -1), DepthModel(budget, depth)
    grid = log_odds_grid(8, K, 5.0)
    a, b = LineTree(model, law, gamma, grid, K, F).solve()
    assert list(zip(a, b)) == _plain(law, gamma, model, grid)


@settings(max_examples=10, deadline=None)
@given(instances())
def test_proof_hierarchy_lines_lie_below_the_exact_curve(instance):
    law, gamma, model = instance
    model = DepthModel(model.budget, 2)
    grid = log_odds_grid(20, K, 6.0)
    a, b = LineTree(model, law, gamma, grid, K, F).solve()
    curve = exact.root_curve(model, law, gamma)
    unit = mpq(1 << F)
    for ai, bi in zip(a, b):
        assert all(t * ai / unit + (1 - t) * bi / unit <= u for t, u in curve)


def test_rows_beyond_the_float_range_give_the_same_lines():
    """Weights scaled by 2^4000 (a source scale within the limits): float hints of shares, the same integers."""
    grid = log_odds_grid(12, K, 6.0)
    huge = 2 ** 4000
    for model in (DepthModel(3, 2), CutModel(3, [1])):
        small = LineTree(model, FiniteLaw([1, 2, 1], -1), Gamma(1, 3), grid, K, F).solve()
        scaled = LineTree(model, FiniteLaw([huge, 2 * huge, huge], -1), Gamma(1, 3), grid, K, F).solve()
        assert scaled == small
