import pytest

from producer.errors import InputError
from producer.laws import FiniteLaw, Gamma, parse_gamma


def test_default_offset_centres_the_law():
    assert FiniteLaw.from_strings("1,2,1").offset == -1
    assert FiniteLaw.from_strings("1,2,3,4").offset == -1


@pytest.mark.parametrize("text, fragment", [
    ("2/4", "not reduced"), ("3/3", "0 < a < B"), ("0/3", "0 < a < B"), ("1/1", "at least 2"),
    ("1/x", "not an integer"), ("3", "not in \\(0, 1\\)"), ("1.5", "not in \\(0, 1\\)"),
    ("-0.5", "not in \\(0, 1\\)"), ("0.5x", "not a rational"),
])
def test_bad_gamma(text, fragment):
    with pytest.raises(InputError, match=fragment):
        Gamma.from_string(text)


@pytest.mark.parametrize("text, reduced", [
    ("0.5", "1/2"), ("0.25", "1/4"), ("0.333", "333/1000"), ("5e-1", "1/2"), ("1/2", "1/2"),
    ("0", "0"), ("0.0", "0"), ("0/1", "0"), ("0.000", "0"),
])
def test_decimals_are_read_exactly_like_fractions(text, reduced):
    # one reading for every decimal: 0.5 is accepted exactly as 0.0 is (README: decimals are read exactly)
    assert str(Gamma.from_string(text)) == reduced


@pytest.mark.parametrize("value, reduced", [(0.5, "1/2"), (0.25, "1/4"), (0.0, "0"), (0.1, "1/10")])
def test_a_float_gamma_is_its_shortest_decimal(value, reduced):
    # as every other rational of the API: the float 0.1 is 1/10, not its binary value
    assert str(parse_gamma(value)) == reduced


def test_a_numpy_gamma_is_read_like_pythons():
    np = pytest.importorskip("numpy")
    assert str(parse_gamma(np.float64(0.25))) == "1/4" and str(parse_gamma(np.int64(0))) == "0"


@pytest.mark.parametrize("value, fragment", [(1.5, "3/2 is not in"), (float("nan"), "not a finite number"),
                                             ([1, 3], "expected a/B")])
def test_bad_float_gamma(value, fragment):
    with pytest.raises(InputError, match=fragment):
        parse_gamma(value)


@pytest.mark.parametrize("text, fragment", [
    ("1,-2,1", "negative"), ("0,0,0", "all weights are zero"), ("1,a", "not an integer"), ("", "not an integer"),
])
def test_bad_weights(text, fragment):
    with pytest.raises(InputError, match=fragment):
        FiniteLaw.from_strings(text)


def test_symmetry_and_trim():
    law = FiniteLaw([0, 1, 2, 1, 0, 0], -2)
    assert law.is_symmetric()
    t = law.trimmed()
    assert (t.weights, t.offset) == ((1, 2, 1), -1)
    assert not FiniteLaw([1, 2], 0).is_symmetric()
