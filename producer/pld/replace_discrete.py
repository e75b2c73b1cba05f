"""Noise on the integers, Poisson-subsampled under replace-one neighbours.

N is the noise law centred at 0 (the discrete Laplace or the discrete
Gaussian), N_c the same law centred at the integer c, s the sensitivity and
0 < q < 1 the sampling probability.  The pair is

    P = (1 − q)·N + q·N_s,   Q = (1 − q)·N + q·N_{−s},
    ℓ(x) = log((1 − q + q·e^{ℓ₊(x)}) / (1 − q + q·e^{ℓ₋(x)})),   ℓ±(x) = log(N_{±s}(x)/N(x)),

on the integers x.  It dominates every replace-one step by the argument for
the sampled Laplace mechanism (docs/mechanisms/poisson-subsampling.md: any
symmetric log-concave noise whose add/remove pair is dominated by its shift
by the sensitivity; both laws here are symmetric and log-concave on the
integers, docs/mechanisms/discrete.md).  x ↦ −x swaps P and Q, so both
orders agree; ℓ is non-decreasing in x.

**Exact ties.**  For rational y, ℓ(x) = y only when ℓ₊(x) = ℓ₋(x) (then
ℓ(x) = 0; x = 0 for both families) or when q = 1/2 and ℓ₊(x) = −ℓ₋(x) = y
(then ℓ(x) = ℓ₊(x): the discrete Laplace's end atoms, never the discrete
Gaussian's).  *Proof.*  ℓ₊, ℓ₋ and y are rational; with D a common
denominator and t = e^{1/D}, ℓ(x) = y reads

    F(t) = (1 − q)·t^m + q·t^{m + n₋} − (1 − q) − q·t^{n₊} = 0,   m = yD, n± = ℓ±D.

t is transcendental (Lindemann), so every exponent's coefficients cancel.
m = 0: the first and third terms cancel, and q·t^{n₋} = q·t^{n₊} forces
n₋ = n₊.  m ≠ 0: the coefficient at t^m is (1 − q) + q·[n₋ = 0] − q·[n₊ = m],
zero only when n₊ = m and q = 1/2 (n₋ ≠ 0); the one at t^0 is then
−(1 − q) + q·[m + n₋ = 0], zero only when n₋ = −m.  Every other comparison
is decided by enclosures, which separate (:func:`producer.pld.decide.sign`).
"""

import functools
import math

from flint import arb
from gmpy2 import mpq

from producer.pld.decide import floor_guess, last_true, sign
from producer.pld.discrete import DiscreteGaussian, DiscreteLaplace, loss_float
from producer.pld.normal import normal_quantile_float
from producer.sources.enclosures import to_arb

HALF = mpq(1, 2)


def _rational_value(rate, plus, minus):
    """v as a rational when it is one (the two ties of the module docstring), else None."""
    if plus == minus:
        return mpq(0)
    if rate == HALF and plus == -minus:
        return plus
    return None


def _gap(rate, plus, minus, level):
    """e^{level}·(1 − q + q·e^{ℓ₋}) − (1 − q + q·e^{ℓ₊}) as a ball: its sign is that of level − v."""
    q = to_arb(rate)
    return to_arb(level).exp() * (1 - q + q * to_arb(minus).exp()) - (1 - q + q * to_arb(plus).exp())


def below(rate, plus, minus, level):
    """True when v = log((1 − q + q·e^{ℓ₊})/(1 − q + q·e^{ℓ₋})) < ``level``, decided exactly."""
    rate, plus, minus, level = mpq(rate), mpq(plus), mpq(minus), mpq(level)
    value = _rational_value(rate, plus, minus)
    if value is not None:
        return value < level
    if level == 0:  # v has the sign of ℓ₊ − ℓ₋, however close to 0 (both ℓ± far below 0)
        return plus < minus
    return sign(lambda: _gap(rate, plus, minus, level)) > 0


def value_float(rate, plus, minus):
    """v in floats (a hint)."""
    return loss_float(rate, plus) - loss_float(rate, minus)


def bucket(rate, plus, minus, h):
    """⌊v/h⌋, exactly."""
    h = mpq(h)
    return last_true(lambda i: not below(rate, plus, minus, i * h), floor_guess(value_float(rate, plus, minus), h))


