"""Screened point levels (budget >= 3) and pruned F curves against the plain exact engine."""

import subprocess
import sys
from math import gcd

import pytest
from gmpy2 import mpq, mpz
from hypothesis import given, settings, strategies as st

from producer.curves import hull_envelope
from producer.errors import LimitError
from producer.game import pruning, work
from producer.game.values import check_limits, integer_point
from producer.game.engine import SIGNS, FiniteGame
from producer.game.points import PointLevels
from producer.game.roots import cover_named
from producer.laws import FiniteLaw, Gamma


class PlainGame(FiniteGame):
    """The engine without the screened point levels (every alternative exact)."""

    def points_apply(self, c):
        return False


def gammas(max_B):
    return st.integers(2, max_B).flatmap(lambda B: st.tuples(st.integers(1, B - 1), st.just(B))).filter(
        lambda ab: gcd(*ab) == 1)


def laws(radius):
    # zeros (also inside) and asymmetry allowed
    return st.tuples(st.lists(st.integers(0, 6), min_size=1, max_size=2 * radius + 1).filter(lambda w: sum(w) > 0),
                     st.integers(-radius, 0)).map(lambda wo: FiniteLaw(*wo))


points = st.tuples(st.fractions(0, 6, max_denominator=7), st.fractions(0, 6, max_denominator=7)).map(
    lambda xy: (mpq(xy[0].numerator, xy[0].denominator), mpq(xy[1].numerator, xy[1].denominator)))


def both(law, gamma, budget, x, y):
    X, Y, _M = integer_point(x, y)
    return FiniteGame(law, gamma).g_value(budget, X, Y), PlainGame(law, gamma).g_value(budget, X, Y)


@given(laws(2), gammas(4), points)
@settings(max_examples=25, deadline=None)
def test_budget_three_value_and_witness_equal_the_plain_engine(law, ab, xy):
    screened, plain = both(law, Gamma(*ab), 3, *xy)
    assert screened == plain


@given(laws(1), gammas(3), points)
@settings(max_examples=6, deadline=None)
def test_budget_four_value_and_witness_equal_the_plain_engine(law, ab, xy):
    screened, plain = both(law, Gamma(*ab), 4, *xy)
    assert screened == plain


def test_banks_that_grow_and_join_give_the_plain_engines_values(monkeypatch):
    """Every point level read through banks (no per-curve groups), with at most two banks before they are
    joined: the values of several queries on one game, which add keys to its banks, are the plain engine's."""
    from producer.game import floats, points as point_levels
    monkeypatch.setattr(point_levels, "FEW_CURVES", 0)
    monkeypatch.setattr(point_levels, "MAX_BANKS", 2)
    sizes = []
    original = floats.FloatBank.__init__

    def noting(bank, curves):
        original(bank, curves)
        sizes.append(len(curves))
    monkeypatch.setattr(floats.FloatBank, "__init__", noting)
    law, gamma = FiniteLaw([1, 3, 5, 3, 1], -2), Gamma(1, 3)
    game, plain = FiniteGame(law, gamma), PlainGame(law, gamma)
    for x, y in [(1, 1), (2, 7), (9, 2), (1, 30), (40, 3), (5, 6)]:
        X, Y, _M = integer_point(mpq(x), mpq(y))
        assert game.g_value(4, X, Y) == plain.g_value(4, X, Y)
    assert len(sizes) > 3 and max(sizes) > min(sizes)   # new banks were added, and joined


@pytest.mark.slow
@given(laws(2), gammas(3), points)
@settings(max_examples=20, deadline=None)
def test_budget_four_more(law, ab, xy):
    screened, plain = both(law, Gamma(*ab), 4, *xy)
    assert screened == plain


def exact_root_values(levels, c, X, Y):
    game = levels.game
    out = []
    for r, j in levels.alternatives(c)[0]:
        out.append(sum((levels.f_exact(c - 1, f - r, j, X * p, Y * q) for f, p, q in game.root_entries(j)), mpz(0)))
    return out


def kept_roots(levels, c, x, y):
    np = levels.np
    vals, scales = levels.root_values(c, np.array([x]), np.array([y]))
    return {int(i) for i in levels.kept_roots(x, y, vals[0], scales[0])}


@given(laws(2), gammas(4), points)
@settings(max_examples=25, deadline=None)
def test_every_exact_maximiser_of_the_roots_survives_screening(law, ab, xy):
    game = FiniteGame(law, Gamma(*ab))
    levels = PointLevels(game, 3)
    X, Y, _M = integer_point(*xy)
    if X == 0 or Y == 0:
        return
    exact = exact_root_values(levels, 3, X, Y)
    x, y = levels._normalised(X, Y)
    kept = kept_roots(levels, 3, x, y)
    best = max(exact)
    assert {i for i, v in enumerate(exact) if v == best} <= kept


def test_exact_ties_between_roots_survive():
    # symmetric law, both signs offered: (r, +1) and (−r, −1) tie exactly
    law, gamma = FiniteLaw([1, 3, 1], -1), Gamma(2, 5)
    game = FiniteGame(law, gamma, cover=BothSigns())
    levels = PointLevels(game, 3)
    X, Y = mpz(7), mpz(3)
    exact = exact_root_values(levels, 3, X, Y)
    best = max(exact)
    maximisers = {i for i, v in enumerate(exact) if v == best}
    assert len(maximisers) >= 2                       # a real tie
    kept = kept_roots(levels, 3, *levels._normalised(X, Y))
    assert maximisers <= kept
    assert len(kept) < len(exact)                     # and it does screen


class BothSigns(type(cover_named("enumerate"))):
    def alternatives(self, law, gamma, c):
        return [(r, j) for r in range(gamma.B ** c) for j in SIGNS]


