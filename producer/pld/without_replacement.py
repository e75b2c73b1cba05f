"""Gaussian and Laplace steps on batches drawn without replacement (fixed-size batches) under replace-one neighbours.

A batch of m distinct records is drawn uniformly from the n records of the
dataset and the mechanism runs on it; γ = m/n ∈ (0, 1].  Under replace-one
the step alone is f-DP with f = T(P₀, P₂), P_μ the mechanism's output law
shifted by μ (contributions of norm at most 1, a shift of 2): N(μ, σ²) for
the Gaussian of noise multiplier σ, L(μ, b) (density e^{−|x−μ|/b}/(2b)) for
the Laplace of scale b.  Both f are symmetric (the reflection x ↦ 2 − x
exchanges P₀ and P₂).  "Gaussian Differential Privacy" (Dong, Roth, Su 2022,
§4, Theorem 4.2) proves, for any tradeoff function f, that sampling m of n
without replacement makes the step C_γ(f)-DP, with
C_γ(f) = min{f_γ, f_γ^{-1}}** (the convex hull), f_γ = γ·f + (1 − γ)·Id.
With

    A = (1 − γ)·P₀ + γ·P₂,    B = P₀,    ℓ_AB(x) = log(dA/dB)(x),

f_γ = T(B, A), and ℓ_AB(1) = 0, ℓ_AB > 0 exactly on x > 1:

- Gaussian: ℓ_AB(x) = log(1 − γ + γ·e^{2(x − 1)/σ²}), continuous and strictly
  increasing, range (log(1 − γ), ∞);
- Laplace: ℓ_AB(x) = log(1 − γ + γ·e^{(|x| − |x − 2|)/b}), constant ℓ_min on
  x <= 0 and ℓ_max = log(1 − γ + γ·e^{2/b}) on x >= 2 (atoms of its law),
  strictly increasing on [0, 2].

For α >= 1 the hockey-stick profile of f_γ is at least that of f_γ^{-1}
(docs/mechanisms/poisson-subsampling.md, the ordering lemma, which uses
only that f is a symmetric tradeoff function), so the profile of C_γ(f) at
α >= 1 is H_α(A‖B), and C_γ(f) is symmetric.  The pair (X, Y) built here
has exactly that tradeoff function: its loss ℓ = log(dX/dY) has the law

- on ℓ > 0: X(ℓ ∈ S) = A(ℓ_AB ∈ S), Y(ℓ ∈ S) = B(ℓ_AB ∈ S);
- on ℓ < 0: X(ℓ ∈ S) = B(ℓ_AB ∈ −S), Y(ℓ ∈ S) = A(ℓ_AB ∈ −S) (the mirror image);
- an atom at ℓ = 0 of mass m0 = 1 − A(ℓ_AB > 0) − B(ℓ_AB > 0) under both
  laws: (1 − γ)·(Φ(1/σ) − Φ(−1/σ)) for the Gaussian, (1 − γ)·(1 − e^{−1/b})
  for the Laplace.

It is symmetric (exchanging X and Y negates ℓ), so both orders agree, and
for ε >= 0 only positive losses count: H_{e^ε}(X‖Y) = H_{e^ε}(A‖B).  By the
composition theorem of f-DP (same paper, §3) T steps are dominated by
(X^T, Y^T); composing (A, B) and (B, A) separately and taking the larger is
*not* a proved bound, which is why the symmetrised pair is the stage's law.

The masses.  (A, B) mapped by x ↦ x/2, which changes no loss, is the
forward pair of the Poisson-sampled mechanism under add/remove at q = γ
with half the noise: :class:`producer.pld.subsampled_gaussian.SubsampledGaussian`
(noise σ/2) or :class:`producer.pld.laplace.SubsampledLaplace` (scale b/2).
Its buckets of ℓ_AB on the grid h are enclosed by that pair's code.  With
AB-bucket j the losses [jh, (j + 1)h) of ℓ_AB, bucket I_i of ℓ holds
(A, B)(AB-bucket i) for i >= 0 (plus (m0, m0) at i = 0, since 0 is a grid
level) and (B, A)(AB-bucket −i − 1) for i < 0; the tails likewise.  The
mirror takes I_i = [ih, (i + 1)h) to ℓ_AB ∈ (−(i + 1)h, −ih], closed at the
other end than AB-bucket −i − 1, so the two agree unless ℓ_AB has an atom
on a grid level.  The Gaussian's ℓ_AB has no atoms; the Laplace's one atom
on ℓ_AB > 0, ℓ_max, is never a grid level when 0 < γ < 1 (the argument of
:mod:`producer.pld.laplace`: e^{ih} = 1 − γ + γ·e^{2/b} would be a polynomial
identity in a transcendental number), and ℓ_AB = 0 holds only at x = 1,
where neither law has an atom.  (At γ = 1 the Laplace's ℓ_max = 2/b is
rational and may be a grid level, so the Laplace pair requires γ < 1: the
stage of γ = 1 is the unsampled replace-one Laplace.)
"""

