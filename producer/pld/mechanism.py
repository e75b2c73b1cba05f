"""The stages of a DP-SGD schedule, the privacy loss of one step and its preimages.

One step with sampling rate q ∈ (0, 1] and noise multiplier σ > 0 releases
X ~ P = (1 − q)·N(0, σ²) + q·N(1, σ²) against Q = N(0, σ²).  Its privacy loss

    ℓ(x) = log(P(x)/Q(x)) = log(1 − q + q·exp((2x − 1)/(2σ²)))

is strictly increasing in x, with range (log(1 − q), ∞) (all of R for q = 1,
where ℓ(x) = (2x − 1)/(2σ²)).  So a loss level y has the single preimage

    x(y) = 1/2 + σ²·log((e^y − 1 + q)/q)      (e^y > 1 − q),

x(y) = −∞ when e^y <= 1 − q, and x(y) = 1/2 + σ²·y exactly when q = 1.
The loss of the swapped ("add") pair (Q, P) is −ℓ.  Everything here is exact
or arb ball arithmetic; the float functions at the end are sizing hints only.
"""

import math

from flint import arb
from gmpy2 import mpq

from producer.sources.enclosures import to_arb, working_precision

REMOVE, ADD = "remove", "add"
ORDERS = (REMOVE, ADD)


class Stage:
    """T steps at sampling rate q and noise multiplier σ (exact rationals; immutable)."""

    __slots__ = ("rate", "noise", "steps")

    def __init__(self, rate, noise, steps):
        object.__setattr__(self, "rate", mpq(rate))
        object.__setattr__(self, "noise", mpq(noise))
        object.__setattr__(self, "steps", int(steps))

    def __setattr__(self, name, value):
        raise AttributeError("a Stage is immutable")

    @property
    def gaussian(self):
        """True for q = 1: the plain Gaussian mechanism."""
        return self.rate == 1

    def key(self):
        return (self.rate, self.noise, self.steps)

    def __eq__(self, other):
        return isinstance(other, Stage) and self.key() == other.key()

    def __hash__(self):
        return hash(self.key())

    def __repr__(self):
        return f"Stage(q={self.rate}, sigma={self.noise}, T={self.steps})"


def lowest_index(stage, h):
    """i₀ = ⌊log(1 − q)/h⌋, the bucket holding the infimum of the loss (q < 1), decided exactly.

    The boundary i·h never equals log(1 − q) (a transcendental number for
    rational q ∉ {0, 1}), so the comparison e^{ih} > 1 − q is settled by
    raising the precision until the ball excludes the boundary.
    """
    q, h = mpq(stage.rate), mpq(h)
    guess = math.floor(math.log1p(-float(q)) / float(h))
    for i in (guess - 1, guess, guess + 1):
        if _above_infimum(i + 1, q, h) and not _above_infimum(i, q, h):
            return i
    lo = guess - 1
    while _above_infimum(lo, q, h):
        lo -= 64
    hi = lo + 1
    while not _above_infimum(hi, q, h):
        hi += 1
    return hi - 1


def _above_infimum(i, q, h, bits=128):
    """e^{ih} > 1 − q (exact decision: the precision doubles until the ball excludes 1 − q)."""
    if q == 1:
        return True
    while True:
        with working_precision(bits):
            diff = to_arb(i * h).exp() - to_arb(1 - q)
            if diff > 0:
                return True
            if diff < 0:
                return False
        bits *= 2


def preimage(stage, level_exp):
    """x(y) as an arb ball from e^y (a ball), or None for x = −∞ (e^y <= 1 − q is the caller's check)."""
    q, s2 = to_arb(stage.rate), to_arb(stage.noise * stage.noise)
    return arb(1) / 2 + s2 * ((level_exp - 1 + q) / q).log()


def gaussian_preimage(stage, level):
    """x(y) = 1/2 + σ²·y for q = 1 (exact rational)."""
    return mpq(1, 2) + stage.noise * stage.noise * mpq(level)


# ---- float hints (sizing only; never a claim) ------------------------------------

def loss_float(stage, x):
    """ℓ(x) in floats (hint)."""
    q, s = float(stage.rate), float(stage.noise)
    z = (2 * x - 1) / (2 * s * s)
    if stage.gaussian:
        return z
    if z > 700:
        return math.log(q) + z
    return math.log1p(q * math.expm1(z)) if z < 30 else math.log(1 - q + q * math.exp(z))


def loss_moments(stage, points=4001):
    """(mean, variance) of the loss under P, by the trapezoid rule in floats (a hint for sizing)."""
    s = float(stage.noise)
    q = float(stage.rate)
    lo, hi = -12 * s, 1 + 12 * s
    step = (hi - lo) / (points - 1)
    m1 = m2 = total = 0.0
    for k in range(points):
        x = lo + k * step
        density = ((1 - q) * math.exp(-x * x / (2 * s * s)) + q * math.exp(-(x - 1) ** 2 / (2 * s * s)))
        weight = 0.5 if k in (0, points - 1) else 1.0
        value = loss_float(stage, x)
        total += weight * density
        m1 += weight * density * value
        m2 += weight * density * value * value
    mean = m1 / total
    return mean, max(m2 / total - mean * mean, 1e-300)
