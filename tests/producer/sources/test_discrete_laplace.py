"""producer.sources.discrete_laplace: atoms are lower bounds, τ bounds the TV (mpmath at 600 bits).

The reference masses use the normaliser summed term by term at high precision
(not the closed form the producer uses), so the closed form is checked too.
"""

from fractions import Fraction

import mpmath
import pytest
from gmpy2 import mpq, mpz
from hypothesis import given, settings, strategies as st

from producer.errors import InputError, LimitError
from producer.sources.discrete_laplace import (DiscreteLaplaceSource, LaplaceNoise, choose_radius_scale,
                                               mass_ball, tail_mass_upper)
from producer.sources.enclosures import enclosure_of, working_precision

mpmath.mp.prec = 600


def mp(q):
    q = mpq(q)
    return mpmath.mpf(int(q.numerator)) / int(q.denominator)


def summed_normaliser(t):
    """Σ_n e^{−|n|/t} summed directly (mpmath's nsum), independent of the closed form."""
    s = mp(t)
    return 1 + 2 * mpmath.nsum(lambda n: mpmath.exp(-n / s), [1, mpmath.inf])


def true_mass(n, t):
    return mpmath.exp(-abs(n) / mp(t)) / summed_normaliser(t)


def check_source(source):
    L, S, t = source.radius, source.scale, source.noise.t
    z = summed_normaliser(t)
    assert len(source.weights) == 2 * L + 1 and source.offset == -L
    assert sum(source.weights) == S and all(w >= 0 for w in source.weights)
    masses = {n: mpmath.exp(-abs(n) / mp(t)) / z for n in range(-L, L + 1)}
    for n in range(-L, L + 1):
        w = source.weights[n + L]
        assert w == source.weights[-n + L]
        if n != 0:
            assert mp(w) <= S * masses[n]
    tv = mp(source.weights[L]) / S - masses[0]
    assert tv >= 0 and mp(source.tau) >= tv


ts = st.fractions(Fraction(1, 4), Fraction(20), max_denominator=8)


@settings(max_examples=25, deadline=None)
@given(t=ts, n=st.integers(0, 60))
def test_mass_ball_contains_the_true_mass(t, n):
    with working_precision(200):
        ball = enclosure_of(mass_ball(n, mpq(t)))
    lo, hi = ball.lo, ball.hi
    true = true_mass(n, mpq(t))
    assert mp(lo) <= true <= mp(hi)


@settings(max_examples=25, deadline=None)
@given(t=ts, radius=st.integers(1, 80))
def test_tail_bound_is_an_upper_bound(t, radius):
    t = mpq(t)
    z = summed_normaliser(t)
    tail = 2 * mpmath.nsum(lambda n: mpmath.exp(-n / mp(t)), [radius + 1, mpmath.inf]) / z
    bound = mp(tail_mass_upper(t, radius))
    assert tail <= bound <= tail * (1 + mpmath.mpf(2) ** -50)


@settings(max_examples=15, deadline=None)
@given(t=ts, radius=st.integers(1, 40), bits=st.integers(4, 80))
def test_source_atoms_are_below_the_masses_and_tau_bounds_the_tv(t, radius, bits):
    check_source(DiscreteLaplaceSource.from_radius_scale(mpq(t), radius, mpz(2) ** bits))


def test_tau_is_close_to_the_tail_at_large_scale():
    source = DiscreteLaplaceSource.from_radius_scale(mpq(2), 30, mpz(2) ** 90)
    check_source(source)
    tail = mp(tail_mass_upper(mpq(2), 30))
    assert mp(source.tau) < tail * (1 + mpmath.mpf(10) ** -6)


@pytest.mark.parametrize("t, target", [(mpq(2), mpq(1, 10**10)), (mpq(1, 3), mpq(1, 10**14)), (mpq(10), mpq(1, 10**8))])
def test_width_rule_meets_its_target(t, target):
    radius, scale = choose_radius_scale(t, target)
    source = DiscreteLaplaceSource.from_radius_scale(t, radius, scale)
    check_source(source)
    assert source.tau < target
    # the radius is the smallest one with a small enough tail
    assert tail_mass_upper(t, radius - 1) > target * 7 / 8 or radius == 1


def test_json_names_the_family_and_has_no_sigma2():
    data = DiscreteLaplaceSource.from_radius_scale(mpq(5, 2), 3, 1024).as_json()
    assert data["sigma2"] is None and data["noise"] == {"family": "discrete-laplace", "t": "5/2"}
    assert data["offset"] == -3 and len(data["weights"]) == 7


@pytest.mark.parametrize("t, error", [(0, InputError), (-1, InputError), (mpq(1, 1001), LimitError),
                                      (1001, LimitError)])
def test_scale_limits(t, error):
    with pytest.raises(error):
        LaplaceNoise(t)
