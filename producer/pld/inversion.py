"""δ(ε) bounds from the composed arrays, and ε(δ) by bisection on a dyadic grid.

Upper side (one order; U on the indices of the grid kh, U_∞ the atom at +∞,
all at 2^-K): the composed dominating pair has atoms (U[k], e^{−kh}·U[k]), so

    δ(ε) <= F(ε) = 2^-K·( Σ_{kh > ε} U[k]·(1 − e^{ε − kh}) + U_∞ )
               = 2^-K·( A_{k*} − e^ε·B_{k*} + U_∞ ),   k* = ⌊ε/h⌋ + 1,

with the suffix sums A_k = Σ_{j>=k} U[j] and B_k = Σ_{j>=k} U[j]·e^{−jh}
(every term of the first sum is >= 0, so this is exact, and is evaluated
as an arb ball whose upper end is kept).

Lower side (one order; P at 2^-K, Q and X at 2^-K'): for every k,

    δ(ε) >= L_k(ε) = 2^-K·Σ_{j>=k} P[j] − λ₊·2^-K'·(Σ_{j>=k} Q[j] + X),

λ₊ >= e^ε a rational; L(ε) = max_k L_k(ε) (floats only pick the k to try:
any k gives a valid bound).

δ(ε) is nonincreasing and continuous in ε, so the smallest ε with δ(ε) <= δ
(the answer ε(δ)) lies in [ε_lo, ε_hi] whenever F(ε_hi) <= δ and L(ε_lo) > δ
(or ε_lo = 0).
"""

import math

import numpy as np
from flint import arb
from gmpy2 import mpq

from producer.plain.outward import ball_upper
from producer.sources.enclosures import exp_enclosure, to_arb, working_precision


class UpperProfile:
    """F(ε) of one order's composed upper array, for any rational ε >= 0."""

    def __init__(self, array, h, bits, precision):
        self.h, self.bits, self.precision = mpq(h), bits, precision
        self.atom = array.atom
        start = max(array.offset, 1)
        values = array.ints(start - array.offset)
        self.start = start
        with working_precision(precision):
            ratio = to_arb(self.h).exp()
            weight = to_arb(-self.h * (start + len(values) - 1)).exp()
            a, b = [0] * (len(values) + 1), [arb(0)] * (len(values) + 1)
            for k in range(len(values) - 1, -1, -1):
                a[k] = a[k + 1] + values[k]
                b[k] = b[k + 1] + weight * values[k]
                weight *= ratio
        self.a, self.b = a, b

    @classmethod
    def of(cls, array, h, bits):
        """The profile at the precision F needs: K + 64 + log₂ n bits for n entries, however far the loss reaches.

        arb's exponents are unbounded, so the weights e^−kh lose nothing to their size (at a mean loss of 7·10^4
        a precision growing with |k|·h, as the masses' does, cost 5 s a profile).  The suffix sums B_k of n
        positive terms carry a relative error of about n·2^−precision, and F subtracts e^ε·B_k <= A_k <= 2^(K+1)
        (every term of F is >= 0) from the exact A_k: an error below 2^−62 units 2^−K."""
        return cls(array, h, bits, bits + 64 + (array.last - array.offset + 2).bit_length())

    def suffix(self, epsilon):
        k = max(self.start, int(math.floor(mpq(epsilon) / self.h)) + 1) - self.start
        return min(k, len(self.a) - 1)

    def value(self, epsilon):
        """An exact rational >= F(ε) >= δ(ε) (of this order)."""
        k = self.suffix(epsilon)
        with working_precision(self.precision):
            ball = arb(self.a[k]) - to_arb(mpq(epsilon)).exp() * self.b[k] + arb(self.atom)
            return max(mpq(0), ball_upper(ball)) / (mpq(2) ** self.bits)


class LowerProfile:
    """L(ε) of one order's composed lower arrays (P at 2^-K, Q and X at 2^-K')."""

    def __init__(self, p_array, q_array, h, p_bits, q_bits):
        self.h, self.p_bits, self.q_bits = mpq(h), p_bits, q_bits
        lo = min(p_array.offset, q_array.offset)
        hi = max(p_array.last, q_array.last)
        tp, tq = [0] * (hi - lo + 2), [0] * (hi - lo + 2)
        tq[hi - lo + 1] = q_array.atom
        for j in range(hi, lo - 1, -1):
            tp[j - lo] = tp[j - lo + 1] + _at(p_array, j)
            tq[j - lo] = tq[j - lo + 1] + _at(q_array, j)
        self.lo, self.tp, self.tq = lo, tp, tq
        self.fp = np.array([v / (1 << p_bits) for v in tp])
        with np.errstate(divide="ignore"):
            self.log_fq = np.log(np.array([v / (1 << q_bits) for v in tq]))

    def bound_at(self, k, epsilon_upper):
        """L_k(ε) exactly, with λ₊ = ``epsilon_upper`` >= e^ε; k is an offset into the tails."""
        return mpq(self.tp[k], 1 << self.p_bits) - epsilon_upper * mpq(self.tq[k], 1 << self.q_bits)

    def best(self, epsilon):
        """(k, L_k(ε)) for the k that floats suggest (and its neighbours), an exact lower bound."""
        with np.errstate(over="ignore"):
            k0 = int(np.argmax(self.fp - np.exp(float(epsilon) + self.log_fq)))
        lam = exp_upper(epsilon)
        candidates = range(max(0, k0 - 2), min(len(self.tp), k0 + 3))
        return max(((k, self.bound_at(k, lam)) for k in candidates), key=lambda item: item[1])

    def value(self, epsilon):
        """An exact rational <= δ(ε) (of this order); 0 when no event certifies more."""
        return max(mpq(0), self.best(epsilon)[1])


def _at(array, j):
    k = j - array.offset
    return int(array.values[k]) if 0 <= k < len(array.values) else 0


def exp_upper(epsilon):
    """A rational λ₊ >= e^ε (the upper end of an arb enclosure, 256 bits)."""
    return exp_enclosure(epsilon, bits=256).hi


# ---- bisection on the grid of multiples of 2^-m -----------------------------------------

def smallest_upper(bound, target, step, start_hint, limit=600):
    """The smallest ε = n·step (n >= 0) with bound(ε) <= target, bound nonincreasing; None if ε > ``limit``."""
    if bound(mpq(0)) <= target:
        return mpq(0)
    hi = max(1, int(min(start_hint, limit) / step))
    while bound(hi * step) > target:
        if hi * step > limit:
            return None
        hi *= 2
    lo = hi // 2 if hi > 1 and bound((hi // 2) * step) > target else 0
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if bound(mid * step) <= target:
            hi = mid
        else:
            lo = mid
    return hi * step


def largest_lower(bound, target, step, start_hint):
    """The largest ε = n·step with bound(ε) >= target (bound nonincreasing); 0 when bound(0) < target."""
    if bound(mpq(0)) < target:
        return mpq(0)
    lo = max(0, int(start_hint / step))
    if bound(lo * step) < target:
        hi = lo
        lo = 0
    else:
        hi = max(1, 2 * lo)
        while bound(hi * step) >= target:
            lo, hi = hi, 2 * hi
            if hi > 1 << 60:
                return lo * step
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if bound(mid * step) >= target:
            lo = mid
        else:
            hi = mid
    return lo * step
