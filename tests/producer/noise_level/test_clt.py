"""producer.noise_level.clt: the central-limit estimates for DP-SGD are consistent and near the certified answers
(they only steer the search)."""

import math

import mpmath
import pytest

from producer.noise_level import clt


@pytest.mark.parametrize("epsilon, delta", [(0.0, 0.1), (1.0, 1e-5), (3.0, 1e-5), (8.0, 1e-10)])
def test_mu_star_is_where_the_gaussian_mechanism_meets_the_target(epsilon, delta):
    mu = mpmath.mpf(clt.mu_star(epsilon, delta))
    reference = mpmath.ncdf(mu / 2 - epsilon / mu) - mpmath.exp(epsilon) * mpmath.ncdf(-mu / 2 - epsilon / mu)
    assert float(reference) == pytest.approx(delta, rel=1e-6)


@pytest.mark.parametrize("rate, steps", [(0.01, 1000), (256 / 60000, 14063), (0.5, 10), (1.0, 100)])
def test_the_three_solutions_invert_each_other(rate, steps):
    mu = clt.mu_star(2.0, 1e-5)
    noise = clt.noise_multiplier(mu, rate, steps)
    assert clt.steps(mu, rate, noise) == pytest.approx(steps, rel=1e-9)
    if rate < 1:
        assert clt.sampling_rate(mu, noise, steps) == pytest.approx(rate, rel=1e-9)


def test_at_rate_one_the_run_is_the_gaussian_mechanism():
    assert clt.noise_multiplier(2.0, 1, 100) == pytest.approx(math.sqrt(100) / 2.0)
    assert clt.steps(2.0, 1, 5.0) == pytest.approx(100.0)


def test_the_estimate_is_near_the_certified_noise_multiplier():
    """Batch 256 of 60,000 for 60 epochs (q = 8/1875, T = 14063), ε = 3, δ = 10^-5: the certificate puts the
    crossing between σ = 0.9682 (misses) and 0.9691 (meets); the estimate is within 3 per cent."""
    estimate = clt.noise_multiplier(clt.mu_star(3.0, 1e-5), 8 / 1875, 14063)
    assert abs(estimate / 0.9687 - 1) < 0.03
