"""producer.sources.enclosures: arb-based rational enclosures against mpmath."""

import re
from fractions import Fraction

import mpmath
import pytest
from gmpy2 import mpq
from hypothesis import given, strategies as st

from producer.errors import InputError
from producer.rationals import parse_rational
from producer.sources.enclosures import (GUARD_BITS, exp_enclosure, exp_threshold, floor_log2,
                                         log_enclosure, round_down, round_up)

mpmath.mp.prec = 600


def mp(q):
    q = mpq(q)
    return mpmath.mpf(int(q.numerator)) / int(q.denominator)


rationals = st.fractions(min_value=-60, max_value=60, max_denominator=10**6).map(
    lambda f: mpq(f.numerator, f.denominator))


@given(rationals)
def test_exp_enclosure_contains_true_value(x):
    enc = exp_enclosure(x, bits=100)
    assert mp(enc.lo) <= mpmath.exp(mp(x)) <= mp(enc.hi)
    assert enc.width <= enc.hi * mpq(1, 2**90)


@given(st.fractions(min_value=Fraction(1, 10**6), max_value=10**9, max_denominator=10**6))
def test_log_enclosure_contains_true_value(f):
    x = mpq(f.numerator, f.denominator)
    enc = log_enclosure(x, bits=100)
    assert mp(enc.lo) <= mpmath.log(mp(x)) <= mp(enc.hi)
    assert enc.width < mpq(1, 2**80)


def test_exp_of_zero_and_log_of_one_are_exact():
    assert (exp_enclosure(0).lo, exp_enclosure(0).hi) == (1, 1)
    assert (log_enclosure(1).lo, log_enclosure(1).hi) == (0, 0)
    with pytest.raises(ValueError):
        log_enclosure(0)


@given(st.fractions(min_value=0, max_value=40, max_denominator=1000),
       st.integers(min_value=4, max_value=120))
def test_exp_threshold_encloses_with_gap_and_guard(f, gap_bits):
    eps = mpq(f.numerator, f.denominator)
    gap = mpq(1, 2**gap_bits)
    lo, hi = exp_threshold(eps, gap)
    e = mpmath.exp(mp(eps))
    assert mp(lo) <= e <= mp(hi)
    assert hi - lo <= gap
    if eps != 0:
        k = max(int(lo.denominator).bit_length(), int(hi.denominator).bit_length()) - 1
        guard = mpmath.mpf(2) ** -(k + GUARD_BITS)
        assert e - mp(lo) >= guard and mp(hi) - e >= guard


def test_exp_threshold_reads_decimal_epsilon_exactly():
    eps = parse_rational("4.91")
    assert eps == mpq(491, 100)
    lo, hi = exp_threshold(eps, mpq(1, 10**20))
    assert mp(lo) <= mpmath.exp(mpmath.mpf(491) / 100) <= mp(hi)


def test_exp_threshold_at_zero_is_exact_and_negative_refused():
    assert exp_threshold(0, mpq(1, 100)) == (1, 1)
    with pytest.raises(InputError):
        exp_threshold(-1, mpq(1, 100))


@given(st.fractions(min_value=Fraction(1, 10**30), max_value=10**30))
def test_floor_log2_matches_definition(f):
    q = mpq(f.numerator, f.denominator)
    e = floor_log2(q)
    assert mpq(2) ** e <= q < mpq(2) ** (e + 1)


@given(st.fractions(min_value=-1000, max_value=1000), st.integers(min_value=0, max_value=80))
def test_dyadic_rounding_is_directed(f, k):
    q = mpq(f.numerator, f.denominator)
    d, u = round_down(q, k), round_up(q, k)
    assert d <= q <= u and u - d <= mpq(1, 2**k)
    assert (d * 2**k).denominator == 1 and (u * 2**k).denominator == 1



@pytest.mark.parametrize("epsilon, shown, bits", [("1e1000", "1e+1000", "10^1000"), ("100000", "100000", "288642")])
def test_a_threshold_too_long_for_the_auditor_is_refused_in_one_short_line(epsilon, shown, bits):
    """ε = 1e1000 was an OverflowError (the message formatted ε as a float); the counts stay short."""
    from producer.errors import LimitError
    from producer.hierarchy.dg_bound import THRESHOLD_GAP
    from producer.rationals import parse_rational
    from producer.sources.enclosures import check_threshold_size
    with pytest.raises(LimitError, match=rf"^epsilon: each threshold λ± around e\^ε at ε = {re.escape(shown)} has "
                                         rf"about {re.escape(bits)} bits; the auditor decides it at "):
        check_threshold_size(parse_rational(epsilon), THRESHOLD_GAP)
