"""δ(ε) of a composition of different releases, enclosed exactly on one lattice of the privacy loss.

Setting.  Releases r = 1..m, each a law N_r (the discrete Gaussian N_Z(0, σ²)
or the discrete Laplace L_t) compared with N_r(· − s_r), s_r >= 1 an
integer, k_r times.  P = ⊗_r N_r^{k_r}, Q = ⊗_r N_r(· − s_r)^{k_r} and
δ(ε) = Σ_x (P(x) − e^ε Q(x))_+.

1. The loss of one draw is affine in an integer.  With ℓ(x) = log N(x)/N(x − s):
   the discrete Gaussian has ℓ(x) = (s² − 2sx)/(2σ²) = α + β·m with
   α = s²/(2σ²), β = s/σ², m = −x; the discrete Laplace has
   ℓ(x) = (|x − s| − |x|)/t = α + β·m with α = −s/t, β = 2/t and
   m = s − min(max(x, 0), s) ∈ {0, …, s}, of law
   P(m = s) = 1/(1 + a) (x <= 0), P(m = 0) = a^s/(1 + a) (x >= s) and
   P(m = s − x) = c·a^x for 0 < x < s (a = e^{−1/t}, c = (1 − a)/(1 + a);
   the three parts sum to 1).
2. One lattice for the whole product.  Let h be the gcd of the rationals β_r
   (gcd of the numerators over the lcm of the denominators, after putting
   them on one denominator) and d_r = β_r/h, a positive integer.  The loss of
   the product is L = A + h·n with A = Σ_r k_r α_r and n = Σ_r d_r M_r,
   M_r the sum of the k_r indices m of release r.  Exact: no loss value is
   rounded.
3. The tilt.  P and Q share their support (all of ℤ per draw), so
   Q(x) = P(x)·e^{−L(x)} and, with p the law of n under P,

       δ(ε) = Σ_{n >= u*} p(n)·(1 − g(n)),   g(n) = exp(ε − A − h·n) ∈ (0, 1),

   u* = ⌊(ε − A)/h⌋ + 1 the least n with A + h·n > ε.  Every term is in
   [0, p(n)], so an error in p moves δ(ε) by at most that error, whatever ε
   is.  With ρ = e^{−h}, g(n) = g(u)·ρ^{n−u} for n >= u, so
   Σ_{n>=u} p(n) g(n) = g(u)·D(u), D(u) = Σ_{j>=0} p(u + j)·ρ^j, one backward
   recurrence D(n) = ρ·D(n + 1) + p(n) for every ε at once.
4. The law of n, from above.  Per release an upper list (scale 2^K) of a
   measure p~_r <= p_r (the law of M_r) with proved excess e_r and missing
   mass M_r >= Σ (p_r − p~_r): the discrete Gaussian by the windowed power of
   :mod:`.gaussian` (its sum law S = Σ x, read backwards as M = −S), the
   discrete Laplace by the uncut power (:func:`.polynomial.windowed_power`
   without windows) of the rounded-up list of step 1, whose excess is exactly
   Σ v⁺ − 2^K (the true list sums to 1) and whose missing mass is 0.  Each
   list is spread onto the lattice (M ↦ d_r·M: a relabelling, no mass moves)
   and the lists are multiplied, rounding up.  The product p~ = ⊗ p~_r of
   sub-probability measures is <= p with Σ (p − p~) = 1 − Π |p~_r|
   <= Σ (1 − |p~_r|) <= Σ M_r = M; a rounded-up product of upper lists is an
   upper list (:mod:`.polynomial`), and with |p~| <= 2^K its excess is at most
   e_a + e_b + ⌈e_a e_b/2^K⌉ + (its number of coefficients) units (the
   argument of :func:`.polynomial.windowed_power`, no window cut).
5. The enclosure (step 3 with p = p~ + e, e >= 0, Σ e <= M, u = max(u*, first)):

       δ(ε) >= (Tail(u) − E − g⁺(u)·D⁺(u)) / 2^K,
       δ(ε) <= (Tail(u) + E − g⁻(u)·D⁻(u)) / 2^K + M,

   Tail the suffix sums of the product list hi, D⁺ >= Σ_j hi_{u+j}(ρ⁺)^j and
   D⁻ <= Σ_j hi_{u+j}(ρ⁻)^j from the ceil / floor recurrences with
   ρ⁻ <= ρ <= ρ⁺ (monotone on non-negative numbers), g⁻ <= g(u) <= g⁺ <= 1.
   When u is beyond the last kept index, δ(ε) ∈ [0, M].  Clamped to [0, 1].

Sizes (:func:`plan`, before the work): the lattice spreads release r by d_r,
so the product of all lists has Σ_r d_r·(ℓ_r − 1) + 1 coefficients (ℓ_r the
length of release r's list); strongly incommensurable scales (σ² = 2051/100
beside 2049/100: d of about 2000) make it long, which the caller's work limit
refuses before any work.
"""

