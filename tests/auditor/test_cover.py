"""auditor.game.cover: the closed-carry-cell cover of root preparations.

The cover is forced even where B^c is smaller, and every value is compared
exactly with the evaluator enumerating all B^c preparations (fact R1).  A
deliberately wrong cover must change some value, so the comparison has teeth.
"""

from fractions import Fraction
from itertools import product
from math import gcd

import pytest
from gmpy2 import mpq
from hypothesis import given, settings, strategies as st

from auditor.game import cover, values, work
from auditor.game.game import Game, Routes
from auditor.game.rows import Law


@st.composite
def laws(draw, min_B=2, max_B=12, max_radius=2):
    """Asymmetric laws with zeros, radius <= max_radius, and a reduced a/B."""
    B = draw(st.integers(min_B, max_B))
    a = draw(st.sampled_from([x for x in range(1, B) if gcd(x, B) == 1]))
    radius = draw(st.integers(0, max_radius))
    weights = draw(st.lists(st.integers(0, 4), min_size=2 * radius + 1, max_size=2 * radius + 1)
                   .filter(any))
    offset = draw(st.integers(-radius - 1, 1))
    return weights, offset, a, B


ratios = st.fractions(min_value=Fraction(1, 12), max_value=12, max_denominator=12).filter(lambda t: t > 0)


def value(law, c, t, roots, budget_curves=True):
    g = Game(Law(*law), Routes(roots=roots))
    g.use_curves_below(c if budget_curves else 0)
    return g.G_ratio(c, mpq(t.numerator, t.denominator))


# -- the word <-> preparation bijection ------------------------------------

@given(st.integers(2, 40), st.integers(1, 4), st.data())
@settings(max_examples=60)
def test_preparation_for_word_inverts_word_of_preparation(B, c, data):
    a = data.draw(st.sampled_from([x for x in range(1, B) if gcd(x, B) == 1]))
    z = data.draw(st.integers(0, B ** c - 1))
    word = cover.word_of_preparation(z, a, B, c)
    assert all(0 <= d < B for d in word)
    assert cover.preparation_for_word(word, a, B) == z


def test_words_are_a_bijection_of_the_period():
    for B, a, c in [(3, 1, 3), (5, 2, 2), (7, 3, 2), (8, 5, 2), (4, 3, 3)]:
        words = {cover.word_of_preparation(z, a, B, c) for z in range(B ** c)}
        assert words == set(product(range(B), repeat=c))


