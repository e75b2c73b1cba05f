"""Noise on the integers: the discrete Laplace mechanism, Poisson-subsampled under add/remove neighbours.

N is the noise law centred at 0 and N_d the same law centred at the
integer d (d = s under add/remove, d = 2s under replace-one, where only
q = 1 is accounted).  The forward pair is

    P = (1 − q)·N + q·N_d,   Q = N,   ℓ(x) = log(1 − q + q·e^{ℓ₁(x)}),   ℓ₁(x) = log(N_d(x)/N(x)),

on the integers x (Poisson subsampling: "Optimal Accounting of Differential
Privacy via Characteristic Function", Zhu, Dong, Wang 2022, Theorem 11).

**Discrete Laplace** DLap(a), pmf tanh(a/2)·e^{−a|x|}: ℓ₁(x) = a·(|x| − |x − d|) is
−a·d for x <= 0, a·(2x − d) for 0 <= x <= d and a·d for x >= d, so the loss law
has the d + 1 atoms v_j = log(1 − q + q·e^{a(2j − d)}), j = 0..d, with Q-masses

    N(x <= 0) = 1/(1 + e^{−a}),   N(x = j) = tanh(a/2)·e^{−aj} (0 < j < d),   N(x >= d) = e^{−ad}/(1 + e^{−a}),

and N_d's mass of atom j is N's mass of atom d − j (the reflection x ↦ d − x).
Each atom is summed into its bucket directly (no CDF differences, no
cancellation); the range runs from the lowest atom's bucket to one past
the highest one's, so both tails are empty.

**Exact buckets.**  An atom's bucket is ⌊v/h⌋.  At q = 1 every v = a·(2j − d)
is rational and compared with the grid exactly.  At q < 1 the atom with
ℓ₁ = 0 (2j = d) has v = 0 exactly, in bucket 0; every other v is never a
grid level: e^{ih} = 1 − q + q·e^{c} with c rational and nonzero is, with D a
common denominator and t = e^{1/D}, the equation t^m − q·t^n − (1 − q) = 0
(m = ihD, n = cD); for m ≠ n (m = n forces t^m = 1, so m = 0 = n) its constant
term −(1 − q) does not cancel, and t is transcendental (Lindemann), so it
fails.  The sign is then settled by arb (:mod:`producer.pld.decide`).
"""

import functools
import math

from flint import arb
from gmpy2 import mpq

from producer.pld.decide import floor_guess, last_true, sign
from producer.pld.masses import StepMasses
from producer.pld.mechanism import DominatingPair
from producer.sources.enclosures import to_arb, working_precision


