"""The discrete Laplace and discrete Gaussian, Poisson-sampled under replace-one (producer/pld/replace_discrete.py),
against references computed outside the engine in mpmath: the pair's pmfs summed over the integers, products of
atom lists for a few steps, atoms in their exactly decided buckets (the two exact ties included), the pair's
symmetry, monotonicity, and the add/remove answer never above the replace-one one."""

from fractions import Fraction

import mpmath as mp
import pytest
from gmpy2 import mpq
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import producer
from producer.errors import InputError
from producer.pld.events import event_json, stages
from producer.pld.replace_discrete import (ReplaceSampledDiscreteGaussian, ReplaceSampledDiscreteLaplace, below,
                                           bucket)
from producer.plain.outward import ball_lower, ball_upper
from producer.references.accounting import discrete_gaussian, discrete_laplace, mixture, poisson, repeat
from producer.sources.enclosures import working_precision
from tests.producer.pld.reference import integer_pmf

ADD, REPLACE = "add_or_remove_one", "replace_one"


def _mp(value):
    value = Fraction(str(value))
    return mp.mpf(value.numerator) / value.denominator


# ---- references, from the pmf alone --------------------------------------------------------------------

def _pair(family, parameter, s, q):
    """(P, Q, window): (1 − q)·N + q·N_s against (1 − q)·N + q·N_{−s} on the integers."""
    f, width = integer_pmf(family, _mp(parameter))
    q = _mp(q)
    xs = range(-width - s, width + s + 1)
    return (lambda x: (1 - q) * f(x) + q * f(x - s)), (lambda x: (1 - q) * f(x) + q * f(x + s)), xs


def _delta(family, parameter, s, q, count, epsilon):
    """δ(ε) of ``count`` steps, both orders: products over tuples of outputs, grouped by their loss."""
    P, Q, xs = _pair(family, parameter, s, q)
    total = [(mp.mpf(1), mp.mpf(1))]
    one = [(P(x), Q(x)) for x in xs]
    for _ in range(count):
        grouped = {}
        for p0, q0 in total:
            for p1, q1 in one:
                p, w = p0 * p1, q0 * q1
                key = mp.nstr(mp.log(p) - mp.log(w), 25)
                a, b = grouped.get(key, (mp.mpf(0), mp.mpf(0)))
                grouped[key] = (a + p, b + w)
        total = list(grouped.values())
    e = mp.exp(_mp(epsilon))
    return max(mp.fsum(max(p - e * w, 0) for p, w in total), mp.fsum(max(w - e * p, 0) for p, w in total))


def _event(family, parameter, s, q):
    leaf = discrete_laplace(parameter, s) if family == "laplace" else discrete_gaussian(parameter, s)
    return poisson(q, leaf)


def _points(event, epsilons, relation=REPLACE, rel_width="1/1000"):
    cert = producer.account(event, epsilons=epsilons, neighboring_relation=relation, rel_width=rel_width)
    return [(Fraction(p["epsilon"]), Fraction(p["lower"]), Fraction(p["upper"])) for p in cert.result["points"]]


CASES = [("laplace", "1/2", 1, "1/10", 1), ("laplace", "1", 2, "1/2", 1), ("laplace", "1/3", 3, "9/10", 1),
         ("laplace", "1", 1, "1/2", 3), ("laplace", "1/2", 2, "1/5", 2), ("gaussian", "1", 1, "1/10", 1),
         ("gaussian", "4", 2, "1/2", 1), ("gaussian", "1/4", 1, "1/3", 2)]


@pytest.mark.parametrize("family,parameter,s,q,count", CASES)
def test_a_few_steps_enclose_the_products_of_the_pmfs(family, parameter, s, q, count):
    with mp.workdps(40):
        event = repeat(count, _event(family, parameter, s, q))
        for eps, lower, upper in _points(event, "0,1/4,1,2"):
            truth = _delta(family, parameter, s, q, count, eps)
            assert _mp(lower) * (1 - mp.mpf(10) ** -25) - mp.mpf(10) ** -35 <= truth, (eps, lower, truth)
            assert truth <= _mp(upper) * (1 + mp.mpf(10) ** -25) + mp.mpf(10) ** -35, (eps, truth, upper)


# ---- the law as the engine sees it ----------------------------------------------------------------------

