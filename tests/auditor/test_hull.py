"""Hull operations of auditor.game.curves against brute force on small instances."""

from fractions import Fraction
from itertools import combinations

from hypothesis import given, strategies as st

from auditor.game.curves import Chain, envelope
from auditor.game.sums import sum_scaled


def brute_vertices(points):
    """Canonical upper-right chain by brute force over directions.

    A vertex is the unique maximiser of x*A + y*B' for some x, y > 0.  Between
    consecutive critical ratios x/y (where two points tie) the maximiser is
    unique, so probing one ratio inside each interval (and beyond both ends)
    finds every vertex.
    """
    pts = sorted(set((Fraction(a), Fraction(b)) for a, b in points))
    crit = set()
    for (a1, b1), (a2, b2) in combinations(pts, 2):
        if a1 != a2 and b1 != b2 and (b2 - b1) / (a1 - a2) > 0:
            crit.add((b2 - b1) / (a1 - a2))
    crit = sorted(crit)
    probes = []
    if crit:
        probes.append(crit[0] / 2)
        probes += [(u + v) / 2 for u, v in zip(crit, crit[1:])]
        probes.append(crit[-1] * 2 + 1)
    else:
        probes = [Fraction(1)]
    # also break exact ties at the ends: tiny x (max B', larger A) and tiny y
    eps = Fraction(1, 10 ** 9) * (crit[0] if crit else 1)
    probes += [eps, 1 / eps]
    found = set()
    for r in probes:  # r = x / y with y = 1
        best = max(pts, key=lambda p: (r * p[0] + p[1]))
        found.add(best)
    return sorted(found)


def brute_value(points, x, y):
    return max(x * Fraction(a) + y * Fraction(b) for a, b in points)


point_lists = st.lists(st.tuples(st.integers(0, 12), st.integers(0, 12)), min_size=1, max_size=9)
small_lists = st.lists(st.tuples(st.integers(0, 12), st.integers(0, 12)), min_size=1, max_size=5)
directions = st.tuples(st.integers(0, 9), st.integers(0, 9)).filter(lambda d: d != (0, 0))


@given(point_lists)
def test_from_points_is_the_canonical_chain(points):
    chain = Chain.from_points(points)
    assert chain.vertices() == brute_vertices(points)
    xs, ys = chain.xs, chain.ys
    assert all(a < b for a, b in zip(xs, xs[1:]))
    assert all(a > b for a, b in zip(ys, ys[1:]))
    keys = chain.keys()
    assert all(u < v for u, v in zip(keys, keys[1:]))


@given(point_lists, st.lists(directions, min_size=1, max_size=5), st.integers(1, 5))
def test_value_equals_max_over_points(points, dirs, den):
    chain = Chain.from_points(points, den)
    for x, y in dirs:
        assert chain.value(x, y) == brute_value(points, x, y) / den
        if x:
            assert chain.value_ratio(Fraction(y, x)) == brute_value(points, 1, Fraction(y, x)) / den


@given(point_lists, st.lists(directions, min_size=1, max_size=5), st.integers(1, 5))
def test_transposed_is_the_curve_with_x_and_y_swapped(points, dirs, den):
    chain = Chain.from_points(points, den)
    t = chain.transposed()
    assert t.vertices() == [(b, a) for a, b in reversed(chain.vertices())]
    assert t.transposed() == chain and t.den == chain.den
    for x, y in dirs:
        assert t.value(x, y) == chain.value(y, x)


@given(st.dictionaries(st.integers(0, 6), st.integers(0, 5), max_size=6),
       st.dictionaries(st.integers(0, 6), st.integers(0, 5), max_size=6))
def test_from_measures_equals_all_events(P, Q):
    if not any(P.values()) and not any(Q.values()):
        P = {0: 1}
    outcomes = sorted(set(P) | set(Q))
    points = []
    for r in range(len(outcomes) + 1):
        for E in combinations(outcomes, r):
            pe = sum(P.get(o, 0) for o in E)
            qc = sum(Q.get(o, 0) for o in outcomes if o not in E)
            points.append((pe, qc))
    assert Chain.from_measures(P, Q).vertices() == brute_vertices(points)


@given(st.lists(small_lists, min_size=1, max_size=3), st.lists(directions, min_size=1, max_size=4))
def test_minkowski_sum(lists, dirs):
    chains = [Chain.from_points(p) for p in lists]
    s = sum_scaled([(c, 1, 1) for c in chains], 1)
    sums = [(0, 0)]
    for pts in lists:
        sums = [(a + c, b + d) for a, b in sums for c, d in pts]
    assert s.vertices() == brute_vertices(sums)
    for x, y in dirs:
        assert s.value(x, y) == sum(c.value(x, y) for c in chains)


@given(st.lists(st.tuples(small_lists, st.integers(0, 4), st.integers(0, 4)), min_size=1, max_size=3))
def test_sum_scaled(terms):
    chains = [(Chain.from_points(p), a, b) for p, a, b in terms]
    s = sum_scaled(chains, 1)
    sums = [(0, 0)]
    for pts, a, b in terms:
        sums = [(u + a * c, v + b * d) for u, v in sums for c, d in pts]
    assert s.vertices() == brute_vertices(sums)


@given(st.lists(st.tuples(point_lists, st.integers(1, 4)), min_size=1, max_size=4))
def test_envelope_is_hull_of_union(lists):
    chains = [Chain.from_points(p, den) for p, den in lists]
    union = [(Fraction(a, den), Fraction(b, den)) for p, den in lists for a, b in p]
    assert envelope(chains).vertices() == brute_vertices(union)


@given(point_lists, st.integers(0, 4), st.integers(0, 4), directions)
def test_scaled(points, alpha, beta, d):
    chain = Chain.from_points(points)
    s = sum_scaled([(chain, alpha, beta)], 1)
    x, y = d
    assert s.value(x, y) == chain.value(alpha * x, beta * y)


def test_stop_curve_and_fraction_round_trip():
    stop = Chain.stop(7)
    assert stop.vertices() == [(0, 1), (1, 0)]
    assert stop.value(Fraction(2), Fraction(3)) == 3
    v = [(Fraction(0), Fraction(1)), (Fraction(1, 2), Fraction(2, 3)), (Fraction(1), Fraction(0))]
    assert Chain.from_fractions(v).vertices() == v


def test_collinear_and_ties_trimmed():
    # (0,2),(1,2): tie on max B' -> keep the larger A; (2,1) collinear on (1,2)-(3,0)
    pts = [(0, 2), (1, 2), (2, 1), (3, 0), (3, -0), (1, 1)]
    assert Chain.from_points(pts).vertices() == [(1, 2), (3, 0)]
