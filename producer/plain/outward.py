"""From arb balls to short rational enclosures, rounded outward.

An arb ball [m ± r] has exact dyadic endpoints; those can carry thousands of
bits.  The certificate stores instead the endpoints rounded outward to the
grid 2^-k with 2^-k <= W/16: lower down, upper up, then clamped to [0, 1]
(0 <= δ <= 1 always).  Outward rounding and clamping keep the enclosure
valid and add at most 2·2^-k <= W/8 to its width.
"""

from gmpy2 import mpq

from producer.sources.enclosures import arf_to_mpq, floor_log2, round_down, round_up

GRID_SHARE = 16  # grid step <= W/16


def grid_bits(width):
    """k with 2^-k <= W/16 (the smallest such k)."""
    return -floor_log2(mpq(width) / GRID_SHARE)


def ball_lower(ball):
    """The exact lower endpoint mid − rad of an arb ball, as an mpq.

    Computed from the exact midpoint and radius: ``ball.lower()`` would round
    at the current arb precision (outward, but coarsely).
    """
    return arf_to_mpq(ball.mid()) - arf_to_mpq(ball.rad())


def ball_upper(ball):
    """The exact upper endpoint mid + rad of an arb ball, as an mpq."""
    return arf_to_mpq(ball.mid()) + arf_to_mpq(ball.rad())


def lower_end(value, k):
    """The rational ``value`` rounded down to the 2^-k grid, at least 0."""
    return max(mpq(0), round_down(value, k))


def upper_end(value, k):
    """The rational ``value`` rounded up to the 2^-k grid, at most 1."""
    return min(mpq(1), round_up(value, k))
