"""Exact decisions where a grid level meets a loss value: signs by raising the precision, with a cap."""

import pytest
from flint import arb
from gmpy2 import mpq

from producer.pld import decide
from producer.sources.enclosures import to_arb


def test_a_sign_is_decided_once_the_ball_excludes_zero():
    # e^{1/10^30} − 1 is about 10^-30: 128 bits do not separate it from 0 after the subtraction's rounding
    assert decide.sign(lambda: to_arb(mpq(1, 10**30)).exp() - 1) == 1
    assert decide.sign(lambda: 1 - to_arb(mpq(1, 10**60)).exp()) == -1


def test_an_exact_tie_is_an_error_not_a_hang():
    with pytest.raises(ArithmeticError, match="exact tie"):
        decide.sign(lambda: arb(0))


@pytest.mark.parametrize("edge,guess", [(7, 7), (7, 8), (7, 6), (-500, 3), (1000, -2)])
def test_last_true_finds_the_edge_from_any_guess(edge, guess):
    calls = []

    def predicate(i):
        calls.append(i)
        return i <= edge
    assert decide.last_true(predicate, guess) == edge
    assert len(calls) <= 2 * abs(edge - guess) + 200  # steps of 64 outward, then one by one
