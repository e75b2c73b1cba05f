"""Products, windows, powers (auditor/pld/composition.py) and the answers (auditor/pld/answer.py) by brute force."""

import random
from fractions import Fraction

import mpmath
from hypothesis import given, settings
from hypothesis import strategies as st

from auditor.pld import answer, composition
from auditor.pld.composition import LOWER_P, LOWER_Q, UPPER, Array

arrays = st.builds(lambda offset, values, atom: Array(offset, values, atom), st.integers(-6, 6),
                   st.lists(st.integers(0, 2 ** 70), min_size=1, max_size=9), st.integers(0, 2 ** 20))


def _naive(a, b):
    return [sum(a[i] * b[k - i] for i in range(len(a)) if 0 <= k - i < len(b)) for k in range(len(a) + len(b) - 1)]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 2 ** 200), min_size=1, max_size=40), st.lists(st.integers(0, 2 ** 90), min_size=1,
                                                                            max_size=40))
def test_kronecker_convolution_is_exact(a, b):
    # a LOWER_P product at scale 0 is the exact convolution
    A, B = Array(0, a), Array(0, b)
    assert composition.product(A, B, LOWER_P, 0).values == _naive(a, b)
    assert composition.product(A, A, LOWER_P, 0).values == _naive(a, a)


@settings(max_examples=200, deadline=None)
@given(arrays, arrays, st.sampled_from([UPPER, LOWER_P, LOWER_Q]), st.integers(0, 40))
def test_product_rounds_each_entry_and_the_atom_the_safe_way(A, B, kind, scale):
    if kind == LOWER_P:
        A, B = Array(A.offset, A.values), Array(B.offset, B.values)
    C = composition.product(A, B, kind, scale)
    exact = _naive(A.values, B.values)
    assert C.offset == A.offset + B.offset and len(C.values) == len(exact)
    den = 2 ** scale
    for c, e in zip(C.values, exact):
        assert (c == e // den) if kind == LOWER_P else (c * den >= e > (c - 1) * den)
    atom = A.atom * (sum(B.values) + B.atom) + sum(A.values) * B.atom
    assert C.atom == (0 if kind == LOWER_P else -((-atom) // den))


@settings(max_examples=300, deadline=None)
@given(arrays, st.integers(-15, 15), st.integers(0, 12), st.sampled_from([UPPER, LOWER_P, LOWER_Q]))
def test_window_keeps_the_indices_and_moves_the_rest_the_safe_way(A, lo, length, kind):
    hi = lo + length
    assert tuple(composition.window(A, lo, hi, kind)) == tuple(_reference_window(A, lo, hi, kind))


def _dominates(big, small):
    """big ⪰ small: every upper tail sum (atom = +∞ included) at least as large."""
    first = min(big.offset, small.offset)
    last = max(big.offset + len(big.values), small.offset + len(small.values)) - 1

    def tail_sum(A, k):
        return sum(v for i, v in enumerate(A.values) if A.offset + i >= k) + A.atom
    return all(tail_sum(big, k) >= tail_sum(small, k) for k in range(first, last + 2))


def test_power_follows_the_windows_and_dominates_the_exact_power():
    rng = random.Random(3)
    scale = 30
    for _ in range(40):
        base = Array(rng.randint(-3, 0), [rng.randint(0, 2 ** 28) for _ in range(rng.randint(1, 5))], rng.randint(0, 9))
        steps = rng.randint(1, 12)
        n = composition.products_in_power(steps)
        assert n == bin(steps)[3:].count("0") + 2 * bin(steps)[3:].count("1")
        windows = []
        for _ in range(n):
            lo = rng.randint(-12, 2)
            windows.append((lo, lo + rng.randint(0, 10)))
        upper = composition.power(base, steps, windows, UPPER, scale)
        # the exact steps-fold power, as rationals over 2^scale, never above the windowed rounded one
        exact_values = [Fraction(v) for v in base.values]
        exact = (base.offset, exact_values, Fraction(base.atom))
        for _ in range(steps - 1):
            off, vals, atom = exact
            prod = _naive(vals, [Fraction(v) for v in base.values])
            new_atom = atom * (sum(base.values) + base.atom) + sum(vals) * base.atom
            exact = (off + base.offset, [p / 2 ** scale for p in prod], new_atom / 2 ** scale)
        off, vals, atom = exact
        scaled = Array(off, [v for v in vals], atom)
        assert upper.offset == windows[-1][0] if windows else upper.offset == base.offset
        assert _dominates(upper, scaled)
        lower = composition.power(Array(base.offset, base.values), steps, windows, LOWER_P, scale)
        assert _dominates(Array(off, vals, 0), lower)


def test_compose_multiplies_the_stage_powers_in_order():
    a, b, c = Array(0, [2 ** 10, 2 ** 10]), Array(1, [2 ** 11]), Array(-1, [2 ** 9, 2 ** 9, 2 ** 10])
    out = composition.compose([a, b, c], [(1, 2), (-5, 5)], LOWER_Q, 11)
    step = composition.window(composition.product(a, b, LOWER_Q, 11), 1, 2, LOWER_Q)
    assert out.values == composition.window(composition.product(step, c, LOWER_Q, 11), -5, 5, LOWER_Q).values


def _reference_product(A, B, kind, scale):
    """The list form of a product (the module's before its packed form): convolution, then each entry rounded."""
    exact = _naive(A.values, B.values)
    if kind == LOWER_P:
        return Array(A.offset + B.offset, [c >> scale for c in exact])
    mask = (1 << scale) - 1
    atom = (A.atom * (sum(B.values) + B.atom) + sum(A.values) * B.atom + mask) >> scale
    return Array(A.offset + B.offset, [(c + mask) >> scale for c in exact], atom)


def _reference_window(A, lo, hi, kind):
    """The list form of a window, index by index."""
    table = {A.offset + i: v for i, v in enumerate(A.values)}
    kept = [table.get(k, 0) for k in range(lo, hi + 1)]
    below = sum(v for k, v in table.items() if k < lo)
    above = sum(v for k, v in table.items() if k > hi)
    if kind == LOWER_P:
        kept[-1] += above
        return Array(lo, kept, A.atom)
    kept[0] += below
    return Array(lo, kept, A.atom + above)


def _windows(draw, count):
    """Windows anywhere near the arrays: inside, overlapping either end, beyond both, disjoint."""
    out = []
    for _ in range(count):
        lo = draw(st.integers(-40, 40))
        out.append((lo, lo + draw(st.integers(0, 14))))
    return out


lists = st.lists(st.one_of(st.integers(0, 2 ** 40), st.just(0), st.integers(0, 2 ** 90)), min_size=1, max_size=8)


@settings(max_examples=150, deadline=None)
@given(st.data(), st.sampled_from([UPPER, LOWER_P, LOWER_Q]), st.integers(0, 45))
def test_packed_power_and_compose_equal_the_list_form(data, kind, scale):
    draw = data.draw
    atom = (lambda: 0) if kind == LOWER_P else (lambda: draw(st.integers(0, 2 ** 30)))
    powers = []
    for _ in range(draw(st.integers(1, 3))):
        base = Array(draw(st.integers(-8, 8)), draw(lists), atom())
        steps = draw(st.integers(1, 9))
        windows = _windows(draw, composition.products_in_power(steps))
        expected, each = base, iter(windows)
        for bit in bin(steps)[3:]:
            for factor in [expected] + ([base] if bit == "1" else []):
                expected = _reference_window(_reference_product(expected, factor, kind, scale), *next(each), kind)
        got = composition.power(base, steps, windows, kind, scale)
        assert tuple(got) == tuple(expected)
        powers.append(got)
    windows = _windows(draw, len(powers) - 1)
    expected = powers[0]
    for array, (lo, hi) in zip(powers[1:], windows):
        expected = _reference_window(_reference_product(expected, array, kind, scale), lo, hi, kind)
    assert tuple(composition.compose(powers, windows, kind, scale)) == tuple(expected)


@settings(max_examples=150, deadline=None)
@given(st.data(), st.sampled_from([UPPER, LOWER_P, LOWER_Q]), st.integers(0, 45))
def test_packed_fields_never_overflow(data, kind, scale):
    """Before each product every exact c_k + 2^scale − 1 fits a field; after it and its window the total is
    exact and below 2^width and top bounds every entry."""
    draw = data.draw
    A = B = composition._pack(Array(draw(st.integers(-8, 8)), draw(lists), 0 if kind == LOWER_P else 5))
    for _ in range(draw(st.integers(1, 6))):
        X, Y = composition._one_width(A, A if draw(st.booleans()) else B, scale)
        exact = _naive(composition._unpack(X).values, composition._unpack(Y).values)
        assert max(exact) + (1 << scale) - 1 < 2 ** X.width
        A = composition._window(composition._product(X, Y, kind, scale), *_windows(draw, 1)[0], kind)
        values = composition._unpack(A).values
        assert A.total == sum(values) < 2 ** A.width and A.top >= max(values)


def _exp(x):
    return mpmath.exp(mpmath.mpf(x.numerator) / x.denominator)


def test_upper_tail_bounds_the_exact_sum_closely():
    rng = random.Random(11)
    for _ in range(30):
        K, N = 40, rng.choice([3, 10, 97])
        U = Array(rng.randint(-30, 5), [rng.randint(0, 2 ** 36) for _ in range(rng.randint(1, 60))], rng.randint(0, 99))
        tail = answer.UpperTail(U, K, N, 90)
        for _ in range(5):
            e = Fraction(rng.randint(0, 400), rng.randint(1, 50))
            star = (e.numerator * N) // e.denominator + 1
            exact = sum(mpmath.mpf(u) * (1 - _exp(e - Fraction(U.offset + i, N)))
                        for i, u in enumerate(U.values) if U.offset + i >= star) + U.atom
            exact /= mpmath.mpf(2) ** K
            bound = tail.bound(e)
            assert mpmath.mpf(bound.numerator) / bound.denominator >= exact
            assert mpmath.mpf(bound.numerator) / bound.denominator - exact <= mpmath.mpf(2) ** -70


def test_lower_events_take_the_exact_maximum_over_every_threshold():
    rng = random.Random(12)
    for _ in range(60):
        K, K_q = 30, 36
        n = rng.randint(1, 40)
        P = Array(rng.randint(-9, 9), [rng.randint(0, 2 ** 25) for _ in range(n)])
        Q = Array(P.offset, [rng.choice([0, rng.randint(0, 2 ** 31)]) for _ in range(n)], rng.randint(0, 2 ** 10))
        events = answer.LowerEvents(P, Q, K, K_q)
        for lam in [Fraction(1), Fraction(7, 3), Fraction(rng.randint(1, 10 ** 6), rng.randint(1, 10 ** 4))]:
            brute = max(Fraction(sum(P.values[k:]), 2 ** K) - lam * Fraction(sum(Q.values[k:]) + Q.atom, 2 ** K_q)
                        for k in range(n + 1))
            assert events.bound(lam) == brute
