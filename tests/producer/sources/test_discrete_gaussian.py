"""producer.sources.discrete_gaussian: atoms are lower bounds, τ bounds the TV (mpmath at 600 bits)."""

from fractions import Fraction

import mpmath
import pytest
from gmpy2 import mpq, mpz
from hypothesis import given, settings, strategies as st

from producer.errors import InputError
from producer.sources.discrete_gaussian import (ATOM_GUARD, DiscreteGaussianSource, choose_radius_scale,
                                                normaliser_ball, tail_mass_upper)
from producer.sources.enclosures import enclosure_of, working_precision

mpmath.mp.prec = 600


def mp(q):
    q = mpq(q)
    return mpmath.mpf(int(q.numerator)) / int(q.denominator)


def true_normaliser(sigma2):
    """Z = θ₃(0, q) with q = exp(−1/(2σ²)) (Jacobi theta)."""
    return mpmath.jtheta(3, 0, mpmath.exp(-1 / (2 * mp(sigma2))))


def true_masses(sigma2, radius):
    z = true_normaliser(sigma2)
    s = mp(sigma2)
    return {n: mpmath.exp(-mpmath.mpf(n * n) / (2 * s)) / z for n in range(-radius, radius + 1)}, z


def check_source(source):
    L, S = source.radius, source.scale
    g, z = true_masses(source.sigma2, L)
    assert len(source.weights) == 2 * L + 1 and source.offset == -L
    assert sum(source.weights) == S
    assert all(w >= 0 for w in source.weights)
    for n in range(-L, L + 1):
        w = source.weights[n + L]
        assert w == source.weights[-n + L]                      # symmetric
        if n != 0:
            assert w <= S * g[n]                                # the atom is a lower bound
            if S * g[n] >= 1:                                   # with the documented guard
                assert S * g[n] - w >= mp(ATOM_GUARD)
            assert S * g[n] - w < 1 + mp(ATOM_GUARD)            # and loses at most one unit
    tv = mpmath.mpf(int(source.weights[L])) / int(S) - 1 / z   # = ν(0) − g(0)
    assert 0 < tv <= mp(source.tau)
    assert mp(source.tau) - tv < mpmath.mpf(2) ** -(int(S.bit_length()) + 30)


@pytest.mark.parametrize("sigma2, radius, scale", [
    (mpq(9), 24, mpz(2) ** 61),
    (mpq(9), 5, mpz(1000)),
    (mpq(1), 6, mpz(10) ** 12),
    (mpq(1, 4), 3, mpz(97)),
    (mpq(49, 3), 40, mpz(2) ** 100 + 7),
])
def test_source_atoms_are_lower_bounds_and_tau_bounds_tv(sigma2, radius, scale):
    check_source(DiscreteGaussianSource.from_radius_scale(sigma2, radius, scale))


@settings(max_examples=25)
@given(st.fractions(min_value=Fraction(1, 10), max_value=50, max_denominator=50),
       st.integers(min_value=1, max_value=20), st.integers(min_value=1, max_value=2**70))
def test_random_sources(f, radius, scale):
    sigma2 = mpq(f.numerator, f.denominator)
    check_source(DiscreteGaussianSource.from_radius_scale(sigma2, radius, scale))


def test_normaliser_ball_contains_true_normaliser():
    for sigma2 in (mpq(1, 3), mpq(9), mpq(1000)):
        with working_precision(200):
            enc = enclosure_of(normaliser_ball(sigma2, 160))
        z = true_normaliser(sigma2)
        assert mp(enc.lo) <= z <= mp(enc.hi)
        assert enc.width < mpq(1, 2**140)


@pytest.mark.parametrize("sigma2, radius", [(mpq(9), 24), (mpq(9), 1), (mpq(1, 2), 3), (mpq(100), 10)])
def test_tail_mass_upper_bounds_true_tail(sigma2, radius):
    g, _ = true_masses(sigma2, radius)
    tail = 1 - sum(g.values())
    bound = mp(tail_mass_upper(sigma2, radius))
    assert tail <= bound
    if (sigma2, radius) == (9, 24):  # the geometric bound is tight when the ratio r is small
        assert bound <= tail * (1 + 1 / mpmath.mpf(10))


@pytest.mark.parametrize("sigma2, target", [(mpq(9), mpq(3, 10**16)), (mpq(1), mpq(1, 10**6)),
                                            (mpq(25, 2), mpq(1, 10**30))])
def test_width_rule_meets_tau_target(sigma2, target):
    radius, scale = choose_radius_scale(sigma2, target)
    assert tail_mass_upper(sigma2, radius) <= target * mpq(7, 8)
    if radius > 1:
        assert tail_mass_upper(sigma2, radius - 1) > target * mpq(7, 8)   # smallest such L
    source = DiscreteGaussianSource.from_radius_scale(sigma2, radius, scale)
    assert source.tau < target


def test_bad_source_requests_are_refused():
    with pytest.raises(InputError):
        DiscreteGaussianSource.from_radius_scale(mpq(0), 3, 100)
    with pytest.raises(InputError):
        DiscreteGaussianSource.from_radius_scale(mpq(-1), 3, 100)
    with pytest.raises(InputError):
        DiscreteGaussianSource.from_radius_scale(mpq(9), 0, 100)
    with pytest.raises(InputError):
        DiscreteGaussianSource.from_radius_scale(mpq(9), 3, 0)
    with pytest.raises(InputError):
        DiscreteGaussianSource.from_radius_scale(mpq(9), 5000, 100)
    with pytest.raises(InputError):
        choose_radius_scale(mpq(9), mpq(0))
