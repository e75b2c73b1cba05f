"""producer.errors: one line per refusal, the reason apart from the advice."""

import pickle

import pytest

from producer.errors import InputError, LimitError, ReachError
from producer.game.work import ADVICE, Estimate, check_estimate
from producer.laws import FiniteLaw, Gamma


def test_the_message_is_the_reason_then_the_advice():
    error = LimitError("work: 10 exceeds the limit 5", "use fewer priors")
    assert str(error) == "work: 10 exceeds the limit 5; use fewer priors"
    assert (error.reason, error.advice) == ("work: 10 exceeds the limit 5", "use fewer priors")
    plain = InputError("delta: need 0 < δ < 1")
    assert str(plain) == plain.reason == "delta: need 0 < δ < 1" and plain.advice is None


def test_an_error_survives_pickling_with_its_message():
    error = pickle.loads(pickle.dumps(ReachError("budget: too large", "reduce it")))
    assert type(error) is ReachError and str(error) == "budget: too large; reduce it"


def test_the_game_keeps_its_advice_apart():
    with pytest.raises(ReachError) as caught:
        check_estimate(Estimate(10**12, 0), FiniteLaw([1, 2, 1], -1), Gamma(1, 3), 4, "the root")
    assert caught.value.advice == ADVICE and ADVICE not in caught.value.reason
    assert str(caught.value).endswith(f"; {ADVICE}")
