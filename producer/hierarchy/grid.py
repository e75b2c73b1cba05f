"""The sample priors t_i = g_i/2^K of the numerical sandwich (docs/hierarchy.md §1, §6).

Any strictly increasing grid from 0 to 1 containing 1/2 is valid; the choice
only affects tightness.  Floats choose the points (equal spacing in
log-odds); the grid itself is exact integers.
"""

import math
from fractions import Fraction

from producer.errors import InputError, LimitError
from producer.rationals import describe_rational

DEFAULT_BITS = 64
LOGIT_RANGE = 40 * math.log(2)  # the outermost interior priors are about 2^-40 and 1 − 2^-40
# Beyond log-odds ±178 a prior floors to 0 or 1 even at K = 256 bits: a larger R only thins the grid.
MAX_LOGIT_RANGE = 1000
UNDERFLOW = -700  # e^-x overflows a float beyond |x| ≈ 709; such a prior floors to 0 anyway


def check_logit_range(value, what="logit range"):
    """R itself if 0 < R <= MAX_LOGIT_RANGE, else one line naming the limit (before any float is made)."""
    if value <= 0:
        raise InputError(f"{what}: must be positive, got {describe_rational(value)}")
    if value > MAX_LOGIT_RANGE:
        raise LimitError(f"{what}: R = {describe_rational(value)} exceeds the limit {MAX_LOGIT_RANGE} (priors beyond "
                         f"log-odds ±178 are 0 or 1 at every grid); use a smaller logit range")
    return value


def log_odds_grid(points, bits=DEFAULT_BITS, logit_range=LOGIT_RANGE):
    """Numerators g_0 = 0 < … < g_M = 2^bits: ``points`` interior priors equally spaced in log-odds, plus 0, 1/2, 1."""
    if points < 1:
        raise InputError(f"priors: need at least 1 interior prior, got {points}")
    if not 2 <= bits <= 256:
        raise InputError(f"grid bits: K must lie in 2..256, got {bits}")
    top = 1 << bits
    numerators = {0, top // 2, top}
    for k in range(points):
        x = -logit_range + 2 * logit_range * (k + 0.5) / points
        if x < UNDERFLOW:
            continue
        t = 1.0 / (1.0 + math.exp(-x))
        g = int(Fraction(t) * top)  # the float is exact as a fraction; floor to the grid
        if 0 < g < top:
            numerators.add(g)
    return sorted(numerators)


def check_grid(numerators, bits):
    """Raise ValueError unless g_0 = 0 < … < g_M = 2^K and 2^(K−1) is a grid point."""
    top = 1 << bits
    if len(numerators) < 3 or numerators[0] != 0 or numerators[-1] != top:
        raise ValueError("grid must run from 0 to 2^K with at least one interior point")
    if any(b <= a for a, b in zip(numerators, numerators[1:])):
        raise ValueError("grid must be strictly increasing")
    if top // 2 not in numerators:
        raise ValueError("grid must contain t = 1/2")
