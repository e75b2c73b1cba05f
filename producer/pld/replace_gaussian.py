"""The Poisson-subsampled Gaussian under replace-one neighbours.

One step with sampling probability q ∈ (0, 1] and noise multiplier σ
(sensitivity 1) is dominated by

    P = (1 − q)·N(0, σ²) + q·N(1, σ²),    Q = (1 − q)·N(0, σ²) + q·N(−1, σ²)

(the pair of dp_accounting's replace-one subsampled Gaussian, reflected
x ↦ −x; q = 1: N(1, σ²) against N(−1, σ²), the Gaussian mechanism with
sensitivity 2).  With u = e^{x/σ²} and c = e^{−1/(2σ²)} the privacy loss is

    ℓ(x) = log(((1 − q) + q·c·u)/((1 − q) + q·c/u)),

increasing, with range all of R; a level y has the one preimage
x(y) = σ²·log u, u the positive root of q·c·u² + (1 − q)(1 − e^y)·u − e^y·q·c = 0:

    u = [(e^y − 1)(1 − q) + √((e^y − 1)²(1 − q)² + 4e^y·q²c²)] / (2qc)          (e^y >= 1),
    u = 2qc·e^y / [(1 − e^y)(1 − q) + √((e^y − 1)²(1 − q)² + 4e^y·q²c²)]       (e^y < 1),

the two forms of the same root (their product with the other root is −e^y),
each free of cancellation where it is used; x(y) = σ²·y/2 exactly when
q = 1.  The masses are differences of

    P(X < x) = (1 − q)·Φ(x/σ) + q·Φ((x − 1)/σ),   Q(X < x) = (1 − q)·Φ(x/σ) + q·Φ((x + 1)/σ).

The pair is symmetric (x ↦ −x exchanges P and Q and negates ℓ), so the low
tail's Q-mass is the high tail's P-mass and the range is [−hi, hi].
"""

import math

from gmpy2 import mpq

from producer.pld.masses import StepMasses
from producer.pld.mechanism import DominatingPair
from producer.pld.normal import phi, phi_bar, phi_bar_float, trapezoid_moments
from producer.pld.gaussian_noise import GivenBySigma, GivenByVariance
from producer.sources.enclosures import to_arb, working_precision


def log_mix_float(one_minus, q, exponent):
    """log((1 − q) + q·e^exponent) in floats (hint)."""
    if q == 0:
        return math.log(one_minus)
    if one_minus == 0:
        return math.log(q) + exponent
    big = max(math.log(one_minus), math.log(q) + exponent)
    return big + math.log(math.exp(math.log(one_minus) - big) + math.exp(math.log(q) + exponent - big))


