"""producer.noise_level.search: a miss and a meet on neighbouring indices, from any start, monotone or not."""

import pytest

from producer.noise_level.search import MEETS, MISSES, NoCrossing, crossing


def threshold(t, calls=None):
    def decide(n):
        if calls is not None:
            calls.append(n)
        return MEETS if n >= t else MISSES
    return decide


@pytest.mark.parametrize("start", [-50, 0, 9, 10, 11, 500, 10**6])
def test_the_crossing_is_found_from_any_start(start):
    assert crossing(threshold(10), start, -100, 1000) == (9, 10)


def test_a_good_start_takes_two_decisions():
    calls = []
    assert crossing(threshold(10, calls), 10, 0, 1000) == (9, 10)
    assert sorted(calls) == [9, 10]


def test_without_monotonicity_the_ends_are_still_a_miss_and_a_meet():
    sides = {n: (MEETS if n in (3, 4, 8) or n >= 12 else MISSES) for n in range(0, 20)}
    a, b = crossing(sides.__getitem__, 19, 0, 19)
    assert b == a + 1 and sides[a] == MISSES and sides[b] == MEETS


def test_no_crossing_in_the_range():
    with pytest.raises(NoCrossing) as info:
        crossing(threshold(-5), 3, 0, 10)
    assert info.value.meets and info.value.index == 0
    with pytest.raises(NoCrossing) as info:
        crossing(threshold(50), 3, 0, 10)
    assert not info.value.meets and info.value.index == 10


def test_a_guide_cuts_the_probes_and_keeps_the_answer():
    """g(n) = log δ(n)/δ for δ(n) = e^{−n/50}: the secant walks to the crossing in a few probes."""
    target, calls, plain = 7 * 50 + 3, [], []

    def guide(n):
        return (target - n - 0.5) / 50

    with_guide = crossing(threshold(target, calls), 10, 0, 10**6, guide)
    without = crossing(threshold(target, plain), 10, 0, 10**6)
    assert with_guide == without == (target - 1, target)
    assert len(set(calls)) <= 6 < len(set(plain))


def test_a_wrong_guide_only_costs_probes():
    def guide(n):
        return 1.0 if n % 2 else -1.0   # nonsense: the safeguards still end at a miss and a meet
    assert crossing(threshold(77), 3, 0, 1000, guide) == (76, 77)
    assert crossing(threshold(2), 900, 0, 1000, guide) == (1, 2)
