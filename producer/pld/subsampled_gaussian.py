"""The Poisson-subsampled Gaussian under add/remove neighbours: the forward pair of DP-SGD.

One step with sampling probability q ∈ (0, 1] and noise multiplier σ > 0
(sensitivity 1) is dominated by

    P = (1 − q)·N(0, σ²) + q·N(1, σ²),    Q = N(0, σ²)

("Optimal Accounting of Differential Privacy via Characteristic Function",
Zhu, Dong, Wang 2022, Theorem 11; q = 1 is the Gaussian mechanism).  Its
privacy loss

    ℓ(x) = log(P(x)/Q(x)) = log(1 − q + q·exp((2x − 1)/(2σ²)))

is strictly increasing in x, with range (log(1 − q), ∞) (all of R for q = 1,
where ℓ(x) = (2x − 1)/(2σ²)).  So a loss level y has the single preimage

    x(y) = 1/2 + σ²·log((e^y − 1 + q)/q)      (e^y > 1 − q),

x(y) = −∞ when e^y <= 1 − q, and x(y) = 1/2 + σ²·y exactly when q = 1; the
bucket I_i is [x_i, x_{i+1}) and its masses are differences of

    P(X < x) = (1 − q)·Φ(x/σ) + q·Φ((x − 1)/σ),     Q(X < x) = Φ(x/σ),

the high tail through 1 − Φ directly.  The infimum's bucket
i₀ = ⌊log(1 − q)/h⌋ is decided exactly: i·h = log(1 − q) would make e^{ih}
(transcendental for ih ≠ 0) the rational 1 − q, and i = 0 needs q = 0.
"""

import math

from flint import arb
from gmpy2 import mpq

from producer.pld.decide import floor_guess, last_true, log_guess, sign
from producer.pld.gaussian_noise import GivenBySigma, GivenByVariance
from producer.pld.masses import StepMasses
from producer.pld.mechanism import DominatingPair
from producer.pld.normal import phi, phi_bar, phi_bar_float
from producer.sources.enclosures import to_arb, working_precision