class ReplaceOneGaussian(GivenBySigma, DominatingPair):
    """(1 − q)N(0, σ²) + qN(1, σ²) against (1 − q)N(0, σ²) + qN(−1, σ²): ``rate`` q ∈ (0, 1], ``noise`` σ."""

    __slots__ = ("rate", "noise")

    def __init__(self, rate, noise):
        self._set(rate=mpq(rate), noise=mpq(noise))

    def audit_mass_units(self):
        # q = 1: the Gaussian with σ/2 (closed-form preimages); else the auditor's table-logarithm route
        return 160 if self.rate == 1 else 800

    @property
    def gaussian_mu2(self):
        return 4 / self.variance if self.rate == 1 else None

    @property
    def dominating_mu2(self):
        # P and Q mix (N(0), N(0)) and (N(1), N(−1)) with the same weights: by joint convexity of the
        # hockey-stick divergence, in every order and in products, the pair (N(1), N(−1)) is worse
        return 4 / self.variance

    def describe(self):
        return f"replace-one Gaussian q = {float(self.rate):g}, σ = {self.noise_float():g}"

    # ---- preimages and masses --------------------------------------------------------

    def preimage(self, y):
        """x(y) as an arb ball at the current precision (y a rational)."""
        s2 = self.variance
        if self.rate == 1:
            return to_arb(s2 * mpq(y) / 2)
        q = to_arb(self.rate)
        one_minus = 1 - q
        c = to_arb(-1 / (2 * s2)).exp()
        e = to_arb(mpq(y)).exp()
        root = ((e - 1) * (e - 1) * one_minus * one_minus + 4 * e * q * q * c * c).sqrt()
        if y >= 0:
            u = ((e - 1) * one_minus + root) / (2 * q * c)
        else:
            u = 2 * q * c * e / ((1 - e) * one_minus + root)
        return to_arb(s2) * u.log()

    def _cdf(self, x):
        q, s = to_arb(self.rate), self.noise_ball()
        a = (1 - q) * phi(x / s)
        return a + q * phi((x - 1) / s), a + q * phi((x + 1) / s)

    def _survival(self, x):
        q, s = to_arb(self.rate), self.noise_ball()
        a = (1 - q) * phi_bar(x / s)
        return a + q * phi_bar((x - 1) / s), a + q * phi_bar((x + 1) / s)

    def masses(self, h, lo, hi, bits):
        with working_precision(bits):
            cdf_p, cdf_q = [], []
            for i in range(lo, hi + 1):
                p, q = self._cdf(self.preimage(i * h))
                cdf_p.append(p)
                cdf_q.append(q)
            p_high, q_high = self._survival(self.preimage(hi * h))
            return StepMasses.from_cdf(lo, hi, cdf_p, cdf_q, p_high, q_high)

    def upper_tail(self, y):
        return self._survival(self.preimage(y))

    def lower_tail(self, y):
        return self._cdf(self.preimage(y))

    # ---- float hints ---------------------------------------------------------------------

    def loss_float(self, x):
        q, s2 = float(self.rate), float(self.variance)
        return log_mix_float(1 - q, q, (2 * x - 1) / (2 * s2)) - log_mix_float(1 - q, q, (-2 * x - 1) / (2 * s2))

    def moments(self):
        q, s = float(self.rate), self.noise_float()

        def density(x):
            return (1 - q) * math.exp(-x * x / (2 * s * s)) + q * math.exp(-(x - 1) ** 2 / (2 * s * s))
        return trapezoid_moments(density, self.loss_float, -1 - 12 * s, 1 + 12 * s)

    def index_range(self, grid, allowance):
        q, s = float(self.rate), self.noise_float()

        def tail(x):
            return (1 - q) * phi_bar_float(x / s) + q * phi_bar_float((x - 1) / s)
        lo, hi = 0.0, 1.0 + s
        while tail(hi) > allowance:
            lo, hi = hi, hi + 2 * s
        for _ in range(60):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if tail(mid) > allowance else (lo, mid)
        top = math.ceil(self.loss_float(hi) * grid) + 1
        return -top, top


class ReplaceOneGaussianComposition(GivenByVariance, ReplaceOneGaussian):
    """A Poisson sampling of a composition of Gaussian events under replace-one: the pair above at σ = √σ².

    With multiplicities m_i and noise multipliers σ_i, 1/σ² = Σ m_i/σ_i².
    Whitening block i by σ_i makes every record's contribution a vector of
    norm at most 1/σ; replacing one record is then (1 − q)·N(0, I) + q·N(v, I)
    against (1 − q)·N(0, I) + q·N(v′, I) with both norms at most 1/σ, which
    the replace-one argument for one Gaussian (any two contributions in the
    ball, docs/mechanisms/poisson-subsampling.md) bounds by the pair above,
    scaled by σ (σ from σ²: :class:`GivenByVariance`).
    """

    __slots__ = ("_variance",)

    def __init__(self, rate, variance):
        self._set(rate=mpq(rate), _variance=mpq(variance), noise=None)

    def describe(self):
        return f"replace-one Gaussian composition q = {float(self.rate):g}, σ² = {float(self._variance):g}"


__all__ = ["ReplaceOneGaussian", "ReplaceOneGaussianComposition"]