from fractions import Fraction
from math import gcd

from auditor.enclosures import exp_bounds
from auditor.plain import gaussian
from auditor.plain.polynomial import product, slot_width, windowed_power

__all__ = ["Release", "loss_lattice", "plan", "delta_bounds", "zero_from"]

GAUSSIAN, LAPLACE = "discrete-gaussian", "discrete-laplace"


class Release:
    """One release: ``family``, its scale (σ² or t), sensitivity s >= 1 and count k >= 1."""

    __slots__ = ("family", "scale", "sensitivity", "count")

    def __init__(self, family, scale, sensitivity, count):
        self.family, self.scale = family, Fraction(scale)
        self.sensitivity, self.count = sensitivity, count

    @property
    def step(self):
        """β: the loss of one draw is α + β·m (module docstring, step 1)."""
        return self.sensitivity / self.scale if self.family == GAUSSIAN else 2 / self.scale

    @property
    def offset(self):
        """α of step 1."""
        s = self.sensitivity
        return Fraction(s * s) / (2 * self.scale) if self.family == GAUSSIAN else -s / self.scale

    def __repr__(self):
        return f"Release({self.family}, {self.scale}, s={self.sensitivity}, k={self.count})"


def _gcd_rationals(values):
    den = 1
    for v in values:
        den = den * v.denominator // gcd(den, v.denominator)
    num = 0
    for v in values:
        num = gcd(num, v.numerator * (den // v.denominator))
    return Fraction(num, den)


def loss_lattice(releases):
    """(h, [d_r], A): the composed loss is A + h·n with n = Σ d_r M_r (step 2)."""
    h = _gcd_rationals([r.step for r in releases])
    dilations = [int(r.step / h) for r in releases]
    return h, dilations, sum(r.count * r.offset for r in releases)


def zero_from(releases):
    """The least ε with δ(ε) = 0 (the largest loss Σ k·s/t), or None when some release is Gaussian."""
    if any(r.family == GAUSSIAN for r in releases):
        return None
    return sum(r.count * Fraction(r.sensitivity) / r.scale for r in releases)


class Plan:
    """Sizes of one enclosure: the scale K, the Gaussian plans, every product's lengths (no work done)."""

    __slots__ = ("bits", "releases", "scale", "ratio_scale", "gaussian_plans", "lengths", "products")

    def __init__(self, releases, bits):
        self.bits, self.releases = bits, releases
        h, dilations, _ = loss_lattice(releases)
        first_plans = {i: gaussian.plan(r.scale, r.count, bits) for i, r in enumerate(releases)
                       if r.family == GAUSSIAN}
        lengths = []
        for i, r in enumerate(releases):
            if i in first_plans:
                cuts = first_plans[i].lengths()
                lengths.append(cuts[-1][2] if cuts else 2 * first_plans[i].radius + 1)
            else:
                lengths.append(r.count * r.sensitivity + 1)
        spread = [d * (n - 1) + 1 for d, n in zip(dilations, lengths)]
        products, acc = [], spread[0]
        for n in spread[1:]:
            products.append((acc, n))
            acc += n - 1
        self.lengths, self.products = spread, products
        inner = max([p.scale for p in first_plans.values()], default=0)
        total = sum(spread) + sum(a + b for a, b in products)
        self.scale = max(inner, bits + total.bit_length() + 16) + len(releases).bit_length()
        # the discounted sums lose up to 1/(1 − ρ) <= 1/h + 1 units of 2^-K
        self.ratio_scale = self.scale + (int(1 / h) + 2).bit_length() + 8
        self.gaussian_plans = {i: _rescaled(p, self.scale) for i, p in first_plans.items()}

    @property
    def coefficients(self):
        """The longest list of the computation (a product before its cut, or a spread list)."""
        inner = [p.coefficients for p in self.gaussian_plans.values()]
        return max(inner + self.lengths + [a + b - 1 for a, b in self.products])

    @property
    def product_bits(self):
        """Bits of the largest integer product (entries below 2^(K+1), slots of whole bytes)."""
        inner = [p.product_bits for p in self.gaussian_plans.values()]
        outer = [(a + b) * 8 * ((2 * self.scale + 3 + min(a, b).bit_length() + 7) // 8)
                 for a, b in self.products]
        return max([0] + inner + outer)


def _rescaled(p, scale):
    """The Gaussian plan ``p`` at the common list scale (same radius and windows)."""
    return gaussian.Plan(p.sigma2, p.budget, p.bits, p.radius, scale,
                         scale + 2 * (p.radius + 1).bit_length() + 10, p.ratio_scale)


def plan(releases, bits):
    return Plan(releases, bits)


def _ceil(x):
    return -((-x.numerator) // x.denominator)


def _laplace_base(release, K):
    """(v⁺ over m = 0..s, excess): the rounded-up law of m (step 1), excess Σ v⁺ − 2^K exactly."""
    s, t = release.sensitivity, release.scale
    R = K + s.bit_length() + 16
    a_lo, a_hi = exp_bounds(-1 / t, R + 8)
    if not 0 < a_lo <= a_hi < 1:
        raise ArithmeticError("the enclosure of e^(-1/t) is not inside (0, 1)")
    base = _ceil(a_hi * (1 << R))
    powers = [1 << R]                       # ceil recurrence: powers[x] >= 2^R·a^x
    for _ in range(s):
        powers.append(-((-powers[-1] * base) >> R))
    unit = Fraction(1 << K)
    share = unit / (1 + a_lo)               # 2^K/(1 + a) <= share
    inner = share * (1 - a_lo) / (1 << R)   # times powers[x]: >= 2^K·c·a^x
    v = [_ceil(share * powers[s] / (1 << R))]
    v += [_ceil(inner * powers[s - m]) for m in range(1, s)]
    v.append(_ceil(share))
    return v, sum(v) - (1 << K)


def _release_list(release, index, p):
    """(hi over M = first.., first, excess units, missing mass) of one release at the common scale."""
    K = p.scale
    if release.family == GAUSSIAN:
        law = gaussian.sum_law(release.scale, release.count, p.gaussian_plans[index])
        return law.hi[::-1], -law.last, law.excess, law.missing
    v, excess = _laplace_base(release, K)
    unit = 1 << K
    hi, first, lost, excess = windowed_power(v, 0, release.count, K, lambda copies: None, excess,
                                             slot_width(K, unit + unit // 2))
    return hi, first, excess, Fraction(lost, unit)


def _spread(values, d):
    if d == 1:
        return list(values)
    out = [0] * (d * (len(values) - 1) + 1)
    out[::d] = values
    return out


def law_of_loss(releases, p):
    """(hi, first, excess, missing): the upper list of the law of n (step 4)."""
    _, dilations, _ = loss_lattice(releases)
    K = p.scale
    hi = None
    for i, (release, d) in enumerate(zip(releases, dilations)):
        values, first_m, e, m = _release_list(release, i, p)
        values, first = _spread(values, d), d * first_m
        if hi is None:
            hi, start, excess, missing = values, first, e, m
            continue
        hi = product(hi, values, K, +1)
        start += first
        excess = excess + e + -(-excess * e >> K) + len(hi)
        missing += m
    return hi, start, excess, missing


def _suffixes(hi, starts, p, h):
    """{i: (Tail, D⁻, D⁺)} at list positions i (one backward pass down to the smallest)."""
    R = p.ratio_scale
    r_lo, r_hi = exp_bounds(-h, R + 8)
    r_lo = (r_lo * (1 << R)).__floor__()
    r_hi = _ceil(r_hi * (1 << R))
    wanted, out = set(starts), {}
    if not wanted:
        return out
    total = d_lo = d_hi = 0
    for i in range(len(hi) - 1, min(wanted) - 1, -1):
        v = hi[i]
        total += v
        d_lo = ((d_lo * r_lo) >> R) + v
        d_hi = -((-d_hi * r_hi) >> R) + v
        if i in wanted:
            out[i] = (total, d_lo, d_hi)
    return out


def delta_bounds(releases, epsilons, bits, p=None):
    """[(lo, hi)] with lo <= δ(ε) <= hi for each ε (step 5), at target width about 2^-bits."""
    p = p or plan(releases, bits)
    h, _, A = loss_lattice(releases)
    hi, first, E, M = law_of_loss(releases, p)
    last, K = first + len(hi) - 1, p.scale
    starts = {}
    for epsilon in epsilons:
        q = (Fraction(epsilon) - A) / h
        starts[epsilon] = max(q.numerator // q.denominator + 1, first)
    sums = _suffixes(hi, [u - first for u in starts.values() if u <= last], p, h)
    den = 1 << K
    out = []
    for epsilon in epsilons:
        u = starts[epsilon]
        if u > last:
            out.append((Fraction(0), min(Fraction(1), M)))
            continue
        total, d_lo, d_hi = sums[u - first]
        g_lo, g_hi = gaussian.tilt_bounds(Fraction(epsilon) - A - h * u, bits)
        lo = Fraction(total - E, den) - g_hi * Fraction(d_hi, den)
        up = Fraction(total + E, den) - g_lo * Fraction(d_lo, den) + M
        out.append((max(Fraction(0), lo), min(Fraction(1), up)))
    return out