@given(laws(2), gammas(4), points, st.sampled_from([1, -1]), st.integers(-9, 9))
@settings(max_examples=30, deadline=None)
def test_every_exact_best_option_of_a_point_level_f_survives(law, ab, xy, j, k):
    game = FiniteGame(law, Gamma(*ab))
    levels = PointLevels(game, 3)           # F_2 is a point level
    X, Y, _M = integer_point(*xy)
    if X == 0 or Y == 0:
        return
    np = levels.np
    x, y = levels._normalised(X, Y)
    _v, _s, opts = levels.f_float(2, np.array([k]), np.array([j]), np.array([x]), np.array([y]), options=True)
    kept = levels._keep(opts[0][:4], opts[0][4:])
    D = game.D
    exact = [max(X, Y) * D ** 5, levels._echo_exact(2, k, j, X, Y)]
    for s in SIGNS:
        exact.append(levels._participation_exact(2, k, j, s, X, Y, x, y, True) * D)
    best = max(exact)
    for i, v in enumerate(exact):
        if v == best:
            assert kept[i]


@given(laws(3), gammas(5), st.sampled_from([1, -1]), st.integers(0, 24))
@settings(max_examples=30, deadline=None)
def test_pruned_f_curve_is_the_plain_envelope(law, ab, j, k):
    saved = pruning.SMALL_ECHO
    pruning.SMALL_ECHO = 0
    try:
        game = FiniteGame(law, Gamma(*ab))
        pruned = game.f_curve(1, k, j)
    finally:
        pruning.SMALL_ECHO = saved
    plain = PlainGame(law, Gamma(*ab))
    parts = [plain.echo_curve(1, k - j, k)] + [plain.participation_curve(1, k - j, k, s).times(plain.D)
                                               for s in SIGNS]
    assert pruned == hull_envelope(parts)


def test_compilation_does_not_import_the_api():
    code = "import sys, producer.game.compilation, producer.game.roots; print('producer.game.values' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


def dg_like(L):
    import math
    return FiniteLaw([int(10 ** 24 * math.exp(-n * n / 18)) for n in range(-L, L + 1)], -L)


@pytest.mark.parametrize("budget, L", [(3, 24), (4, 12), (4, 16), (3, 32)])
def test_benchmark_requests_are_accepted(budget, L):
    check_limits(dg_like(L), Gamma(1, 3), budget, "enumerate")


@pytest.mark.parametrize("budget, L, what", [(4, 24, "estimated memory"), (6, 8, "estimated work")])
def test_larger_requests_are_refused_with_the_estimate(budget, L, what):
    with pytest.raises(LimitError, match=what):
        check_limits(dg_like(L), Gamma(1, 3), budget, "enumerate")


def test_estimate_grows_with_the_support():
    cover = cover_named("enumerate")
    small = work.root_estimate(dg_like(12), Gamma(1, 3), 4, cover)
    large = work.root_estimate(dg_like(16), Gamma(1, 3), 4, cover)
    assert large.work > small.work and large.memory > small.memory


@given(st.lists(st.one_of(st.integers(0, 40), st.integers(0, 2 ** 40)), min_size=1, max_size=60))
def test_unique_keys_are_numpy_unique(keys):
    from producer.game.points import _unique
    np = __import__("numpy")
    keys = np.array(keys, dtype=np.int64)
    uniq, inverse, counts = _unique(np, keys)
    want, want_inverse, want_counts = np.unique(keys, return_inverse=True, return_counts=True)
    assert uniq.tolist() == want.tolist() and inverse.tolist() == want_inverse.reshape(-1).tolist()
    assert counts.tolist() == want_counts.tolist()


@pytest.mark.parametrize("X, Y", [(mpz(1), mpz(10) ** 9), (mpz(1), mpz(10) ** 12)])
def test_roots_are_screened_near_a_corner(X, Y):
    # there every alternative is y plus a tiny excess (relative gaps 5e-14 and 5e-17 here, under
    # the relative margin 7e-13, which kept 6 and all 27): the excesses over the common baseline
    # tell them apart, and every exact maximiser (three tie) survives
    law, gamma = FiniteLaw([1, 4, 6, 4, 1], -2), Gamma(1, 3)
    game = FiniteGame(law, gamma)
    levels = PointLevels(game, 3)
    exact = exact_root_values(levels, 3, X, Y)
    best = max(exact)
    kept = kept_roots(levels, 3, *levels._normalised(X, Y))
    assert {i for i, v in enumerate(exact) if v == best} <= kept
    assert len(kept) < len(exact)
    assert PointLevels(game, 3).root_value(X, Y) == PlainGame(law, gamma).g_value(3, X, Y)


def test_the_screening_of_every_residue_is_in_the_estimate_at_budget_two():
    """G_2's float screening tabulates all B residues: γ = 1/10^6 used to run for minutes into 8 GB."""
    law = FiniteLaw([2, 0, 1, 3], -1)
    cover = cover_named("compiled")
    small, large = (work.root_estimate(law, Gamma(1, B), 2, cover) for B in (30001, 300001))
    assert large.work > 9 * small.work and large.memory - work.BASE_MEMORY > 9 * (small.memory - work.BASE_MEMORY)
    check_limits(law, Gamma(1, 30001), 2, "compiled")
    with pytest.raises(LimitError, match=r"estimated memory .* \(B = 1000001,"):
        check_limits(law, Gamma(1, 1000001), 2, "compiled")


def test_estimates_beyond_the_float_range_are_stated():
    """B = 10^400 makes the estimate about 10^403: stated, not an OverflowError."""
    with pytest.raises(LimitError, match=r"estimated work about 10\^40\d units .* \(B = about 10\^400,"):
        check_limits(dg_like(12), Gamma(1, 10 ** 400 + 1), 1, "reduced")