class SubsampledGaussian(GivenBySigma, DominatingPair):
    """(1 − q)·N(0, σ²) + q·N(1, σ²) against N(0, σ²): ``rate`` q ∈ (0, 1], ``noise`` σ > 0 (exact)."""

    __slots__ = ("rate", "noise")

    def __init__(self, rate, noise):
        self._set(rate=mpq(rate), noise=mpq(noise))

    @property
    def gaussian(self):
        """True for q = 1: the plain Gaussian mechanism."""
        return self.rate == 1

    @property
    def gaussian_mu2(self):
        return 1 / self.variance if self.gaussian else None

    @property
    def dominating_mu2(self):
        # the hockey-stick divergence is jointly convex and P a mixture: q raised to 1 only raises δ(ε)
        return 1 / self.variance

    def describe(self):
        return f"subsampled Gaussian q = {float(self.rate):g}, σ = {float(self.noise):g}"

    # ---- exact: the infimum's bucket and the preimages ----------------------------

    def lowest_index(self, h):
        """i₀ = ⌊log(1 − q)/h⌋, the bucket holding the infimum of the loss (q < 1), decided exactly."""
        q, h = self.rate, mpq(h)
        return last_true(lambda i: not self._above_infimum(i, h), floor_guess(log_guess(1 - q), h))

    def _above_infimum(self, i, h):
        """e^{ih} > 1 − q (exact)."""
        if self.rate == 1:
            return True
        return sign(lambda: to_arb(i * h).exp() - to_arb(1 - self.rate)) > 0

    def preimage(self, level_exp):
        """x(y) as an arb ball from e^y (a ball); the caller has checked e^y > 1 − q."""
        return self._preimage()(level_exp)

    def _preimage(self):
        """x as a function of e^y, its constants made once at the working precision (a loop over the buckets
        calls it for every bucket)."""
        half, s2, shift, inverse = arb(1) / 2, to_arb(self.variance), 1 - to_arb(self.rate), 1 / to_arb(self.rate)
        return lambda level_exp: half + s2 * ((level_exp - shift) * inverse).log()

    def gaussian_preimage(self, level):
        """x(y) = 1/2 + σ²·y for q = 1 (exact rational)."""
        return mpq(1, 2) + self.variance * mpq(level)

    def _points(self, h, lo, hi, infimum):
        """The preimages x_i for lo <= i <= hi as balls, None for −∞."""
        if self.gaussian:
            return [to_arb(self.gaussian_preimage(i * h)) for i in range(lo, hi + 1)]
        step = to_arb(h).exp()
        level = to_arb(lo * h).exp()
        preimage, points = self._preimage(), []
        for i in range(lo, hi + 1):
            points.append(None if i <= infimum else preimage(level))
            level *= step
        return points

    def masses(self, h, lo, hi, bits):
        infimum = None if self.gaussian else self.lowest_index(h)
        with working_precision(bits):
            q, s = to_arb(self.rate), self.noise_ball()
            one_minus, zero = 1 - q, arb(0)
            # Φ(x/σ) = erfc(−x·c)/2 with c = 1/(σ√2), made once; the halves are taken after the sums
            c = 1 / (s * arb(2).sqrt())      # (x − 1)/(σ√2) = x·c − c
            cdf_p, cdf_q = [], []
            for x in self._points(h, lo, hi, infimum if infimum is not None else lo - 1):
                if x is None:
                    cdf_p.append(zero)
                    cdf_q.append(zero)
                    continue
                z = x * c
                a, b = (-z).erfc(), (c - z).erfc()
                cdf_p.append((one_minus * a + q * b) / 2)
                cdf_q.append(a / 2)
            top = self._points(h, hi, hi, infimum if infimum is not None else hi - 1)[0]
            if top is None:  # the whole law lies below hi·h (cannot happen for a sensible range)
                p_high = q_high = arb(0)
            else:
                p_high = one_minus * phi_bar(top / s) + q * phi_bar((top - 1) / s)
                q_high = phi_bar(top / s)
            return StepMasses.from_cdf(lo, hi, cdf_p, cdf_q, p_high, q_high)

    # ---- tails for the single-step prediction (hints) -----------------------------

    def _x(self, y):
        """x(y) as a ball, or None for −∞ (e^y <= 1 − q; undecided counts as −∞: a hint only)."""
        if self.gaussian:
            return to_arb(self.gaussian_preimage(y))
        level = to_arb(y).exp()
        if not level > 1 - to_arb(self.rate):
            return None
        return self.preimage(level)

    def upper_tail(self, y):
        q, s = to_arb(self.rate), self.noise_ball()
        x = self._x(y)
        if x is None:
            return arb(1), arb(1)
        return (1 - q) * phi_bar(x / s) + q * phi_bar((x - 1) / s), phi_bar(x / s)

    def lower_tail(self, y):
        q, s = to_arb(self.rate), self.noise_ball()
        x = self._x(y)
        if x is None:
            return arb(0), arb(0)
        return (1 - q) * phi(x / s) + q * phi((x - 1) / s), phi(x / s)

    # ---- float hints (sizing only; never a claim) ---------------------------------

    def loss_float(self, x):
        """ℓ(x) in floats (hint)."""
        q, s = float(self.rate), self.noise_float()
        z = (2 * x - 1) / (2 * s * s)
        if self.gaussian:
            return z
        if z > 700:
            return math.log(q) + z
        return math.log1p(q * math.expm1(z)) if z < 30 else math.log(1 - q + q * math.exp(z))

    def moments(self, points=4001):
        """(mean, variance) of the loss under P, by the trapezoid rule in floats (a hint for sizing)."""
        s = self.noise_float()
        q = float(self.rate)
        lo, hi = -12 * s, 1 + 12 * s
        step = (hi - lo) / (points - 1)
        m1 = m2 = total = 0.0
        for k in range(points):
            x = lo + k * step
            density = ((1 - q) * math.exp(-x * x / (2 * s * s)) + q * math.exp(-(x - 1) ** 2 / (2 * s * s)))
            weight = 0.5 if k in (0, points - 1) else 1.0
            value = self.loss_float(x)
            total += weight * density
            m1 += weight * density * value
            m2 += weight * density * value * value
        mean = m1 / total
        return mean, max(m2 / total - mean * mean, 1e-300)

    def tail_point(self, allowance):
        """A float x with P(X >= x) <= allowance (hint)."""
        q, s = float(self.rate), self.noise_float()

        def tail(x):
            return (1 - q) * phi_bar_float(x / s) + q * phi_bar_float((x - 1) / s)
        lo, hi = 0.0, 1.0 + s
        while tail(hi) > allowance:
            lo, hi = hi, hi + 2 * s
        for _ in range(60):
            mid = (lo + hi) / 2
            if tail(mid) > allowance:
                lo = mid
            else:
                hi = mid
        return hi

    def index_range(self, grid, allowance):
        """[lo, hi]: from the bucket of the infimum (q < 1; −hi for q = 1) to where P's tail is ``allowance``."""
        x = self.tail_point(allowance)
        hi = math.ceil(self.loss_float(x) * grid) + 1
        if self.gaussian:
            return -hi, hi
        infimum = self.lowest_index(mpq(1, grid))
        return infimum, max(hi, infimum + 2)


class SampledGaussianComposition(GivenByVariance, SubsampledGaussian):
    """A Poisson sampling of a composition of Gaussian events: the sampled Gaussian of ``variance`` σ², exact.

    With multiplicities m_i and noise multipliers σ_i, 1/σ² = Σ m_i/σ_i²
    (docs/mechanisms/poisson-subsampling.md): whitening each Gaussian and
    rotating the shift onto one axis leaves (1 − q)·N(0, σ²) + q·N(1, σ²)
    against N(0, σ²).
    """

    __slots__ = ("_variance",)

    def __init__(self, rate, variance):
        self._set(rate=mpq(rate), _variance=mpq(variance), noise=None)

    def describe(self):
        return f"sampled Gaussian composition q = {float(self.rate):g}, σ² = {float(self._variance):g}"
