"""δ(ε) of the C-fold plain composition of the discrete Laplace, in closed binomial form.

L_t(n) = (1 − a)/(1 + a)·a^{|n|} with a = e^{−1/t}, P = L_t, Q = L_t(· − 1).
For one coordinate |x| − |x − 1| = −1 when x <= 0 and +1 when x >= 1, so

    P(x)/Q(x) = a^{|x| − |x−1|} = 1/a (x <= 0),  a (x >= 1),

and with K = #{i : x_i <= 0} the product ratio is a^{C − 2K} = e^{(2K − C)/t}:
it depends on x only through K.  P(X <= 0) = Σ_{n<=0} L_t(n) = 1/(1 + a) and
Q(X <= 0) = P(X <= −1) = a/(1 + a), so K ~ Bin(C, 1/(1+a)) under P and
Bin(C, a/(1+a)) under Q, and since the sign of P^C − e^ε Q^C is constant on
each {K = k} the sum over x collapses to the sum over k:

    δ(ε) = (1 + a)^{−C} Σ_{k >= k₀} binom(C, k) (a^{C−k} − e^ε a^k)
         = (1 + a)^{−C} Σ_{k >= k₀} binom(C, k) a^{C−k} (1 − e^{ε − (2k − C)/t}),

k₀ = ⌊(C + tε)/2⌋ + 1 the least k with (2k − C)/t > ε (equality contributes
zero).  When k₀ > C, i.e. ε >= C/t, the sum is empty: δ(ε) = 0 exactly (pure
DP).  The sum is evaluated from suffix sums over k (:class:`TailSums`), once
per precision for all ε; no truncation is involved.
"""

from math import comb

from flint import arb
from gmpy2 import mpq

from producer.sources.enclosures import to_arb, working_precision


def first_index(budget, t, epsilon):
    """k₀ = ⌊(C + tε)/2⌋ + 1 (exact); δ(ε) = 0 when k₀ > C."""
    m = (mpq(budget) + mpq(t) * mpq(epsilon)) / 2
    return int(m.numerator // m.denominator) + 1


class TailSums:
    """Suffix sums U_k = Σ_{j>=k} binom(C, j)·p_j and V_k = Σ_{j>=k} binom(C, j)·q_j.

    With p_j = a^{C−j} and q_j = a^j: (1 + a)^{−C}(U_{k₀} − e^ε V_{k₀}) = δ(ε).
    Every term of U − e^ε V over j >= k₀ is positive (e^ε a^j < a^{C−j} there), so
    ball radii stay relative to the terms: the absolute error is about
    2^-prec·U_{k₀}(1 + a)^{−C} <= 2^-prec.  Generic in the numbers (arb balls
    here, exact rationals in the tests); U_{C+1} = V_{C+1} = zero.
    """

    def __init__(self, budget, p, q, zero):
        self.u, self.v = [zero] * (budget + 2), [zero] * (budget + 2)
        for j in range(budget, -1, -1):
            weight = comb(budget, j)
            self.u[j] = self.u[j + 1] + p(j) * weight
            self.v[j] = self.v[j + 1] + q(j) * weight

    def value(self, first, scale):
        """U_first − scale·V_first (first clipped to 0)."""
        first = max(first, 0)
        return self.u[first] - scale * self.v[first]


class TailEnclosures:
    """The suffix sums built once at ``bits`` bits; :meth:`at` gives the ball of one ε at a time."""

    def __init__(self, t, budget, bits):
        self.t, self.budget, self.bits = mpq(t), budget, bits
        with working_precision(bits):
            self.sums = TailSums(budget, lambda j: to_arb(-mpq(budget - j) / self.t).exp(),
                                 lambda j: to_arb(-mpq(j) / self.t).exp(), arb(0))
            self.norm = 1 / (1 + to_arb(-1 / self.t).exp()) ** budget

    def at(self, epsilon):
        """An arb ball containing δ(ε), or None when δ(ε) = 0 exactly (ε >= C/t)."""
        first = first_index(self.budget, self.t, epsilon)
        if first > self.budget:
            return None
        with working_precision(self.bits):
            return self.sums.value(first, to_arb(mpq(epsilon)).exp()) * self.norm


def enclosures(t, budget, epsilons, bits):
    """For each ε an arb ball containing δ(ε), or None when δ(ε) = 0 exactly (ε >= C/t)."""
    balls = TailEnclosures(t, budget, bits)
    return [balls.at(epsilon) for epsilon in epsilons]
