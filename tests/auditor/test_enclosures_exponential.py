"""auditor.enclosures.exponential: Taylor enclosures of exp and log against mpmath."""

from fractions import Fraction

import mpmath
import pytest
from hypothesis import given, strategies as st

from auditor.enclosures import exp_bounds, log_bounds

mpmath.mp.prec = 800


def mp(q):
    return mpmath.mpf(q.numerator) / q.denominator


@given(st.fractions(min_value=-200, max_value=200, max_denominator=10**8), st.integers(min_value=8, max_value=300))
def test_exp_bounds_enclose_and_are_tight(x, bits):
    lo, hi = exp_bounds(x, bits)
    e = mpmath.exp(mp(x))
    assert mp(lo) <= e <= mp(hi)
    assert (hi - lo) <= hi * Fraction(1, 2 ** bits)
    assert lo.denominator & (lo.denominator - 1) == 0 and hi.denominator & (hi.denominator - 1) == 0


@given(st.fractions(min_value=Fraction(1, 10**8), max_value=10**12, max_denominator=10**8),
       st.integers(min_value=8, max_value=300))
def test_log_bounds_enclose_and_are_tight(x, bits):
    lo, hi = log_bounds(x, bits)
    assert mp(lo) <= mpmath.log(mp(x)) <= mp(hi)
    assert hi - lo <= Fraction(1, 2 ** bits)


@pytest.mark.parametrize("x", [Fraction(1, 2), Fraction(-1, 2), Fraction(1, 3), Fraction(2), Fraction(1000),
                               Fraction(-1000), Fraction(1, 10**12), Fraction(-1, 10**12)])
def test_exp_edge_arguments(x):
    lo, hi = exp_bounds(x, 200)
    assert mp(lo) <= mpmath.exp(mp(x)) <= mp(hi) and lo < hi


@pytest.mark.parametrize("x", [Fraction(2), Fraction(1, 2), Fraction(4, 3), Fraction(2, 3),
                               Fraction(3, 2) - Fraction(1, 10**20), Fraction(2 ** 100), Fraction(1, 2 ** 100)])
def test_log_edge_arguments(x):
    lo, hi = log_bounds(x, 200)
    assert mp(lo) <= mpmath.log(mp(x)) <= mp(hi) and lo < hi


def test_exact_points_and_domain():
    assert exp_bounds(0) == (1, 1)
    assert log_bounds(1) == (0, 0)
    with pytest.raises(ValueError):
        log_bounds(0)
    with pytest.raises(ValueError):
        log_bounds(Fraction(-1, 2))
