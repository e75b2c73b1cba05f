"""auditor.game against a brute force written straight from docs/mechanism.md §4.

The brute force uses no R1/R2: roots range over every integer k in three
whole periods [-B^(c+1), 2*B^(c+1)), pending states are the actual integers,
rows come from enumerating (eta, U) jointly, and values are memoised only on
the exact arguments.
"""

from fractions import Fraction
from math import gcd

import pytest
from hypothesis import given, settings, strategies as st

from auditor.game import values
from auditor.game.curves import Chain
from auditor.game.rows import Law


class BruteGame:
    """docs/mechanism.md §4 recursion verbatim."""

    def __init__(self, weights, offset, a, B, periods=3):
        self.weights, self.offset, self.a, self.B = weights, offset, a, B
        self.S = sum(weights)
        self.periods = periods
        self._rows = {}
        self._memo = {}

    def row(self, k):
        r = self._rows.get(k)
        if r is None:
            r = {}
            for i, w in enumerate(self.weights):
                for U in range(self.B):
                    n = self.offset + i - (self.a * k + U) // self.B
                    r[n] = r.get(n, 0) + Fraction(w, self.S * self.B)
            self._rows[k] = r
        return r

    def roots(self, c):
        span = self.B ** (c + 1)
        return range(-span, (self.periods - 1) * span)

    def G(self, c, x, y):
        if c == 0:
            return max(x, y)
        key = ("G", c, x, y)
        if key not in self._memo:
            best = max(x, y)
            for k in self.roots(c):
                for j in (-1, 1):
                    best = max(best, self.part(c, k, k, j, x, y))
            self._memo[key] = best
        return self._memo[key]

    def F(self, q, kP, kQ, x, y):
        if x == 0 or y == 0:
            return x + y
        key = ("F", q, kP, kQ, x, y)
        if key not in self._memo:
            best = max(x, y, self.echo(q, kP, kQ, x, y))
            if q >= 1:
                for j in (-1, 1):
                    best = max(best, self.part(q, kP, kQ, j, x, y))
            self._memo[key] = best
        return self._memo[key]

    def echo(self, q, kP, kQ, x, y):
        rp, rq = self.row(kP), self.row(kQ)
        return sum((self.G(q, x * rp.get(o, 0), y * rq.get(o, 0)) for o in set(rp) | set(rq)),
                   Fraction(0))

    def part(self, q, kP, kQ, j, x, y):
        rp, rq = self.row(kP), self.row(kQ)
        outs = set(n + j for n in rp) | set(rq)
        return sum((self.F(q - 1, o - j, o, x * rp.get(o - j, 0), y * rq.get(o, 0)) for o in outs),
                   Fraction(0))


@st.composite
def laws(draw, max_B=5, max_len=3):
    B = draw(st.integers(2, max_B))
    a = draw(st.sampled_from([a for a in range(1, B) if gcd(a, B) == 1]))
    weights = draw(st.lists(st.integers(0, 4), min_size=1, max_size=max_len))
    if not any(weights):
        weights[-1] = 1
    offset = draw(st.integers(-2, 1))
    return weights, offset, a, B


ratios = st.fractions(min_value=0, max_value=4, max_denominator=6)
positive = st.fractions(min_value=Fraction(1, 6), max_value=3, max_denominator=6)


@given(laws(), st.integers(0, 1), positive, ratios, st.integers(-7, 7), st.integers(-7, 7),
       st.integers(-12, 12))
@settings(max_examples=40)
def test_budget_at_most_one_matches_brute_force(law, C, x, y, kP, kQ, k):
    brute = BruteGame(*law)
    assert values.root_value(Law(*law), C, x, y) == brute.G(C, x, y)
    assert values.pending_value(Law(*law), C, kP, kQ, x, y) == brute.F(C, kP, kQ, x, y)
    assert values.pending_action_value(Law(*law), C, kP, kQ, x, y, "stop") == max(x, y)
    if x and y:
        assert values.pending_action_value(Law(*law), C, kP, kQ, x, y, "echo") == brute.echo(C, kP, kQ, x, y)
    if C >= 1:
        for j in (-1, 1):
            want = brute.part(C, k, k, j, x, y) if x and y else x + y
            assert values.root_action_value(Law(*law), C, x, y, k, j) == want
            want = brute.part(C, kP, kQ, j, x, y) if x and y else x + y
            assert values.pending_action_value(Law(*law), C, kP, kQ, x, y, "participate", j) == want


@given(laws(max_B=3, max_len=3), positive, positive, st.integers(-4, 4))
@settings(max_examples=6)
def test_budget_two_matches_brute_force(law, x, y, kQ):
    brute = BruteGame(*law)
    assert values.root_value(Law(*law), 2, x, y) == brute.G(2, x, y)
    for j in (-1, 1):
        assert values.pending_value(Law(*law), 2, kQ - j, kQ, x, y) == brute.F(2, kQ - j, kQ, x, y)


