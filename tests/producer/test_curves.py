from fractions import Fraction

from gmpy2 import mpz
from hypothesis import given, strategies as st

from producer.curves import TestingCurve, hull_envelope, minkowski_sum

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


def test_rational_query_points():
    c = curve_of([(1, 3), (2, 1), (0, 2)])
    x, y = Fraction(2, 3), Fraction(5, 7)
    from gmpy2 import mpq
    assert c(mpq(2, 3), mpq(5, 7)) == brute([(1, 3), (2, 1), (0, 2)], x, y)


def test_axis_points_are_included():
    c = curve_of([(1, 0), (0, 1), (1, 1)])
    assert c.vertices()[0] == (1, 2)       # E = {p-only output}: A = 1, B' = Q(everything)
    assert c.vertices()[-1] == (2, 1)      # the q-only output is never in E
