"""The logarithm table of auditor/pld/logs.py against mpmath: enclosures that hold and stay a few units wide."""

import random

import mpmath
import pytest

from auditor.pld.logs import CENTRES, LogTable


def _true(X, P, Q):
    with mpmath.workprec(2 * (Q + P + X.bit_length()) + 64):
        return mpmath.log(mpmath.mpf(X) / mpmath.mpf(2) ** P) * mpmath.mpf(2) ** Q


@pytest.mark.parametrize("Q", [16, 64, 150, 400])
def test_random_arguments_are_enclosed_narrowly(Q):
    rng = random.Random(Q)
    table = LogTable(Q)
    for _ in range(400):
        P = rng.randrange(0, 600)
        X = rng.randrange(1, 1 << rng.randrange(1, 1200))
        Y = X + rng.randrange(0, 3)
        lo, hi = table.log(X, Y, P)
        a, b = _true(X, P, Q), _true(Y, P, Q)
        assert lo <= a and b <= hi, (X, Y, P)
        assert hi - lo - (b - a) < 8


@pytest.mark.parametrize("Q", [64, 200])
def test_the_centres_and_their_neighbours(Q):
    """r exactly on a centre (ζ = 0), a unit either side, 1 and the powers of two, below and above 2^P."""
    table = LogTable(Q)
    P = Q + 20
    for j in range(CENTRES + 1):
        centre = (CENTRES + j) << (P - 6)
        for X in (centre - 1, centre, centre + 1, centre << 40, (centre >> 30) + 1):
            lo, hi = table.log(X, X, P)
            true = _true(X, P, Q)
            assert lo <= true <= hi and hi - lo < 8, (j, X)
    for P in (0, 1, Q, 3 * Q):
        lo, hi = table.log(1 << P, 1 << P, P)
        assert lo <= 0 <= hi and hi - lo < 8


def test_a_wrong_end_is_caught():
    """The enclosure of log x is not that of a neighbouring x (the test can fail)."""
    table = LogTable(100)
    P = 120
    X = 3 << (P - 1)                    # x = 3/2
    lo, hi = table.log(X, X, P)
    assert not lo <= _true(X + (X >> 40), P, 100) <= hi
