"""The width of a single step's enclosure, predicted from the bucket that holds ε (sizing only).

For one step (a schedule of one stage with T = 1) nothing is composed, and
the two bounds of docs/dpsgd.md are exact except in the bucket
B = [jh, (j+1)h) that holds ε (j = ⌊ε/h⌋), up to the rounding to 2^-K and
the truncated tail:

- upper (connect-the-dots, §4): every bucket other than B contributes its
  exact share A_B' − e^ε·B_B' (all of a bucket above ε, none below it); B
  puts b = (A_B − e^{jh}·B_B)/(1 − e^{−h}) at (j+1)h, which contributes
  b·(1 − e^{ε−(j+1)h}) instead of the true A_{[ε,(j+1)h)} − e^ε·B_{[ε,(j+1)h)};
- lower (events of the bucket index, §5): the threshold is jh or (j+1)h
  instead of ε, which loses e^ε·B_{[jh,ε)} − A_{[jh,ε)} or
  A_{[ε,(j+1)h)} − e^ε·B_{[ε,(j+1)h)}, whichever is smaller;

A and B the first and second law of the order (forward: P, Q; backward: Q, P).
Both errors vanish when ε is a grid point, and are about f·h²·d(1 − d)/2 and
f·h²·min(d, 1 − d)²/2 otherwise (f the density of the loss at ε, d the
fractional part of ε/h); but where h exceeds the spread of the loss near ε
(at small q the loss of most outputs lies within about q of 0) they are
nearly all of B's mass, and no h² law holds: only a grid finer than that
spread, or one with ε on a grid point, reaches a small relative width.

So the grid of a single step is chosen from this prediction, evaluated with
arb at the candidate grids, before any work; none of it is a claim (any grid
gives valid bounds).  Several steps smooth the loss, and the Gaussian model
of :mod:`producer.pld.parameters` takes over.
"""

import math

from gmpy2 import mpq

from producer.pld.mechanism import BACKWARD, FORWARD, ORDERS
from producer.sources.enclosures import to_arb, working_precision

PRECISION = 320  # bits: absolute errors far below any width that matters (δ >= 10^-30, R >= 10^-6)


class OneStep:
    """The masses of one step's loss events {loss >= y} under both laws of each order (arb, sizing only)."""

    def __init__(self, stage):
        self.stage = stage
        self._cache = {}

    def tail(self, order, y):
        """(A(loss >= y), B(loss >= y)) of ``order`` as balls, y a rational."""
        key = (order, y)
        if key not in self._cache:
            self._cache[key] = self._tail(order, mpq(y))
        return self._cache[key]

    def _tail(self, order, y):
        law = self.stage.law
        if order == FORWARD:  # {ℓ >= y}: the upper tails, accurate far out
            return law.upper_tail(y)
        p, q = law.lower_tail(-y)  # backward: {−ℓ >= y} = {ℓ <= −y}, under (Q, P)
        return q, p

    def delta(self, order, epsilon):
        """δ(ε) of one order, A(loss > ε) − e^ε·B(loss > ε), as a float."""
        with working_precision(PRECISION):
            a, b = self.tail(order, epsilon)
            return max(0.0, float((a - to_arb(epsilon).exp() * b).mid()))

    def errors(self, order, epsilon, grid):
        """(upper error, lower error) of one order at ε on the grid h = 1/grid, as floats."""
        epsilon = mpq(epsilon)
        j = int(epsilon * grid)  # ε >= 0
        if j == epsilon * grid:
            return 0.0, 0.0
        lo, hi = mpq(j, grid), mpq(j + 1, grid)
        with working_precision(PRECISION):
            (a0, b0), (a1, b1), (a2, b2) = (self.tail(order, y) for y in (lo, epsilon, hi))
            e = to_arb(epsilon).exp()
            below_a, below_b = a0 - a1, b0 - b1   # [jh, ε)
            above_a, above_b = a1 - a2, b1 - b2   # [ε, (j+1)h)
            split = ((below_a + above_a) - to_arb(lo).exp() * (below_b + above_b)) / (1 - to_arb(-mpq(1, grid)).exp())
            true_above = above_a - e * above_b
            upper = split * (1 - to_arb(epsilon - hi).exp()) - true_above
            lower = min(float(true_above.mid()), float((e * below_b - below_a).mid()))
            return max(0.0, float(upper.mid())), max(0.0, lower)


class Prediction:
    """The predicted bounds at one ε on one grid: ``upper``, ``lower`` and the ``width`` between them."""

    __slots__ = ("epsilon", "upper", "lower", "width")

    def __init__(self, epsilon, upper, lower):
        self.epsilon, self.upper, self.lower = epsilon, upper, lower
        self.width = max(0.0, upper - lower)


def predict(step, epsilon, grid, tail):
    """The :class:`Prediction` at ε on the grid: the larger upper over the orders, the larger lower.

    ``tail`` is the truncated mass each upper end carries (the step's high tail
    sent to +∞).
    """
    uppers, lowers = [], []
    for order in ORDERS:
        d = step.delta(order, epsilon)
        up, low = step.errors(order, epsilon, grid)
        uppers.append(d + up + tail)
        lowers.append(d - low)
    return Prediction(epsilon, max(uppers), max(0.0, max(lowers)))


def meets(prediction, rel_width, aim, negligible):
    """True when the predicted point would be answered: its width within aim·R of its upper, or upper tiny."""
    return (prediction.width <= aim * rel_width * prediction.upper
            or prediction.upper <= aim * negligible)


def aligned_grids(epsilons, largest):
    """Grids N <= ``largest`` that put every ε on a grid point (multiples of the lcm of the denominators)."""
    step = 1
    for e in epsilons:
        step = step * e.denominator // math.gcd(step, int(e.denominator))
        if step > largest:
            return []
    return [step * k for k in range(1, min(8, largest // step) + 1)] if step > 1 else []


__all__ = ["OneStep", "Prediction", "predict", "meets", "aligned_grids", "FORWARD", "BACKWARD"]