import math

import flint
from flint import arb
from gmpy2 import mpq

from producer.pld.discrete import DiscreteGaussian, DiscreteLaplace, loss_float
from producer.pld.laplace import SubsampledLaplace
from producer.pld.masses import StepMasses
from producer.pld.mechanism import DominatingPair
from producer.pld.normal import phi
from producer.pld.gaussian_noise import GivenBySigma, GivenByVariance
from producer.pld.subsampled_gaussian import SampledGaussianComposition, SubsampledGaussian
from producer.sources.enclosures import to_arb, working_precision


class _SymmetrisedPair(DominatingPair):
    """The symmetrised pair (X, Y) of a step on batches drawn without replacement, from the forward pair (A, B)
    of ``base`` (the Poisson-sampled pair at q = γ with half the noise: the same losses) and the atom at 0.

    Subclasses set ``rate`` γ, ``base`` and their scale, and give :meth:`zero_mass` (or :meth:`zero_masses`),
    :meth:`_positive_nodes` (the moments' quadrature), :meth:`index_range` and :meth:`describe`."""

    __slots__ = ("rate", "base")
    splits_anywhere = False   # every range holds bucket 0, the atom at loss 0 (:meth:`masses`)

    def zero_mass(self):
        """m0 = 1 − A(ℓ_AB > 0) − B(ℓ_AB > 0), the atom at ℓ = 0 under both laws, at the current precision."""
        raise NotImplementedError

    def zero_masses(self):
        """(m0, atom): m0 and the (A-, B-mass) of an atom of ℓ_AB at 0, which AB-bucket 0 holds and m0 already
        counts (None: no such atom)."""
        return self.zero_mass(), None

    # ---- masses ---------------------------------------------------------------------------

    def masses(self, h, lo, hi, bits):
        if not lo <= 0 < hi:
            raise ValueError(f"the range [{lo}, {hi}] must hold bucket 0 (the atom at loss 0)")
        top = max(-lo, hi)
        ab = self.base.masses(h, 0, top, bits)   # AB-buckets 0 .. top − 1 and ℓ_AB >= top·h
        with working_precision(bits):
            m0, atom = self.zero_masses()
            a_pos, b_pos = list(ab.p), list(ab.q)   # (A, B) on AB-bucket j, without an atom at ℓ_AB = 0
            if atom is not None:
                a_pos[0], b_pos[0] = a_pos[0] - atom[0], b_pos[0] - atom[1]
            p, q = [], []
            for i in range(lo, hi):
                if i >= 0:
                    p.append(a_pos[i] + m0 if i == 0 else a_pos[i])
                    q.append(b_pos[i] + m0 if i == 0 else b_pos[i])
                else:
                    p.append(b_pos[-i - 1])
                    q.append(a_pos[-i - 1])
            # {ℓ >= hi·h} = {ℓ_AB >= hi·h} under (A, B); {ℓ < lo·h} = {ℓ_AB > −lo·h} under (B, A) (no atom of
            # ℓ_AB but one at 0 is a grid level, so ">" and ">=" agree)
            p_high = sum(a_pos[hi:top], ab.p_high)
            q_high = sum(b_pos[hi:top], ab.q_high)
            p_low = sum(b_pos[-lo:top], ab.q_high)
            q_low = sum(a_pos[-lo:top], ab.p_high)
            return StepMasses(lo, hi, p, q, p_low, q_low, p_high, q_high)

    # ---- tails for the single-step prediction (hints) ----------------------------------------

    def upper_tail(self, y):
        """(X(ℓ >= y), Y(ℓ >= y)): (A, B)(ℓ_AB >= y) for y > 0, else 1 − (B, A)(ℓ_AB > −y)."""
        y = mpq(y)
        if y > 0:
            return self.base.upper_tail(y)
        a, b = self.base.upper_tail(-y)
        return 1 - b, 1 - a

    def lower_tail(self, y):
        """(X(ℓ <= y), Y(ℓ <= y)): (B, A)(ℓ_AB >= −y) for y < 0, else 1 − (A, B)(ℓ_AB > y)."""
        y = mpq(y)
        if y < 0:
            a, b = self.base.upper_tail(-y)
            return b, a
        a, b = self.base.upper_tail(y)
        return 1 - a, 1 - b

    # ---- float hints ---------------------------------------------------------------------------

    def loss_float(self, x):
        """ℓ_AB(x) in floats (hint): the base pair's loss at x/2."""
        return self.base.loss_float(x / 2)

    def _positive_nodes(self):
        """(weight, a, b, x): quadrature nodes and atoms of A and B on x >= 1 (where ℓ_AB >= 0), the masses
        weight·a and weight·b at the point x."""
        raise NotImplementedError

    def moments(self):
        """(mean, variance) of ℓ under X (a hint): the positive losses under A, their mirror images under B
        and the atom at 0."""
        mean = second = 0.0
        for weight, a, b, x in self._positive_nodes():
            loss = self.loss_float(x)
            mean += weight * (a - b) * loss            # E_A[ℓ_AB; ℓ_AB > 0] − E_B[ℓ_AB; ℓ_AB > 0]
            second += weight * (a + b) * loss * loss   # E_A[ℓ_AB²; ℓ_AB > 0] + E_B[ℓ_AB²; ℓ_AB > 0]
        return mean, max(second - mean * mean, 1e-300)


