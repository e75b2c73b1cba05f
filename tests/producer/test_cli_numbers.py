"""Numbers on the command line and in the answer line: exact reading under the
digit limits, and outward-rounded displays that always contain the value."""

from fractions import Fraction

import pytest
from gmpy2 import mpq, mpz
from hypothesis import given, strategies as st

from producer.display import show_interval
from producer.errors import InputError, LimitError
from producer.rationals import (MAX_DIGITS, describe_rational, parse_integer, parse_rational,
                                significant_outward)

rationals = st.fractions(min_value=Fraction(-10**30), max_value=Fraction(10**30),
                         max_denominator=10**40).filter(lambda f: f != 0)


@given(rationals, st.integers(min_value=1, max_value=15))
def test_significant_outward_brackets_the_value(value, digits):
    lo = parse_rational(significant_outward(value, digits, -1))
    hi = parse_rational(significant_outward(value, digits, +1))
    assert lo <= value <= hi
    # at most one unit in the last shown place apart, measured against the value's own magnitude
    assert hi - lo <= abs(mpq(value)) * mpq(2, 10 ** (digits - 1))


@given(rationals)
def test_describe_rational_is_exact_unless_marked(value):
    text = describe_rational(value)
    if text.startswith("≈"):
        assert len(str(value)) > 24
    else:
        assert parse_rational(text) == value


@pytest.mark.parametrize("value, text", [
    (mpq(1, 10**6), "1e-06"), (mpq(491, 100), "4.91"), (mpq(9), "9"), (mpq(9, 4), "2.25"),
    (mpq(1, 3), "1/3"), (mpq(-5, 2), "-2.5"), (mpq(336, 1009), "336/1009"),
])
def test_describe_rational_examples(value, text):
    assert describe_rational(value) == text


def test_show_interval_of_the_published_value():
    # the decimal displays of the dg-interval reference at γ = 1/3, σ² = 9, C = 2, ε = 2
    lo, hi = mpq(843119885145458295, 10**22), mpq(843119885309728206, 10**22)
    assert show_interval(lo, hi) == "[8.4311988514e-05, 8.4311988531e-05]"


@pytest.mark.parametrize("text, value", [
    ("1e-4", mpq(1, 10**4)), ("-0.5", mpq(-1, 2)), ("1.", mpq(1)), (".25", mpq(1, 4)),
    ("3/7\n", mpq(3, 7)), ("+2", mpq(2)), ("1E3", mpq(1000)), ("0e-999999", mpq(0)),
    ("1/" + "1" * MAX_DIGITS, mpq(1, mpz("1" * MAX_DIGITS))),
])
def test_accepted_forms(text, value):
    assert parse_rational(text) == value


@pytest.mark.parametrize("text", [".", "+", "e5", "1e", "1/2/3", "0x1", "1_000", "٣", "inf", "1/-2"])
def test_refused_forms(text):
    with pytest.raises(InputError):
        parse_rational(text)


@pytest.mark.parametrize("text", [
    "1" * (MAX_DIGITS + 1), "1/" + "1" * (MAX_DIGITS + 1), "1e-1000000", "1e" + str(MAX_DIGITS),
    "1e-" + str(MAX_DIGITS + 1), "0." + "0" * MAX_DIGITS + "1", "1" * (3 * MAX_DIGITS),
])
def test_digit_limit_is_a_limit_error(text):
    with pytest.raises(LimitError):
        parse_rational(text)


def test_integers_and_python_values_under_the_limit():
    assert parse_integer(" -12 ") == -12
    with pytest.raises(LimitError):
        parse_integer("9" * (MAX_DIGITS + 1))
    with pytest.raises(LimitError):
        parse_integer(10 ** MAX_DIGITS)
    assert parse_integer(10 ** MAX_DIGITS - 1) == 10 ** MAX_DIGITS - 1
    for bad in (True, 1.0, "1.0", "1/2", None):
        with pytest.raises(InputError):
            parse_integer(bad)
    assert parse_rational(Fraction(6, 4)) == mpq(3, 2)
    with pytest.raises(InputError):
        parse_rational(0.5)
