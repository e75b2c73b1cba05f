"""The pruned hull routes of auditor.game.curves and sums against the plain ones.

``envelope`` returns a chain whose region holds the others, ``envelope_with_sums``
drops slope ranges of Minkowski sums that lie in the region of the other
chains, and ``sum_scaled`` sorts edges by integer floors of their
ratios (re-sorting runs of equal floors exactly).  Each test forces the
shortcut on small instances (tiny thresholds) and compares with the route
that does not take it, or with a brute force.
"""

from fractions import Fraction

from gmpy2 import mpq
from hypothesis import given, settings, strategies as st

from auditor.game import sums
from auditor.game.curves import Chain, dominated, envelope, run_apex
from auditor.game.sums import sum_scaled
from tests.auditor.test_hull import brute_vertices


def _convex_chain(draw, n, lo=1, hi=6):
    """A strictly concave upper-right chain with about n vertices (edges of
    strictly increasing ratio dB/dA), as integer points."""
    edges = draw(st.lists(st.tuples(st.integers(lo, hi), st.integers(lo, hi)), min_size=1, max_size=n))
    edges = sorted(set(edges), key=lambda e: Fraction(e[1], e[0]))
    kept, seen = [], set()
    for da, db in edges:
        r = Fraction(db, da)
        if r not in seen:
            seen.add(r)
            kept.append((da, db))
    x0 = draw(st.integers(0, 5))
    y0 = sum(db for _, db in kept) + draw(st.integers(0, 5))
    pts = [(x0, y0)]
    for da, db in kept:
        pts.append((pts[-1][0] + da, pts[-1][1] - db))
    return pts


@st.composite
def chains(draw, n=12):
    return _convex_chain(draw, n)


@given(chains(30), st.lists(chains(6), min_size=1, max_size=3), st.integers(0, 3), st.integers(1, 3))
def test_envelope_equals_the_hull_of_the_union(big, small, shift, den):
    """envelope() returns its largest chain when that chain's region holds the
    others (shifted up here so that it often does) and the hull otherwise:
    both are the hull of the union, over any denominators."""
    big = [(a + shift, b + shift) for a, b in big]
    got = envelope([Chain.from_points(big, den)] + [Chain.from_points(p) for p in small] + [Chain.stop(1)])
    union = ([(Fraction(a, den), Fraction(b, den)) for a, b in big]
             + [(Fraction(a), Fraction(b)) for c in small for a, b in c] + [(0, 1), (1, 0)])
    assert got.vertices() == brute_vertices(union)


@given(chains(20), st.data())
def test_run_apex_bounds_every_vertex_of_the_run(pts, data):
    """The apex triangle holds the run: for every direction (x, y) >= 0 the
    largest of x*A + y*B' over the triangle's corners is >= its value at each
    vertex of the run (the bound the pruning relies on)."""
    c = Chain.from_points(pts)
    if len(c) < 3:
        return
    i = data.draw(st.integers(0, len(c) - 3))
    k = data.draw(st.integers(i + 2, len(c) - 1))
    ax, ay = run_apex(c, i, k)
    for x, y in [(1, 0), (0, 1), (1, 1), (2, 3), (5, 1), (1, 7)]:
        bound = max(x * c.xs[i] + y * c.ys[i], x * c.xs[k] + y * c.ys[k], x * ax + y * ay)
        for m in range(i, k + 1):
            assert bound >= x * c.xs[m] + y * c.ys[m]


@given(chains(10), st.integers(-3, 40), st.integers(-3, 40), st.fractions(0, 1, max_denominator=7))
def test_dominated_is_the_region_below_the_curve(pts, a, b, frac):
    """dominated(p) iff x*a + y*b <= V(x, y) for all directions: checked on the
    directions where V changes vertex (and the axes), which suffice because
    both sides are linear between them."""
    c = Chain.from_points(pts)
    a = a + frac
    dirs = [(1, 0), (0, 1)] + [(k.numerator, k.denominator) for k in (Fraction(1),)]
    dirs += [(int(dy), int(dx)) for dx, dy in zip(*c.edges())]   # x/y = dB/dA: two vertices tie
    want = all(x * a + y * b <= c.value(x, y) for x, y in dirs)
    assert dominated(c, mpq(a.numerator, a.denominator), b) == want


@settings(max_examples=150)
@given(st.lists(st.tuples(chains(3), st.integers(0, 4), st.integers(0, 4)), min_size=1, max_size=3),
       st.sampled_from([0, 1, 2, 64]))
def test_sum_scaled_with_coarse_floors_equals_brute_force(terms, bits):
    """Few sort bits force many equal floors (the exact re-sort path); repeated
    terms exercise the merging of equal-ratio terms."""
    terms = terms + terms[:1]
    old = sums.SORT_BITS
    try:
        sums.SORT_BITS = bits
        s = sum_scaled([(Chain.from_points(p), a, b) for p, a, b in terms], 1)
    finally:
        sums.SORT_BITS = old
    points = [(0, 0)]
    for pts, a, b in terms:
        points = [(u + a * x, v + b * y) for u, v in points for x, y in pts]
    assert s.vertices() == brute_vertices(points)
    xs, ys = s.xs, s.ys
    assert all(p < q for p, q in zip(xs, xs[1:])) and all(p > q for p, q in zip(ys, ys[1:]))
    keys = s.keys()
    assert all(u < v for u, v in zip(keys, keys[1:]))


@st.composite
def sums_of_chains(draw, den):
    """A list of Minkowski sums, each a list of (chain, p, q) terms over a few chains."""
    bases = [Chain.from_points(draw(chains(12)), den) for _ in range(draw(st.integers(1, 3)))]
    return [[(draw(st.sampled_from(bases)), p, q)
             for p, q in draw(st.lists(st.tuples(st.integers(0, 5), st.integers(0, 5)), min_size=1, max_size=4))]
            for _ in range(draw(st.integers(1, 3)))]


@settings(max_examples=150)
@given(st.integers(1, 3).flatmap(lambda den: st.tuples(st.just(den), sums_of_chains(den))),
       st.lists(chains(8), min_size=0, max_size=2), st.integers(1, 6))
def test_envelope_with_sums_equals_the_built_sums(den_sums, rest, leaf):
    """Sums explored by slope (ranges dropped inside the others' region, tiny
    leaves to exercise the splitting; terms over different chains) give the
    envelope of the built Minkowski sums and the other chains, vertex for vertex."""
    den, sum_list = den_sums
    others = [Chain.stop(den)] + [Chain.from_points(p, den) for p in rest]
    built = [sum_scaled(terms, den) for terms in sum_list]
    old = sums.SUM_LEAF
    try:
        sums.SUM_LEAF = leaf
        lazy = sums.envelope_with_sums(sum_list, others, den)
    finally:
        sums.SUM_LEAF = old
    assert lazy.den == den
    assert lazy.vertices() == envelope(others + built).vertices()


@given(chains(25), st.lists(st.tuples(st.integers(1, 5), st.integers(1, 5)), min_size=1, max_size=4))
def test_envelope_with_sums_alone_is_the_sum(base, terms):
    # with only the point (0, 0) as the rest nothing can be dropped: the sum itself
    chain = Chain.from_points(base)
    built = sum_scaled([(chain, p, q) for p, q in terms], 1)
    lazy = sums.envelope_with_sums([[(chain, p, q) for p, q in terms]], [Chain([mpq(0)], [mpq(0)], 1)], 1)
    assert lazy.vertices() == envelope([built, Chain([mpq(0)], [mpq(0)], 1)]).vertices()
