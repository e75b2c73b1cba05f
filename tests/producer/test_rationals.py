import pytest
from gmpy2 import mpq

from producer.errors import InputError
from producer.rationals import decimal_outward, format_rational, parse_rational


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
