"""δ(ε) of the C-fold plain composition of the discrete Gaussian, enclosed exactly.

Setting.  N(n) = f(n)/Z with f(n) = exp(−n²/(2σ²)) and Z = Σ_n f(n); P = N,
Q = N(· − 1), and δ(ε) = Σ_{x ∈ ℤ^C} (P^C(x) − e^ε Q^C(x))_+.

1. The ratio depends on the sum only.  P(x)/Q(x) = exp((−x² + (x − 1)²)/(2σ²))
   = exp((1 − 2x)/(2σ²)), so P^C(x)/Q^C(x) = exp((C − 2S)/(2σ²)) with
   S = Σ x_i, and P^C(x) > e^ε Q^C(x) exactly when C − 2S > 2σ²ε (equality
   gives a zero term).  Let F be the CDF of S under P (C independent draws of
   N) and p its mass function.  Under Q each x_i = y_i + 1 with y_i ~ N, so S
   has mass p(s − C).  Summing over the admissible sums s <= s*, where s* is
   the largest integer with C − 2s* > 2σ²ε, i.e. s* = ⌈(C − 2σ²ε)/2⌉ − 1:

       δ(ε) = Σ_{s <= s*} (p(s) − e^ε p(s − C)) = F(s*) − e^ε F(s* − C).

2. Truncation.  Let T >= P(|X| > L) for one draw X ~ N and
   F_L(s) = P(S <= s and |X_i| <= L for all i).  Then
   F_L(s) <= F(s) <= F_L(s) + P(some |X_i| > L) <= F_L(s) + C·T.
   T = 2·Σ_{n>L} f(n)/Z <= 2·tail⁺(L+1)/Z⁻ with the geometric tail bound of
   :func:`auditor.enclosures.gaussian.kernel_tail_upper`.

3. The truncated law.  F_L(s) = Σ_{m <= s} v^{*C}(m) with v(n) = f(n)/Z on
   |n| <= L (the C-fold convolution of the truncated, still normalised-by-Z,
   weights).  With integer lists v⁻ <= 2^K·v <= v⁺ (:func:`_weights`) the
   directed-rounding powers of :mod:`auditor.plain.polynomial` give integer
   lists lo <= 2^K·v^{*C} <= hi, hence Lo(s) <= F_L(s) <= Hi(s) for their
   prefix sums Lo, Hi (divided by 2^K).

4. The kernel.  f(0) = 1 and f(n+1) = f(n)·g_n with
   g_n = exp(−(2n+1)/(2σ²)), g_{n+1} = g_n·q, q = exp(−1/σ²).  Starting
   from fixed-point (scale 2^R) lower and upper bounds of g_0 and q
   (:func:`auditor.enclosures.exp_bounds`), the floor (ceil) recurrences give
   lower (upper) bounds of every f(n): every step multiplies nonnegative
   bounds, which is monotone (the argument of :mod:`.polynomial`).  Then
   Z⁻ = 1 + 2·Σ_{1<=n<=L} f⁻(n) <= Z <= 1 + 2·(Σ_{1<=n<=L} f⁺(n) + tail⁺(L+1)) = Z⁺.

5. The enclosure.  With e⁻ <= e^ε <= e⁺:

       δ(ε) >= Lo(s*) − e⁺·(Hi(s* − C) + C·T),
       δ(ε) <= Hi(s*) + C·T − e⁻·Lo(s* − C),

   and 0 <= δ(ε) <= 1 (a sum of nonnegative terms, at most Σ P^C = 1), so the
   ends are clamped to [0, 1].  Every step is exact rational arithmetic; no
   rounding goes the wrong way.

Precision.  ``bits`` asks for width about 2^-bits: L makes (1 + e^ε)·C·T
below 2^-(bits+3), the scale K covers the rounding of the C-fold power
(about C·(2L+1)·log2(C) units of 2^-K, enlarged by e^ε on F(s* − C)), and
``boost`` (bits of e^ε at the largest ε whose lower end must be tight) enters
both.  The enclosure is valid whatever these sizes; they only decide how
narrow it is.
"""

from fractions import Fraction
from math import isqrt

