"""producer/rationals.py: numbers read exactly under the digit limits (the command line's and the API's),
and decimal displays rounded outward that always contain the value."""

import math
from fractions import Fraction

import pytest
from gmpy2 import mpq, mpz
from hypothesis import given, strategies as st

from producer.errors import InputError, LimitError
from producer.rationals import (MAX_DIGITS, decimal_outward, describe_rational, float_up, format_rational,
                                parse_integer, parse_rational, significant_outward)

@pytest.mark.parametrize("text, value", [
    ("3/7", mpq(3, 7)), ("-6/4", mpq(-3, 2)), ("2", mpq(2)), ("4.91", mpq(491, 100)),
    ("1e-4", mpq(1, 10000)), (".5", mpq(1, 2)), (" 7 / 21 ", mpq(1, 3)),
])
def test_parse_exactly(text, value):
    assert parse_rational(text) == value


@pytest.mark.parametrize("text", ["1/0", "x", "1/2/3", "nan", "inf", "", "0x10"])
def test_parse_rejects(text):
    with pytest.raises(InputError):
        parse_rational(text)


def test_format_is_canonical():
    assert format_rational(mpq(6, 4)) == "3/2"
    assert format_rational(mpq(-4, 2)) == "-2"
    assert format_rational(mpq(0)) == "0"


@pytest.mark.parametrize("value, digits", [
    (mpq(10**30 + 1, 3 * 10**31), 40), (mpq(2**128 + 1, 2**128), 8), (mpq(-1, 3), 3), (mpq(5, 1), 2),
    (mpq(123456789, 10**9), 9),
])
def test_outward_decimals_bracket_the_value(value, digits):
    lo, hi = decimal_outward(value, digits, -1), decimal_outward(value, digits, 1)
    assert parse_rational(lo) <= value <= parse_rational(hi)
    assert parse_rational(hi) - parse_rational(lo) <= mpq(1, 10**digits)


@given(st.fractions(min_value=Fraction(-10**30), max_value=Fraction(10**30), max_denominator=10**40))
def test_float_up_is_the_smallest_float_not_below_the_value(value):
    f = float_up(value)
    below = math.nextafter(f, -math.inf)
    assert mpq(f) >= value > mpq(below)


def test_float_up_keeps_floats_and_steps_over_a_rounded_down_one():
    assert float_up(mpq(1, 4)) == 0.25 and float_up(0) == 0.0
    assert float_up(mpq(1, 3)) == math.nextafter(1 / 3, 1)  # float(1/3) is below one third
    assert float_up(mpq(1, 10)) == 0.1  # the float 0.1 is above one tenth


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
    for bad in (True, 1.5, "1.5e0", "1/2", None, float("nan")):
        with pytest.raises(InputError):
            parse_integer(bad)
    assert parse_rational(Fraction(6, 4)) == mpq(3, 2)


@pytest.mark.parametrize("value, integer", [("1e5", 100000), (1e5, 100000), ("2.0", 2), ("1E3", 1000), (7, 7)])
def test_integers_in_exponent_notation(value, integer):
    assert parse_integer(value) == integer


@pytest.mark.parametrize("text, integer", [("2^80", 2 ** 80), (" 10 ^ 24 ", 10 ** 24), ("-2^3", -8), ("7^0", 1),
                                           ("1^999999", 1)])
def test_integers_as_powers(text, integer):
    assert parse_integer(text) == integer


@pytest.mark.parametrize("text, value", [("2^3", mpq(8)), ("-1/2^3", mpq(-1, 8)), (" 2 ^ 3 / 3 ^ 2 ", mpq(8, 9)),
                                         ("1/2^80", mpq(1, 2 ** 80))])
def test_rationals_with_powers(text, value):
    assert parse_rational(text) == value


@pytest.mark.parametrize("text, error", [("3/2^-1", InputError), ("2^3.5", InputError), ("1/0^1", InputError),
                                         ("1/10^20000", LimitError)])
def test_rationals_with_bad_powers_are_refused(text, error):
    with pytest.raises(error):
        parse_rational(text)


def test_a_power_at_the_digit_limit():
    assert parse_integer("10^9999") == 10 ** 9999


@pytest.mark.parametrize("text", ["10^10000", "2^40000", "3^" + "9" * 7, "2^" + "9" * 100])
def test_a_power_beyond_the_digit_limit_is_refused_before_it_is_built(text):
    with pytest.raises(LimitError, match="more than 10000 digits"):
        parse_integer(text)


