"""δ(ε) of the C-fold plain composition of the discrete Gaussian, enclosed exactly.

Setting.  N(n) = f(n)/Z with f(n) = exp(−n²/(2σ²)) and Z = Σ_n f(n); P = N,
Q = N(· − 1), and δ(ε) = Σ_{x ∈ ℤ^C} (P^C(x) − e^ε Q^C(x))_+.

1. The ratio depends on the sum only.  P(x)/Q(x) = exp((−x² + (x − 1)²)/(2σ²))
   = exp((1 − 2x)/(2σ²)), so P^C(x)/Q^C(x) = exp((C − 2S)/(2σ²)) with
   S = Σ x_i, and P^C(x) > e^ε Q^C(x) exactly when C − 2S > 2σ²ε (equality
   gives a zero term).  Let p be the mass function of S under P (C
   independent draws of N) and s* the largest integer with C − 2s* > 2σ²ε,
   i.e. s* = ⌈(C − 2σ²ε)/2⌉ − 1.  Under Q each x_i = y_i + 1 with y_i ~ N,
   so S has mass p(s − C), and

       δ(ε) = Σ_{s <= s*} (p(s) − e^ε p(s − C)).

2. The tilt: no e^ε multiplies an error.  Summing Q^C(x) =
   P^C(x)·exp((2S − C)/(2σ²)) over the vectors with S = s gives
   p(s − C) = p(s)·exp((2s − C)/(2σ²)), hence

       δ(ε) = Σ_{s <= s*} p(s)·(1 − g(s)),   g(s) = exp(ε + (2s − C)/(2σ²)),

   with 0 < g(s) < 1 for s <= s* (because C − 2s > 2σ²ε).  Every term is
   non-negative and at most p(s), so an error in p moves δ by at most that
   error, whatever ε is.  With ρ = exp(−1/σ²), g(s) = g(u)·ρ^{u−s}, so for
   every u, Σ_{s <= u} p(s) g(s) = g(u)·D(u) with the discounted sum
   D(u) = Σ_{j >= 0} p(u − j) ρ^j.

3. Truncation of the draws.  Let T >= P(|X| > L) for one draw X ~ N and
   p_L(s) = P(S = s and |X_i| <= L for all i) <= p(s).  Then
   Σ_s (p(s) − p_L(s)) = P(some |X_i| > L) <= C·T.
   T = 2·Σ_{n>L} f(n)/Z <= 2·tail⁺(L+1)/Z⁻ with the geometric tail bound of
   :func:`auditor.enclosures.gaussian.kernel_tail_upper`.

4. The law of the sum in a window.  With integer lists v⁻ <= 2^K·f(n)/Z <= v⁺
   on |n| <= L (:func:`_weights`), the upper list bounds the truncated law of
   one draw from above with Σ (v⁺ − 2^K·f/Z) <= Σ v⁺ − Σ v⁻.
   :func:`auditor.plain.polynomial.windowed_power` raises it to the C-th
   convolution power rounding up, keeping after every step only the sums
   |s| <= H_c of a block of c draws, and returns a list hi >= 2^K·p~ of a
   measure p~ <= p_L with Σ (hi − 2^K·p~) <= E (the proved excess) and
   Σ_s (p_L(s) − p~(s)) <= lost/2^K (the dropped upper mass, charged with the
   number of copies of its block; proofs there).  So with
   M = C·T + lost/2^K, the error e = p − p~ >= 0 has Σ_s e(s) <= M.

5. The enclosure.  p~ vanishes beyond the last kept sum; let u = min(s*, last).
   Splitting p = p~ + e in step 2 (1 − g in (0, 1) on s <= s*):

       δ(ε) = Σ_{s <= u} p~(s)(1 − g(s)) + Σ_{s <= s*} e(s)(1 − g(s)),

   the second sum in [0, M].  In the first, Σ_{s<=u} p~ lies in
   [Hi(u) − E, Hi(u)]/2^K (Hi the prefix sums of hi), and with
   g⁻(u)(ρ⁻)^{u−s} <= g(s) <= g⁺(u)(ρ⁺)^{u−s} (0 <= ρ⁻ <= ρ <= ρ⁺, g⁺ <= 1)
   Σ_{s<=u} p~(s) g(s) lies in [g⁻(u)·D⁻(u) − E, g⁺(u)·D⁺(u)]/2^K (p~ <= hi, and
   Σ (hi − 2^K p~) g <= E as g <= 1), where D⁺ >= Σ_j hi_{u−j}(ρ⁺)^j and
   D⁻ <= Σ_j hi_{u−j}(ρ⁻)^j come from the ceil / floor recurrences
   D(s) = round(D(s − 1)·ρ^±) + hi_s (monotone on non-negative numbers, so
   each keeps its side by induction).  Hence

       δ(ε) >= (Hi(u) − E − g⁺(u)·D⁺(u)) / 2^K,
       δ(ε) <= (Hi(u) + E − g⁻(u)·D⁻(u)) / 2^K + M.

   If u is below the first kept sum both sums are empty: δ(ε) in [0, M].  The
   ends are clamped to [0, 1].  Every step is exact rational arithmetic; no
   rounding goes the wrong way.

6. The kernel.  f(0) = 1 and f(n+1) = f(n)·g_n with
   g_n = exp(−(2n+1)/(2σ²)), g_{n+1} = g_n·q, q = exp(−1/σ²).  Starting
   from fixed-point (scale 2^R) lower and upper bounds of g_0 and q
   (:func:`auditor.enclosures.exp_bounds`), the floor (ceil) recurrences give
   lower (upper) bounds of every f(n): every step multiplies nonnegative
   bounds, which is monotone (the argument of :mod:`.polynomial`).  Then
   Z⁻ = 1 + 2·Σ_{1<=n<=L} f⁻(n) <= Z <= 1 + 2·(Σ_{1<=n<=L} f⁺(n) + tail⁺(L+1)) = Z⁺.

Precision and sizes (:func:`plan`).  ``bits`` asks for width about 2^-bits.
L makes C·T below 2^-(bits+4).  The window of a block of c draws is
H_c = ⌈σ·sqrt(c·a_c)⌉ with a_c = 1.4·(bits + 8 + log2(C·steps/c)) >=
2·ln 2·(...): the sum of c draws is sub-Gaussian with variance proxy c·σ²
(E e^{tX} <= e^{t²σ²/2} for the discrete Gaussian: *The Discrete Gaussian
for Differential Privacy*, Canonne, Kamath, Steinke, 2020), so each cut
drops about 2^-(bits+8)·c/(C·steps) of mass, and the charged total stays
near 2^-(bits+7).  That fact only chooses the windows: the lost mass is
measured, never assumed, so the enclosure is valid whatever it is.  The
scale K covers the rounding of the C-fold power (about C·(2L+1)·steps units
of 2^-K) and of the discounted sums (about 1/(1 − ρ) <= 2σ² + 2 units).  No
size depends on ε: the number of coefficients grows like σ·sqrt(C·bits),
not C·σ·sqrt(bits).
"""

