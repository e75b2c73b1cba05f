"""auditor.enclosures.gaussian: kernel, geometric tail bound and normaliser against mpmath."""

from fractions import Fraction

import mpmath
import pytest
from hypothesis import given, settings, strategies as st

from auditor.enclosures import kernel_bounds, kernel_tail_upper, normaliser_bounds

mpmath.mp.prec = 600


def mp(q):
    return mpmath.mpf(q.numerator) / q.denominator


def kernel(n, sigma2):
    return mpmath.exp(-mpmath.mpf(n * n) / (2 * mp(sigma2)))


def true_normaliser(sigma2):
    """Z = θ₃(0, q) with q = exp(−1/(2σ²)) (Jacobi theta; fast at any σ²)."""
    return mpmath.jtheta(3, 0, mpmath.exp(-1 / (2 * mp(sigma2))))


@given(st.integers(min_value=0, max_value=200),
       st.fractions(min_value=Fraction(1, 10), max_value=1000, max_denominator=100))
def test_kernel_bounds(n, sigma2):
    lo, hi = kernel_bounds(n, sigma2, 120)
    assert mp(lo) <= kernel(n, sigma2) <= mp(hi)


@settings(max_examples=30)
@given(st.integers(min_value=1, max_value=60),
       st.fractions(min_value=Fraction(1, 10), max_value=100, max_denominator=100))
def test_tail_upper_bounds_the_tail(first, sigma2):
    tail = mpmath.nsum(lambda n: kernel(n, sigma2), [first, mpmath.inf])
    assert tail <= mp(kernel_tail_upper(first, sigma2, 120))


@pytest.mark.parametrize("sigma2", [Fraction(1, 10), Fraction(1), Fraction(9), Fraction(49, 3), Fraction(2000)])
def test_normaliser_bounds(sigma2):
    lo, hi = normaliser_bounds(sigma2, 160)
    z = true_normaliser(sigma2)
    assert mp(lo) <= z <= mp(hi)
    assert hi - lo < Fraction(1, 2 ** 140)


def test_tail_bound_is_tight_for_small_ratio():
    # σ² = 9, tail from 25: the ratio r = exp(−51/18) is small, so the bound is within 7 %
    tail = mpmath.nsum(lambda n: kernel(n, 9), [25, mpmath.inf])
    assert mp(kernel_tail_upper(25, 9, 120)) <= tail * mpmath.mpf("1.07")