class WithoutReplacementGaussian(GivenBySigma, _SymmetrisedPair):
    """The symmetrised pair (X, Y) of a Gaussian on batches drawn without replacement: ``rate`` γ = m/n in
    (0, 1], ``noise`` σ > 0 (exact); the replace-one relation."""

    __slots__ = ("noise",)

    def __init__(self, rate, noise):
        rate, noise = mpq(rate), mpq(noise)
        if not 0 < rate <= 1 or noise <= 0:
            raise ValueError(f"a batch fraction in (0, 1] and a positive σ are needed, got γ = {rate}, σ = {noise}")
        # (A, B) mapped by x ↦ x/2: the Poisson-sampled Gaussian's pair at q = γ, noise σ/2 (the same losses)
        self._set(rate=rate, noise=noise, base=SubsampledGaussian(rate, noise / 2))


    def audit_mass_units(self):
        return 160   # the sampled Gaussian's closed-form preimages; each (A, B) bucket serves two buckets

    @property
    def dominating_mu2(self):
        # C_γ(f) >= f (f_γ >= f and f_γ^{-1} >= f^{-1} = f, and the convex hull of a function above the
        # convex f stays above it): the unsampled replace-one Gaussian, μ₁ = 2/σ, dominates the step
        return 4 / self.variance

    def describe(self):
        return f"Gaussian without replacement γ = {float(self.rate):g}, σ = {self.noise_float():g}"

    def zero_mass(self):
        """m0 = (1 − γ)·(Φ(1/σ) − Φ(−1/σ))."""
        z = 1 / self.noise_ball()
        return (1 - to_arb(self.rate)) * (phi(z) - phi(-z))

    def _positive_nodes(self, points=4001):
        """The trapezoid rule over [1, 2 + 12σ] (unnormalised densities, the normalisation in the weight)."""
        g, s = float(self.rate), self.noise_float()
        lo, hi = 1.0, 2 + 12 * s
        step = (hi - lo) / (points - 1)
        for k in range(points):
            x = lo + k * step
            b = math.exp(-x * x / (2 * s * s))
            a = (1 - g) * b + g * math.exp(-(x - 2) ** 2 / (2 * s * s))
            yield (0.5 if k in (0, points - 1) else 1.0) * step / (s * math.sqrt(2 * math.pi)), a, b, x

    def index_range(self, grid, allowance):
        """[−H, H]: H·h past where A's tail is ``allowance`` (B's mirror tail is smaller still)."""
        x = self.base.tail_point(allowance)
        top = math.ceil(self.base.loss_float(x) * grid) + 1
        return -top, max(top, 1)


