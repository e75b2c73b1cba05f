"""dpsgd/1 against independent references: the one-step closed form (both orders), the Gaussian
closed form at 50 digits (through the pld route too), and two-step quadrature (mpmath)."""

import mpmath as mp
import pytest
from gmpy2 import mpq

from producer.pld.enclose import certify
from producer.kinds.dpsgd import Request, parse_stage
from tests.producer.pld import reference as ref


def _request(stages, **kw):
    return Request([parse_stage(s) if isinstance(s, str) else s for s in stages], **kw)


def _mp(value):
    value = mpq(value)
    return mp.mpf(int(value.numerator)) / int(value.denominator)


def _points(stages, epsilons, rel="1/1000", route=None):
    return certify(_request(stages, epsilons=[mpq(e) for e in epsilons], rel_width=mpq(rel)), route=route).points


@pytest.mark.parametrize("q,sigma", [("1/100", "1"), ("1/10", "4/5"), ("1/2", "2"), ("1/1000", "1")])
def test_one_step_points_enclose_the_closed_form(q, sigma):
    epsilons = ["0", "1/4", "1", "3"]
    with mp.workdps(50):
        for p in _points([f"{q}:{sigma}x1"], epsilons):
            truth = ref.one_step_delta(_mp(q), _mp(sigma), _mp(p.epsilon))
            assert _mp(p.lower) <= truth <= _mp(p.upper), (p.epsilon, p.lower, truth, p.upper)
            assert p.upper - p.lower <= mpq(1, 1000) * p.upper


@pytest.mark.parametrize("q,sigma,delta", [("1/100", "1", "1e-5"), ("1/5", "1", "1e-6"), ("1/2", "3/2", "1e-3")])
def test_one_step_epsilon_brackets_the_closed_form(q, sigma, delta):
    out = certify(_request([f"{q}:{sigma}x1"], delta=mpq(delta), rel_width=mpq(1, 1000)))
    with mp.workdps(50):
        d = _mp(delta)
        assert ref.one_step_delta(_mp(q), _mp(sigma), _mp(out.epsilon_hi)) <= d
        if out.epsilon_lo > 0:
            assert ref.one_step_delta(_mp(q), _mp(sigma), _mp(out.epsilon_lo)) > d
    assert out.epsilon_hi - out.epsilon_lo <= mpq(1, 1000) * out.epsilon_hi


def test_one_step_both_orders_matter():
    """At ε = 0 the add order is the larger for this step, at ε = 1 the remove order (both closed forms)."""
    with mp.workdps(30):
        assert ref.one_step(0.5, 1, 0, "add") > ref.one_step(0.5, 1, 0, "remove") * (1 - mp.mpf(10) ** -20)
        assert ref.one_step(0.1, 1, 1, "remove") > ref.one_step(0.1, 1, 1, "add")
    points = _points(["1/10:1x1"], ["1"])
    assert points[0].order == "forward"


@pytest.mark.parametrize("stages,epsilons", [
    (["1:1x1"], ["0", "1/2", "2"]),
    (["1:2x25"], ["1", "3", "6"]),
    (["1:1x4", "1:3/2x9"], ["1", "4"]),
])
def test_gaussian_schedules_by_both_routes_enclose_the_closed_form(stages, epsilons):
    parsed = [parse_stage(s) for s in stages]
    mu = mp.sqrt(sum(mp.mpf(s.steps) / _mp(s.law.noise) ** 2 for s in parsed))
    closed = _points(stages, epsilons, rel="1/100000")
    pld = _points(stages, epsilons, rel="1/200", route="pld")
    with mp.workdps(50):
        for c, p in zip(closed, pld):
            truth = ref.gaussian_delta(mu, _mp(c.epsilon))
            assert _mp(c.lower) <= truth <= _mp(c.upper)
            assert _mp(p.lower) <= truth <= _mp(p.upper), (p.epsilon, p.lower, truth, p.upper)
            assert c.upper - c.lower <= mpq(1, 100000) * c.upper


