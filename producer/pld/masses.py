"""The P- and Q-mass of every loss bucket of one step, enclosed with arb, and their rounding.

With the grid spacing h and the index range [lo, hi] of a stage, the
buckets of the forward loss are

    I_i = {x : i·h <= ℓ(x) < (i + 1)·h},   lo <= i < hi,

plus the low tail {ℓ < lo·h} and the high tail {ℓ >= hi·h}.  Every law
(:mod:`producer.pld.mechanism`) computes the cumulative masses
F_P(y) = P(ℓ < y), F_Q(y) = Q(ℓ < y) at the grid levels y = i·h and the
high tail's masses directly (never as 1 minus a number near 1); the bucket
masses are their differences, and the low tail is F(lo·h).  An atom of the
loss law at value a is counted in F(y) exactly when a < y, so it lands in
the one half-open bucket holding a.  The enclosures are absolute: every
ball has radius far below the fixed-point step 2^-K the arrays round to
(the caller picks the precision and checks the radii).
"""

import functools

from flint import arb

from producer.pld.mechanism import FORWARD


class StepMasses:
    """Balls p[i − lo], q[i − lo] of P(I_i), Q(I_i) for lo <= i < hi, and the two tails of each law."""

    __slots__ = ("lo", "hi", "p", "q", "p_low", "q_low", "p_high", "q_high")

    def __init__(self, lo, hi, p, q, p_low, q_low, p_high, q_high):
        self.lo, self.hi, self.p, self.q = lo, hi, p, q
        self.p_low, self.q_low, self.p_high, self.q_high = p_low, q_low, p_high, q_high

    @classmethod
    def from_cdf(cls, lo, hi, cdf_p, cdf_q, p_high, q_high):
        """From F_P(i·h), F_Q(i·h) for lo <= i <= hi (lists of hi − lo + 1 balls) and the high tail."""
        p = [cdf_p[k + 1] - cdf_p[k] for k in range(hi - lo)]
        q = [cdf_q[k + 1] - cdf_q[k] for k in range(hi - lo)]
        return cls(lo, hi, p, q, cdf_p[0], cdf_q[0], p_high, q_high)


    def without_low(self):
        """The same buckets with the low tail's masses taken as zero (the part of the losses >= lo·h)."""
        return StepMasses(self.lo, self.hi, self.p, self.q, arb(0), arb(0), self.p_high, self.q_high)

    def without_high(self):
        """The same buckets with the high tail's masses taken as zero (the part of the losses < hi·h)."""
        return StepMasses(self.lo, self.hi, self.p, self.q, self.p_low, self.q_low, arb(0), arb(0))


def step_masses(law, h, lo, hi, bits):
    """:class:`StepMasses` of the step whose forward pair is ``law``, on the grid h over [lo, hi], at ``bits``."""
    return law.masses(h, lo, hi, bits)


class Oriented:
    """One step's buckets in the loss of one order: bucket j (lo <= j < hi) holds losses [jh, (j+1)h).

    ``P[j − lo]``, ``Q[j − lo]`` are the masses of the order's first and
    second law; ``low`` = (P, Q) of the losses below lo·h, ``high`` of those
    at or above hi·h.
    """

    __slots__ = ("lo", "hi", "P", "Q", "low", "high")

    def __init__(self, lo, hi, P, Q, low, high):
        self.lo, self.hi, self.P, self.Q, self.low, self.high = lo, hi, P, Q, low, high


def oriented(masses, order):
    """The buckets of ``masses`` in the loss of ``order``.

    forward: the loss ℓ, bucket i = I_i with (P, Q) = (p_i, q_i).
    backward: the loss −ℓ of the pair (Q, P); its bucket j is I_i with
    i = −j − 1, so (P', Q') = (q_i, p_i), j runs over [−hi, −lo), the low
    tail is the forward order's high tail with the laws swapped and vice
    versa.  A loss value on a grid point, i·h, is a value −ℓ = (j + 1)·h of
    bucket j: its closed upper end, where e^{−(j+1)h}·P' <= Q' still holds
    (with equality), which is all the bounds use (docs/accounting.md §5).
    """
    m = masses
    if order == FORWARD:
        return Oriented(m.lo, m.hi, list(m.p), list(m.q), (m.p_low, m.q_low), (m.p_high, m.q_high))
    return Oriented(-m.hi, -m.lo, list(reversed(m.q)), list(reversed(m.p)),
                    (m.q_high, m.p_high), (m.q_low, m.p_low))


@functools.lru_cache(maxsize=64)
def power_of_two(bits):
    """2^bits as an exact ball (products with it are exact at any precision)."""
    return arb(2) ** bits


def ceil_scaled(ball, bits):
    """An integer >= 2^bits·t for every t in ``ball``: the ceiling of the scaled upper end."""
    man, exp = (ball * power_of_two(bits)).upper().man_exp()
    man, exp = int(man), int(exp)
    return man << exp if exp >= 0 else -((-man) >> -exp)


def floor_scaled(ball, bits):
    """An integer <= 2^bits·t for every t in ``ball``, at least 0 (masses are nonnegative)."""
    man, exp = (ball * power_of_two(bits)).lower().man_exp()
    man, exp = int(man), int(exp)
    return max(0, man << exp if exp >= 0 else man >> -exp)


def scaled_ceilings(balls, bits):
    """[ceil_scaled(b, bits) for b in ``balls``], or None when a ball's radius is not below 2^-(bits + 8).

    The hot loop of every single step (two or three roundings a bucket): the scaled upper end's ceiling is
    taken by arb, exact while the working precision holds the integer (else ``fmpz()`` refuses it, and the
    precision-free :func:`ceil_scaled` answers)."""
    return _scaled_roundings(balls, bits, up=True)


def scaled_floors(balls, bits):
    """[floor_scaled(b, bits) for b in ``balls``] (each at least 0), or None as :func:`scaled_ceilings`."""
    out = _scaled_roundings(balls, bits, up=False)
    return None if out is None else [max(0, v) for v in out]


def _scaled_roundings(balls, bits, up):
    scale, out = power_of_two(bits), []
    for ball in balls:
        scaled = ball * scale
        if not scaled.rad() < _ROUNDING_RADIUS:
            return None
        try:
            out.append(int((scaled.upper().ceil() if up else scaled.lower().floor()).fmpz()))
        except ValueError:
            out.append(ceil_scaled(ball, bits) if up else floor_scaled(ball, bits))
    return out


_ROUNDING_RADIUS = arb(1) / 256      # the scaled radius below which a rounding is decided (radius_ok)


def radius_ok(ball, bits):
    """True when the ball's radius is below 2^-(bits + 8): the rounding is then decided to the last unit."""
    return ball.rad() * power_of_two(bits + 8) < 1
