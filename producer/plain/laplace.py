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
DP).  Each term is a product of positive balls (the last factor is −expm1 of
an exact negative rational), so the arb ball of the sum keeps a relative
radius; no truncation is involved.
"""

from math import comb


from gmpy2 import mpq

from producer.sources.enclosures import to_arb, working_precision


def first_index(budget, t, epsilon):
    """k₀ = ⌊(C + tε)/2⌋ + 1 (exact); δ(ε) = 0 when k₀ > C."""
    m = (mpq(budget) + mpq(t) * mpq(epsilon)) / 2
    return int(m.numerator // m.denominator) + 1


def binomial_sum(budget, first, term):
    """Σ_{k = first}^{C} binom(C, k)·term(k) (generic in the number type; 0 when empty)."""
    total = None
    for k in range(max(first, 0), budget + 1):
        part = term(k) * comb(budget, k)
        total = part if total is None else total + part
    return total


def enclosure(t, budget, epsilon):
    """An arb ball containing δ(ε) at the current precision, or None when δ(ε) = 0 exactly."""
    t, epsilon = mpq(t), mpq(epsilon)
    first = first_index(budget, t, epsilon)
    if first > budget:
        return None

    def term(k):
        weight = to_arb(-mpq(budget - k) / t).exp()
        return weight * -to_arb(epsilon - mpq(2 * k - budget) / t).expm1()

    a = to_arb(-1 / t).exp()
    return binomial_sum(budget, first, term) / (1 + a) ** budget


def enclosures(t, budget, epsilons, bits):
    """[ball or None] for each ε at ``bits`` bits of working precision."""
    with working_precision(bits):
        return [enclosure(t, budget, e) for e in epsilons]


