"""The float-pruned F_q envelope's exact pieces (producer/game/pruning.py).

The whole construction is compared with the plain envelope in
tests/producer/game/test_points.py; here the parts whose floats only propose.
"""

from gmpy2 import mpz
from hypothesis import given, settings, strategies as st

from producer.curves import TestingCurve, hull_of_chains
from producer.game import floats, pruning
from producer.game.engine import FiniteGame
from producer.game.points import GameFloats
from producer.laws import FiniteLaw, Gamma

np = floats.numpy()


def echo_setup(k, j):
    game = FiniteGame(FiniteLaw([1, 3, 5, 2, 1], -2), Gamma(1, 3))
    game.floats = GameFloats(game)
    return game, game.g_curve(1), game.pair_entries(k - j, k, 0)[1]


def hull_of(A, B):
    return TestingCurve.from_vertices(list(zip(A, B)))


directions = st.sampled_from([(mpz(0), mpz(1)), (mpz(1), mpz(4)), (mpz(1), mpz(1)), (mpz(3), None)])


@given(st.integers(0, 8), st.sampled_from([1, -1]), directions)
@settings(max_examples=20, deadline=None)
def test_misordered_float_slopes_give_the_same_piece(k, j, lohi):
    game, g, entries = echo_setup(k, j)
    lo, hi = lohi
    dA, dB, fs = pruning._g_steps(game, 1)
    right = pruning._exact_echo_piece(g, (dA, dB, fs), entries, lo, hi)
    # reversed float slopes: the exact check must catch the order and sort exactly
    wrong = pruning._exact_echo_piece(g, (dA, dB, fs[::-1].copy()), entries, lo, hi)
    assert hull_of(*wrong) == hull_of(*right)
    assert len(wrong[0]) == len(right[0])


@given(st.integers(0, 8), st.sampled_from([1, -1]))
@settings(max_examples=20, deadline=None)
def test_the_piece_is_the_echo_curve_there(k, j):
    game, g, entries = echo_setup(k, j)
    steps = pruning._g_steps(game, 1)
    A, B = pruning._exact_echo_piece(g, steps, entries, mpz(0), None)
    assert hull_of(A, B) == game.echo_curve(1, k - j, k)


chain_points = st.lists(st.tuples(st.integers(0, 30), st.integers(0, 30)), min_size=1, max_size=12)


@given(chain_points, chain_points)
def test_not_under_drops_only_points_the_chain_covers(m, pts):
    M = TestingCurve.from_vertices([(mpz(a), mpz(b)) for a, b in m])
    pts = sorted((mpz(a), mpz(b)) for a, b in pts)
    A = np.fromiter((a for a, _ in pts), dtype=object, count=len(pts))
    B = np.fromiter((b for _, b in pts), dtype=object, count=len(pts))
    kept_A, kept_B = pruning._not_under(M, A, B)
    everything = TestingCurve.from_vertices(list(zip(M.A, M.B)) + pts)
    assert hull_of_chains([(M.A, M.B, M.slopes), (tuple(kept_A), tuple(kept_B), None)]) == everything
    # every point outside M's hull is kept
    for a, b in pts:
        if TestingCurve.from_vertices(list(zip(M.A, M.B)) + [(a, b)]) != M:
            assert (a, b) in set(zip(kept_A, kept_B))


def test_not_under_drops_the_points_under_an_edge():
    M = TestingCurve.from_vertices([(mpz(0), mpz(10)), (mpz(10), mpz(0))])
    A = np.array([mpz(1), mpz(5), mpz(9)], dtype=object)
    B = np.array([mpz(9), mpz(6), mpz(1)], dtype=object)
    kept_A, kept_B = pruning._not_under(M, A, B)
    assert list(zip(kept_A, kept_B)) == [(5, 6)]
