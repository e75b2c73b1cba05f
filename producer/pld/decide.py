"""Exact decisions where a grid level meets a loss value: signs of balls, decided by raising the precision.

A bucket index is an integer i with i·h <= y < (i + 1)·h for a loss value y
(the infimum of a subsampled loss, an atom of a Laplace or
randomized-response loss).  The grid levels i·h are rationals; the loss
values are logarithms of numbers built from the mechanism's rationals and
exponentials of rationals.  Where such a value can equal a grid level the
law decides it on rationals; everywhere else the two differ (by the
Lindemann–Weierstrass theorem: e^r is transcendental for a rational r ≠ 0,
and the exponentials of distinct rationals are linearly independent over
the algebraic numbers; each law says why its values are such numbers), so
the sign of their difference is settled by an arb ball that excludes 0,
the precision doubling until it does.  A cap turns an impossible tie into
an error instead of a hang.
"""

import math

from producer.sources.enclosures import working_precision

START_BITS = 128
MAX_BITS = 1 << 16


def sign(ball_at):
    """+1 or −1: the sign of the number whose arb ball ``ball_at()`` returns at the current precision.

    The precision doubles from :data:`START_BITS` until the ball excludes 0;
    ArithmeticError beyond :data:`MAX_BITS` (a tie the caller should have
    decided on rationals).
    """
    bits = START_BITS
    while bits <= MAX_BITS:
        with working_precision(bits):
            ball = ball_at()
            if ball > 0:
                return 1
            if ball < 0:
                return -1
        bits *= 2
    raise ArithmeticError("a sign not decided at 65536 bits: an exact tie the caller should decide on rationals")


def last_true(predicate, guess):
    """The largest integer i with ``predicate(i)``, for a predicate true up to some integer and false after.

    ``guess`` (an int, a float hint) starts the search: its neighbours are
    tried first, then steps of 64 outward; every evaluation is exact.
    """
    guess = int(guess)
    for i in (guess, guess - 1, guess + 1):
        if predicate(i) and not predicate(i + 1):
            return i
    lo = guess
    while not predicate(lo):
        lo -= 64
    hi = lo + 1
    while predicate(hi):
        hi += 1
    return hi - 1


def log_guess(value):
    """log(value) in floats for a positive rational ``value``, even where float(value) would round it to 0 or
    to 1 (q within 10^-17 of 1 makes 1 − q such a value): the logs of its numerator and denominator."""
    return math.log(int(value.numerator)) - math.log(int(value.denominator))   # ints: no float overflow


def floor_guess(value, h):
    """⌊value/h⌋ in floats (a hint for :func:`last_true`), 0 when not finite."""
    ratio = float(value) / float(h)
    return math.floor(ratio) if math.isfinite(ratio) else 0