@pytest.mark.slow  # in make references (CI); the default suite stays within minutes
@given(laws(max_B=2, max_len=3), positive, positive)
@settings(max_examples=3)
def test_budget_three_base_two_matches_brute_force(law, x, y):
    brute = BruteGame(*law)
    assert values.root_value(Law(*law), 3, x, y) == brute.G(3, x, y)
    assert values.pending_value(Law(*law), 3, 1, 0, x, y) == brute.F(3, 1, 0, x, y)


@given(laws(max_B=4, max_len=3), st.integers(0, 2), st.lists(st.tuples(positive, positive), min_size=1, max_size=4))
@settings(max_examples=15)
def test_curves_agree_with_point_values(law, C, pts):
    root = Chain.from_fractions(values.root_curve(Law(*law), C))
    pend = Chain.from_fractions(values.pending_curve(Law(*law), C, 1, 0))
    for x, y in pts:
        assert root.value(x, y) == values.root_value(Law(*law), C, x, y)
        assert pend.value(x, y) == values.pending_value(Law(*law), C, 1, 0, x, y)
    # a testing curve of laws: both ends at 1, canonical order
    v = values.root_curve(Law(*law), C)
    assert v[0][1] == 1 and v[-1][0] == 1
    assert all(a[0] < b[0] and a[1] > b[1] for a, b in zip(v, v[1:]))


def test_zero_coordinates():
    law = ([1, 2, 1], -1, 1, 3)
    for C in range(3):
        assert values.root_value(Law(*law), C, Fraction(0), Fraction(5, 3)) == Fraction(5, 3)
        assert values.pending_value(Law(*law), C, 4, 3, Fraction(7, 2), Fraction(0)) == Fraction(7, 2)
    assert values.root_value(Law(*law), 0, Fraction(2), Fraction(3)) == 3


# -- the paper's published values (docs/mechanism.md §4) --------------------------------------------

def test_published_c2_hockey_stick():
    v = values.root_value(Law([1, 2, 1], -1, 1, 3), 2, Fraction(1), Fraction(1, 2))
    assert v - Fraction(1, 2) == Fraction(5, 6)


def test_published_c2_hockey_stick_by_brute_force():
    brute = BruteGame([1, 2, 1], -1, 1, 3)
    assert brute.G(2, Fraction(1), Fraction(1, 2)) - Fraction(1, 2) == Fraction(5, 6)


def test_published_pending_values():
    law = ([1, 2, 1], -1, 1, 3)
    assert values.pending_value(Law(*law), 2, 1, 0, Fraction(1), Fraction(2)) == Fraction(4723, 1728)
    assert values.pending_value(Law(*law), 2, 10, 9, Fraction(1), Fraction(2)) == Fraction(2351, 864)


def test_published_pending_values_by_brute_force():
    brute = BruteGame([1, 2, 1], -1, 1, 3)
    assert brute.F(2, 1, 0, Fraction(1), Fraction(2)) == Fraction(4723, 1728)
    assert brute.F(2, 10, 9, Fraction(1), Fraction(2)) == Fraction(2351, 864)


def test_published_budget_four():
    v = values.root_value(Law([1, 1, 1], -1, 1, 2), 4, Fraction(1, 2), Fraction(1, 2))
    assert v == Fraction(3737, 3888)


def test_two_digits_do_not_suffice_for_budget_three():
    """docs/mechanism.md §4: F_2 at k = 0 and k = 9 (B = 3) are different functions."""
    law = ([1, 2, 1], -1, 1, 3)
    c0 = values.pending_curve(Law(*law), 2, 1, 0)
    c9 = values.pending_curve(Law(*law), 2, 10, 9)
    assert c0 != c9


def _gaussian_weights(radius, two_sigma2, scale):
    import mpmath
    return [int(mpmath.nint(scale * mpmath.exp(-mpmath.mpf(n * n) / two_sigma2)))
            for n in range(-radius, radius + 1)]


@pytest.mark.slow
def test_reference_size_point_route_equals_curve_route():
    """Radius-24 law, B = 3, C = 2: the top-level point recursion and the whole
    G_2 curve (built from F_1 curves) are two different code paths."""
    w = _gaussian_weights(24, 18, 10 ** 6)
    law = (w, -24, 1, 3)
    curve = Chain.from_fractions(values.root_curve(Law(*law), 2))
    for x, y in [(Fraction(1), Fraction(3)), (Fraction(1), Fraction(1, 2)), (Fraction(2), Fraction(7))]:
        assert curve.value(x, y) == values.root_value(Law(*law), 2, x, y)


def test_api_rejects_illegal_actions():
    law = ([1, 1], 0, 1, 2)
    with pytest.raises(ValueError):
        values.root_action_value(Law(*law), 0, Fraction(1), Fraction(1), 0, 1)
    with pytest.raises(ValueError):
        values.pending_action_value(Law(*law), 0, 1, 0, Fraction(1), Fraction(1), "participate", 1)
    with pytest.raises(ValueError):
        values.pending_action_value(Law(*law), 1, 1, 0, Fraction(1), Fraction(1), "jump")