@pytest.mark.parametrize("text", ["2^-1", "2.5^2", "2^1/2", "2^^3", "2**3", "^3", "2^"])
def test_other_powers_are_not_integers(text):
    with pytest.raises(InputError, match="is not an integer"):
        parse_integer(text)


@given(st.floats(allow_nan=False, allow_infinity=False))
def test_a_float_is_read_as_its_shortest_decimal(value):
    read = parse_rational(value)
    assert float(Fraction(int(read.numerator), int(read.denominator))) == value  # prints as the float
    assert read == parse_rational(repr(value))


def test_numpy_scalars_are_read_exactly():
    np = pytest.importorskip("numpy")
    assert parse_rational(np.float64(0.1)) == mpq(1, 10)  # what was typed, not the binary double
    assert parse_rational(np.float32(0.1)) == mpq(1, 10)  # float32's own shortest decimal
    assert parse_integer(np.int64(100000)) == 100000 and parse_rational(np.uint8(3)) == 3
    for bad in (np.float64("inf"), np.bool_(True)):
        with pytest.raises(InputError):
            parse_rational(bad)


def test_a_numpy_array_is_a_list_of_items_never_a_number():
    """A notebook's np.array([1, 2]) is the items of a list parameter (epsilons, taus, weights); as a single
    number it is refused in one line (it used to be numpy's TypeError)."""
    import numpy as np
    from producer.rationals import is_sequence
    assert is_sequence(np.array([1, 2])) and is_sequence([1]) and is_sequence((1,)) and is_sequence(range(2))
    assert not is_sequence(np.array(1.5)) and not is_sequence(np.float64(1.5)) and not is_sequence("1,2")
    assert not is_sequence(np.array([[1, 2]]))
    for value in (np.array([1, 2]), np.array([[1]])):
        with pytest.raises(InputError, match=r"^epsilon: expected a rational like 3/7, got array"):
            parse_rational(value, "epsilon")
    with pytest.raises(InputError, match="^budget: .* is not an integer"):
        parse_integer(np.array([3]), "budget")
    assert parse_rational(np.array(0.5)) == mpq(1, 2) and parse_integer(np.int64(3)) == 3


# ---- the API's parameters that are not one number: left out, switches, lists -----------------------------

def test_a_value_left_out_is_refused_in_one_line_naming_the_parameter():
    from producer.rationals import required
    assert required(0, "budget", "C") == 0 and required("", "budget", "C") == ""  # only None is left out
    with pytest.raises(InputError, match=r"^budget: give C \(budget=C\)$"):
        required(None, "budget", "C (budget=C)")


@pytest.mark.parametrize("value", ["false", "no", "True", "", 0, 1, None, [True]])
def test_a_switch_is_true_or_false_and_nothing_that_merely_looks_like_one(value):
    from producer.rationals import parse_switch
    with pytest.raises(InputError, match="^laplace: expected True or False, got "):
        parse_switch(value, "laplace")
    assert parse_switch(True, "laplace") is True and parse_switch(False, "laplace") is False


@pytest.mark.parametrize("text", ["1,,2", "1,2,", ",1", "", " , "])
def test_an_empty_item_of_a_list_is_refused_never_dropped(text):
    from producer.rationals import epsilon_items, list_items, split_items
    with pytest.raises(InputError, match=rf"^epsilons: an empty ε in {text!r}: give numbers separated by commas, "
                                         r"e\.g\. 1/2,1,2$"):
        epsilon_items(text)
    with pytest.raises(InputError, match=rf"^deadlines: an empty value in {text!r}: give numbers separated by "
                                         r"commas$"):
        list_items(text, "deadlines")
    with pytest.raises(InputError, match=rf"^an empty ε in {text!r}"):  # the command line's words, led by its own
        split_items(text, item="ε")


def test_list_items_come_from_a_text_a_sequence_or_one_value():
    from producer.rationals import list_items
    assert list_items(" 1, 2 ,3", "taus") == ["1", "2", "3"]
    assert list_items((1, 2), "taus") == [1, 2] and list_items(5, "taus") == [5] and list_items("5", "taus") == ["5"]
    with pytest.raises(InputError, match="^taus: give one value, a comma-separated text or a list$"):
        list_items(None, "taus")
