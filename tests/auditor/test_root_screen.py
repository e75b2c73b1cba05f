"""The integer root screening and the echo bounds against the plain routes.

auditor.game.screen discards root alternatives whose fixed-point upper bound
is below another's lower bound; auditor.game proves echoes below the other
options with an outer envelope of the residue curves (auditor.game.curves's
dominating_chain).  Neither may change a value: each test compares the
evaluator with the shortcut on and off, or with the plain Fraction
reference, on small random laws (the screening threshold lowered to 0 so
that it runs on every instance), and checks the bounds themselves.
"""

from fractions import Fraction

import pytest
from gmpy2 import mpq
from hypothesis import given, settings, strategies as st

from auditor.game import screen as root_screen
from auditor.game.game import Game, Routes
from auditor.game.curves import Chain, dominating_chain
from auditor.game.rows import Law
from tests.auditor.test_game_fast_paths import laws, points, _mpq
from tests.reference_game import ReferenceGame


@pytest.fixture(scope="module")
def screen_everything():
    """SCREEN_MIN = 0 for the tests that ask (module scope: hypothesis reruns
    a test body many times within one fixture)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(root_screen, "SCREEN_MIN", 0)
        yield


def _pair(law, C):
    on, off = Game(Law(*law)), Game(Law(*law), Routes(screening=False, echo_bounds=False))
    for g in (on, off):
        g.use_curves_below(C)
    return on, off


@given(law=laws(max_B=5, max_len=4), C=st.integers(2, 3), pt=points)
@settings(max_examples=40, deadline=None)
def test_screened_root_equals_the_plain_route(screen_everything, law, C, pt):
    t = _mpq(pt[1] / pt[0])
    on, off = _pair(law, C)
    assert on.G_ratio(C, t) == off.G_ratio(C, t)


@given(law=laws(max_B=3, max_len=3), pt=points)
@settings(max_examples=10, deadline=None)
def test_screened_budget_four_equals_the_plain_route(screen_everything, law, pt):
    t = _mpq(pt[1] / pt[0])
    on, off = _pair(law, 4)
    assert on.G_ratio(4, t) == off.G_ratio(4, t)


@given(law=laws(max_B=4, max_len=3), C=st.integers(2, 3), pt=points)
@settings(max_examples=8, deadline=None)
def test_screened_root_equals_the_reference(screen_everything, law, C, pt):
    x, y = pt
    g = Game(Law(*law))
    g.use_curves_below(C)
    got = g.G_ratio(C, _mpq(y / x))
    assert x * Fraction(int(got.numerator), int(got.denominator)) == ReferenceGame(*law).G(C, x, y)


@given(law=laws(max_B=5, max_len=4), C=st.integers(2, 3), pt=points)
@settings(max_examples=30, deadline=None)
def test_survivors_contain_every_maximiser(screen_everything, law, C, pt):
    """Every alternative attaining the maximum survives the screening."""
    t = _mpq(pt[1] / pt[0])
    g = Game(Law(*law))
    g.use_curves_below(C)
    kept = root_screen.screened_alternatives(g, C, t)
    assert kept is not None
    values = {alt: g.participate_ratio(C, alt[0], alt[0], alt[1], t) for alt in g.root_alternatives(C)}
    best = max(values.values())
    assert {alt for alt, v in values.items() if v == best} <= set(kept)


def test_screening_discards_at_the_reference_law(screen_everything):
    """On a discrete-Gaussian-like law with B = 31 most alternatives are
    discarded, and the value is unchanged (the screen is not vacuous)."""
    weights = [1, 8, 28, 56, 70, 56, 28, 8, 1]
    law = (weights, -4, 10, 31)
    t = mpq(7, 3)
    on, off = _pair(law, 2)
    kept = root_screen.screened_alternatives(on, 2, t)
    assert kept is not None and len(kept) < len(on.root_alternatives(2)) // 4
    assert on.G_ratio(2, t) == off.G_ratio(2, t)


def test_no_screening_below_the_threshold(monkeypatch):
    monkeypatch.setattr(root_screen, "SCREEN_MIN", 256)
    g = Game(Law([1, 2, 1], -1, 1, 3))
    g.use_curves_below(2)
    assert len(g.root_alternatives(2)) < root_screen.SCREEN_MIN
    assert root_screen.screened_alternatives(g, 2, mpq(2)) is None


@given(law=laws(max_B=4, max_len=3), q=st.integers(1, 2), k=st.integers(-6, 6), pt=points)
@settings(max_examples=30, deadline=None)
def test_echo_upper_bounds_the_echo(law, q, k, pt):
    """Gbar bounds G_q at points, so the echo bound is >= the exact echo."""
    t = _mpq(pt[1] / pt[0])
    g = Game(Law(*law), Routes(g_curves=q - 1))     # G_q at points, so the bound applies
    g.use_curves_below(q + 1)
    assert (g.g_curve_max, g.g_curve_switch) == (q - 1, None)
    bound = g.echo_upper(q, k + 1, k, t)
    exact = Game(Law(*law), Routes(echo_bounds=False))
    exact.use_curves_below(q + 1)
    assert bound is not None
    assert bound >= exact.echo_ratio(q, k + 1, k, t)


@given(law=laws(max_B=4, max_len=3), pt=points)
@settings(max_examples=15, deadline=None)
def test_budget_three_switch_changes_no_value(law, pt):
    """C = 3 with G_2 at points (switching to its curve) equals the curve route."""
    t = _mpq(pt[1] / pt[0])
    points_route = Game(Law(*law))
    points_route.use_curves_below(3)
    assert points_route.g_curve_max == 1 and points_route.g_curve_switch == 2
    curve_route = Game(Law(*law), Routes(echo_bounds=False))
    curve_route.use_curves_below(3)
    assert curve_route.g_curve_max == 2
    assert points_route.G_ratio(3, t) == curve_route.G_ratio(3, t)


@st.composite
def chains(draw):
    """Concave chains from random integer points (the canonical hull)."""
    pts = draw(st.lists(st.tuples(st.integers(0, 60), st.integers(0, 60)), min_size=1, max_size=40))
    return Chain.from_points(pts, den=draw(st.integers(1, 7)))


@given(chains(), st.integers(2, 9),
       st.fractions(min_value=0, max_value=50, max_denominator=7))
@settings(max_examples=200, deadline=None)
def test_dominating_chain_is_an_upper_bound(chain, run, s):
    outer = dominating_chain(chain, run)
    assert outer.den == chain.den
    assert outer.value(1, s) >= chain.value(1, s)
    assert outer.value(s, 1) >= chain.value(s, 1)
    if len(chain) <= 2 * run:              # short chains are returned as they are
        assert outer == chain or len(outer) <= len(chain)
    else:
        assert len(outer) <= 2 * (len(chain) // run + 2)


def test_dominating_chain_rejects_short_runs():
    with pytest.raises(ValueError, match="run must be >= 2"):
        dominating_chain(Chain.stop(1), 1)


def test_large_levels_keep_the_plain_routes():
    """With B^2 residues beyond what is built whole (B = 1009), budget three
    keeps the G_2 curve and neither bound applies (no level-wide envelope of
    a million curves, no screening over them)."""
    g = Game(Law([1, 2, 1], -1, 336, 1009))
    g.use_curves_below(3)
    assert not g._bounds_apply(2)
    assert (g.g_curve_max, g.g_curve_switch) == (2, None)
    assert g.echo_upper(2, 1, 0, mpq(2)) is None
    assert root_screen.screened_alternatives(g, 3, mpq(2)) is None
