"""γ = 0: the finite game is the plain adaptive composition of the law's shift experiments.

The brute force below knows nothing of the game: it enumerates every adaptive
strategy (stop, or a sign ±1 for the first participation; then, for every
first output, stop or a sign for the second) over complete output sequences,
and takes the best Σ_o max(x·P(o), y·Q(o)) over the transcripts.
"""

import itertools
from fractions import Fraction

import pytest
from gmpy2 import mpq
from hypothesis import given, settings
from hypothesis import strategies as st

from producer import api
from producer.errors import InputError
from producer.game.values import root_value
from producer.laws import FiniteLaw, Gamma, parse_gamma
from producer.rows import hidden_rounding_row
from tests.reference_game import ReferenceGame

SIGNS = (1, -1)


def shift_outputs(nu, j):
    """(output, P-probability, Q-probability) of one participation with sign j: P = ν(· − j), Q = ν."""
    ys = sorted({z + j for z in nu} | set(nu))
    return [(y, nu.get(y - j, Fraction(0)), nu.get(y, Fraction(0))) for y in ys]


def strategy_value(nu, first, second, x, y):
    """Σ over transcripts of max(x·P, y·Q) for one strategy (first sign or None, second: output -> sign or None)."""
    if first is None:
        return max(x, y)
    total = Fraction(0)
    for out, p, q in shift_outputs(nu, first):
        j2 = second[out]
        if j2 is None:
            total += max(x * p, y * q)
            continue
        for _out2, p2, q2 in shift_outputs(nu, j2):
            total += max(x * p * p2, y * q * q2)
    return total


def brute_force(weights, offset, budget, x, y):
    """The value of the best adaptive strategy with at most ``budget`` <= 2 participations."""
    S = sum(weights)
    nu = {offset + i: Fraction(w, S) for i, w in enumerate(weights) if w}
    best = max(x, y)
    if budget == 0:
        return best
    for first in SIGNS:
        outs = [o for o, _p, _q in shift_outputs(nu, first)]
        choices = (None,) + SIGNS if budget >= 2 else (None,)
        for plan in itertools.product(choices, repeat=len(outs)):
            best = max(best, strategy_value(nu, first, dict(zip(outs, plan)), x, y))
    return best


laws = st.lists(st.integers(0, 4), min_size=1, max_size=3).filter(any)


@settings(max_examples=40, deadline=None)
@given(weights=laws, offset=st.integers(-2, 1), budget=st.integers(0, 2),
       x=st.fractions(0, 3, max_denominator=4), y=st.fractions(0, 3, max_denominator=4))
def test_plain_game_equals_brute_force_composition(weights, offset, budget, x, y):
    law = FiniteLaw(weights, offset)
    got = root_value(law, Gamma(0, 1), budget, mpq(x), mpq(y)).value
    assert Fraction(int(got.numerator), int(got.denominator)) == brute_force(weights, offset, budget, x, y)


@pytest.mark.parametrize("weights, offset", [([1, 2, 1], -1), ([2, 0, 1, 3], -1), ([1, 1], 0)])
@pytest.mark.parametrize("budget", [1, 2, 3])
def test_every_method_agrees_with_the_plain_reference_game(weights, offset, budget):
    law = FiniteLaw(weights, offset)
    ref = ReferenceGame(weights, offset, 0, 1)
    methods = ["enumerate", "compiled"] + (["reduced"] if law.is_symmetric() and budget <= 2 else [])
    for method in methods:
        got = root_value(law, Gamma(0, 1), budget, mpq(1), mpq(1, 2), method=method)
        assert got.value == mpq(ref.G(budget, 1, Fraction(1, 2))), method


def test_rows_do_not_depend_on_the_state_at_gamma_zero():
    law = FiniteLaw([1, 3, 2], -1)
    for k in range(-3, 4):
        row = hidden_rounding_row(law, Gamma(0, 1), k)
        # row_k(n) = ν(n) over D = B·S = S
        assert [row[n] for n in range(-3, 4)] == [law.weight(n) for n in range(-3, 4)]


def test_plain_value_is_at_most_the_hidden_feedback_value_here():
    # Not a theorem for every law: a check that γ = 0 is a different game on this instance.
    law = FiniteLaw([1, 2, 1], -1)
    plain = root_value(law, Gamma(0, 1), 2, mpq(1), mpq(1, 2)).value
    hidden = root_value(law, Gamma(1, 3), 2, mpq(1), mpq(1, 2)).value
    assert plain - mpq(1, 2) < hidden - mpq(1, 2) == mpq(5, 6)


@pytest.mark.parametrize("text", ["0", "0/1", "0.0", "0.000", " 0 "])
def test_zero_gamma_spellings_are_canonical(text):
    gamma = parse_gamma(text)
    assert (gamma.a, gamma.B) == (0, 1) and str(gamma) == "0" and gamma.is_zero


@pytest.mark.parametrize("value", [0, Fraction(0), mpq(0)])
def test_zero_gamma_numbers(value):
    assert str(parse_gamma(value)) == "0"


@pytest.mark.parametrize("text", ["0/5", "0/0", "1/1", "-1/3"])
def test_other_zero_like_gammas_are_refused(text):
    with pytest.raises(InputError):
        parse_gamma(text)


@pytest.mark.parametrize("text", ["00", "0.", "0.0"])
def test_zero_decimals_are_read_as_every_other_rational(text):
    """A γ without "/" is an exact decimal, read as σ² and δ are (issue 22: one rule for decimals)."""
    assert parse_gamma(text) == parse_gamma("0")


def test_game_certificate_writes_gamma_zero_canonically():
    for spelling in ("0/1", "0.0"):
        cert = api.finite_game(spelling, "1,2,1", 2, thresholds=["1/2"])
        assert cert.input["gamma"] == "0"
        assert cert.result["queries"][0]["witness"] == {"action": "participate", "k": 0, "sign": 1}
        assert cert.result["method"] == "enumerate"


def test_the_shared_game_serves_one_thread_only():
    """Its memo tables fill as it is queried: two threads (a threaded Dask worker) never share one."""
    import threading
    from producer.game.values import shared_game
    law, gamma = FiniteLaw([1, 2, 1], 0), parse_gamma("1/3")
    mine = shared_game("reduced", law, gamma)
    assert shared_game("reduced", law, gamma) is mine
    theirs = []
    worker = threading.Thread(target=lambda: theirs.append(shared_game("reduced", law, gamma)))
    worker.start()
    worker.join()
    assert theirs and theirs[0] is not mine and shared_game("reduced", law, gamma) is mine


def test_a_new_shared_game_lets_the_old_ones_float_copies_go():
    # the game and its float copies refer to each other; a calibration changes the law at
    # every probe, so the old game's arrays must not wait for a garbage collection
    from producer.game.values import shared_game
    gamma = Gamma(1, 3)
    old = shared_game("enumerate", FiniteLaw([1, 2, 1], -1), gamma)
    root_value(FiniteLaw([1, 2, 1], -1), gamma, 3, mpq(1), mpq(2), method="enumerate", game=old)
    assert old.floats is not None
    new = shared_game("enumerate", FiniteLaw([1, 3, 1], -1), gamma)
    assert new is not old and old.floats is None
    assert shared_game("enumerate", FiniteLaw([1, 3, 1], -1), gamma) is new
