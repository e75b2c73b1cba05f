"""Float screening of G_2 roots: never changes the exact value or the witness."""

from math import gcd

import pytest
from gmpy2 import mpq
from hypothesis import given, settings, strategies as st

from producer.game import screening
from producer.game.values import root_value
from producer.laws import FiniteLaw, Gamma

gammas = st.integers(5, 30).flatmap(lambda B: st.tuples(st.integers(1, B - 1), st.just(B))).filter(
    lambda ab: gcd(*ab) == 1)
laws = st.tuples(st.lists(st.integers(0, 6), min_size=1, max_size=7).filter(lambda w: sum(w) > 0),
                 st.integers(-3, 0)).map(lambda wo: FiniteLaw(*wo))
points = st.tuples(st.fractions(0, 9, max_denominator=9), st.fractions(0, 9, max_denominator=9)).map(
    lambda xy: (mpq(xy[0].numerator, xy[0].denominator), mpq(xy[1].numerator, xy[1].denominator)))


@pytest.fixture
def always_screen(monkeypatch):
    monkeypatch.setattr(screening, "MIN_ALTERNATIVES", 1)


@given(laws, gammas, points)
@settings(max_examples=40)
def test_screened_value_and_witness_equal_the_plain_ones(law, ab, xy):
    gamma = Gamma(*ab)
    saved = screening.MIN_ALTERNATIVES
    try:
        screening.MIN_ALTERNATIVES = 10**9
        plain = root_value(law, gamma, 2, *xy, method="enumerate")
        screening.MIN_ALTERNATIVES = 1
        screened = root_value(law, gamma, 2, *xy, method="enumerate")
    finally:
        screening.MIN_ALTERNATIVES = saved
    assert screened.value == plain.value
    assert screened.witness == plain.witness


def test_screening_keeps_exact_ties(always_screen):
    # symmetric law: the alternatives (r, +1) and (−r, −1) tie exactly; both must survive
    from producer.game.engine import FiniteGame
    law, gamma = FiniteLaw([1, 3, 1], -1), Gamma(2, 7)
    game = FiniteGame(law, gamma)
    alternatives = [(r, j) for r in range(49) for j in (1, -1)]
    kept = screening.candidates(game, 7, 3, alternatives)
    values = {alt: sum(game.f_value(1, f - alt[0] - alt[1], f - alt[0], 7 * p, 3 * q)[0]
                       for f, p, q in game.root_entries(alt[1])) for alt in alternatives}
    best = max(values.values())
    assert {alt for alt, v in values.items() if v == best} <= set(kept)
    assert len(kept) < len(alternatives)          # it does screen


def test_screening_declines_when_floats_could_underflow(always_screen):
    from producer.game.engine import FiniteGame
    law = FiniteLaw([1, 10**200, 1], -1)          # atoms of 1e-200 relative size
    game = FiniteGame(law, Gamma(2, 9))
    alternatives = [(r, 1) for r in range(81)]
    assert screening.candidates(game, 1, 2, alternatives) == alternatives