from fractions import Fraction
from math import isqrt

from auditor.enclosures import exp_bounds
from auditor.enclosures.gaussian import kernel_tail_upper
from auditor.plain.polynomial import power_schedule, slot_width, windowed_lengths, windowed_power
from auditor.rationals import ceil, ceil_div, floor

__all__ = ["Plan", "plan", "delta_bounds", "split_point", "exp_boost", "SumLaw", "sum_law"]

# 14427/10000 > log2(e) = 1.44269...: e^ε < 2^(ε·14427/10000).
_LOG2_E_UP = Fraction(14427, 10000)
# 7/10 > ln 2 = 0.6931...
_LN2_UP = Fraction(7, 10)
# Extra bits below 2^-bits for the charged window losses (see the module docstring).
WINDOW_GUARD = 8


def exp_boost(epsilon):
    """An integer b with e^ε <= 2^b (ε >= 0), from log2 e < 14427/10000."""
    x = Fraction(epsilon) * _LOG2_E_UP
    return ceil(x)


def split_point(sigma2, budget, epsilon):
    """s* = ⌈(C − 2σ²ε)/2⌉ − 1: the largest integer s with C − 2s > 2σ²ε."""
    h = (budget - 2 * Fraction(sigma2) * Fraction(epsilon)) / 2
    return ceil(h) - 1


