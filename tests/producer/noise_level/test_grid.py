"""producer.noise_level.grid: short decimals, consecutive points within relative R, exact index <-> value."""

import pytest
from gmpy2 import mpq

from producer.errors import InputError
from producer.noise_level.grid import RelativeGrid, unit_of


@pytest.mark.parametrize("precision, unit", [("1/1000", "1/1000"), ("1/300", "1/500"), ("1/2", "1/2"),
                                             ("3/10", "1/5"), ("99/100", "1/2"), ("1/10", "1/10")])
def test_the_unit_is_the_largest_one_two_five_below_r(precision, unit):
    assert unit_of(mpq(precision)) == mpq(unit)


@pytest.mark.parametrize("precision", ["0", "1", "-1/2"])
def test_a_precision_outside_zero_one_is_refused(precision):
    with pytest.raises(InputError, match="0 < R < 1"):
        unit_of(mpq(precision))


@pytest.mark.parametrize("precision", ["1/1000", "1/7", "1/2", "1/20"])
def test_neighbours_are_within_relative_r_and_increase(precision):
    grid, R = RelativeGrid(mpq(precision)), mpq(precision)
    start = grid.index_below(mpq(1, 100))
    for n in range(start, start + 3 * grid.per_decade + 5, max(1, grid.per_decade // 50)):
        x, y = grid.value(n), grid.value(n + 1)
        assert 0 < x < y <= x * (1 + R)


def test_four_significant_digits_at_one_thousandth():
    grid = RelativeGrid(mpq(1, 1000))
    values = [grid.value(grid.index_below(mpq(20)) + k) for k in range(3)]
    assert values == [mpq(20), mpq(2001, 100), mpq(2002, 100)]
    n = grid.index_below(mpq(9999, 1000))
    assert (grid.value(n), grid.value(n + 1)) == (mpq(9999, 1000), mpq(10))


@pytest.mark.parametrize("x", ["1/100", "397.55", "1000000", "3/7", "1e-6", "9.9999"])
def test_index_below_and_above_bracket_x(x):
    grid, x = RelativeGrid(mpq(1, 1000)), mpq(x)
    below, above = grid.index_below(x), grid.index_above(x)
    assert grid.value(below) <= x < grid.value(below + 1)
    assert grid.value(above - 1) < x <= grid.value(above)
    assert (below == above) == (grid.value(below) == x)


def test_value_and_index_invert():
    grid = RelativeGrid(mpq(1, 50))
    for n in range(-700, 700, 37):
        assert grid.index_below(grid.value(n)) == n
