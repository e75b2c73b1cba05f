"""The closed-carry-cell cover (point compilation) against full enumeration of B^C roots."""

import math
from math import gcd

import pytest
from gmpy2 import mpq
from hypothesis import given, settings, strategies as st

from producer.errors import LimitError
from producer.game.values import check_limits, integer_point, root_value
from producer.game.compilation import (base_of_word, canonical_word, cover_residues, cover_size, offset_ranges,
                                       phase_points, support_radius, word_of_base)
from producer.game.engine import FiniteGame
from producer.game.roots import CarryCellCover
from producer.laws import FiniteLaw, Gamma
from producer.rationals import parse_rational


def gammas(min_B, max_B):
    return st.integers(min_B, max_B).flatmap(lambda B: st.tuples(st.integers(1, B - 1), st.just(B))).filter(
        lambda ab: gcd(*ab) == 1)


# radius <= 2: up to 5 weights, zeros (also inside) and asymmetry allowed
laws = st.tuples(st.lists(st.integers(0, 4), min_size=1, max_size=5).filter(lambda w: sum(w) > 0),
                 st.integers(-2, 0)).map(lambda wo: FiniteLaw(*wo))
points = st.tuples(st.fractions(0, 4, max_denominator=6), st.fractions(0, 4, max_denominator=6)).map(
    lambda xy: (mpq(xy[0].numerator, xy[0].denominator), mpq(xy[1].numerator, xy[1].denominator)))


@given(gammas(2, 40), st.integers(1, 4), st.data())
def test_words_encode_residues(ab, c, data):
    gamma = Gamma(*ab)
    word = tuple(data.draw(st.integers(0, ab[1] - 1)) for _ in range(c))
    base = base_of_word(word, gamma)
    assert 0 <= base < ab[1] ** c
    assert word_of_base(base, gamma, c) == word
    # the word depends on the base only modulo B^c
    assert word_of_base(base - 3 * ab[1] ** c, gamma, c) == word


@given(gammas(2, 60), st.integers(1, 4), st.data())
def test_canonical_word_carries(ab, c, data):
    a, B = ab
    theta = [data.draw(st.integers(0, B)) for _ in range(c)]
    word = canonical_word(theta, Gamma(a, B))
    carry = 0
    for t, phi in zip(theta, word):
        assert 0 <= phi < B
        nxt = (t - a * carry - phi) // B
        assert phi + B * nxt == t - a * carry          # φ_i = θ_i − a·q_i − B·q_{i+1}
        carry = nxt


@given(gammas(2, 2000), st.integers(0, 30), st.integers(1, 4))
def test_cover_size_bound(ab, L, c):
    gamma = Gamma(*ab)
    sizes = [len(t) for t in phase_points(L, gamma, c)]
    assert all(0 in t and ab[1] in t for t in phase_points(L, gamma, c))
    assert math.prod(sizes) <= (2 * (c + 1) * (L + 3)) ** c
    law = FiniteLaw([1] * (2 * L + 1), -L)
    assert cover_size(law, gamma, c) == min(ab[1] ** c, math.prod(sizes))
    if cover_size(law, gamma, c) <= 5000:
        assert len(cover_residues(law, gamma, c)) <= cover_size(law, gamma, c)


