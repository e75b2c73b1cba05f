"""δ(ε) of the C-fold plain composition of the discrete Laplace, enclosed exactly.

Setting.  L_t(n) = c·a^{|n|}, a = e^{−1/t}, c = (1 − a)/(1 + a) (so that
Σ_n c·a^{|n|} = c·(1 + 2a/(1 − a)) = 1); P = L_t, Q = L_t(· − 1).

1. The ratio depends on one count.  P(x)/Q(x) = a^{|x| − |x − 1|}: for
   x <= 0, |x| − |x − 1| = −x − (1 − x) = −1; for x >= 1 it is
   x − (x − 1) = 1.  So P^C(x)/Q^C(x) = a^{−K}·a^{C−K} = e^{(2K − C)/t} with
   K = #{i : x_i <= 0}, and P^C(x) > e^ε Q^C(x) exactly when (2K − C)/t > ε.
2. The law of K.  P(x_i <= 0) = c·Σ_{j>=0} a^j = c/(1 − a) = 1/(1 + a) and
   Q(x_i <= 0) = P(y <= −1) = c·a/(1 − a) = a/(1 + a), independently over i,
   so K ~ Bin(C, 1/(1+a)) under P and Bin(C, a/(1+a)) under Q.  Summing over
   the admissible counts k >= k₀ = ⌊(C + tε)/2⌋ + 1 (the least k with
   2k − C > tε):

       δ(ε) = (1 + a)^{−C}·Σ_{k >= k₀} binom(C, k)·(a^{C−k} − e^ε a^k).

   In particular δ(ε) = 0 when k₀ > C, i.e. ε >= C/t (pure DP).
3. Enclosure by interval arithmetic.  With 0 < a⁻ <= a <= a⁺ < 1 and
   e⁻ <= e^ε <= e⁺, each power is monotone in a (a > 0), so with fixed-point
   lists A⁻_j <= 2^P·(a⁻)^j <= 2^P·a^j <= 2^P·(a⁺)^j <= A⁺_j (floor / ceil
   recurrences of nonnegative products, monotone):

       S⁻ = Σ binom(C,k)·(A⁻_{C−k} − e⁺ A⁺_k)/2^P  <=  S  <=  Σ binom(C,k)·(A⁺_{C−k} − e⁻ A⁻_k)/2^P = S⁺

   for S = Σ_{k>=k₀} binom(C,k)(a^{C−k} − e^ε a^k) >= 0 (each term is, by
   step 1).  And D⁻ <= (1 + a⁻)^C <= (1 + a)^C <= (1 + a⁺)^C <= D⁺ for the
   floor / ceil powers D of 1 + a⁻ and 1 + a⁺.  No monotonicity of a term in a
   is assumed: each factor is bounded on its own, and

       max(0, S⁻)/D⁺ <= δ(ε) = S/(1 + a)^C <= S⁺/D⁻,

   clamped to [0, 1].

Precision.  Terms carry binomials up to 2^C and e^ε, so the fixed-point
scale is P = bits + C + bits(e^ε) + 2·log2(C) + 16; a is enclosed with
relative accuracy 2^-P.
"""

from fractions import Fraction
from math import comb

from auditor.enclosures import exp_bounds
from auditor.plain.gaussian import exp_boost
from auditor.rationals import ceil, floor

__all__ = ["first_count", "delta_bounds", "scale_bits"]


def first_count(t, budget, epsilon):
    """k₀ = ⌊(C + tε)/2⌋ + 1: the least count with (2k − C)/t > ε."""
    x = (budget + Fraction(t) * Fraction(epsilon)) / 2
    return floor(x) + 1


def scale_bits(budget, bits, boost):
    """The fixed-point scale P of the enclosure (see the module docstring)."""
    return bits + budget + boost + 2 * budget.bit_length() + 16


def _fixed(value, scale, direction):
    x = Fraction(value) * (1 << scale)
    return floor(x) if direction < 0 else ceil(x)


def _powers(base, count, P, direction):
    """[B_0, ..., B_count]: floor (−1) or ceil (+1) recurrences of base^j at scale 2^P."""
    out = [1 << P]
    for _ in range(count):
        x = out[-1] * base
        out.append(x >> P if direction < 0 else -((-x) >> P))
    return out


def _suffix(values):
    """[Σ_{j>=k} values_j for k = 0..len]: the last entry (k = len) is 0."""
    out = [0] * (len(values) + 1)
    for k in range(len(values) - 1, -1, -1):
        out[k] = out[k + 1] + values[k]
    return out


def delta_bounds(t, budget, epsilons, bits, boost=None):
    """[(lo, hi)] with lo <= δ(ε) <= hi for each ε (exactly (0, 0) when ε >= C/t)."""
    t = Fraction(t)
    epsilons = [Fraction(e) for e in epsilons]
    if boost is None:
        boost = exp_boost(max(epsilons))
    P = scale_bits(budget, bits, boost)
    a_lo, a_hi = exp_bounds(-1 / t, P + 8)
    if not 0 < a_lo <= a_hi < 1:
        raise ArithmeticError("the enclosure of e^(-1/t) is not inside (0, 1)")
    A_lo = _powers(_fixed(a_lo, P, -1), budget, P, -1)
    A_hi = _powers(_fixed(a_hi, P, +1), budget, P, +1)
    D_lo = _powers(_fixed(1 + a_lo, P, -1), budget, P, -1)[-1]
    D_hi = _powers(_fixed(1 + a_hi, P, +1), budget, P, +1)[-1]
    binoms = [comb(budget, k) for k in range(budget + 1)]
    # suffix sums over k >= k₀ of binom(C,k)·A_{C−k} and of binom(C,k)·A_k, shared by every ε
    big_lo = _suffix([binoms[k] * A_lo[budget - k] for k in range(budget + 1)])
    big_hi = _suffix([binoms[k] * A_hi[budget - k] for k in range(budget + 1)])
    small_lo = _suffix([binoms[k] * A_lo[k] for k in range(budget + 1)])
    small_hi = _suffix([binoms[k] * A_hi[k] for k in range(budget + 1)])
    out = []
    for epsilon in epsilons:
        k0 = first_count(t, budget, epsilon)
        if k0 > budget:
            out.append((Fraction(0), Fraction(0)))
            continue
        e_lo, e_hi = exp_bounds(epsilon, bits + 8)
        s_lo = big_lo[k0] - e_hi * small_hi[k0]   # 2^P·S⁻ and 2^P·S⁺ (D is at scale 2^P too)
        s_hi = big_hi[k0] - e_lo * small_lo[k0]
        lo = max(Fraction(0), s_lo) / D_hi
        hi = min(Fraction(1), s_hi / D_lo)
        out.append((lo, hi))
    return out