from auditor.enclosures import exp_bounds
from auditor.enclosures.gaussian import kernel_tail_upper
from auditor.plain.polynomial import power

__all__ = ["Plan", "plan", "delta_bounds", "split_point", "exp_boost"]

# 14427/10000 > log2(e) = 1.44269...: e^ε < 2^(ε·14427/10000).
_LOG2_E_UP = Fraction(14427, 10000)
# 7/10 > ln 2 = 0.6931...
_LN2_UP = Fraction(7, 10)


def exp_boost(epsilon):
    """An integer b with e^ε <= 2^b (ε >= 0), from log2 e < 14427/10000."""
    x = Fraction(epsilon) * _LOG2_E_UP
    return -((-x.numerator) // x.denominator)


def split_point(sigma2, budget, epsilon):
    """s* = ⌈(C − 2σ²ε)/2⌉ − 1: the largest integer s with C − 2s > 2σ²ε."""
    h = (budget - 2 * Fraction(sigma2) * Fraction(epsilon)) / 2
    return -((-h.numerator) // h.denominator) - 1


class Plan:
    """Sizes of one enclosure computation: radius L, convolution scale K, kernel scale R."""

    __slots__ = ("bits", "boost", "radius", "scale", "kernel_scale", "budget")

    def __init__(self, bits, boost, radius, scale, kernel_scale, budget):
        self.bits, self.boost, self.radius = bits, boost, radius
        self.scale, self.kernel_scale, self.budget = scale, kernel_scale, budget

    @property
    def coefficients(self):
        """Length C·2L + 1 of the C-fold convolution."""
        return self.budget * 2 * self.radius + 1

    @property
    def product_bits(self):
        """Bits of the largest packed integer (its slots hold 2K + log2(length) bits)."""
        n = self.coefficients
        return n * (2 * self.scale + 2 * n.bit_length() + 16)

    def __repr__(self):
        return (f"Plan(bits={self.bits}, boost={self.boost}, L={self.radius}, K={self.scale}, "
                f"R={self.kernel_scale}, C={self.budget})")


def plan(sigma2, budget, bits, boost):
    """The sizes for target width about 2^-bits with e^ε <= 2^boost (see the module docstring).

    Radius: tail⁺(L+1) is about f(L+1)/(1 − r), r = exp(−(2L+3)/(2σ²)) and
    1/(1 − r) <= 2σ² + 2, so (L+1)²/(2σ²) >= ln 2·(bits + boost + log2 C + 6
    + log2(2σ² + 2)) makes (1 + e^ε)·C·T below 2^-(bits+3).
    """
    sigma2 = Fraction(sigma2)
    two_s2 = 2 * sigma2
    extra = (two_s2.numerator // two_s2.denominator + 2).bit_length()
    need = two_s2 * _LN2_UP * (bits + boost + budget.bit_length() + 6 + extra)
    radius = max(1, isqrt(need.numerator // need.denominator + 1))
    n = budget * (2 * radius + 1)
    scale = bits + boost + n.bit_length() + budget.bit_length().bit_length() + 10
    kernel_scale = scale + 2 * (radius + 1).bit_length() + 10
    return Plan(bits, boost, radius, scale, kernel_scale, budget)


def _fixed(value, scale, direction):
    """floor (−1) or ceil (+1) of value·2^scale."""
    x = Fraction(value) * (1 << scale)
    return x.numerator // x.denominator if direction < 0 else -((-x.numerator) // x.denominator)


def _kernel(sigma2, radius, R):
    """Integer lists f⁻, f⁺ (n = 0..radius) with f⁻(n) <= 2^R·exp(−n²/(2σ²)) <= f⁺(n)."""
    g_lo, g_hi = exp_bounds(Fraction(-1) / (2 * sigma2), R + 8)
    q_lo, q_hi = exp_bounds(Fraction(-1) / sigma2, R + 8)
    g = [_fixed(g_lo, R, -1), _fixed(g_hi, R, +1)]
    q = [_fixed(q_lo, R, -1), _fixed(q_hi, R, +1)]
    one = 1 << R
    f_lo, f_hi = [one], [one]
    for _ in range(radius):
        f_lo.append((f_lo[-1] * g[0]) >> R)
        f_hi.append(-((-f_hi[-1] * g[1]) >> R))
        g[0] = (g[0] * q[0]) >> R
        g[1] = -((-g[1] * q[1]) >> R)
    return f_lo, f_hi


def _weights(sigma2, p):
    """(v⁻, v⁺, T): lists over n = −L..L with v⁻ <= 2^K·f(n)/Z <= v⁺, and T >= P(|X| > L)."""
    L, K, R = p.radius, p.scale, p.kernel_scale
    f_lo, f_hi = _kernel(sigma2, L, R)
    tail = kernel_tail_upper(L + 1, sigma2, R)
    z_lo = 1 + Fraction(2 * sum(f_lo[1:]), 1 << R)
    z_hi = 1 + Fraction(2 * sum(f_hi[1:]), 1 << R) + 2 * tail
    # v⁻ = floor(2^K f⁻/(2^R Z⁺)), v⁺ = ceil(2^K f⁺/(2^R Z⁻)), in integers
    lo_num, lo_den = z_hi.denominator << K, z_hi.numerator << R
    hi_num, hi_den = z_lo.denominator << K, z_lo.numerator << R
    half_lo = [(f * lo_num) // lo_den for f in f_lo]
    half_hi = [-((-f * hi_num) // hi_den) for f in f_hi]
    v_lo = half_lo[:0:-1] + half_lo
    v_hi = half_hi[:0:-1] + half_hi
    return v_lo, v_hi, 2 * tail / z_lo


def _prefix(coeffs):
    out, running = [], 0
    for c in coeffs:
        running += c
        out.append(running)
    return out


class _Cdf:
    """Lo(s) <= F_L(s) <= Hi(s) from the prefix sums of the lower and upper convolutions."""

    def __init__(self, lo, hi, offset, scale):
        self.lo, self.hi = _prefix(lo), _prefix(hi)
        self.offset, self.den = offset, 1 << scale

    def _at(self, sums, s):
        j = s + self.offset
        if j < 0:
            return Fraction(0)
        return Fraction(sums[min(j, len(sums) - 1)], self.den)

    def lower(self, s):
        return self._at(self.lo, s)

    def upper(self, s):
        return self._at(self.hi, s)


def convolution(sigma2, budget, p):
    """(CDF bounds of the truncated sum, T) for plan ``p``: the expensive part, shared by every ε."""
    v_lo, v_hi, tail = _weights(Fraction(sigma2), p)
    lo = power(v_lo, budget, p.scale, -1)
    hi = power(v_hi, budget, p.scale, +1)
    return _Cdf(lo, hi, budget * p.radius, p.scale), tail


def delta_from(cdf, tail, sigma2, budget, epsilon, bits):
    """(lo, hi) around δ(ε) from the CDF bounds (step 5 of the module docstring)."""
    e_lo, e_hi = exp_bounds(epsilon, bits + 8)
    s = split_point(sigma2, budget, epsilon)
    slack = budget * tail
    a_lo, a_hi = cdf.lower(s), min(Fraction(1), cdf.upper(s) + slack)
    b_lo, b_hi = cdf.lower(s - budget), min(Fraction(1), cdf.upper(s - budget) + slack)
    lo = max(Fraction(0), a_lo - e_hi * b_hi)
    hi = min(Fraction(1), a_hi - e_lo * b_lo)
    return lo, hi


def delta_bounds(sigma2, budget, epsilons, bits, boost=None):
    """[(lo, hi)] with lo <= δ(ε) <= hi for each ε, at target width about 2^-bits.

    ``boost``: bits of e^ε to provide for (default: those of the largest ε).
    """
    sigma2 = Fraction(sigma2)
    epsilons = [Fraction(e) for e in epsilons]
    if boost is None:
        boost = exp_boost(max(epsilons))
    p = plan(sigma2, budget, bits, boost)
    cdf, tail = convolution(sigma2, budget, p)
    return [delta_from(cdf, tail, sigma2, budget, e, bits) for e in epsilons]