def test_offset_ranges_contain_successors():
    # own offsets of step i+1 from any offset of step i, any phase θ ∈ [0, B] and U
    for a, B in [(1, 3), (2, 7), (5, 11), (336, 1009)]:
        L = 3
        ranges = offset_ranges(L, Gamma(a, B), 4)
        for (lo, hi), (lo2, hi2) in zip(ranges, ranges[1:]):
            for w in range(lo, hi + 1):
                for theta in (0, 1, B // 2, B - 1, B):
                    for u in (0, B - 1):
                        for eta in (-L, L):
                            assert lo2 <= eta - (theta + a * w + u) // B <= hi2


def CompiledGame(law, gamma, always=False):
    return FiniteGame(law, gamma, cover=CarryCellCover(always))


def compiled_root_alternatives(law, gamma, budget, always=False):
    return CarryCellCover(always).alternatives(law.trimmed(), gamma, budget)


def compiled_value(law, gamma, budget, x, y, game=None):
    game = game or CompiledGame(law, gamma)
    X, Y, M = integer_point(x, y)
    num, witness = game.g_value(budget, X, Y)
    return mpq(num, game.D ** (2 * budget) * M), witness


def root_value_compiled(law, gamma, budget, x, y, game=None):
    return root_value(law, gamma, budget, x, y, method="compiled", game=game)


def assert_cover_exact(law, gamma, budget, x, y):
    full = root_value(law, gamma, budget, x, y, method="enumerate").value
    forced = CompiledGame(law, gamma, always=True)     # the cover even where B^c is smaller
    value, witness = compiled_value(law, gamma, budget, x, y, game=forced)
    assert value == full
    if witness[0] == "participate":                    # the witness alone attains the value
        X, Y, M = integer_point(x, y)
        single = FiniteGame(law, gamma).g_value(budget, X, Y, [witness[1:]])[0]
        assert mpq(single, forced.D ** (2 * budget) * M) == value
    assert compiled_value(law, gamma, budget, x, y)[0] == full


@given(laws, gammas(2, 12), points, st.sampled_from([1, 2]))
@settings(max_examples=200, deadline=None)
def test_cover_equals_enumeration_budgets_one_two(law, ab, xy, budget):
    assert_cover_exact(law, Gamma(*ab), budget, *xy)


@given(laws, gammas(2, 9), points)
@settings(max_examples=60, deadline=None)
def test_cover_equals_enumeration_budget_three(law, ab, xy):
    assert_cover_exact(law, Gamma(*ab), 3, *xy)


@pytest.mark.parametrize("ws, offset, ab, xy", [
    ([1, 2, 0, 3], -1, (5, 11), (1, mpq(3, 2))),
    ([2, 0, 1], 0, (3, 8), (1, mpq(5, 4))),
    ([1, 1], -1, (2, 9), (mpq(1, 2), 1)),
])
def test_cover_is_a_proper_subset_and_exact_at_budget_three(ws, offset, ab, xy):
    law, gamma = FiniteLaw(ws, offset), Gamma(*ab)
    assert len(cover_residues(law, gamma, 3, always=True)) < ab[1] ** 3
    assert_cover_exact(law, gamma, 3, *xy)


def test_a_wrong_cover_would_be_detected():
    # the shifted cover r + 1 misses the optimum here, so the exactness tests have power
    law, gamma = FiniteLaw([3, 1, 2], -1), Gamma(2, 9)
    X, Y, _ = integer_point(1, mpq(3, 2))
    game = FiniteGame(law, gamma)
    full = game.g_value(2, X, Y)[0]
    cover = compiled_root_alternatives(law, gamma, 2, always=True)
    assert game.g_value(2, X, Y, cover)[0] == full
    assert len(cover) < 81
    assert game.g_value(2, X, Y, [((r + 1) % 81, j) for r, j in cover])[0] < full


def test_spec_values():
    law, third = FiniteLaw([1, 2, 1], -1), Gamma(1, 3)
    assert root_value_compiled(law, third, 2, 1, mpq(1, 2)).value - mpq(1, 2) == mpq(5, 6)
    game = CompiledGame(law, third, always=True)
    den = game.D ** 5
    assert mpq(game.f_value(2, 1, 0, 1, 2)[0], den) == mpq(4723, 1728)
    assert mpq(game.f_value(2, 10, 9, 1, 2)[0], den) == mpq(2351, 864)
    uniform = FiniteLaw([1, 1, 1], -1)
    assert root_value_compiled(uniform, Gamma(1, 2), 4, mpq(1, 2), mpq(1, 2)).value == mpq(3737, 3888)


def test_large_denominator_matches_support_reduction_and_stays_small():
    law, gamma = FiniteLaw([1, 3, 6, 3, 1], -2), Gamma(86, 257)
    reduced = root_value(law, gamma, 2, 1, mpq(5, 4), method="reduced")
    game = CompiledGame(law, gamma)
    compiled = root_value_compiled(law, gamma, 2, 1, mpq(5, 4), game=game)
    assert compiled.value == reduced.value and compiled.method == "compiled"
    # memoised F_1 curves are keyed by reached residues mod B², bounded by the support
    assert len(game._f) < 400


def test_large_denominator_budget_three_asymmetric_is_fast_and_witnessed():
    law, gamma = FiniteLaw([3, 0, 5, 2], -1), Gamma(336, 1009)
    game = CompiledGame(law, gamma)
    X, Y, M = integer_point(1, mpq(3, 2))
    num, witness = game.g_value(3, X, Y)
    assert witness[0] == "participate"
    # (a plain FiniteGame would build G_2 from all B² roots for the echoes)
    assert CompiledGame(law, gamma).g_value(3, X, Y, [witness[1:]])[0] == num
    assert len(game.root_alternatives(3)) < 2000
    assert support_radius(law) == 2


def test_limits():
    with pytest.raises(LimitError, match="estimated work"):
        check_limits(FiniteLaw([1] * 129, -64), Gamma(336, 1009), 3, "compiled")
    with pytest.raises(LimitError, match="budget"):
        check_limits(FiniteLaw([1, 1, 1], -1), Gamma(1, 2), 7, "compiled")


def dg_law(sigma2, L):
    return FiniteLaw([round(2 ** 40 * math.exp(-n * n / (2 * sigma2))) for n in range(-L, L + 1)], -L)


@pytest.mark.reference
def test_dg_budget_three_large_denominator_inside_published_interval():
    # *Exact Compilation and Resource Laws for Hidden Integer Feedback*, Appendix F.5:
    # γ = 336/1009, σ = 1, ε = 4, L = 6; the DG interval contains the finite value (the finite source
    # differs from DG by ~1e-11 in total variation)
    lam = parse_rational("54.598150033144236")
    value = root_value_compiled(dg_law(1, 6), Gamma(336, 1009), 3, 1, lam).value - lam
    assert parse_rational("0.110138846336863912") <= value <= parse_rational("0.110138858532574647")
