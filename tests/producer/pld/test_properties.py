"""dpsgd/1 enclosures behave like the function they enclose: lower <= upper, and δ(ε) nonincreasing in ε,
nondecreasing in T and q, nonincreasing in σ (checked across separately certified enclosures)."""

from gmpy2 import mpq
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from producer.pld.enclose import certify
from producer.kinds.dpsgd import Request
from producer.pld.mechanism import Stage
from producer.pld.subsampled_gaussian import SubsampledGaussian

RATES = st.sampled_from([mpq(1, 100), mpq(1, 20), mpq(1, 5), mpq(1, 2), mpq(1)])
NOISES = st.sampled_from([mpq(4, 5), mpq(1), mpq(3, 2), mpq(2)])
STEPS = st.integers(1, 12)
EPSILONS = st.lists(st.sampled_from([mpq(0), mpq(1, 4), mpq(1, 2), mpq(1), mpq(2), mpq(4)]), min_size=1,
                    max_size=3, unique=True)
SETTINGS = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
WIDTH = mpq(1, 50)


def _points(rate, noise, steps, epsilons):
    return certify(Request([Stage(SubsampledGaussian(rate, noise), steps)], epsilons=epsilons, rel_width=WIDTH)).points


@given(RATES, NOISES, STEPS, EPSILONS)
@SETTINGS
def test_lower_never_exceeds_upper_and_eps_order(rate, noise, steps, epsilons):
    points = _points(rate, noise, steps, epsilons)
    for p in points:
        assert 0 <= p.lower <= p.upper <= 1
        assert p.upper - p.lower <= WIDTH * p.upper or p.upper <= mpq(1, 10**30)
    for a, b in zip(points, points[1:]):  # ε increasing: δ cannot increase
        assert b.lower <= a.upper


@given(RATES, NOISES, STEPS, st.integers(1, 6), EPSILONS)
@SETTINGS
def test_more_steps_never_lower_delta(rate, noise, steps, more, epsilons):
    few, many = _points(rate, noise, steps, epsilons), _points(rate, noise, steps + more, epsilons)
    for a, b in zip(few, many):
        assert a.lower <= b.upper


@given(NOISES, STEPS, EPSILONS, st.sampled_from([(mpq(1, 100), mpq(1, 10)), (mpq(1, 10), mpq(1, 2)),
                                                 (mpq(1, 2), mpq(1))]))
@SETTINGS
def test_larger_rate_never_lowers_delta(noise, steps, epsilons, rates):
    small, large = (_points(r, noise, steps, epsilons) for r in rates)
    for a, b in zip(small, large):
        assert a.lower <= b.upper


@given(RATES, STEPS, EPSILONS, st.sampled_from([(mpq(4, 5), mpq(1)), (mpq(1), mpq(2))]))
@SETTINGS
def test_more_noise_never_raises_delta(rate, steps, epsilons, noises):
    loud, quiet = (_points(rate, s, steps, epsilons) for s in reversed(noises))
    for a, b in zip(loud, quiet):
        assert a.lower <= b.upper


@given(RATES, NOISES, STEPS)
@settings(max_examples=6, deadline=None)
def test_epsilon_enclosure_is_ordered(rate, noise, steps):
    out = certify(Request([Stage(SubsampledGaussian(rate, noise), steps)], delta=mpq(1, 10**5), rel_width=WIDTH))
    assert 0 <= out.epsilon_lo <= out.epsilon_hi
    assert out.epsilon_hi - out.epsilon_lo <= WIDTH * out.epsilon_hi
