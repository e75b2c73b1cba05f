"""producer.noise_level.hints: the float estimates agree with mpmath references (they only steer the search)."""

import math

import mpmath
import pytest

from producer.noise_level import hints


@pytest.mark.parametrize("sigma2, budget, epsilon", [(9, 1, 1.0), (400, 100, 2.0), (4000, 1000, 2.0), (1, 4, 0.5)])
def test_the_gaussian_estimate_is_the_continuous_gaussian_pair(sigma2, budget, epsilon):
    mu = mpmath.sqrt(mpmath.mpf(budget) / sigma2)
    reference = mpmath.ncdf(mu / 2 - epsilon / mu) - mpmath.exp(epsilon) * mpmath.ncdf(-mu / 2 - epsilon / mu)
    assert hints.gaussian_delta(sigma2, budget, epsilon) == pytest.approx(float(reference), rel=1e-9)


@pytest.mark.parametrize("t, budget, epsilon", [(2, 1, 0.1), (10, 50, 1.0), (60, 1000, 2.0)])
def test_the_laplace_estimate_is_the_direct_sum_at_small_budget(t, budget, epsilon):
    """The binomial form in mpmath at 40 digits."""
    with mpmath.workdps(40):
        p = 1 / (1 + mpmath.exp(-mpmath.mpf(1) / t))
        ref = mpmath.fsum(mpmath.binomial(budget, k) * p ** k * (1 - p) ** (budget - k)
                          * max(0, 1 - mpmath.exp(epsilon - mpmath.mpf(2 * k - budget) / t))
                          for k in range(budget + 1))
    assert hints.laplace_delta(t, budget, epsilon) == pytest.approx(float(ref), rel=1e-9)


def test_the_laplace_form_at_one_release_is_the_sum_over_z():
    t, epsilon = 3, 0.2
    with mpmath.workdps(40):
        r = mpmath.exp(-mpmath.mpf(1) / t)
        law = lambda n: (1 - r) / (1 + r) * r ** abs(n)  # noqa: E731
        ref = mpmath.fsum(max(0, law(n) - mpmath.exp(epsilon) * law(n - 1)) for n in range(-400, 401))
    assert hints.laplace_delta(t, 1, epsilon) == pytest.approx(float(ref), rel=1e-9)


def test_solve_finds_the_crossing_of_a_falling_function():
    x = hints.solve(lambda s: math.exp(-s), 1e-3, 0.01, 1e6)
    assert math.exp(-x) <= 1e-3 and x == pytest.approx(math.log(1e3), rel=1e-9)
    assert hints.solve(lambda s: 0.0, 0.5, 1, 10) == 1
    assert hints.solve(lambda s: 1.0, 0.5, 1, 10) == 10