def side_hint(rate, plus, minus, y):
    """The sign of y − v at the current precision, floats when undecided (a hint)."""
    rate, plus, minus, y = mpq(rate), mpq(plus), mpq(minus), mpq(y)
    value = _rational_value(rate, plus, minus)
    if value is not None:
        return (y > value) - (y < value)
    if y == 0:
        return 1 if plus < minus else -1
    gap = _gap(rate, plus, minus, y)
    if gap > 0:
        return 1
    if gap < 0:
        return -1
    return 1 if float(y) > value_float(rate, plus, minus) else -1


def _check_rate(rate):
    if not 0 < rate < 1:
        raise ValueError(f"a replace-one sampled discrete pair takes a sampling probability in (0, 1), not {rate}")


# ---- the discrete Laplace -------------------------------------------------------------------------

@functools.lru_cache(maxsize=64)
def _laplace_buckets(parameter, sensitivity, rate, h):
    """The bucket of every atom j = −s..s (non-decreasing in j)."""
    a, s = parameter, sensitivity
    return tuple(bucket(rate, a * (abs(j) - abs(j - s)), a * (abs(j) - abs(j + s)), h) for j in range(-s, s + 1))


class ReplaceSampledDiscreteLaplace(DiscreteLaplace):
    """(1 − q)·DLap(a) + q·DLap(a) shifted by s against the same shifted by −s: ``parameter`` a > 0,
    ``sensitivity`` s >= 1, ``rate`` q ∈ (0, 1) (exact).

    ℓ₊(x) = a·(|x| − |x − s|) and ℓ₋(x) = a·(|x| − |x + s|) are constant on
    x <= −s and on x >= s, so the loss law has the 2s + 1 atoms j = −s..s
    (the two ends standing for those half-lines).  With r = e^{−a}, N_c gives
    the atom x <= −s the mass r^{s+c}/(1 + r), the atom x >= s the mass
    r^{s−c}/(1 + r) (c ∈ {−s, 0, s}) and a middle atom j the mass
    tanh(a/2)·r^{|j−c|}.  ``shift`` is 2s: the auditor's work counts its
    2s + 1 atoms as those of the shift 2s.
    """

    __slots__ = ()

    def __init__(self, parameter, sensitivity, rate):
        _check_rate(mpq(rate))
        super().__init__(parameter, sensitivity, 2 * int(sensitivity), rate)

    def describe(self):
        return (f"discrete Laplace a = {float(self.parameter):g}, sensitivity {self.sensitivity}, replace-one, "
                f"q = {float(self.rate):g}")

    def losses(self):
        """(ℓ₊, ℓ₋) of every atom j = −s..s (rationals)."""
        a, s = self.parameter, self.sensitivity
        return [(a * (abs(j) - abs(j - s)), a * (abs(j) - abs(j + s))) for j in range(-s, s + 1)]

    def atom_masses(self):
        """[(P-mass, Q-mass)] of the atoms j = −s..s as balls at the current precision."""
        a, s, q = self.parameter, self.sensitivity, to_arb(self.rate)
        r = to_arb(-a).exp()
        inner = (1 - r) / (1 + r)  # tanh(a/2)

        def noise(j, c):
            if j == -s:
                return to_arb(-a * (s + c)).exp() / (1 + r)
            if j == s:
                return to_arb(-a * (s - c)).exp() / (1 + r)
            return inner * to_arb(-a * abs(j - c)).exp()

        return [((1 - q) * noise(j, 0) + q * noise(j, s), (1 - q) * noise(j, 0) + q * noise(j, -s))
                for j in range(-s, s + 1)]

    def buckets(self, h):
        return _laplace_buckets(self.parameter, self.sensitivity, self.rate, mpq(h))

    def _side(self, loss, y):
        return side_hint(self.rate, *loss, y)

    def _loss_float(self, loss):
        return value_float(self.rate, *loss)


# ---- the discrete Gaussian ------------------------------------------------------------------------