class WithoutReplacementGaussianComposition(GivenByVariance, WithoutReplacementGaussian):
    """A composition of Gaussian events on batches drawn without replacement: the pair above at σ = √σ².

    With multiplicities m_i and noise multipliers σ_i, 1/σ² = Σ m_i/σ_i².  On
    a fixed batch, whitening block i by σ_i and rotating the change of one
    record onto one axis makes the composition one Gaussian mechanism whose
    replace-one change has norm at most 2/σ: f = T(N(0, σ²), N(2, σ²)),
    symmetric, and the construction above applies unchanged, with σ from σ²
    (:class:`GivenByVariance`): (A, B) is the sampled Gaussian of variance
    σ²/4.
    """

    __slots__ = ("_variance",)

    def __init__(self, rate, variance):
        rate, variance = mpq(rate), mpq(variance)
        if not 0 < rate <= 1 or variance <= 0:
            raise ValueError(f"a batch fraction in (0, 1] and a positive σ² are needed, got γ = {rate}, "
                             f"σ² = {variance}")
        self._set(rate=rate, noise=None, _variance=variance, base=SampledGaussianComposition(rate, variance / 4))

    def describe(self):
        return f"Gaussian composition without replacement γ = {float(self.rate):g}, σ² = {float(self._variance):g}"


class WithoutReplacementLaplace(_SymmetrisedPair):
    """The symmetrised pair (X, Y) of a Laplace mechanism on batches drawn without replacement: ``rate``
    γ = m/n in (0, 1), ``scale`` b > 0 (exact); the replace-one relation."""

    __slots__ = ("scale",)

    def __init__(self, rate, scale):
        rate, scale = mpq(rate), mpq(scale)
        if not 0 < rate < 1 or scale <= 0:
            raise ValueError(f"a batch fraction in (0, 1) (γ = 1 is the unsampled replace-one Laplace) and a "
                             f"positive b are needed, got γ = {rate}, b = {scale}")
        # (A, B) mapped by x ↦ x/2: the Poisson-sampled Laplace's pair at q = γ, scale b/2 (the same losses)
        self._set(rate=rate, scale=scale, base=SubsampledLaplace(scale / 2, rate))

    def parameters(self):
        return (self.rate, self.scale)

    def audit_scale(self):
        return self.rate, self.scale

    def audit_mass_units(self):
        # the auditor's constant for this family (docs/certificates.md, accounting/1): three times the plain
        # Laplace's, for its direct grid levels at small grids; an estimate below the auditor's could leave a
        # certificate UNCHECKED, one above only asks for a larger budget than needed
        return 240

    def describe(self):
        return f"Laplace without replacement γ = {float(self.rate):g}, b = {float(self.scale):g}"

    def zero_mass(self):
        """m0 = (1 − γ)·(1 − e^{−1/b})."""
        return -(1 - to_arb(self.rate)) * to_arb(-1 / self.scale).expm1()

    def _positive_nodes(self, points=401):
        """The trapezoid rule over [1, 2] and the atom at x >= 2 (ℓ_AB = ℓ_max)."""
        g, s = float(self.rate), float(self.scale)
        step = 1.0 / (points - 1)
        for k in range(points):
            x = 1.0 + k * step
            b = math.exp(-x / s)
            a = (1 - g) * b + g * math.exp((x - 2) / s)
            yield (0.5 if k in (0, points - 1) else 1.0) * step / (2 * s), a, b, x
        tail = math.exp(-2 / s) / 2
        yield 1.0, (1 - g) * tail + g / 2, tail, 2.0

    def index_range(self, grid, allowance):
        """[−H, H] with H = ⌊ℓ_max/h⌋ + 1, decided exactly: both tails are empty (the loss is bounded)."""
        _, top = self.base.index_range(grid, allowance)
        return -top, top


