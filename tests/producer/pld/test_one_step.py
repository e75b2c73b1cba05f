"""One step's width, predicted from the bucket that holds ε, against mpmath and against the certified bounds."""

import mpmath as mp
import pytest
from gmpy2 import mpq

from producer.kinds.dpsgd import Request, parse_stage
from producer.pld.enclose import _Attempt, _points_answer
from producer.pld.mechanism import ORDERS, Stage
from producer.pld.subsampled_gaussian import SubsampledGaussian
from producer.pld.one_step import OneStep, aligned_grids, predict
from producer.pld.parameters import Sizing
from producer.pld.search import plan_at
from tests.producer.pld import reference as ref


def _mp(v):
    return mp.mpf(int(mpq(v).numerator)) / int(mpq(v).denominator)


@pytest.mark.parametrize("q,s,eps", [("1/100", "1", "0"), ("1/100", "1", "3/10"), ("1/2", "4/5", "1"),
                                     ("1/100000", "1/2", "1/1000000"), ("1", "2", "1/2")])
def test_delta_of_each_order_matches_mpmath(q, s, eps):
    step = OneStep(Stage(SubsampledGaussian(mpq(q), mpq(s)), 1))
    with mp.workdps(40):
        for order, name in zip(ORDERS, ("remove", "add")):  # the reference names the orders by the neighbour
            truth = ref.one_step(_mp(q), _mp(s), _mp(eps), name)
            assert abs(step.delta(order, mpq(eps)) - float(truth)) <= 1e-12 * float(truth) + 1e-300


def test_epsilon_on_a_grid_point_costs_no_width():
    step = OneStep(Stage(SubsampledGaussian(mpq(1, 10**5), mpq(1, 2)), 1))
    for grid in (4, 400, 10**6):
        assert step.errors("forward", mpq(1), grid) == (0.0, 0.0) == step.errors("backward", mpq(0), grid)
    assert step.errors("forward", mpq(1, 10**6), 10**6) == (0.0, 0.0)
    assert step.errors("forward", mpq(1, 10**6), 999_000) != (0.0, 0.0)


@pytest.mark.parametrize("stage,eps,grid", [("1/100000:1/2x1", "1/1000000", 400), ("1/100:1x1", "3/10", 37),
                                            ("1/2:4/5x1", "1/3", 50)])
def test_the_prediction_is_the_certified_width(stage, eps, grid):
    """The certified upper and lower ends of one step lie where the bucket of ε puts them (1% of the width)."""
    request = Request([parse_stage(stage)], epsilons=[mpq(eps)], rel_width=mpq(1, 1000))
    sizing = Sizing(request.stages)
    plan = plan_at(sizing, 1 / grid, 1e-40, float(mpq(eps)), grid=grid)
    attempt = _Attempt(request, plan, lambda message: None)
    attempt.prepare()
    attempt.compose_upper()
    outcome, _ = _points_answer(attempt, request)
    (point,) = outcome.points
    predicted = predict(OneStep(request.stages[0]), mpq(eps), grid, plan.tail)
    width = float(point.upper - point.lower)
    assert width > 0 and abs(predicted.width - width) <= 0.01 * width
    assert abs(predicted.upper - float(point.upper)) <= 0.01 * width


def test_aligned_grids_put_every_epsilon_on_a_grid_point():
    grids = aligned_grids([mpq(0), mpq(1, 10**6), mpq(5)], 2_000_000)
    assert grids == [10**6, 2 * 10**6]
    assert aligned_grids([mpq(1, 3), mpq(1, 4)], 100)[:3] == [12, 24, 36]
    assert aligned_grids([mpq(1), mpq(2)], 100) == [] and aligned_grids([mpq(1, 3 * 10**6)], 2_000_000) == []
