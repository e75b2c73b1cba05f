"""The auditor's normal-tail enclosures (auditor/pld/tails.py, auditor/pld/gaussian.py) against mpmath at 50 digits."""

import random
from fractions import Fraction

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from auditor.pld import tails
from auditor.pld.gaussian import delta_bounds, mills_bounds
from tests.auditor.dpsgd_reference import contains, delta_gaussian, mp, tail


@pytest.mark.parametrize("bits", [8, 64, 150, 400])
def test_pi_and_the_normal_constant_are_enclosed(bits):
    lo, hi = tails.pi_bounds(bits)
    assert mpmath.mpf(lo) / 2 ** bits <= +mpmath.pi <= mpmath.mpf(hi) / 2 ** bits
    assert hi - lo <= 16
    lo, hi = tails.inv_sqrt_2pi(bits)
    assert mpmath.mpf(lo) / 2 ** bits <= 1 / mpmath.sqrt(2 * mpmath.pi) <= mpmath.mpf(hi) / 2 ** bits
    assert hi - lo <= 4


@pytest.fixture(scope="module")
def table():
    return tails.TailTable(120)


def _check_point(table, z):
    W = table.bits
    Z = (z.numerator << W) // z.denominator
    lo, hi = table.at_point(Z)
    true = tail(mpmath.mpf(Z) / 2 ** W)
    assert mpmath.mpf(lo) / 2 ** W <= true <= mpmath.mpf(hi) / 2 ** W, (z, lo, hi)
    assert hi - lo < 2 ** (W - table.target), "narrower than 2^-target"


@settings(max_examples=300, deadline=None)
@given(st.fractions(min_value=-20, max_value=20, max_denominator=10 ** 6))
def test_tail_at_a_point_against_mpmath(table, z):
    _check_point(table, z)


def test_tail_at_centres_deep_tails_and_beyond(table):
    for z in [Fraction(0), Fraction(1, 64), Fraction(-1, 128), Fraction(3), Fraction(12), Fraction(-12),
              Fraction(table.last, 64), Fraction(table.last + 1, 64), Fraction(40), Fraction(-40)]:
        _check_point(table, z)


def test_tail_over_intervals_narrow_and_wide(table):
    W = table.bits
    rng = random.Random(5)
    for _ in range(200):
        a = rng.randint(-8 << W, 8 << W)
        width = rng.choice([0, 1, 1000, table.wide, table.wide + 1, 1 << (W - 3)])
        lo, hi = table.at(a, a + width)
        for end in (a, a + width):
            value = tail(mpmath.mpf(end) / 2 ** W)
            assert mpmath.mpf(lo) / 2 ** W <= value <= mpmath.mpf(hi) / 2 ** W
    assert table.many([]) == []


def test_a_larger_table_is_correspondingly_finer():
    big = tails.TailTable(300)
    _check_point(big, Fraction(17, 7))
    _check_point(big, Fraction(-31, 5))
    assert big.bits > 300


@pytest.mark.parametrize("z", ["3", "5.5", "10", "100", "12345"])
def test_mills_ratio_brackets(z):
    z = Fraction(z)
    lo, hi = mills_bounds(z, 4)
    true = tail(z) / (mpmath.exp(-mp(z) ** 2 / 2) / mpmath.sqrt(2 * mpmath.pi))
    assert contains(lo, hi, true)
    assert lo < hi


@pytest.mark.parametrize("mu2, epsilon, bits", [
    ("5/2", "1", 64), ("5/2", "4", 64), ("5/2", "492259/65536", 100), ("1/10000", "0", 64),
    ("4000000", "2000", 64), ("1/10000", "500", 120), ("1", "30", 160), ("100", "60", 128),
    ("3", "12", 100), ("1/4", "1/3", 80),
])
def test_gaussian_closed_form_against_mpmath(mu2, epsilon, bits):
    """The T-fold Gaussian: δ(ε) = Φ(−ε/μ + μ/2) − e^ε Φ(−ε/μ − μ/2) (an independent reference)."""
    lo, hi = delta_bounds(Fraction(mu2), Fraction(epsilon), bits)
    assert contains(lo, hi, delta_gaussian(Fraction(mu2), Fraction(epsilon)))
    assert hi - lo <= Fraction(1, 2 ** (bits - 8))


def test_gaussian_closed_form_relative_accuracy_for_small_deltas():
    # δ ≈ 1.4·10^-10: the enclosure at 100 bits is relatively tight enough for a 2^-24 margin
    lo, hi = delta_bounds(Fraction(3), Fraction(12), 100)
    assert (hi - lo) / lo < Fraction(1, 2 ** 40)
