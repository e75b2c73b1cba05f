"""producer.resource.rewards: the KL reward enclosures against an independent mpmath sum.

mpmath evaluates g(k, d, j) = Σ_y K_k(y)·log(K_k(y)/K_{k−d}(y − j)) straight from
the definition (the hidden draw enumerated, the normaliser Z summed, |y|
summed far beyond any tail), at 80 digits; it must lie in [g_lo, g_hi].
"""

import mpmath
import pytest
from gmpy2 import mpq

from producer.laws import Gamma
from producer.resource.rewards import RewardTable, diameter, max_diameter, rounded_rewards


def _row(a, B, k, sigma2, z, y):
    return sum(mpmath.exp(-mpmath.mpf(y + (a * k + u) // B) ** 2 / (2 * sigma2)) for u in range(B)) / (B * z)


def mp_reward(a, B, sigma2, k, d, j):
    sigma2 = mpmath.mpf(sigma2.numerator) / sigma2.denominator
    span = int(40 * mpmath.sqrt(sigma2)) + 40
    z = mpmath.nsum(lambda n: mpmath.exp(-n * n / (2 * sigma2)), [-mpmath.inf, mpmath.inf])
    total = mpmath.mpf(0)
    for y in range(-span, span + 1):
        p = _row(a, B, k, sigma2, z, y)
        q = _row(a, B, k - d, sigma2, z, y - j)
        if p > 0:
            total += p * mpmath.log(p / q)
    return total


CASES = [((1, 2), mpq(1)), ((1, 2), mpq(1, 4)), ((1, 3), mpq(9, 4)), ((2, 5), mpq(1)), ((3, 7), mpq(2))]


@pytest.mark.parametrize("ab, sigma2", CASES)
def test_enclosures_contain_the_mpmath_value(ab, sigma2):
    mpmath.mp.dps = 80
    gamma = Gamma(*ab)
    table = RewardTable(gamma, sigma2)
    for k in range(gamma.B):
        for d, j in ((0, 1), (1, 1), (1, -1), (-1, 0), (1, 0)):
            value = mp_reward(gamma.a, gamma.B, sigma2, k, d, j)
            lo, hi = table.lo[(k, d, j)], table.hi[(k, d, j)]
            assert mpmath.mpf(lo.numerator) / lo.denominator <= value <= mpmath.mpf(hi.numerator) / hi.denominator
            assert hi - lo < mpq(1, 2 ** 100)


def test_structure_zero_idle_bounds_and_mirror():
    gamma, sigma2 = Gamma(2, 5), mpq(1)
    table = RewardTable(gamma, sigma2)
    R = 2 / sigma2
    for k in range(gamma.B):
        assert table.lo[(k, 0, 0)] == table.hi[(k, 0, 0)] == 0
        for d in (-1, 0, 1):
            for j in (-1, 0, 1):
                assert 0 <= table.lo[(k, d, j)] <= table.hi[(k, d, j)] <= R
                mirror = ((-k) % gamma.B, -d, -j)
                assert abs(table.lo[(k, d, j)] - table.lo[mirror]) < mpq(1, 2 ** 100)
    # g(k, 0, ±1) <= 1/(2σ²) with equality at k ≡ 0 (the paper's shift bound)
    assert table.lo[(0, 0, 1)] <= 1 / (2 * sigma2) <= table.hi[(0, 0, 1)]


def test_offset_diameter_is_at_most_three_and_two_at_one_half():
    assert max_diameter(Gamma(1, 2)) == 2
    assert all(max_diameter(Gamma(a, B)) <= 3 for a, B in ((1, 3), (2, 5), (3, 7), (5, 11)))
    assert diameter(1, 2, 0, 0, 0) == 0


def test_rounded_rewards_are_on_the_grid_within_the_error():
    mpmath.mp.dps = 60
    gamma, sigma2 = Gamma(1, 3), mpq(1, 4)
    values, eta = rounded_rewards(gamma, sigma2, 14)
    for (k, d, j), v in values.items():
        assert (v * 2 ** 14).denominator == 1
        if (d, j) in ((1, 1), (0, 1)):
            exact = mp_reward(gamma.a, gamma.B, sigma2, k, d, j)
            assert abs(mpmath.mpf(v.numerator) / v.denominator - exact) <= mpmath.mpf(eta.numerator) / eta.denominator