def _floor(value, h):
    """⌊value/h⌋ of rationals."""
    ratio = mpq(value) / mpq(h)
    return int(ratio.numerator // ratio.denominator)


# ---- a loss value against a level, exactly ------------------------------------------------------

def exp_loss(rate, l1):
    """e^{v} = 1 − q + q·e^{ℓ₁} as a ball at the current precision (ℓ₁ rational)."""
    q = to_arb(rate)
    return 1 - q + q * to_arb(l1).exp()


def below(rate, l1, level):
    """True when v = log(1 − q + q·e^{ℓ₁}) < ``level`` (rationals q ∈ (0, 1], ℓ₁, level), decided exactly."""
    rate, l1, level = mpq(rate), mpq(l1), mpq(level)
    if rate == 1:
        return l1 < level
    if l1 == 0:  # v = 0 exactly
        return level > 0
    if level == 0:  # v has the sign of ℓ₁
        return l1 < 0
    return sign(lambda: to_arb(level).exp() - exp_loss(rate, l1)) > 0


def loss_float(rate, l1):
    """v = log(1 − q + q·e^{ℓ₁}) in floats (a hint)."""
    q, l1 = float(rate), float(l1)
    if q == 1:
        return l1
    if l1 > 700:
        return math.log(q) + l1
    return math.log1p(q * math.expm1(l1)) if l1 < 30 else math.log(1 - q + q * math.exp(l1))


def bucket(rate, l1, h):
    """⌊v/h⌋ for the loss value v of ℓ₁ (exactly: rational at q = 1, v = 0 at ℓ₁ = 0, else by enclosures)."""
    rate, l1, h = mpq(rate), mpq(l1), mpq(h)
    if rate == 1:
        return _floor(l1, h)
    if l1 == 0:
        return 0
    return last_true(lambda i: not below(rate, l1, i * h), floor_guess(loss_float(rate, l1), h))


def side_hint(rate, l1, y):
    """The sign of y − v at the current precision, floats when undecided (the single-step prediction: a hint)."""
    rate, l1, y = mpq(rate), mpq(l1), mpq(y)
    if rate == 1 or l1 == 0:
        v = l1 if rate == 1 else mpq(0)
        return (y > v) - (y < v)
    if y == 0:
        return -1 if l1 > 0 else 1
    diff = to_arb(y).exp() - exp_loss(rate, l1)
    if diff > 0:
        return 1
    if diff < 0:
        return -1
    return 1 if float(y) > loss_float(rate, l1) else -1


# ---- the discrete Laplace mechanism -------------------------------------------------------------------

@functools.lru_cache(maxsize=64)
def _laplace_buckets(parameter, shift, rate, h):
    """The bucket ⌊v_j/h⌋ of every atom j = 0..d (non-decreasing in j)."""
    return tuple(bucket(rate, parameter * (2 * j - shift), h) for j in range(shift + 1))


class DiscreteLaplace(DominatingPair):
    """(1 − q)·DLap(a) + q·DLap(a) shifted by d against DLap(a): ``parameter`` a > 0, ``sensitivity`` s >= 1,
    ``shift`` d (s under add/remove, 2s under replace-one), ``rate`` q ∈ (0, 1] (exact)."""

    __slots__ = ("parameter", "sensitivity", "shift", "rate")

    def __init__(self, parameter, sensitivity, shift, rate):
        self._set(parameter=mpq(parameter), sensitivity=int(sensitivity), shift=int(shift), rate=mpq(rate))

    def parameters(self):
        return (self.parameter, mpq(self.sensitivity), self.rate)

    def key(self):
        return (type(self).__name__, self.parameter, self.sensitivity, self.shift, self.rate)

    def audit_mass_units(self):
        return 80

    def audit_scale(self):
        return self.rate, mpq(self.sensitivity)

    def describe(self):
        sampled = "" if self.rate == 1 else f", q = {float(self.rate):g}"
        return f"discrete Laplace a = {float(self.parameter):g}, shift {self.shift}{sampled}"

    def losses(self):
        """ℓ₁ = a·(2j − d) of every atom j = 0..d (rationals)."""
        a, d = self.parameter, self.shift
        return [a * (2 * j - d) for j in range(d + 1)]

    def atom_masses(self):
        """[(P-mass, Q-mass)] of the atoms j = 0..d as balls at the current precision."""
        a, d, q = self.parameter, self.shift, to_arb(self.rate)
        norm = 1 + to_arb(-a).exp()
        inner = (1 - to_arb(-a).exp()) / norm  # tanh(a/2)
        noise = [1 / norm] + [inner * to_arb(-a * j).exp() for j in range(1, d)] + [to_arb(-a * d).exp() / norm]
        return [((1 - q) * noise[j] + q * noise[d - j], noise[j]) for j in range(d + 1)]

    def buckets(self, h):
        return _laplace_buckets(self.parameter, self.shift, self.rate, mpq(h))

    def masses(self, h, lo, hi, bits):
        places = self.buckets(h)
        with working_precision(bits):
            p, q = [arb(0)] * (hi - lo), [arb(0)] * (hi - lo)
            low, high = [arb(0), arb(0)], [arb(0), arb(0)]
            for i, (pm, qm) in zip(places, self.atom_masses()):
                if i < lo:
                    low = [low[0] + pm, low[1] + qm]
                elif i >= hi:
                    high = [high[0] + pm, high[1] + qm]
                else:
                    p[i - lo] += pm
                    q[i - lo] += qm
            return StepMasses(lo, hi, p, q, low[0], low[1], high[0], high[1])

    def index_range(self, grid, allowance):
        places = self.buckets(mpq(1, grid))
        return places[0], places[-1] + 1

    # the single-step prediction (hints)
    def _tail(self, y, keep):
        kept = [m for l1, m in zip(self.losses(), self.atom_masses()) if keep(side_hint(self.rate, l1, y))]
        return sum((m[0] for m in kept), arb(0)), sum((m[1] for m in kept), arb(0))

    def upper_tail(self, y):
        return self._tail(y, lambda s: s <= 0)

    def lower_tail(self, y):
        return self._tail(y, lambda s: s >= 0)

    def moments(self):
        with working_precision(64):
            parts = [(float(pm.mid()), loss_float(self.rate, l1)) for l1, (pm, _) in zip(self.losses(),
                                                                                       self.atom_masses())]
        total = sum(w for w, _ in parts)
        mean = sum(w * v for w, v in parts) / total
        return mean, max(sum(w * v * v for w, v in parts) / total - mean * mean, 1e-300)