class _WithoutReplacementDiscrete(_SymmetrisedPair):
    """The symmetrised pair of an integer-noise mechanism (noise N, sensitivity s) on batches drawn without
    replacement, γ = m/n in (0, 1); the replace-one relation.

    Within a batch a replacement moves the value by at most 2s, so f = T(N, N_{2s}): symmetric (x ↦ 2s − x
    exchanges N and N_{2s}) and dominating every smaller move (log-concavity, docs/mechanisms/discrete.md).  (A, B)
    is the add/remove pair of shift 2s sampled at q = γ, ``base``, as it is (no change of scale).  ℓ_AB(x) =
    log(1 − γ + γ·e^{ℓ₁(x)}) is non-decreasing, and 0 exactly at x = s, an atom of mass N(s) under both A and
    B (N_{2s}(s) = N(−s) = N(s)); it sits on the grid level 0, so it is taken out of AB-bucket 0 and counted in
    m0 = 1 − A(ℓ_AB > 0) − B(ℓ_AB > 0) = (1 − γ)·N(|x| <= s) + γ·N(s).  Every other atom of ℓ_AB lies off the
    grid at γ < 1 (:mod:`producer.pld.discrete`), so the mirror's closed ends do not matter.
    """

    __slots__ = ()
    BASE = None   # the add/remove discrete pair (DiscreteLaplace or DiscreteGaussian)

    def __init__(self, rate, noise, sensitivity):
        rate = mpq(rate)
        if not 0 < rate < 1:
            raise ValueError(f"a batch fraction in (0, 1) is needed (γ = 1 is the unsampled replace-one pair), "
                             f"got γ = {rate}")
        self._set(rate=rate, base=self.BASE(noise, sensitivity, 2 * int(sensitivity), rate))

    def parameters(self):
        return self.base.parameters()

    def audit_scale(self):
        return self.base.audit_scale()

    def audit_mass_units(self):
        return self.base.audit_mass_units()

    def audit_atom_work(self, w, parts):
        return self.base.audit_atom_work(w, parts)

    def _noise_masses(self):
        """(N(|x| <= s), N(s)) as balls at the current precision."""
        raise NotImplementedError

    def zero_masses(self):
        inside, at_s = self._noise_masses()   # once: the discrete Gaussian's sums the whole kernel and Z
        gamma = to_arb(self.rate)
        return (1 - gamma) * inside + gamma * at_s, (at_s, at_s)

    def zero_mass(self):
        return self.zero_masses()[0]

    def index_range(self, grid, allowance):
        _, top = self.base.index_range(grid, allowance)
        return -top, max(top, 1)

    def _positive_atoms(self):
        """(A-mass, B-mass, x) in floats for the outputs x > s (where ℓ_AB > 0)."""
        raise NotImplementedError

    def moments(self):
        mean = second = 0.0
        for a, b, x in self._positive_atoms():
            loss = self.base_loss_float(x)
            mean += (a - b) * loss
            second += (a + b) * loss * loss
        return mean, max(second - mean * mean, 1e-300)


