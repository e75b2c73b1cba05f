"""The producer's game values against the plain reference of tests/reference_game.py."""

from fractions import Fraction
from math import gcd

import pytest
from gmpy2 import mpq
from hypothesis import given, settings, strategies as st

from producer.game.values import pending_curve, pending_value, root_curve, root_value
from producer.game.engine import FiniteGame
from producer.laws import FiniteLaw, Gamma
from tests.reference_game import ReferenceGame

def gamma_strategy(max_B):
    return st.integers(2, max_B).flatmap(lambda B: st.tuples(st.integers(1, B - 1), st.just(B))).filter(
        lambda ab: gcd(*ab) == 1)


def law_strategy(radius):
    # radius <= 3: up to 7 weights, zeros and asymmetry allowed
    return st.tuples(st.lists(st.integers(0, 5), min_size=1, max_size=2 * radius + 1).filter(lambda w: sum(w) > 0),
                     st.integers(-radius, 0))


rationals = st.fractions(min_value=0, max_value=4, max_denominator=7)


def as_mpq(f):
    return mpq(f.numerator, f.denominator)


def check_root(law_spec, ab, budget, x, y):
    ws, offset = law_spec
    law, gamma = FiniteLaw(ws, offset), Gamma(*ab)
    got = root_value(law, gamma, budget, as_mpq(x), as_mpq(y))
    ref = ReferenceGame(ws, offset, *ab)
    assert Fraction(int(got.value.numerator), int(got.value.denominator)) == ref.G(budget, x, y)
    return got, ref


@given(law_strategy(3), gamma_strategy(7), st.integers(0, 2), rationals, rationals)
@settings(max_examples=25)
def test_root_value_matches_reference_small_budgets(law_spec, ab, budget, x, y):
    check_root(law_spec, ab, budget, x, y)


@given(law_strategy(1), gamma_strategy(3), rationals, rationals)
@settings(max_examples=4)
def test_root_value_matches_reference_budget_three(law_spec, ab, x, y):
    check_root(law_spec, ab, 3, x, y)


@pytest.mark.slow
@given(law_strategy(2), gamma_strategy(3), rationals, rationals)
@settings(max_examples=30)
def test_root_value_matches_reference_budget_three_more(law_spec, ab, x, y):
    check_root(law_spec, ab, 3, x, y)


@given(law_strategy(2), gamma_strategy(5), st.integers(0, 2), st.integers(-12, 12), st.integers(-12, 12),
       rationals, rationals)
@settings(max_examples=40)
def test_pending_value_matches_reference(law_spec, ab, budget, k_p, k_q, x, y):
    ws, offset = law_spec
    law, gamma = FiniteLaw(ws, offset), Gamma(*ab)
    got = pending_value(law, gamma, budget, k_p, k_q, as_mpq(x), as_mpq(y))
    ref = ReferenceGame(ws, offset, *ab)
    assert Fraction(int(got.value.numerator), int(got.value.denominator)) == ref.F(budget, k_p, k_q, x, y)


@given(law_strategy(2), gamma_strategy(4), st.integers(0, 2))
@settings(max_examples=20)
def test_root_curve_matches_reference(law_spec, ab, budget):
    ws, offset = law_spec
    got = root_curve(FiniteLaw(ws, offset), Gamma(*ab), budget)
    ref = ReferenceGame(ws, offset, *ab)
    assert [(Fraction(int(a.numerator), int(a.denominator)), Fraction(int(b.numerator), int(b.denominator)))
            for a, b in got] == list(ref.g(budget))


@given(law_strategy(2), gamma_strategy(4), st.integers(0, 1), st.integers(-6, 6), st.integers(-6, 6))
@settings(max_examples=20)
def test_pending_curve_matches_reference(law_spec, ab, budget, k_p, k_q):
    ws, offset = law_spec
    got = pending_curve(FiniteLaw(ws, offset), Gamma(*ab), budget, k_p, k_q)
    ref = ReferenceGame(ws, offset, *ab)
    assert [(Fraction(int(a.numerator), int(a.denominator)), Fraction(int(b.numerator), int(b.denominator)))
            for a, b in got] == list(ref.f(budget, k_p, k_q))


@given(law_strategy(3), gamma_strategy(5), st.integers(1, 2), rationals, rationals)
@settings(max_examples=30)
def test_root_witness_attains_the_value(law_spec, ab, budget, x, y):
    got, ref = check_root(law_spec, ab, budget, x, y)
    w = got.witness
    if w["action"] == "stop":
        assert ref.G(budget, x, y) == max(x, y)
    else:
        k, j = w["k"], w["sign"]
        assert k % ab[1] == 0 and 0 <= k < ab[1] ** (budget + 1)
        assert ref.participation_value(budget - 1, k, k, j, x, y) == ref.G(budget, x, y)


