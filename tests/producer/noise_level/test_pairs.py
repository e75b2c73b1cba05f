"""producer.noise_level.pairs: a certified miss and meet within the stated room, around undecided points."""

import pytest
from gmpy2 import mpq

from producer.noise_level.grid import RelativeGrid
from producer.noise_level.pairs import MEETS, MISSES, IntegerLine, RatioLine, Undecided, pair
from producer.noise_level.search import NoCrossing


class Threshold:
    """decide(n): MEETS from ``t`` on; the indices in ``undecided`` raise Undecided; every call counted."""

    def __init__(self, t, undecided=()):
        self.t, self.undecided, self.calls = t, set(undecided), []

    def __call__(self, n):
        self.calls.append(n)
        if n in self.undecided:
            raise Undecided(n, f"{n} is too close")
        return MEETS if n >= self.t else MISSES


class Room:
    """A line whose close pairs are at most ``room`` indices apart (value = index)."""

    def __init__(self, room):
        self.room = room

    def up(self, n):
        return n + self.room

    def down(self, n):
        return n - self.room

    @staticmethod
    def value(n):
        return n


@pytest.mark.parametrize("start", [-50, 0, 9, 10, 11, 500, 10**6])
def test_neighbours_from_any_start(start):
    assert pair(Threshold(10), start, -100, 1000, IntegerLine()) == (9, 10)


@pytest.mark.parametrize("room", [2, 5, 10])
def test_the_room_is_used_and_the_pair_is_a_miss_and_a_meet(room):
    decide = Threshold(400)
    a, b = pair(decide, 3, 0, 10**4, Room(room), guide=lambda n: (400 - n - 0.5) / 50)
    assert decide(a) == MISSES and decide(b) == MEETS and a < b <= a + room


def test_a_centred_pair_keeps_both_ends_away_from_the_crossing():
    """Narrowing a wide bracket with an exact guide: the last two probes straddle the crossing by about half the
    room each (the cheapest pair to separate from the target); a few probes, two at a time."""
    from producer.noise_level.pairs import _narrow
    decide = Threshold(400)
    a, b = _narrow(decide, 0, 1000, Room(10), lambda n: (400 - n - 0.5) / 50 if n in decide.calls else None)
    assert b - a == 10 and 394 <= a <= 396 and 404 <= b <= 406
    assert len(decide.calls) <= 6 and decide.calls[-2:] == [a, b]


def test_an_undecided_point_is_stepped_around_when_its_neighbours_are_close():
    decide = Threshold(400, undecided={400})
    a, b = pair(decide, 380, 0, 10**4, Room(2), guide=lambda n: (400 - n - 0.5) / 50)
    assert (a, b) == (399, 401)


def test_an_undecided_point_without_room_is_said():
    with pytest.raises(Undecided) as info:
        pair(Threshold(400, undecided={400}), 380, 0, 10**4, IntegerLine())
    assert info.value.index == 400 and "too close" in info.value.reason


def test_an_undecided_point_met_by_the_walk():
    """The walk lands on the undecided point itself: its neighbours are decided instead."""
    assert pair(Threshold(10, undecided={10}), 10, 0, 100, Room(2)) == (9, 11)
    assert pair(Threshold(10, undecided={12}), 12, 0, 100, IntegerLine()) == (9, 10)
    assert pair(Threshold(10, undecided={5}), 5, 0, 100, IntegerLine()) == (9, 10)


def test_no_crossing_in_the_range():
    with pytest.raises(NoCrossing) as info:
        pair(Threshold(-5), 3, 0, 10, IntegerLine())
    assert info.value.meets and info.value.index == 0
    with pytest.raises(NoCrossing) as info:
        pair(Threshold(50), 3, 0, 10, IntegerLine())
    assert not info.value.meets and info.value.index == 10


def test_without_monotonicity_the_ends_are_still_a_miss_and_a_meet():
    sides = {n: (MEETS if n in (3, 4, 8, 30, 31) or n >= 60 else MISSES) for n in range(0, 100)}
    a, b = pair(sides.__getitem__, 99, 0, 99, Room(3))
    assert a < b <= a + 3 and sides[a] == MISSES and sides[b] == MEETS


@pytest.mark.parametrize("precision", ["1/1000", "1/100", "3/10"])
def test_a_ratio_line_up_the_grid(precision):
    R = mpq(precision)
    line = RatioLine(RelativeGrid(R), R, +1)
    for value in ("1/2", "0.9687", "1", "99.9", "7.77"):
        n = line.index_of(mpq(value))
        up, down = line.up(n), line.down(n)
        assert line.value(n) < line.value(up) <= line.value(n) * (1 + R) < line.value(up + 1)
        assert line.value(down) * (1 + R) >= line.value(n) > line.value(down - 1) * (1 + R)
    assert line.index_of(mpq("0.96875")) == line.index_of(mpq("0.96875"), above=False) + 1


@pytest.mark.parametrize("precision", ["1/1000", "1/10"])
def test_a_ratio_line_down_the_grid(precision):
    """sign −1: larger search indices are smaller values; close pairs still within the ratio."""
    R = mpq(precision)
    line = RatioLine(RelativeGrid(R), R, -1)
    for value in ("1", "0.01", "0.5", "0.02"):
        n = line.index_of(mpq(value))
        assert line.value(n) == mpq(value)
        up, down = line.up(n), line.down(n)
        assert up > n > down
        assert line.value(up) < line.value(n) <= line.value(up) * (1 + R)
        assert line.value(n) > line.value(up + 1) * (1 + R)
        assert line.value(down) <= line.value(n) * (1 + R) < line.value(down - 1)


def test_the_integer_line_counts_down():
    line = IntegerLine()
    assert (line.value(-7), line.up(-7), line.down(-7)) == (7, -6, -8)