def test_digits_are_the_phases_of_the_actual_states():
    """From k = B*z, every state k_i reached at step i has a*k_i = a*w + d_i (mod B)
    with w = k_i - beta_i, and that own offset lies in W_i (rows from auditor.game.rows)."""
    for weights, offset, a, B, c in [([1, 0, 2, 1], -2, 3, 7, 3), ([2, 1, 0, 0, 3], -1, 5, 8, 3),
                                     ([1, 2, 1], -1, 1, 3, 3), ([0, 1, 1, 0, 1], -2, 7, 12, 2)]:
        law = Law(weights, offset, a, B)
        ranges = cover.own_offset_ranges(Law(weights, offset, a, B), c)
        for z in range(B ** c):
            word = cover.word_of_preparation(z, a, B, c)
            beta = -a * z
            states = set(law.row(B * z))
            for i in range(c):
                lo, hi = ranges[i]
                for k in states:
                    assert lo <= k - beta <= hi
                    assert (a * k) % B == (a * (k - beta) + word[i]) % B
                states = {n for k in states for n in law.row(k)}
                beta = -((a * beta) // B)


def test_carry_keeps_legal_words_and_normalises_B():
    assert cover.carry((3, 1, 2), 2, 5) == (3, 1, 2)
    # theta_1 = B carries -a into the next digit
    assert cover.carry((5, 1), 2, 5) == (0, (1 - 2) % 5)


# -- the cover attains the full maximum -------------------------------------

@given(laws(), ratios)
@settings(max_examples=200, deadline=None)
def test_cover_equals_all_roots_budget_two(law, t):
    assert value(law, 2, t, "cover") == value(law, 2, t, "all")


@pytest.mark.slow  # in make references (CI); the default suite stays within minutes
@given(laws(min_B=5, max_B=10, max_radius=2), ratios)
@settings(max_examples=40, deadline=None)
def test_cover_equals_all_roots_budget_three(law, t):
    assert value(law, 3, t, "cover") == value(law, 3, t, "all")


@given(laws(min_B=5, max_B=9, max_radius=1), ratios)
@settings(max_examples=6, deadline=None)
def test_cover_equals_all_roots_point_recursion(law, t):
    """No curves: every level searches roots by direct recursion."""
    assert value(law, 2, t, "cover", budget_curves=False) == value(law, 2, t, "all", budget_curves=False)


@given(laws(max_B=9, max_radius=1))
@settings(max_examples=10, deadline=None)
def test_cover_gives_the_same_root_curve(law):
    curves = []
    for roots in ("cover", "all"):
        g = Game(Law(*law), Routes(roots=roots))
        curves.append(g.G_curve(2).vertices())
    assert curves[0] == curves[1]


def test_published_values_with_the_forced_cover():
    g = Game(Law([1, 2, 1], -1, 1, 3), Routes(roots="cover"))
    g.use_curves_below(2)
    assert g.G_ratio(2, mpq(1, 2)) - mpq(1, 2) == mpq(5, 6)
    g = Game(Law([1, 1, 1], -1, 1, 2), Routes(roots="cover"))
    g.use_curves_below(4)
    assert g.G_ratio(4, mpq(1)) / 2 == mpq(3737, 3888)


def test_size_bound_and_automatic_choice():
    for L in (1, 3, 6):
        weights = [1] * (2 * L + 1)
        for c in (1, 2, 3):
            assert cover.cover_size(Law(weights, -L, 336, 1009), c) <= (2 * (c + 1) * (L + 3)) ** c
    g = Game(Law([1] * 13, -6, 336, 1009))
    assert len(g.root_preparations(2)) < 1009 ** 2
    small = Game(Law([1, 2, 1], -1, 1, 3))
    assert list(small.root_preparations(2)) == list(range(9))


# -- a wrong cover is caught -------------------------------------------------

def _shifted_vertices(law, c):
    weights, offset, a, B = law
    T = [sorted({(x + 1) % (B + 1) for x in t}) for t in cover.vertex_sets(Law(weights, offset, a, B), c)]
    return tuple(sorted({cover.preparation_for_word(cover.carry(th, a, B), a, B) for th in product(*T)}))


def _shifted_preparations(law, c):
    B = law[3]
    return tuple(sorted({(z + 1) % B ** c for z in cover.root_cover(Law(*law), c, force=True)}))


@pytest.mark.parametrize("wrong", [_shifted_vertices, _shifted_preparations])
def test_a_shifted_cover_is_detected(wrong):
    instances = [(([0, 3, 1, 0, 1], -2, 8, 9), Fraction(1, 3)), (([0, 1, 0, 1, 3], -2, 5, 12), Fraction(5, 3)),
                 (([1, 2, 1], -1, 2, 7), Fraction(1, 2)), (([3, 0, 1], -1, 3, 8), Fraction(2))]
    detected = 0
    for law, t in instances:
        g = Game(Law(*law), Routes(preset_roots=((2, wrong(law, 2)),)))
        g.use_curves_below(2)
        right = value(law, 2, t, "cover")
        assert right == value(law, 2, t, "all")
        got = g.G_ratio(2, mpq(t.numerator, t.denominator))
        assert got <= right  # a subset of legal preparations never overshoots
        detected += got != right
    assert detected >= 1


def test_public_root_value_uses_the_cover_for_large_B():
    """G_3 at B = 1009 (10^9 preparations) is answered through the cover."""
    weights = [1, 2, 1]
    v = values.root_value(Law(weights, -1, 336, 1009), 2, 1, Fraction(1, 2))
    g = Game(Law(weights, -1, 336, 1009), Routes(roots="cover"))
    g.use_curves_below(2)
    assert Fraction(v) == Fraction(int(g.G_ratio(2, mpq(1, 2)).numerator), int(g.G_ratio(2, mpq(1, 2)).denominator))


# -- the work estimates count covered preparations ----------------------------

def test_work_estimates_accept_covered_and_refuse_huge_instances():
    from auditor.checks import dg_interval, finite_game
    ok = work.estimated_work(13, 1009, 3, preparations=work.root_preparation_count(Law([1] * 13, -6, 336, 1009), 3))
    assert ok <= dg_interval.MAX_WORK and ok <= finite_game.MAX_WORK
    assert work.estimated_work(13, 1009, 3) > dg_interval.MAX_WORK  # B^C alone would refuse
    with pytest.raises(ValueError, match="estimated work"):
        dg_interval.finite_value([1] * 81, -40, 336, 1009, 3, 1, Fraction(2))
    with pytest.raises(ValueError, match="estimated work"):
        dg_interval.finite_value([1, 2, 1], -1, 1, 3, 10 ** 9, 1, Fraction(2))
