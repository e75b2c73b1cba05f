"""Float copies of curves: the error units of blocked sums and float Minkowski sums hold exactly."""

from fractions import Fraction

from hypothesis import given, settings, strategies as st

from producer.curves import TestingCurve
from producer.game import floats

# nonnegative floats spanning many binades, zeros included (zero padding and zero terms must stay exact)
terms = st.lists(st.one_of(st.just(0.0), st.floats(2.0 ** -60, 2.0 ** 40)), min_size=0, max_size=700)


def within(value, exact, units):
    """|value − exact| <= units·u·exact, decided exactly."""
    return abs(Fraction(value) - exact) <= units * Fraction(floats.U) * exact


@settings(max_examples=60, deadline=None)
@given(terms)
def test_blocked_prefix_sums_meet_their_error_units(ts):
    np = floats.numpy()
    sums, units = floats.blocked_prefix_sums(np.array(ts, dtype=float))
    assert len(sums) == len(ts)
    exact = Fraction(0)
    for k, t in enumerate(ts):
        exact += Fraction(t)
        assert within(float(sums[k]), exact, units)


def test_blocked_prefix_sums_units_grow_like_the_square_root():
    np = floats.numpy()
    _sums, units = floats.blocked_prefix_sums(np.ones(10 ** 6))
    assert units == 2000  # b = 1000 blocks of 1000, not 10^6 sequential roundings
    assert floats.blocked_prefix_sums(np.zeros(0))[1] == 0


def test_blocked_prefix_sums_of_many_ones_are_exact_integers():
    np = floats.numpy()
    sums, _units = floats.blocked_prefix_sums(np.ones(12345))
    assert list(sums[:3]) == [1.0, 2.0, 3.0] and sums[-1] == 12345.0


def chain(seed, n):
    """An exact convex chain with n vertices (A increasing, B decreasing, slopes increasing)."""
    A, B = [0], [10 ** 6 * n * n]
    for i in range(1, n):
        A.append(A[-1] + 1 + (seed * i) % 7)
        B.append(B[-1] - (i * i + seed % 5 + 1) * (A[-1] - A[-2]))
    return TestingCurve.from_vertices(list(zip(A, B)))


@settings(max_examples=30, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 50), st.integers(2, 40), st.integers(0, 9), st.integers(0, 9)),
                min_size=1, max_size=12))
def test_minkowski_coordinates_meet_their_error_units(parts):
    den = 10 ** 9
    components = []
    for seed, n, p, q in parts:
        curve = floats.FloatCurve.from_exact(chain(seed, n), den)
        components.append((curve, p / 8, q / 8))
    total = floats.minkowski(components)
    # the exact A of the first vertex and B of the last: the float inputs summed exactly
    a0 = sum((Fraction(p) * Fraction(c.A[-1] if q == 0.0 else c.A[0]) for c, p, q in components if p), Fraction(0))
    b_last = sum((Fraction(q) * Fraction(c.B[0] if p == 0.0 else c.B[-1]) for c, p, q in components if q),
                 Fraction(0))
    if a0:
        assert within(float(total.A[0]), a0, total.terms)
    if b_last:
        assert within(float(total.B[-1]), b_last, total.terms)
    # the last A: a0 plus every increment, each a rounded product (≈_u of its exact product, 3 units in all)
    incs = sum((Fraction(float(d * p)) for c, p, q in components if p and q for d in c.dA), Fraction(0))
    if a0 + incs:
        assert within(float(total.A[-1]), a0 + incs, total.terms)


def exact_value(curve, x, y):
    """max_k (x·A_k + y·B_k) of an exact curve at Fraction x, y."""
    return max(x * a + y * b for a, b in zip(curve.A, curve.B))


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 50), st.integers(2, 40), st.floats(2.0 ** -30, 2.0 ** 30), st.integers(0, 39))
def test_excess_is_within_its_error_scale(seed, n, t, at):
    # x/y anywhere, and exactly at a float slope (where the vertex choice may be misjudged)
    exact = chain(seed, n)
    den = exact.B[0]
    curve = floats.FloatCurve.from_exact(exact, den)
    np = floats.numpy()
    if at < n - 1:
        t = float(curve.S[at])
    x, y = np.array([t, 0.0, 1.0]), np.array([1.0, 1.0, 0.0])
    excess, scale = curve.excess(x, y)
    for i in range(3):
        fx, fy = Fraction(float(x[i])), Fraction(float(y[i]))
        e = exact_value(exact, fx, fy) / den - fy * Fraction(exact.B[0], den)
        assert abs(Fraction(float(excess[i])) - e) <= floats.margin(0, 1, 1) / 4 * Fraction(float(scale[i]))
    assert excess[1] == 0.0 and scale[1] == 0.0  # x = 0: exactly the baseline


@settings(max_examples=20, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 50), st.integers(2, 30), st.integers(0, 9), st.integers(1, 9)),
                min_size=1, max_size=8), st.floats(2.0 ** -20, 2.0 ** 20))
def test_excess_of_a_minkowski_sum_is_within_its_error_scale(parts, t):
    np = floats.numpy()
    exacts, components = [], []
    for seed, n, p, q in parts:
        exact = chain(seed, n)
        exacts.append((exact, exact.B[0]))
        components.append((floats.FloatCurve.from_exact(exact, exact.B[0]), p / 8, q / 8))
    total = floats.minkowski(components)
    excess, scale = total.excess(np.array([t]), np.array([1.0]))
    # Σ V_i(p_i·x, q_i·y) − y·Σ q_i·B0_i at the float inputs, exactly
    e = sum((exact_value(c, Fraction(p) * Fraction(t), Fraction(q)) / d - Fraction(q) * Fraction(c.B[0], d)
             for (c, d), (_f, p, q) in zip(exacts, components)), Fraction(0))
    units = floats.margin(0, total.terms, total.terms) / 4
    assert abs(Fraction(float(excess[0])) - e) <= units * Fraction(float(scale[0]))
