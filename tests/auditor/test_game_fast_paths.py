"""The evaluator's shortcuts against plain evaluations (docs/mechanism.md §4).

auditor.game takes several exact shortcuts: echo values and curves keyed by
the echo shape (rho_P, rho_Q, m_P - m_Q), the mirror symmetry of symmetric
laws (twin roots searched once, residues canonicalised), transitions cached
by their relative shape, whole F levels built at once, and (from budget four)
G_(C-1) evaluated at points instead of as a curve.  Each test here compares
a shortcut with a route that does not take it: the plain Fraction reference
of tests/reference_game.py (all roots of one period, rows by the mixture
form, states as exact integers) or the same evaluator with the shortcut
switched off.
"""

from fractions import Fraction
from math import gcd

import pytest
from gmpy2 import mpq
from hypothesis import given, settings, strategies as st

from auditor.game import values, work
from auditor.game.game import Game, Routes
from auditor.game.rows import Law
from tests.reference_game import ReferenceGame


@st.composite
def laws(draw, max_B=12, max_len=4, symmetric=None):
    """(weights, offset, a, B): zeros allowed; symmetric when asked (or at random)."""
    B = draw(st.integers(2, max_B))
    a = draw(st.sampled_from([a for a in range(1, B) if gcd(a, B) == 1]))
    if symmetric is None:
        symmetric = draw(st.booleans())
    if symmetric:
        half = draw(st.lists(st.integers(0, 4), min_size=1, max_size=(max_len + 1) // 2))
        weights = half[:0:-1] + half  # palindrome of odd length, centred at 0
        if not any(weights):
            weights[len(weights) // 2] = 1
        offset = -(len(weights) // 2)
    else:
        weights = draw(st.lists(st.integers(0, 4), min_size=1, max_size=max_len))
        if not any(weights):
            weights[-1] = 1
        offset = draw(st.integers(-2, 1))
    return weights, offset, a, B


points = st.tuples(st.fractions(min_value=Fraction(1, 5), max_value=3, max_denominator=5),
                   st.fractions(min_value=Fraction(1, 5), max_value=3, max_denominator=5))


def _mpq(f):
    return mpq(f.numerator, f.denominator)


def _frac(q):
    return Fraction(int(q.numerator), int(q.denominator))


@given(laws(), st.integers(1, 2), points, st.integers(-6, 6))
@settings(max_examples=12, deadline=None)
def test_budgets_one_and_two_equal_the_plain_reference(law, C, pt, k):
    """Large B (up to 12), asymmetric or symmetric laws with zeros."""
    x, y = pt
    ref = ReferenceGame(*law)
    assert values.root_value(Law(*law), C, x, y) == ref.G(C, x, y)
    assert values.pending_value(Law(*law), C - 1, k - 1, k, x, y) == ref.F(C - 1, k - 1, k, x, y)


@given(laws(max_B=3, max_len=3), points)
@settings(max_examples=6, deadline=None)
def test_budget_three_equals_the_plain_reference(law, pt):
    x, y = pt
    assert values.root_value(Law(*law), 3, x, y) == ReferenceGame(*law).G(3, x, y)


@given(laws(max_B=2, max_len=2), points)
@settings(max_examples=3, deadline=None)
def test_budget_four_point_route_equals_the_plain_reference(law, pt):
    """At C = 4 the evaluator reads G_3 at points, not from a curve."""
    x, y = pt
    assert values.root_value(Law(*law), 4, x, y) == ReferenceGame(*law).G(4, x, y)


@given(laws(max_B=3, max_len=3, symmetric=True), st.integers(1, 3), points, st.integers(-9, 9))
@settings(max_examples=10, deadline=None)
def test_mirror_shortcut_changes_no_value(law, C, pt, k):
    """The same symmetric law with the mirror switched off gives equal values."""
    t = _mpq(pt[1] / pt[0])
    on, off = Game(Law(*law)), Game(Law(*law), Routes(mirror=False))
    assert on.symmetric and not off.symmetric
    for g in (on, off):
        g.use_curves_below(C)
    assert on.G_ratio(C, t) == off.G_ratio(C, t)
    assert on.F_general(C - 1, k + 1, k, t) == off.F_general(C - 1, k + 1, k, t)
    assert len(on.root_alternatives(C)) <= len(off.root_alternatives(C))


@given(laws(max_B=3, max_len=3), st.integers(1, 3), points, st.integers(-9, 9))
@settings(max_examples=10, deadline=None)
def test_transposition_changes_no_value(law, C, pt, k):
    """F_q((kP, kQ); x, y) = F_q((kQ, kP); y, x) and G_c is symmetric: the
    route that builds one curve of each transposed pair (and G from the sign
    +1 alternatives) equals the route that builds every curve."""
    t = _mpq(pt[1] / pt[0])
    on, off = Game(Law(*law)), Game(Law(*law), Routes(transpose=False))
    for g in (on, off):
        g.use_curves_below(C)
    assert on.G_ratio(C, t) == off.G_ratio(C, t)
    assert on.F_general(C - 1, k + 1, k, t) == off.F_general(C - 1, k + 1, k, t)
    q = C - 1
    for j in (-1, 1):
        assert on.F_curve(q, k, j) == off.F_curve(q, k, j) == off.F_curve(q, k - j, -j).transposed()
    assert on.G_curve(q) == off.G_curve(q) == off.G_curve(q).transposed()


@given(laws(max_B=2, max_len=3), st.integers(-4, 4), st.integers(-4, 4), points,
       st.sampled_from([-1, 0, 1]))
@settings(max_examples=6, deadline=None)
def test_refined_echo_is_exact_or_proved_below(law, kP, kQ, pt, side):
    """At C = 4 an echo of F_3 whose bound exceeds the node's other options
    is refined term by term: the answer is the exact echo, or None only when
    the exact echo is at most the level it was compared with."""
    t = _mpq(pt[1] / pt[0])
    exact = Game(Law(*law), Routes(echo_bounds=False))
    exact.use_curves_below(4)
    echo = exact.echo_ratio(3, kP, kQ, t)
    v = echo + mpq(side, 1000)
    g = Game(Law(*law))
    g.use_curves_below(4)
    got = g.echo_refined(3, kP, kQ, t, v)
    assert got == echo if side < 0 else got in (None, echo)


@given(laws(max_B=2, max_len=3), st.sampled_from([3, 4]), points)
@settings(max_examples=6, deadline=None)
def test_root_alternatives_enclosed_before_their_exact_values(law, C, pt):
    """Where the F_(C-1) nodes have echo bounds, the root encloses every
    alternative first and values exactly only those whose upper end exceeds
    the best so far: the enclosures hold the exact values and the maximum is
    the one of the route without bounds."""
    t = _mpq(pt[1] / pt[0])
    g, plain = Game(Law(*law)), Game(Law(*law), Routes(echo_bounds=False))
    for game in (g, plain):
        game.use_curves_below(C)
    assert g.G_ratio(C, t) == plain.G_ratio(C, t)
    fresh = Game(Law(*law))
    fresh.use_curves_below(C)
    if not fresh._bounded(C - 1):
        return
    for k, j in fresh.root_alternatives(C):
        lo, hi = fresh._participate_bounds(C, k, j, t)
        assert lo <= plain.participate_ratio(C, k, k, j, t) <= hi


@given(laws(max_B=3, max_len=3), points)
@settings(max_examples=8, deadline=None)
def test_point_and_curve_levels_agree_at_budget_four(law, pt):
    """C = 4 with G_3 at points equals C = 4 read from a whole G_3 curve."""
    t = _mpq(pt[1] / pt[0])
    points_route = Game(Law(*law))
    points_route.use_curves_below(4)
    assert points_route.g_curve_max == 2
    curve_route = Game(Law(*law), Routes(g_curves=3))
    curve_route.use_curves_below(4)
    assert curve_route.g_curve_max == 3
    assert points_route.G_ratio(4, t) == curve_route.G_ratio(4, t)


@given(laws(max_B=4, max_len=3), st.integers(1, 3), points)
@settings(max_examples=8, deadline=None)
def test_eager_levels_equal_lazy_curves(law, C, pt):
    t = _mpq(pt[1] / pt[0])
    eager, lazy = Game(Law(*law)), Game(Law(*law), Routes(eager_level=0))
    for g in (eager, lazy):
        g.use_curves_below(C)
    assert eager.G_ratio(C, t) == lazy.G_ratio(C, t)
    assert eager.G_curve(C - 1) == lazy.G_curve(C - 1)


@given(laws(max_B=5, max_len=4), st.integers(0, 2), st.integers(-30, 30), st.integers(-30, 30),
       st.integers(-3, 3), points)
@settings(max_examples=40, deadline=None)
def test_echo_shape_keys_are_sound(law, q, kP, kQ, s, pt):
    """Shifting both states by B*s keeps the shape; the echo is the brute sum."""
    ref = ReferenceGame(*law)
    x, y = pt
    g = values.game_for(Law(*law))
    g.use_curves_below(q + 1)
    B = law[3]
    t = _mpq(y / x)
    want = sum((_g_value(ref, q, x * p, y * qq)
                for _o, p, qq in ref.joint(kP, kQ, 0)), Fraction(0))
    assert x * _frac(g.echo_ratio(q, kP, kQ, t)) == want
    assert g._shape(kP + B * s, kQ + B * s) == g._shape(kP, kQ)
    assert x * _frac(g.echo_ratio(q, kP + B * s, kQ + B * s, t)) == want


def _g_value(ref, q, x, y):
    if x == 0 or y == 0:
        return x + y
    return max(x * a + y * b for a, b in ref.g(q))


@given(laws(max_B=7, max_len=5), st.integers(-40, 40), st.integers(-40, 40), st.sampled_from([-1, 0, 1]))
@settings(max_examples=60, deadline=None)
def test_transitions_by_relative_shape_equal_the_rows(law, kP, kQ, j):
    g = Game(Law(*law))
    rp, rq = g.law.row(kP), g.law.row(kQ)
    outs = sorted({n + j for n in rp} | set(rq))
    want = [(o, rp.get(o - j, 0), rq.get(o, 0)) for o in outs]
    got = [(o, int(p), int(qq)) for o, p, qq in g.transition(kP, kQ, j)]
    assert [e for e in got if e[1] or e[2]] == [e for e in want if e[1] or e[2]]


def test_published_values_through_every_route():
    """docs/mechanism.md §4 with the shortcuts on and off."""
    law = ([1, 2, 1], -1, 1, 3)
    for symmetric in (True, False):
        g = Game(Law(*law))
        g.symmetric = symmetric
        g.use_curves_below(2)
        assert _frac(g.G_ratio(2, mpq(1, 2))) - Fraction(1, 2) == Fraction(5, 6)
        g.use_curves_below(3)
        assert 1 * _frac(g.F_general(2, 1, 0, mpq(2))) == Fraction(4723, 1728)
        assert _frac(g.F_general(2, 10, 9, mpq(2))) == Fraction(2351, 864)
    g = Game(Law([1, 1, 1], -1, 1, 2))
    g.use_curves_below(4)
    assert _frac(g.G_ratio(4, mpq(1))) / 2 == Fraction(3737, 3888)


# -- the work estimate ----------------------------------------------------------

def test_work_estimate_is_cheap_and_monotone():
    # cheap: huge requests are answered from sizes alone (the last lines); nothing is timed
    base = work.estimated_work(25, 3, 4, preparations=81)
    assert work.estimated_work(33, 3, 4, preparations=81) > base
    assert work.estimated_work(25, 3, 5, preparations=243) > base
    assert work.estimated_work(25, 3, 4, preparations=81, pending=True) == 27 * base
    # per-level counts may replace the top count; the top count bounds lower levels
    per_level = work.estimated_work(25, 3, 4, preparations=[3, 9, 27, 81])
    assert per_level <= base
    # huge requests are answered from sizes alone (no giant powers)
    assert work.estimated_work(4097, 10 ** 12, 64) > 10 ** 30
    assert work.estimated_work(3, 2, 10 ** 9) == 2 ** 256
    with pytest.raises(ValueError):
        work.estimated_work(3, 2, 4, preparations=[1, 2])


def test_work_estimate_orders_the_reference_rows():
    """The rows issue 10 names, by their estimates (documented in the report)."""
    def est(L, a, B, C):
        w = [1] * (2 * L + 1)
        return work.estimated_work(len(w), B, C, preparations=work.root_preparation_count(Law(w, -L, a, B), C))
    c2, c3, c4_12, c4_16 = est(24, 1, 3, 2), est(24, 1, 3, 3), est(12, 1, 3, 4), est(16, 1, 3, 4)
    # C = 3, L = 24 counts its G_2 curve's folded sums (P_2 l^4), more than C = 4, L = 12
    assert c2 < c4_12 < c3 < c4_16 < 2 * 10 ** 8
    assert est(16, 86, 257, 2) < c4_12
    assert est(40, 336, 1009, 3) > 10 ** 11  # radius 40, B = 1009 stays refused


@settings(max_examples=40, deadline=None)
@given(laws(max_B=9, max_len=5), st.sampled_from([2, 3]), points)
def test_root_point_bound_counts_the_values_the_root_reaches(law, C, pt):
    """The estimate's count of distinct F_(C-1) values (ratio groups of the
    pure root rows) is never below what one root query actually evaluates
    (at C <= 3 only the root evaluates F_(C-1) at points)."""
    weights, offset, a, B = law
    g = Game(Law(*law))
    g.use_curves_below(C)
    g.G_ratio(C, _mpq(pt[1] / pt[0]))
    reached = sum(1 for key in g._F_memo if key[0] == C - 1)
    l = work.support_width(weights) + 2
    P = len(g.root_preparations(C))
    groups = work.root_ratio_groups(Law(weights, offset, a, B))
    assert reached <= work.root_point_bound(l, B, C, P, groups) <= work.root_point_bound(l, B, C, P)


def test_root_ratio_groups_of_a_uniform_law():
    # a uniform law has one ratio (1) on the outputs both shifted rows share, per sign
    assert work.root_ratio_groups(Law([1] * 7, -3, 1, 3)) == (6, 6)
    assert sum(work.root_ratio_groups(Law([1, 2, 1], -1, 1, 3))) == 4


@settings(max_examples=25, deadline=None)
@given(laws(max_B=5, max_len=4), st.sampled_from([2, 3]), points)
def test_lazy_echo_route_equals_the_built_echo(law, q, pt):
    """F_q curves with the echo explored by slope (auditor.game.sums.envelope_with_sums,
    forced by a threshold of 1) equal those built from the whole echo curve."""
    from auditor.game import curves as hull
    weights, offset, a, B = law
    old = hull.PRUNE_MIN
    try:
        hull.PRUNE_MIN = 1
        lazy = Game(Law(*law))
        lazy.use_curves_below(q + 1)
        got = [lazy.general_curve(q, kP, kQ) for kP, kQ in ((0, 0), (1, 0), (-1, 2))]
        value = lazy.G_ratio(q + 1, _mpq(pt[1] / pt[0]))
    finally:
        hull.PRUNE_MIN = old
    plain = Game(Law(*law), Routes(lazy_echo=False))
    plain.use_curves_below(q + 1)
    want = [plain.general_curve(q, kP, kQ) for kP, kQ in ((0, 0), (1, 0), (-1, 2))]
    assert [c.vertices() for c in got] == [c.vertices() for c in want]
    assert value == plain.G_ratio(q + 1, _mpq(pt[1] / pt[0]))


@settings(max_examples=15, deadline=None)
@given(laws(max_B=20, max_len=5, symmetric=True), st.lists(points, min_size=1, max_size=3))
def test_integer_floor_vertex_search_matches_coarse_floors(law, pts):
    """The residue-table search (auditor.game.lookups) bisects integer floors
    of the keys and settles ties on the rationals: with 0 fractional bits
    almost every search ties, so both branches are exercised and must give
    the same values."""
    from auditor.game import lookups

    def values_at_budget_two():
        g = Game(Law(*law), Routes(roots="all"))
        g.use_curves_below(2)
        return [g.G_ratio(2, _mpq(y / x)) for x, y in pts]

    fine = values_at_budget_two()
    saved = lookups.KEY_BITS
    try:
        lookups.KEY_BITS = 0
        coarse = values_at_budget_two()
    finally:
        lookups.KEY_BITS = saved
    assert coarse == fine


@pytest.mark.parametrize("law", [([1, 3, 5, 3, 1], -2, 2, 7), ([2, 1, 0, 1, 2], -2, 3, 5), ([1, 2, 3], 0, 1, 2)])
@pytest.mark.parametrize("C, bits", [(2, 0), (3, 0), (3, 64)])
def test_flipped_lookup_entries_equal_their_own(law, C, bits):
    """A residue table cell may read its transposed twin's floor keys flipped
    (auditor.game.lookups): the values equal those of a game without the
    transposition, where every cell has its own keys; also with 0 fractional
    bits, where most searches tie and are settled on the rationals.  Every
    root participation is compared (the maximum could hide an error)."""
    from auditor.game import lookups

    def values(routes):
        g = Game(Law(*law), routes)
        g.use_curves_below(C)
        return [g.participate_ratio(C, k, k, j, _mpq(t)) for t in (Fraction(3, 2), Fraction(1, 5), Fraction(22))
                for k in range(-3, 4) for j in (-1, 1)]

    saved = lookups.KEY_BITS
    try:
        lookups.KEY_BITS = bits
        assert values(Routes()) == values(Routes(transpose=False))
    finally:
        lookups.KEY_BITS = saved
