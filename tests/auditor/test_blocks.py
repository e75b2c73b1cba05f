"""The auditor's block accounting (auditor/blocks/) against a plain brute force.

The reference builds W_n as explicit point sets of Fractions (rows from the mixture form of
tests/reference_game.py, states by their exact integers, no periodicity), the block envelope over a
window of start states three periods wide, and the product pair from all products of atoms.
"""

from fractions import Fraction
from functools import lru_cache
from itertools import product

from hypothesis import given, settings, strategies as st

from auditor.blocks.compose import atoms, block_curve, product_value
from auditor.blocks.deadline import DeadlineGame
from tests.reference_game import ReferenceGame, msum, prune, scaled

STOP = ((Fraction(0), Fraction(1)), (Fraction(1), Fraction(0)))


class PlainDeadline:
    def __init__(self, weights, offset, a, B):
        self.game = ReferenceGame(weights, offset, a, B)
        self.W = lru_cache(maxsize=None)(self._W)

    def _W(self, n, kP, kQ):
        if n == 0:
            return STOP
        points = list(STOP)
        for j in (-1, 0, 1):
            terms = [scaled(self.W(n - 1, y - j, y), p, q) for y, p, q in self.game.joint(kP, kQ, j)]
            points.extend(msum(terms))
        return prune(points)

    def any_start(self, k, B):
        return prune([p for r in range(-B ** k, 2 * B ** k) for d in (-1, 0, 1) for p in self.W(k, r + d, r)])


def plain_atoms(points):
    out = [(points[0][0], Fraction(0))] if points[0][0] > 0 else []
    out += [(x1 - x0, y0 - y1) for (x0, y0), (x1, y1) in zip(points, points[1:])]
    if points[-1][1] > 0:
        out.append((Fraction(0), points[-1][1]))
    return out


def plain_product_value(curves, x, y):
    total = Fraction(0)
    for combo in product(*[plain_atoms(c) for c in curves]):
        p = q = Fraction(1)
        for a, b in combo:
            p, q = p * a, q * b
        total += max(x * p, y * q)
    return total


laws = st.sampled_from([((1, 1, 1), -1), ((1, 2, 1), -1), ((2, 1, 3), 0), ((1, 1), 0)])
gammas = st.sampled_from([(1, 2), (1, 3), (2, 3), (0, 1)])


@settings(max_examples=10, deadline=None)
@given(laws, gammas, st.integers(1, 2), st.integers(-3, 3))
def test_deadline_curves_equal_the_plain_point_sets(law, gamma, n, r):
    (weights, offset), (a, B) = law, gamma
    mine = DeadlineGame(weights, offset, a, B)
    plain = PlainDeadline(weights, offset, a, B)
    for d in (-1, 0, 1):
        assert mine.curve(n, r + d, r).vertices() == list(plain.W(n, r + d, r))


@settings(max_examples=8, deadline=None)
@given(laws, gammas, st.integers(1, 2))
def test_any_start_envelope_equals_a_wide_window_of_starts(law, gamma, k):
    (weights, offset), (a, B) = law, gamma
    mine = block_curve(DeadlineGame(weights, offset, a, B), k, "any")
    assert mine.vertices() == list(PlainDeadline(weights, offset, a, B).any_start(k, B))


@settings(max_examples=10, deadline=None)
@given(laws, gammas, st.lists(st.integers(1, 2), min_size=1, max_size=3),
       st.sampled_from([Fraction(1), Fraction(3, 2), Fraction(7), Fraction(1, 5)]))
def test_product_values_equal_the_product_of_atoms(law, gamma, split, lam):
    (weights, offset), (a, B) = law, gamma
    game = DeadlineGame(weights, offset, a, B)
    curves = [block_curve(game, k, "zero" if i == 0 else "any") for i, k in enumerate(split)]
    plain = [c.vertices() for c in curves]
    assert Fraction(product_value(curves, 1, lam)) == plain_product_value(plain, Fraction(1), lam)
    for c in curves:                     # the atoms are a pair of total mass 1 in each world
        den = c.den
        assert sum(p for p, _ in atoms(c)) == den and sum(q for _, q in atoms(c)) == den
