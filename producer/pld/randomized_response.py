"""Randomized response under replace-one neighbours: three atoms of the loss, rational masses.

With probability 1 − p the output is the input's bucket, otherwise a
uniform one of the k buckets.  Replacing one record changes its bucket, say
from 1 to 2; the outputs' laws are then exactly

    P = (1 − p + p/k, p/k, p/k, …, p/k),    Q = (p/k, 1 − p + p/k, p/k, …, p/k),

so the pair is the mechanism itself, not a bound.  With r = (1 − p + p/k)/(p/k)
the loss takes three values: L = log r (P-mass 1 − p + p/k, Q-mass p/k),
−L (the masses swapped) and 0 (mass (k − 2)·p/k under both).  0 is a grid
level (bucket 0); L is not (e^{ih} = r would make e^{ih} rational, so ih = 0
and r = 1, i.e. p = 1, a leaf without privacy loss that is dropped), so the
bucket ⌊L/h⌋ is decided by arb, and −L lies in bucket −⌊L/h⌋ − 1.
"""

import math

from gmpy2 import mpq

from producer.pld.decide import floor_guess, last_true, sign
from producer.pld.masses import StepMasses
from producer.pld.mechanism import DominatingPair
from producer.sources.enclosures import to_arb, working_precision


class _Responses(DominatingPair):
    """What both pairs of randomized response share: the parameters (noise p, k buckets), the auditor's costs,
    and the single-step tails from :meth:`atoms` [(place, P-mass, Q-mass)] and :meth:`_side` (the sign of
    y minus an atom's loss value, given its place)."""

    __slots__ = ("noise", "buckets")

    def __init__(self, noise, buckets):
        self._set(noise=mpq(noise), buckets=int(buckets))

    def parameters(self):
        return (self.noise, mpq(self.buckets))

    def audit_mass_units(self):
        return 80

    def audit_scale(self):
        return mpq(1), mpq(1)

    @staticmethod
    def _masses(atoms):
        """(P, Q) of ``atoms`` as arb balls."""
        return to_arb(sum((a[1] for a in atoms), mpq(0))), to_arb(sum((a[2] for a in atoms), mpq(0)))

    def upper_tail(self, y):
        return self._masses([a for a in self.atoms() if self._side(y, a[0]) <= 0])

    def lower_tail(self, y):
        return self._masses([a for a in self.atoms() if self._side(y, a[0]) >= 0])


class RandomizedResponse(_Responses):
    """The two output laws of k-ary randomized response with noise p ∈ (0, 1), k >= 2 buckets (exact)."""

    __slots__ = ()

    def describe(self):
        return f"randomized response p = {float(self.noise):g}, k = {self.buckets}"

    def atoms(self):
        """[(sign s of the loss value s·L, P-mass, Q-mass)] for s = −1, 0, 1 (exact rationals)."""
        p, k = self.noise, self.buckets
        keep, other = 1 - p + p / k, p / k
        return [(-1, other, keep), (0, (k - 2) * other, (k - 2) * other), (1, keep, other)]

    @property
    def ratio(self):
        """r = e^L = (1 − p + p/k)/(p/k)."""
        p, k = self.noise, self.buckets
        return (1 - p + p / k) / (p / k)

    def top_index(self, h):
        """⌊L/h⌋, decided exactly."""
        r, h = to_arb(self.ratio), mpq(h)
        return last_true(lambda i: sign(lambda: to_arb(i * h).exp() - r) < 0,
                         floor_guess(math.log(float(self.ratio)), h))

    def _below(self, i, top):
        """The atoms (as in :meth:`atoms`) whose loss value is below i·h."""
        return [a for a in self.atoms() if (a[0] == -1 and i > -top - 1) or (a[0] == 0 and i > 0)
                or (a[0] == 1 and i > top)]

    def masses(self, h, lo, hi, bits):
        top = self.top_index(h)
        with working_precision(bits):
            cdf = [self._masses(self._below(i, top)) for i in range(lo, hi + 1)]
            high = self._masses([a for a in self.atoms() if a not in self._below(hi, top)])
            return StepMasses.from_cdf(lo, hi, [p for p, _ in cdf], [q for _, q in cdf], *high)

    def index_range(self, grid, allowance):
        top = self.top_index(mpq(1, grid))
        return -top - 1, top + 1

    # ---- the single-step prediction (hints) -------------------------------------------------

    def _side(self, y, s):
        """The sign of y − s·L at the current precision (floats when undecided; s·L = 0 exactly for s = 0)."""
        y = mpq(y)
        if s == 0:
            return (y > 0) - (y < 0)
        diff = to_arb(y).exp() - to_arb(self.ratio) ** s
        if diff > 0 or diff < 0:
            return 1 if diff > 0 else -1
        return 1 if float(y) > s * math.log(float(self.ratio)) else -1

    # ---- float hints --------------------------------------------------------------------------

    def moments(self):
        L = math.log(float(self.ratio))
        parts = [(float(pm), s * L) for s, pm, _ in self.atoms()]
        mean = sum(w * v for w, v in parts)
        return mean, max(sum(w * v * v for w, v in parts) - mean * mean, 1e-300)