# Published exact values (*Exact Compilation and Resource Laws for Hidden Integer Feedback*, §4.1–§4.2):
# computed, then compared.

def test_published_c2_hockey_stick():
    v = root_value(FiniteLaw([1, 2, 1], -1), Gamma(1, 3), 2, mpq(1), mpq(1, 2))
    assert v.value - mpq(1, 2) == mpq(5, 6)


@pytest.mark.parametrize("states, expected", [((1, 0), mpq(4723, 1728)), ((10, 9), mpq(2351, 864))])
def test_published_pending_values(states, expected):
    v = pending_value(FiniteLaw([1, 2, 1], -1), Gamma(1, 3), 2, *states, mpq(1), mpq(2))
    assert v.value == expected


def test_published_budget_four():
    v = root_value(FiniteLaw([1, 1, 1], -1), Gamma(1, 2), 4, mpq(1, 2), mpq(1, 2))
    assert v.value == mpq(3737, 3888)


def test_two_digits_do_not_suffice_for_budget_three():
    # R2/§D.3: F_2 at k = 0 and k = 9 differ for B = 3 (period B^3, not B^2).
    law, gamma = FiniteLaw([1, 2, 1], -1), Gamma(1, 3)
    a = pending_value(law, gamma, 2, -1, 0, mpq(1), mpq(2)).value
    b = pending_value(law, gamma, 2, 8, 9, mpq(1), mpq(2)).value
    assert a != b


symmetric_laws = st.lists(st.integers(0, 5), min_size=1, max_size=3).filter(lambda w: sum(w) > 0).map(
    lambda half: FiniteLaw(half[:0:-1] + half, 1 - len(half)))


class UnreflectedGame(FiniteGame):
    """The engine with every F_q curve built from its own state (no reflection shared)."""

    def __init__(self, law, gamma):
        super().__init__(law, gamma)
        self.symmetric = False


@given(symmetric_laws, gamma_strategy(5), st.integers(0, 2), st.integers(0, 30), st.sampled_from([1, -1]))
@settings(max_examples=25, deadline=None)
def test_reflected_f_curves_are_equal_and_built_once(law, ab, q, k, j):
    plain = UnreflectedGame(law, Gamma(*ab))
    assert plain.f_curve(q, k, j) == plain.f_curve(q, -k, -j)
    game = FiniteGame(law, Gamma(*ab))
    assert game.symmetric
    curve = game.f_curve(q, k, j)
    built = game.stats["f_curves"]
    assert game.f_curve(q, -k, -j) is curve and game.stats["f_curves"] == built
    assert curve == plain.f_curve(q, k, j)


class PlainGame(UnreflectedGame):
    """The engine with every F_q curve built from its own state (neither reflection nor transposition)."""

    TRANSPOSE = False


@given(law_strategy(2), gamma_strategy(5), st.integers(0, 2), st.integers(0, 30), st.sampled_from([1, -1]))
@settings(max_examples=30, deadline=None)
def test_transposed_f_curves_are_the_curves_built_from_their_own_state(law_spec, ab, q, k, j):
    law, gamma = FiniteLaw(*law_spec), Gamma(*ab)
    game = FiniteGame(law, gamma)
    twin = game.f_curve(q, k - j, -j)                 # F_q((k, k − j)), built
    built = game.stats["f_curves"]
    curve = game.f_curve(q, k, j)                     # F_q((k − j, k)): its transpose, not built again
    assert game.stats["f_curves"] == built
    assert curve == twin.transposed() and curve.slopes == twin.transposed().slopes
    plain = PlainGame(law, gamma)
    own = plain.f_curve(q, k, j)
    assert curve == own and curve.slopes == own.slopes


def test_an_asymmetric_law_shares_no_reflected_curve():
    game = FiniteGame(FiniteLaw([1, 2, 4], -1), Gamma(1, 3))
    assert game.f_curve(1, 2, 1) != game.f_curve(1, -2, -1)


@given(law_strategy(2), gamma_strategy(5), st.integers(1, 3))
@settings(max_examples=20, deadline=None)
def test_g_curves_folded_alternative_by_alternative_are_the_hull_of_all(law_spec, ab, q):
    """A G curve folded whenever anything is held (FOLD_VERTICES = 0) is the hull of all its alternatives."""
    from producer.game import engine
    law, gamma = FiniteLaw(*law_spec), Gamma(*ab)
    whole = FiniteGame(law, gamma)
    saved = engine.FOLD_VERTICES
    try:
        engine.FOLD_VERTICES = 0
        folded = FiniteGame(law, gamma).g_curve(q)
    finally:
        engine.FOLD_VERTICES = saved
    expected = whole.g_curve(q)
    assert folded == expected and folded.slopes == expected.slopes