class ReplaceSampledDiscreteGaussian(DiscreteGaussian):
    """(1 − q)·N_Z(0, σ²) + q·N_Z(s, σ²) against (1 − q)·N_Z(0, σ²) + q·N_Z(−s, σ²): ``sigma_squared`` σ² > 0,
    ``sensitivity`` s >= 1, ``rate`` q ∈ (0, 1) (exact).

    ℓ±(x) = (±2sx − s²)/(2σ²); the loss is increasing in x and onto the
    real line, one atom per integer.  The bulk is [−M − s, M + s]; beyond it
    each law's sum is at most the base class's T (N_{∓s} there is g at
    arguments beyond M).  ``shift`` is 2s: g is needed up to M + 2s, and the
    auditor's atoms −m − s … m + s number those of the shift 2s.
    """

    __slots__ = ()

    def __init__(self, sigma_squared, sensitivity, rate):
        _check_rate(mpq(rate))
        super().__init__(sigma_squared, sensitivity, 2 * int(sensitivity), rate)

    def describe(self):
        return (f"discrete Gaussian σ² = {float(self.sigma_squared):g}, sensitivity {self.sensitivity}, "
                f"replace-one, q = {float(self.rate):g}")

    def losses_at(self, x):
        """(ℓ₊(x), ℓ₋(x)), rationals."""
        s, two = self.sensitivity, 2 * self.sigma_squared
        return mpq(2 * s * x - s * s) / two, mpq(-2 * s * x - s * s) / two

    def _below(self, x, y):
        return below(self.rate, *self.losses_at(x), y)

    def _above_infimum(self, y):
        return True  # the loss is onto the real line

    def _ends(self, M):
        s = self.sensitivity
        return -M - s, M + s + 1

    def _span(self, g, a, b, rq):
        if a >= b:
            return arb(0), arb(0)
        s = self.sensitivity
        centre = sum((g[abs(x)] for x in range(a, b)), arb(0))
        right = sum((g[abs(x - s)] for x in range(a, b)), arb(0))
        left = sum((g[abs(x + s)] for x in range(a, b)), arb(0))
        return (1 - rq) * centre + rq * right, (1 - rq) * centre + rq * left

    def _x_float(self, y):
        """The real x with v(x) = y (a start for the search).  With K = s²/(2σ²) and u = e^{sx/σ²} = e^K·w,
        w is the positive root of q·w² − b·w − q·e^{y−2K}, b = (e^y − 1)(1 − q); in logs, so that neither e^K
        nor e^{−2K} overflows or underflows."""
        q, s2, s, y = float(self.rate), float(self.sigma_squared), self.sensitivity, float(y)
        if abs(y) > 700:
            return math.copysign(1e300, y)
        K = s * s / (2 * s2)
        log_e = y - 2 * K
        b = math.expm1(y) * (1 - q)
        disc = math.sqrt(b * b + 4 * q * q * math.exp(log_e)) if log_e < 700 else math.inf
        if b > 0:
            log_w = math.log((b + disc) / (2 * q)) if math.isfinite(disc) else (log_e + 2 * math.log(q)) / 2
        elif disc - b > 0:  # the stable form 2q·e^{y−2K}/(disc − b)
            log_w = math.log(2 * q) + log_e - math.log(disc - b) if math.isfinite(disc) else log_e / 2
        else:
            log_w = log_e / 2
        return s2 * (log_w + K) / s

    def index_range(self, grid, allowance):
        """Symmetric, to where P's high tail is about ``allowance``."""
        s2, s = float(self.sigma_squared), self.sensitivity
        x = s + normal_quantile_float(allowance) * math.sqrt(s2) + 1
        hi = max(math.ceil(value_float(self.rate, *self.losses_at(int(math.ceil(x)))) * grid) + 1, 1)
        return -hi, hi

    def moments(self):
        s2, s, q = float(self.sigma_squared), self.sensitivity, float(self.rate)
        width = int(12 * math.sqrt(s2)) + 2
        parts = []
        for x in range(-width - s, s + width + 1):
            weight = (1 - q) * math.exp(-x * x / (2 * s2)) + q * math.exp(-(x - s) ** 2 / (2 * s2))
            if weight > 0:
                parts.append((weight, value_float(self.rate, *self.losses_at(x))))
        total = sum(w for w, _ in parts)
        mean = sum(w * v for w, v in parts) / total
        return mean, max(sum(w * v * v for w, v in parts) / total - mean * mean, 1e-300)