def _contains(ball, truth):
    tol = mp.mpf(10) ** -45
    return _mp(Fraction(str(ball_lower(ball)))) - tol <= truth <= _mp(Fraction(str(ball_upper(ball)))) + tol


@pytest.mark.parametrize("family,parameter,s,q", [("laplace", "1/3", 3, "1/10"), ("laplace", "2", 1, "1/2"),
                                                  ("gaussian", "25", 1, "1/10"), ("gaussian", "1/100", 2, "1/3")])
def test_every_bucket_is_its_atoms_and_the_masses_sum_to_one(family, parameter, s, q):
    cls = ReplaceSampledDiscreteLaplace if family == "laplace" else ReplaceSampledDiscreteGaussian
    law, grid = cls(mpq(parameter), s, mpq(q)), 11
    lo, hi = law.index_range(grid, 1e-20)
    m = law.masses(mpq(1, grid), lo, hi, 200)
    for ps in ((m.p, m.p_low, m.p_high), (m.q, m.q_low, m.q_high)):
        with working_precision(200):
            total = sum(ps[0], ps[1]) + ps[2]
        assert abs(ball_lower(total) - 1) < mpq(1, 10**50) and abs(ball_upper(total) - 1) < mpq(1, 10**50)
    P, Q, xs = _pair(family, parameter, s, q)
    with mp.workdps(60):
        found = {}
        for x in xs:  # a value within 10^-40 of a level is on it (the exact ties: x = 0; q = 1/2, the ends)
            level = mp.log(P(x) / Q(x)) * grid
            near = mp.nint(level)
            i = min(max(int(near if abs(level - near) < mp.mpf(10) ** -40 else mp.floor(level)), lo - 1), hi)
            a, b = found.get(i, (mp.mpf(0), mp.mpf(0)))
            found[i] = (a + P(x), b + Q(x))
        for i in range(lo, hi):
            p, w = found.get(i, (mp.mpf(0), mp.mpf(0)))
            assert _contains(m.p[i - lo], p) and _contains(m.q[i - lo], w), i


def test_the_two_exact_ties_are_decided_on_rationals():
    half = mpq(1, 2)
    # q = 1/2, ℓ₊ = −ℓ₋ = 1: the value is exactly 1, on the level N·(1/N)
    assert not below(half, 1, -1, 1) and below(half, 1, -1, 1 + mpq(1, 10**30))
    assert [bucket(half, 1, -1, mpq(1, n)) for n in (1, 7, 1000)] == [1, 7, 1000]
    assert bucket(half, -1, 1, mpq(1, 7)) == -7
    # ℓ₊ = ℓ₋: the value is 0 at any q
    assert bucket(mpq(1, 3), mpq(-1, 2), mpq(-1, 2), mpq(1, 1000)) == 0 and not below(mpq(1, 3), 2, 2, 0)
    # the end atoms of the discrete Laplace at q = 1/2 sit on levels: a·s = 1 with h = 1/5
    law = ReplaceSampledDiscreteLaplace(1, 1, half)
    assert law.buckets(mpq(1, 5)) == (-5, 0, 5)
    with mp.workdps(60):  # away from the ties, mpmath agrees
        law = ReplaceSampledDiscreteLaplace(mpq(1, 2), 3, mpq(1, 10))
        for (plus, minus), i in zip(law.losses(), law.buckets(mpq(1, 50))):
            value = mp.log((mp.mpf(9) / 10 + mp.exp(_mp(plus)) / 10) / (mp.mpf(9) / 10 + mp.exp(_mp(minus)) / 10))
            assert i == (0 if plus == minus else int(mp.floor(value * 50)))


def test_the_pair_is_symmetric():
    law = ReplaceSampledDiscreteLaplace(mpq(1, 3), 2, mpq(1, 4))
    assert list(reversed(law.losses())) == [(m, p) for p, m in law.losses()]  # x ↦ −x swaps ℓ₊ and ℓ₋
    with working_precision(128):
        masses = law.atom_masses()
        for (p, q), (p2, q2) in zip(masses, reversed(masses)):
            assert p.overlaps(q2) and q.overlaps(p2)
    law, grid = ReplaceSampledDiscreteGaussian(2, 1, mpq(1, 5)), 7
    lo, hi = law.index_range(grid, 1e-20)
    m = law.masses(mpq(1, grid), lo, hi, 128)
    assert lo == -hi
    for i in range(lo, hi):  # ℓ is odd: bucket i mirrors bucket −i − 1, but for the atom x = 0 on the level 0
        if i not in (0, -1):
            assert m.p[i - lo].overlaps(m.q[-i - 1 - lo]) and m.q[i - lo].overlaps(m.p[-i - 1 - lo]), i