class Plan:
    """Sizes of one enclosure computation: radius L, scales K (lists), R (kernel), Rq (ρ), windows H_c."""

    __slots__ = ("bits", "sigma2", "budget", "radius", "scale", "kernel_scale", "ratio_scale", "_lengths")

    def __init__(self, sigma2, budget, bits, radius, scale, kernel_scale, ratio_scale):
        self.sigma2, self.budget, self.bits = Fraction(sigma2), budget, bits
        self.radius, self.scale = radius, scale
        self.kernel_scale, self.ratio_scale = kernel_scale, ratio_scale
        self._lengths = None

    def half_width(self, copies):
        """H_c of the window |s| <= H_c kept for a block of ``copies`` draws (None: the whole block)."""
        if copies * self.radius <= 16:
            return None
        steps = len(power_schedule(self.budget)) + 1
        # a_c = 1.4·(bits + guard + log2(C·steps/c)) >= 2 ln 2·(...), log2 rounded up
        ratio = ceil_div(self.budget * steps, copies)
        a = Fraction(14, 10) * (self.bits + WINDOW_GUARD + (ratio - 1).bit_length())
        need = self.sigma2 * copies * a
        return isqrt(ceil(need)) + 1

    def lengths(self):
        """[(first factor, second factor, kept)] list lengths of every product, before the work."""
        if self._lengths is None:
            self._lengths = windowed_lengths(2 * self.radius + 1, -self.radius, self.budget, self.half_width)
        return self._lengths

    @property
    def coefficients(self):
        """The longest list of the computation (a product before its cut)."""
        return max([2 * self.radius + 1] + [a + b - 1 for a, b, _ in self.lengths()])

    @property
    def product_bits(self):
        """Bits of the largest packed integer product (slots of about 2K + 3 bits, whole bytes)."""
        slot = self.slot_width
        return max([0] + [(a + b) * slot for a, b, _ in self.lengths()])

    @property
    def slot_width(self):
        """Bits a packed slot: room for a product of two lists of mass up to 3/2 (in units 2^-K)."""
        unit = 1 << self.scale
        return slot_width(self.scale, unit + unit // 2)

    def __repr__(self):
        return (f"Plan(bits={self.bits}, L={self.radius}, K={self.scale}, R={self.kernel_scale}, "
                f"C={self.budget}, coefficients={self.coefficients})")


def plan(sigma2, budget, bits):
    """The sizes for target width about 2^-bits (see the module docstring); no work is done.

    Radius: tail⁺(L+1) is about f(L+1)/(1 − r), r = exp(−(2L+3)/(2σ²)) and
    1/(1 − r) <= 2σ² + 2, so (L+1)²/(2σ²) >= ln 2·(bits + log2 C + 6
    + log2(2σ² + 2)) makes C·T below 2^-(bits+3).
    """
    sigma2 = Fraction(sigma2)
    two_s2 = 2 * sigma2
    extra = (floor(two_s2) + 2).bit_length()
    need = two_s2 * _LN2_UP * (bits + budget.bit_length() + 6 + extra)
    radius = max(1, isqrt(floor(need) + 1))
    n = budget * (2 * radius + 1)
    steps = len(power_schedule(budget)) + 1
    scale = bits + n.bit_length() + steps.bit_length() + 14
    kernel_scale = scale + 2 * (radius + 1).bit_length() + 10
    ratio_scale = scale + extra + 8
    return Plan(sigma2, budget, bits, radius, scale, kernel_scale, ratio_scale)


def _fixed(value, scale, direction):
    """floor (−1) or ceil (+1) of value·2^scale."""
    x = Fraction(value) * (1 << scale)
    return floor(x) if direction < 0 else ceil(x)


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


class SumLaw:
    """hi >= 2^K·p~ over the sums first..last with excess E (units), and the missing mass M (steps 3-5)."""

    __slots__ = ("hi", "first", "scale", "excess", "missing", "sigma2", "budget", "ratio_scale")

    def __init__(self, hi, first, scale, excess, missing, sigma2, budget, ratio_scale):
        self.hi, self.first, self.scale, self.excess = hi, first, scale, excess
        self.missing, self.sigma2, self.budget, self.ratio_scale = missing, sigma2, budget, ratio_scale

    @property
    def last(self):
        return self.first + len(self.hi) - 1

    def _ratio(self):
        """Integers (ρ⁻, ρ⁺) at scale 2^Rq around ρ = exp(−1/σ²)."""
        R = self.ratio_scale
        r_lo, r_hi = exp_bounds(-1 / self.sigma2, R + 8)
        return _fixed(r_lo, R, -1), _fixed(r_hi, R, +1)

    def sums_at(self, points):
        """{u: (Hi(u), D⁻(u), D⁺(u))} for kept sums u (one pass up to the largest)."""
        wanted = {u - self.first for u in points}
        out = {}
        if not wanted:
            return out
        R = self.ratio_scale
        r_lo, r_hi = self._ratio()
        total = d_lo = d_hi = 0
        top = max(wanted)
        for i, h in enumerate(self.hi[:top + 1]):
            total += h
            d_lo = ((d_lo * r_lo) >> R) + h       # floor recurrence with ρ⁻
            d_hi = -((-d_hi * r_hi) >> R) + h     # ceil recurrence with ρ⁺
            if i in wanted:
                out[self.first + i] = (total, d_lo, d_hi)
        return out

    def deltas(self, epsilons, bits):
        """[(lo, hi)] around δ(ε) for each ε (step 5)."""
        C, s2, K, E = self.budget, self.sigma2, self.scale, self.excess
        points = [min(split_point(s2, C, e), self.last) for e in epsilons]
        sums = self.sums_at([u for u in points if u >= self.first])
        den = 1 << K
        out = []
        for epsilon, u in zip(epsilons, points):
            if u < self.first:
                out.append((Fraction(0), min(Fraction(1), self.missing)))
                continue
            total, d_lo, d_hi = sums[u]
            g_lo, g_hi = tilt_bounds(epsilon + Fraction(2 * u - C) / (2 * s2), bits)
            lo = Fraction(total - E, den) - g_hi * Fraction(d_hi, den)
            hi = Fraction(total + E, den) - g_lo * Fraction(d_lo, den) + self.missing
            out.append((max(Fraction(0), lo), min(Fraction(1), hi)))
        return out


def tilt_bounds(x, bits):
    """(g⁻, g⁺) around g = e^x for x < 0, with g⁺ <= 1; below −(bits + 16) the lower end is 0."""
    floor_x = -Fraction(bits + 16)
    if x < floor_x:
        return Fraction(0), min(Fraction(1), exp_bounds(floor_x, bits + 8)[1])
    g_lo, g_hi = exp_bounds(x, bits + 8)
    return g_lo, min(Fraction(1), g_hi)


def sum_law(sigma2, budget, p):
    """The law of the sum for plan ``p``: the expensive part, shared by every ε."""
    sigma2 = Fraction(sigma2)
    v_lo, v_hi, tail = _weights(sigma2, p)
    hi, first, lost, excess = windowed_power(v_hi, -p.radius, budget, p.scale, p.half_width,
                                             sum(v_hi) - sum(v_lo), p.slot_width)
    missing = budget * tail + Fraction(lost, 1 << p.scale)
    return SumLaw(hi, first, p.scale, excess, missing, sigma2, budget, p.ratio_scale)


def delta_bounds(sigma2, budget, epsilons, bits):
    """[(lo, hi)] with lo <= δ(ε) <= hi for each ε, at target width about 2^-bits."""
    sigma2 = Fraction(sigma2)
    epsilons = [Fraction(e) for e in epsilons]
    law = sum_law(sigma2, budget, plan(sigma2, budget, bits))
    return law.deltas(epsilons, bits)
