"""The δ-query search of the hierarchy's discrete-Gaussian bound (producer/hierarchy/dg_bound.py)."""

from types import SimpleNamespace

import pytest
from gmpy2 import mpq

from producer.errors import InputError
from producer.hierarchy import dg_bound
from producer.hierarchy.dg_bound import MAX_EPSILON, smallest_epsilon


class _Bound:
    def __init__(self, upper):
        self.upper = upper


def _window(low, high, delta):
    """A bound that meets δ only on [low, high] (the finite part falls, the transfer grows like e^ε)."""
    return lambda eps: _Bound(delta / 2 if low <= eps <= high else 2 * delta)


@pytest.mark.parametrize("low, high", [(mpq(188811, 10000), 25), (mpq(5, 2), 3), (mpq(33), mpq(331, 10))])
def test_a_window_between_powers_of_two_is_found(low, high):
    delta = mpq(1, 10 ** 4)
    found = smallest_epsilon(delta, _window(low, high, delta))
    assert found.upper <= delta


def test_the_smallest_multiple_in_the_window_is_returned():
    delta = mpq(1, 10 ** 4)
    calls = []

    def evaluate(eps):
        calls.append(eps)
        b = _Bound(delta / 2 if mpq(188811, 10000) <= eps <= 25 else 2 * delta)
        b.epsilon = eps
        return b

    assert smallest_epsilon(delta, evaluate).epsilon == mpq(188811, 10000)


def test_no_window_up_to_the_limit_is_refused():
    delta = mpq(1, 10 ** 4)
    with pytest.raises(InputError, match="stays above"):
        smallest_epsilon(delta, _window(MAX_EPSILON + 1, MAX_EPSILON + 2, delta))


def test_a_monotone_bound_takes_the_doubling_path():
    """Where doubling finds the bracket the integer scan is never used (existing certificates unchanged)."""
    delta = mpq(1, 10 ** 4)
    calls = []

    def evaluate(eps):
        calls.append(eps)
        return _Bound(delta / 2 if eps >= mpq(4867767, 10 ** 6) else 2 * delta)

    smallest_epsilon(delta, evaluate)
    assert [c for c in calls if c.denominator == 1 and c > 0][:4] == [1, 2, 4, 8]


@pytest.mark.parametrize("delta, shown", [(mpq(1, 10 ** 400), "δ = 1e-400 "),
                                          (mpq(1, 3 * 10 ** 50), "δ = ≈3.33333e-51 ")])
def test_a_delta_no_integer_epsilon_meets_is_named_short(delta, shown):
    """The refusal names δ in a few characters (it printed a 401-digit denominator, cut in the middle)."""
    never = SimpleNamespace(upper=mpq(1))
    with pytest.raises(InputError) as caught:
        dg_bound._integer_scan(delta, lambda epsilon: never)
    assert shown in str(caught.value) and len(str(caught.value)) < 400
