"""The P- and Q-mass of every loss bucket of one step, enclosed with arb.

With the grid spacing h and the index range [lo, hi] of a stage, the
intervals of the remove-order loss are

    I_i = {x : i·h <= ℓ(x) < (i + 1)·h} = [x_i, x_{i+1}),   lo <= i < hi,

with x_i = x(i·h) (:mod:`producer.pld.mechanism`), plus the low tail
{ℓ < lo·h} = (−∞, x_lo) and the high tail {ℓ >= hi·h} = [x_hi, ∞).  Since
ℓ is increasing these are x-intervals, and their masses are differences of

    P(X < x) = (1 − q)·Φ(x/σ) + q·Φ((x − 1)/σ),     Q(X < x) = Φ(x/σ),

with Φ(z) = erfc(−z/√2)/2 enclosed by arb (tails through erfc directly, so
no mass is a difference of two numbers near 1).  For q < 1 and
e^{ih} <= 1 − q the preimage is −∞ and the CDFs are 0.  The enclosures are
absolute: every ball has radius far below the fixed-point step 2^-K the
arrays round to (the caller picks the precision and checks the radii).
"""

from flint import arb

from producer.pld.mechanism import gaussian_preimage, preimage
from producer.sources.enclosures import to_arb, working_precision


class StepMasses:
    """Balls p[i − lo], q[i − lo] of P(I_i), Q(I_i) for lo <= i < hi, and the two tails of each law."""

    __slots__ = ("lo", "hi", "p", "q", "p_low", "q_low", "p_high", "q_high")

    def __init__(self, lo, hi, p, q, p_low, q_low, p_high, q_high):
        self.lo, self.hi, self.p, self.q = lo, hi, p, q
        self.p_low, self.q_low, self.p_high, self.q_high = p_low, q_low, p_high, q_high


def _phi(z):
    """Φ(z) = erfc(−z/√2)/2."""
    return (-z / arb(2).sqrt()).erfc() / 2


def _phi_bar(z):
    """1 − Φ(z) = erfc(z/√2)/2."""
    return (z / arb(2).sqrt()).erfc() / 2


def _points(stage, h, lo, hi, infimum):
    """The preimages x_i for lo <= i <= hi as balls, None for −∞."""
    if stage.gaussian:
        return [to_arb(gaussian_preimage(stage, i * h)) for i in range(lo, hi + 1)]
    step = to_arb(h).exp()
    level = to_arb(lo * h).exp()
    points = []
    for i in range(lo, hi + 1):
        points.append(None if i <= infimum else preimage(stage, level))
        level *= step
    return points


def step_masses(stage, h, lo, hi, bits, infimum=None):
    """:class:`StepMasses` of ``stage`` on the grid h over [lo, hi], at ``bits`` bits.

    ``infimum`` is i₀ = ⌊log(1 − q)/h⌋ for q < 1 (preimages x_i = −∞ for
    i <= i₀); None for q = 1.
    """
    with working_precision(bits):
        q, s = to_arb(stage.rate), to_arb(stage.noise)
        one_minus = 1 - q
        cdf_p, cdf_q = [], []
        for x in _points(stage, h, lo, hi, infimum if infimum is not None else lo - 1):
            if x is None:
                cdf_p.append(arb(0))
                cdf_q.append(arb(0))
                continue
            a, b = _phi(x / s), _phi((x - 1) / s)
            cdf_p.append(one_minus * a + q * b)
            cdf_q.append(a)
        p = [cdf_p[k + 1] - cdf_p[k] for k in range(hi - lo)]
        qq = [cdf_q[k + 1] - cdf_q[k] for k in range(hi - lo)]
        top = _points(stage, h, hi, hi, infimum if infimum is not None else hi - 1)[0]
        if top is None:  # the whole law lies below hi·h (cannot happen for a sensible range)
            p_high = q_high = arb(0)
        else:
            p_high = one_minus * _phi_bar(top / s) + q * _phi_bar((top - 1) / s)
            q_high = _phi_bar(top / s)
        return StepMasses(lo, hi, p, qq, cdf_p[0], cdf_q[0], p_high, q_high)


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

    remove: the loss ℓ, bucket i = I_i with (P, Q) = (p_i, q_i).
    add: the loss −ℓ of the pair (Q, P); its bucket j = [jh, (j+1)h) is I_i
    with i = −j − 1 (up to the boundary points, which have measure zero),
    so (P', Q') = (q_i, p_i), j runs over [−hi, −lo), the low tail is the
    remove order's high tail with the laws swapped and vice versa.
    """
    m = masses
    if order == "remove":
        return Oriented(m.lo, m.hi, list(m.p), list(m.q), (m.p_low, m.q_low), (m.p_high, m.q_high))
    return Oriented(-m.hi, -m.lo, list(reversed(m.q)), list(reversed(m.p)),
                    (m.q_high, m.p_high), (m.q_low, m.p_low))


def ceil_scaled(ball, bits):
    """An integer >= 2^bits·t for every t in ``ball``: the ceiling of the scaled upper end."""
    man, exp = (ball * (1 << bits)).upper().man_exp()
    man, exp = int(man), int(exp)
    return man << exp if exp >= 0 else -((-man) >> -exp)


def floor_scaled(ball, bits):
    """An integer <= 2^bits·t for every t in ``ball``, at least 0 (masses are nonnegative)."""
    man, exp = (ball * (1 << bits)).lower().man_exp()
    man, exp = int(man), int(exp)
    return max(0, man << exp if exp >= 0 else man >> -exp)


def radius_ok(ball, bits):
    """True when the ball's radius is below 2^-(bits + 8): the rounding is then decided to the last unit."""
    return ball.rad() * (1 << (bits + 8)) < 1
