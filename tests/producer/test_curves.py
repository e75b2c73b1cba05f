from fractions import Fraction

from gmpy2 import mpz
from hypothesis import given, strategies as st

from producer.curves import TestingCurve, hull_envelope, hull_of_chains, minkowski_sum

measure = st.lists(st.tuples(st.integers(0, 9), st.integers(0, 9)), min_size=1, max_size=7).filter(
    lambda m: sum(p for p, _ in m) > 0 and sum(q for _, q in m) > 0)
weights = st.tuples(st.integers(0, 12), st.integers(0, 12))


def brute(m, x, y):
    return sum(max(x * p, y * q) for p, q in m)


def curve_of(m):
    return TestingCurve.from_measures([mpz(p) for p, _ in m], [mpz(q) for _, q in m])


def chain_is_canonical(c):
    for i in range(len(c.A) - 1):
        assert c.A[i] < c.A[i + 1] and c.B[i] > c.B[i + 1]
    for i in range(len(c.slopes) - 1):
        assert c.slopes[i] < c.slopes[i + 1]


@given(measure, weights)
def test_from_measures_is_the_testing_value(m, xy):
    c = curve_of(m)
    chain_is_canonical(c)
    assert c(mpz(xy[0]), mpz(xy[1])) == brute(m, *xy)


@given(st.lists(measure, min_size=1, max_size=4), weights)
def test_minkowski_sum_adds_values(ms, xy):
    c = minkowski_sum([curve_of(m) for m in ms])
    chain_is_canonical(c)
    assert c(mpz(xy[0]), mpz(xy[1])) == sum(brute(m, *xy) for m in ms)


@given(st.lists(measure, min_size=1, max_size=4), weights)
def test_hull_envelope_takes_the_maximum(ms, xy):
    c = hull_envelope([curve_of(m) for m in ms])
    chain_is_canonical(c)
    assert c(mpz(xy[0]), mpz(xy[1])) == max(brute(m, *xy) for m in ms)


@given(measure, st.integers(0, 5), st.integers(0, 5), weights)
def test_scaling(m, alpha, beta, xy):
    c = curve_of(m).scaled(mpz(alpha), mpz(beta))
    x, y = xy
    assert c(mpz(x), mpz(y)) == brute(m, alpha * x, beta * y)


@given(measure, weights)
def test_transposed_swaps_the_arguments(m, xy):
    c = curve_of(m)
    t = c.transposed()
    chain_is_canonical(t)
    assert t(mpz(xy[0]), mpz(xy[1])) == brute(m, xy[1], xy[0])
    # the swapped measure's own curve, vertex by vertex and slope by slope
    swapped = curve_of([(q, p) for p, q in m])
    assert t == swapped and t.slopes == swapped.slopes
    assert t.transposed() == c


def test_rational_query_points():
    c = curve_of([(1, 3), (2, 1), (0, 2)])
    x, y = Fraction(2, 3), Fraction(5, 7)
    from gmpy2 import mpq
    assert c(mpq(2, 3), mpq(5, 7)) == brute([(1, 3), (2, 1), (0, 2)], x, y)


def test_axis_points_are_included():
    c = curve_of([(1, 0), (0, 1), (1, 1)])
    assert c.vertices()[0] == (1, 2)       # E = {p-only output}: A = 1, B' = Q(everything)
    assert c.vertices()[-1] == (2, 1)      # the q-only output is never in E


points = st.lists(st.tuples(st.integers(0, 9), st.integers(0, 9)), min_size=1, max_size=8)


@given(st.lists(measure, min_size=1, max_size=4), st.lists(points, max_size=2))
def test_hull_of_chains_is_the_hull_of_all_their_points(ms, extra):
    # curves (slopes reused) and bare point chains (collinear and repeated points allowed)
    curves = [curve_of(m) for m in ms]
    chains = [(c.A, c.B, c.slopes) for c in curves]
    everything = [p for c in curves for p in zip(c.A, c.B)]
    for pts in extra:
        pts = sorted((mpz(a), mpz(b)) for a, b in pts)
        chains.append((tuple(a for a, _ in pts), tuple(b for _, b in pts), None))
        everything.extend(pts)
    hull = hull_of_chains(chains)
    expected = TestingCurve.from_vertices(everything)
    assert (hull.A, hull.B, hull.slopes) == (expected.A, expected.B, expected.slopes)
    chain_is_canonical(hull)


def test_hull_of_chains_checks_a_chain_with_collinear_vertices():
    # three collinear vertices given with equal slopes: the middle one is not a vertex of the hull
    A, B = (mpz(0), mpz(1), mpz(2)), (mpz(2), mpz(1), mpz(0))
    hull = hull_of_chains([(A, B, (Fraction(1), Fraction(1)))])
    assert hull.A == (0, 2) and hull.B == (2, 0)


@given(measure, st.integers(1, 12), st.integers(1, 12), st.integers(-3, 3), st.integers(-64, 0))
def test_proved_vertex_attains_the_value_or_declines(m, x, y, ulps, scale):
    # the float ratio may be off by a few units in the last place: a vertex is then either
    # proved (and attains the maximum) or declined (-1), never wrong; at a slope it declines
    c = curve_of(m)
    x, y = mpz(x) << 64, mpz(y) << (64 + scale)
    t = float(Fraction(int(x), int(y))) * (1.0 + ulps * 2.0 ** -52)
    k = c.proved_vertex(t)
    assert k == -1 or x * c.A[k] + y * c.B[k] == c(x, y)
    k = c.vertex(x, y)
    assert x * c.A[k] + y * c.B[k] == c(x, y)
    for s in c.slopes:
        assert c.proved_vertex(float(s)) == -1


def test_proved_vertex_declines_outside_the_normal_range():
    c = curve_of([(1, 3), (2, 1)])
    assert c.proved_vertex(0.0) == -1 and c.proved_vertex(float("inf")) == -1
    assert c.proved_vertex(2.0 ** -1001) == -1 and c.proved_vertex(1.0) >= 0