class RandomizedResponseSpecial(_Responses):
    """Randomized response under replace_special: the input's output law against the special input's uniform one.

    The special record answers a uniformly random bucket (randomized response
    at p = 1), so replacing a record in bucket x by it gives the pair

        P = (α, β, …, β),    Q = (1/k, …, 1/k),    α = 1 − p + p/k,  β = p/k,

    exactly (the mechanism itself, not a bound).  The loss takes two values,
    log(k·α) > 0 on the input's bucket (P-mass α, Q-mass 1/k) and log p < 0 on
    the k − 1 others (P-mass 1 − α, Q-mass (k − 1)/k); their difference is
    log r of the replace-one pair.  Neither is a grid level (e^{ih} rational
    needs ih = 0, and k·α = 1 or p = 1 only at p = 1, a leaf that is
    dropped), so each atom's bucket ⌊log R/h⌋ is decided by arb.  The orders
    differ: the backward one is the pair (Q, P).
    """

    __slots__ = ()

    def describe(self):
        return f"randomized response p = {float(self.noise):g}, k = {self.buckets}, against the special input"

    def atoms(self):
        """[(e^ℓ, P-mass, Q-mass)] of the two loss values ℓ, the lower first (exact rationals)."""
        p, k = self.noise, self.buckets
        keep = 1 - p + p / k
        return [(p, 1 - keep, mpq(k - 1, k)), (k * keep, keep, mpq(1, k))]

    def _index(self, ratio, h):
        """⌊log(ratio)/h⌋, decided exactly."""
        target, h = to_arb(ratio), mpq(h)
        return last_true(lambda i: sign(lambda: to_arb(i * h).exp() - target) < 0,
                         floor_guess(math.log(float(ratio)), h))

    def masses(self, h, lo, hi, bits):
        placed = [(a, self._index(a[0], h)) for a in self.atoms()]
        with working_precision(bits):
            # an atom lies below level i exactly when its bucket is below i
            cdf = [self._masses([a for a, j in placed if j < i]) for i in range(lo, hi + 1)]
            high = self._masses([a for a, j in placed if j >= hi])
            return StepMasses.from_cdf(lo, hi, [p for p, _ in cdf], [q for _, q in cdf], *high)

    def index_range(self, grid, allowance):
        low, high = (self._index(ratio, mpq(1, grid)) for ratio, _, _ in self.atoms())
        return low, high + 1

    # ---- the single-step prediction (hints) -------------------------------------------------

    def _side(self, y, ratio):
        """The sign of y − log(ratio) at the current precision (floats when undecided)."""
        diff = to_arb(mpq(y)).exp() - to_arb(ratio)
        if diff > 0 or diff < 0:
            return 1 if diff > 0 else -1
        return 1 if float(y) > math.log(float(ratio)) else -1

    # ---- float hints --------------------------------------------------------------------------

    def moments(self):
        parts = [(float(pm), math.log(float(ratio))) for ratio, pm, _ in self.atoms()]
        mean = sum(w * v for w, v in parts)
        return mean, max(sum(w * v * v for w, v in parts) - mean * mean, 1e-300)