class WithoutReplacementDiscreteLaplace(_WithoutReplacementDiscrete):
    """DLap(a) noise of sensitivity s on batches drawn without replacement: ``rate`` γ in (0, 1), ``parameter``
    a > 0, ``sensitivity`` s >= 1 (exact).  N(|x| <= s) = 1 − 2·e^{−a(s+1)}/(1 + e^{−a}), N(s) =
    tanh(a/2)·e^{−as}."""

    __slots__ = ()
    BASE = DiscreteLaplace

    def describe(self):
        return (f"discrete Laplace without replacement γ = {float(self.rate):g}, a = {float(self.base.parameter):g}, "
                f"s = {self.base.sensitivity}")

    def _noise_masses(self):
        a, s = self.base.parameter, self.base.sensitivity
        r = to_arb(-a).exp()
        return 1 - 2 * to_arb(-a * (s + 1)).exp() / (1 + r), (1 - r) / (1 + r) * to_arb(-a * s).exp()

    def base_loss_float(self, x):
        a, s = float(self.base.parameter), self.base.sensitivity
        return loss_float(self.rate, a * (abs(x) - abs(x - 2 * s)))

    def _positive_atoms(self):
        a, s, g = float(self.base.parameter), self.base.sensitivity, float(self.rate)
        r = math.exp(-a)

        def noise(x):  # N(x) for s < x < 2s, N(x >= 2s) at x = 2s
            return math.tanh(a / 2) * r ** x if x < 2 * s else r ** x / (1 + r)

        def shifted(x):  # N_{2s}(x) likewise
            return math.tanh(a / 2) * r ** abs(x - 2 * s) if x < 2 * s else 1 / (1 + r)

        for x in range(s + 1, 2 * s + 1):
            yield (1 - g) * noise(x) + g * shifted(x), noise(x), x


class WithoutReplacementDiscreteGaussian(_WithoutReplacementDiscrete):
    """N_Z(0, σ²) noise of sensitivity s on batches drawn without replacement: ``rate`` γ in (0, 1),
    ``sigma_squared`` σ² > 0, ``sensitivity`` s >= 1 (exact).  N(|x| <= s) and N(s) from the base pair's
    enclosed weights g and Z."""

    __slots__ = ()
    BASE = DiscreteGaussian

    def describe(self):
        return (f"discrete Gaussian without replacement γ = {float(self.rate):g}, "
                f"σ² = {float(self.base.sigma_squared):g}, s = {self.base.sensitivity}")

    def _noise_masses(self):
        s = self.base.sensitivity
        g, _, z = self.base._weights(max(self.base._bulk(flint.ctx.prec), s))
        return (g[0] + 2 * sum(g[1:s + 1], arb(0))) / z, g[s] / z

    def base_loss_float(self, x):
        return loss_float(self.rate, float(self.base.l1(x)))

    def _positive_atoms(self):
        s2, s, g = float(self.base.sigma_squared), self.base.sensitivity, float(self.rate)
        norm = math.sqrt(2 * math.pi * s2)
        for x in range(s + 1, 2 * s + int(12 * math.sqrt(s2)) + 2):
            noise = math.exp(-x * x / (2 * s2)) / norm
            yield (1 - g) * noise + g * math.exp(-(x - 2 * s) ** 2 / (2 * s2)) / norm, noise, x


__all__ = ["WithoutReplacementGaussian", "WithoutReplacementGaussianComposition", "WithoutReplacementLaplace",
           "WithoutReplacementDiscreteLaplace", "WithoutReplacementDiscreteGaussian"]