@pytest.mark.parametrize("stages,epsilons", [(["1:2x200"], ["1", "3", "6"]), (["1:3x1000"], ["1/2", "2"])])
def test_regridded_gaussian_powers_enclose_the_closed_form(stages, epsilons, monkeypatch):
    """Regrids forced on powers too cheap to take them by default: the coarsened chains still enclose δ(ε)."""
    from producer.pld import search
    monkeypatch.setattr(search, "REGRID_ABOVE", 0)
    parsed = [parse_stage(s) for s in stages]
    mu = mp.sqrt(sum(mp.mpf(s.steps) / _mp(s.law.noise) ** 2 for s in parsed))
    out = certify(Request(parsed, epsilons=[mpq(e) for e in epsilons], rel_width=mpq(1, 200)), route="pld")
    assert out.regrids
    with mp.workdps(50):
        for p in out.points:
            truth = ref.gaussian_delta(mu, _mp(p.epsilon))
            assert _mp(p.lower) <= truth <= _mp(p.upper), (p.epsilon, p.lower, truth, p.upper)


def test_gaussian_route_epsilon_at_fifty_digits():
    out = certify(_request(["1:2x10"], delta=mpq(1, 10**5), rel_width=mpq(1, 10**6)))
    assert out.route == "gaussian"
    with mp.workdps(50):
        mu = mp.sqrt(10) / 2
        assert ref.gaussian_delta(mu, _mp(out.epsilon_hi)) <= mp.mpf(10) ** -5 < \
            ref.gaussian_delta(mu, _mp(out.epsilon_lo))
    assert out.epsilon_hi - out.epsilon_lo <= mpq(1, 10**6) * out.epsilon_hi


@pytest.mark.parametrize("q,sigma", [("1/2", "1"), ("1/20", "4/5")])
def test_two_steps_enclose_the_quadrature(q, sigma):
    epsilons = ["0", "1/2", "3/2"]
    points = _points([f"{q}:{sigma}x2"], epsilons, rel="1/300")
    with mp.workdps(25):
        for p in points:
            truth = ref.two_step_delta(_mp(q), _mp(sigma), _mp(p.epsilon))
            slack = 1 + mp.mpf(10) ** -15  # the quadrature's own error
            assert _mp(p.lower) <= truth * slack and truth <= _mp(p.upper) * slack, (p.epsilon, p.lower, truth, p.upper)


def test_a_two_stage_schedule_with_a_gaussian_stage_encloses_the_quadrature():
    """One Gaussian step (q = 1, σ = 3/2) then one subsampled step (q = 1/4, σ = 1): the pld route."""
    points = _points(["1:3/2x1", "1/4:1x1"], ["0", "1/2", "2"], rel="1/300")
    with mp.workdps(25):
        for p in points:
            truth = ref.two_step_delta(mp.mpf(1), mp.mpf(3) / 2, _mp(p.epsilon), mp.mpf(1) / 4, mp.mpf(1))
            slack = 1 + mp.mpf(10) ** -15
            assert _mp(p.lower) <= truth * slack and truth <= _mp(p.upper) * slack, (p.epsilon, p.lower, truth, p.upper)


@pytest.mark.slow
def test_three_steps_enclose_the_nested_quadrature():
    """Three steps, remove order, ε = 1: ∫ p(x)·A(1 − ℓ(x)) − e·q(x)·B(1 − ℓ(x)) dx, A and B the two-step
    P²- and Q²-masses of {ℓ₁ + ℓ₂ > budget} (the optimal event), each a 1-D quadrature."""
    q, s = mp.mpf(1) / 4, mp.mpf(1)
    (p,) = _points(["1/4:1x3"], ["1"], rel="1/200")
    with mp.workdps(15):
        remove = mp.quad(lambda x: _three_integrand(q, s, x), [-13, 0, 1, 14], maxdegree=5)
    assert p.order == "forward"
    assert _mp(p.lower) * (1 - mp.mpf(10) ** -8) <= remove <= _mp(p.upper) * (1 + mp.mpf(10) ** -8)


def _two_step_masses(q, s, budget):
    """(P², Q²) of {ℓ(x1) + ℓ(x2) > budget}, by a 1-D quadrature."""
    def a(x):
        t = ref.preimage(q, s, budget - ref.loss(q, s, x))
        return ref._density_p(q, s, x) * ref.tail_p(q, s, t)

    def b(x):
        t = ref.preimage(q, s, budget - ref.loss(q, s, x))
        return ref._density_q(q, s, x) * ref.tail_q(q, s, t)
    points = [-13, 0, 1, 14]
    return mp.quad(a, points, maxdegree=5), mp.quad(b, points, maxdegree=5)


def _three_integrand(q, s, x):
    A, B = _two_step_masses(q, s, 1 - ref.loss(q, s, x))
    return ref._density_p(q, s, x) * A - mp.e * ref._density_q(q, s, x) * B