def test_the_stage_reads_into_the_pair_and_zero_sampling_is_still_checked_first():
    tree = event_json(repeat(3, poisson("1/4", discrete_laplace(1, 2))))
    assert [st.law for st in stages(tree, REPLACE)[0]] == [ReplaceSampledDiscreteLaplace(1, 2, mpq(1, 4))]
    tree = event_json(poisson("1/4", discrete_gaussian(9, 1)))
    assert [st.law for st in stages(tree, REPLACE)[0]] == [ReplaceSampledDiscreteGaussian(9, 1, mpq(1, 4))]
    with pytest.raises(ValueError, match="sampling probability in"):
        ReplaceSampledDiscreteLaplace(1, 1, 1)
    with pytest.raises(InputError, match="mixture of Gaussians"):
        producer.account(mixture(1, [1], [1]), delta="1e-5", neighboring_relation=REPLACE)


# ---- monotone, and never below add/remove -------------------------------------------------------------

SETTINGS = settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
# not 2: at q = 1/2 the discrete Laplace's largest loss a·s is rational, and 4 steps of a = 1/2, s = 1 have the
# largest composed loss 2, where δ is exactly 0 and no discretisation reaches a relative width (its upper end
# rounds that atom up by h)
EPSILONS = "0,1/2,1,5/2"


def _below_or_equal(smaller, larger):
    for (_, low, _), (_, _, up) in zip(smaller, larger):
        assert low <= up


@given(st.sampled_from(["laplace", "gaussian"]), st.integers(1, 3), st.sampled_from([("1/20", "1/5"),
                                                                                    ("1/5", "1/2"),
                                                                                    ("1/2", "9/10")]))
@SETTINGS
def test_a_larger_sampling_probability_never_lowers_delta(family, s, rates):
    parameter = "1/2" if family == "laplace" else "2"
    _below_or_equal(*(_points(repeat(4, _event(family, parameter, s, q)), EPSILONS, rel_width="1/100")
                      for q in rates))


@given(st.sampled_from(["laplace", "gaussian"]), st.integers(1, 3), st.sampled_from(["1/10", "1/2"]))
@SETTINGS
def test_more_sensitivity_never_lowers_delta_and_add_remove_is_never_above(family, s, q):
    parameter = "1/2" if family == "laplace" else "2"
    event = repeat(3, _event(family, parameter, s, q))
    replace = _points(event, EPSILONS, rel_width="1/100")
    _below_or_equal(replace, _points(repeat(3, _event(family, parameter, s + 1, q)), EPSILONS, rel_width="1/100"))
    _below_or_equal(_points(event, EPSILONS, ADD, rel_width="1/100"), replace)


def test_a_value_within_e_to_the_minus_thousand_of_zero_gets_its_sign_from_the_losses():
    # ℓ± both far below 0: v = log((1 − q + q·e^{ℓ₊})/(1 − q + q·e^{ℓ₋})) is about q·e^{ℓ₊}/(1 − q), beyond any
    # enclosure's reach of 0, and has the sign of ℓ₊ − ℓ₋
    assert not below(mpq(1, 2), -1000, -1200, 0) and below(mpq(1, 2), -1200, -1000, 0)
    assert bucket(mpq(1, 10), -1000, -1200, mpq(1, 7)) == 0 and bucket(mpq(1, 10), -1200, -1000, mpq(1, 7)) == -1
    law = ReplaceSampledDiscreteGaussian(1, 40, mpq(1, 3))  # x = 1: ℓ₊ = −760, ℓ₋ = −840; x = 19: ℓ₊ = −40
    assert law.first_at_or_above(0, -100, 100) == 0  # v(−1) < 0 = v(0) < v(1), all within e^{−700} of 0
    assert law.first_at_or_above(mpq(1, 10**9), -100, 100) == 20  # v(19) ≈ e^{−40}/2, v(20) = log(3/2)
    assert law.first_at_or_above(mpq(-1, 10**9), -100, 100) == -19
