"""The pairs of ``accounting/1`` beyond the sampled Gaussian, and the factories from a stage mechanism
(docs/accounting.md §4–5; the shared machinery and :class:`auditor.pld.pairs.SampledGaussian` in :mod:`.pairs`,
which is also the pair of ``gaussian_composition`` under add/remove, given by σ²: :func:`gaussian_composition`).

* :class:`ReplaceGaussian` — ``gaussian`` under replace-one with q < 1: (1 − q)·N(0, σ²) + q·N(1, σ²) against
  (1 − q)·N(0, σ²) + q·N(−1, σ²).  With u = e^{x/σ²} and c = e^{−1/(2σ²)} the loss is
  log(((1 − q) + q·c·u)/((1 − q) + q·c/u)); the level y has the one positive root u of
  q·c·u² − (e^y − 1)(1 − q)·u − e^y·q·c, and dividing it by e^{y/2} gives t + √(t² + 1) with
  t = (1 − q)·sinh(y/2)/(q·c), so

      x(y) = σ²·(y/2 + asinh t),      asinh t = log(t + √(t² + 1)),

  odd in y (the pair is symmetric under x ↦ −x).  q = 1 is N(1, σ²) against N(−1, σ²), whose losses are those of
  N(1, σ²/4) against N(0, σ²/4) (x ↦ (x + 1)/2): :func:`gaussian` returns that sampled Gaussian.  Given by σ²
  it is also ``gaussian_composition`` under replace-one (a Poisson sampling of a composition of Gaussian events,
  σ² = 1/Σ m_i/σ_i²; σ and 1/σ enclosed by integer square roots when σ is irrational).
* :class:`GaussianMixture` — ``mixture_of_gaussians`` (add/remove): (1 − q)·N(0, σ²) + q·Σ p_i·N(Δ_i, σ²) against
  N(0, σ²); preimages bracketed (:mod:`.roots`).  With one positive Δ it is the sampled Gaussian of noise σ/Δ
  (x ↦ x/Δ keeps every loss), and :func:`mixture` returns that.
* :class:`Symmetrised` — sampling m of n without replacement (replace-one, γ = m/n in (0, 1)): the symmetrised
  pair (X, Y) of A = (1 − γ)·D + γ·D_2 against B = D (D the noise, D_2 its shift by 2); its masses are (A, B)'s
  buckets, mirrored, and an atom at loss 0.  :class:`WithoutReplacementGaussian` (``gaussian_without_replacement``)
  takes (A, B) from the sampled Gaussian of q = γ and noise σ/2 (given by σ², σ²/4: the stage
  ``gaussian_composition_without_replacement``, a composition of Gaussian events on such batches),
  :class:`WithoutReplacementLaplace` (``laplace_without_replacement``) from the add/remove sampled Laplace of q = γ
  and scale b/2 (x ↦ x/2 keeps every loss); :class:`WithoutReplacementDiscreteLaplace` and
  :class:`WithoutReplacementDiscreteGaussian` (``discrete_laplace_without_replacement``,
  ``discrete_gaussian_without_replacement``, sensitivity s) from the add/remove discrete pair of shift 2s sampled at
  q = γ, whose atom at loss 0 (the output s) is taken out of its bucket 0 and belongs to m0.
* :class:`Laplace` — ``laplace`` (add/remove, any q; replace-one, q = 1, as the add/remove pair of scale b/2),
  :class:`auditor.pld.bounded.ReplaceLaplace` (``laplace`` under replace-one with 0 < q < 1) and
  :class:`RandomizedResponse` (replace-one): :mod:`.bounded`.
* :class:`DiscreteLaplace` and :class:`DiscreteGaussian` — ``discrete_laplace`` and ``discrete_gaussian`` (add/remove,
  any q, shift d = s; replace-one, q = 1, the add/remove pair of shift d = 2s), :class:`ReplaceDiscreteLaplace` and
  :class:`ReplaceDiscreteGaussian` (replace-one, q < 1: (1 − q)·N + q·N_s against (1 − q)·N + q·N_{−s}):
  :mod:`.discrete`.
"""

from fractions import Fraction
from math import isqrt

from auditor.certificate import Malformed
from auditor.enclosures import exp_bounds
from auditor.pld import bounded, discrete, roots
from auditor.pld.pairs import (MASS_NS, SampledGaussian, bits, declared_guard, gaussian_masses, given_noise,
                                rescale, shifted, work)
from auditor.pld.logs import LogTable
from auditor.pld.preimages import enclosed_product, exact_root, exp_fixed, exp_grid, guard_of, root_fixed
from auditor.pld.tails import TailTable
from auditor.rationals import ceil, ceil_div, floor

__all__ = ["ReplaceGaussian", "GaussianMixture", "Symmetrised", "WithoutReplacementGaussian",
           "WithoutReplacementLaplace", "Laplace", "RandomizedResponse", "DiscreteLaplace", "DiscreteGaussian",
           "ReplaceDiscreteLaplace", "ReplaceDiscreteGaussian",
           "gaussian", "gaussian_composition", "mixture", "without_replacement", "composition_without_replacement",
           "laplace_without_replacement", "WithoutReplacementDiscreteLaplace", "WithoutReplacementDiscreteGaussian",
           "discrete_laplace_without_replacement", "discrete_gaussian_without_replacement",
           "laplace", "randomized_response", "discrete_laplace", "discrete_gaussian", "discrete_work", "REPLACE_NS",
           "MIXTURE_NS", "MIXTURE_POLYNOMIAL_NS",
           "WITHOUT_REPLACEMENT_NS", "WITHOUT_REPLACEMENT_LAPLACE_NS", "BOUNDED_NS", "DISCRETE_BUCKET_NS",
           "DISCRETE_ATOM_NS", "DISCRETE_SAMPLED_ATOM_NS", "DISCRETE_PLACE_UNITS", "ADD_OR_REMOVE", "REPLACE"]

REPLACE_NS = 800
"""The same for the replace-one Gaussian (a square root and a table logarithm per level,
:class:`auditor.pld.logs.LogTable`; three tails per bucket), per unit of the declared precision: measured 114 to
172 (q = 1/100 to 1/2, σ = 1/10 to 1, W = 177 to 574, 10,000 and 20,000 buckets, 0.25 to 2.7 s), and 410 at
σ = 1/10, q = 1/2, W = 1000 (the 3/(4σ²) guard bits beyond the declared precision), hence twice that; with the
logarithm of :func:`auditor.enclosures.log_bounds` it was 437 to 602 on the first runs."""
MIXTURE_NS = 5000
"""The same per positive component of a mixture bracketed by :mod:`.roots` on its Newton route (Newton steps and
a proof with exponentials per level, taken when an exponent or a scale is beyond the polynomial route's limits,
:func:`auditor.pld.roots.polynomial_route`): measured 2,100 to 3,500 per unit and component (two components,
σ = 1/10 and 1, W = 168 to 498, 1 to 4 ms a bucket)."""
MIXTURE_POLYNOMIAL_NS = 800
"""The same on the polynomial route (a proof in integers and one logarithm per level; the normal tails of every
component): measured 98 to 300 per unit and component at 800 to 3,200 buckets (two and three components, σ = 1/10
to 7, exponents up to 1024 and scales up to 2,028 bits, W = 203 to 545, 0.11 to 1.4 s), and 360 to 420 at 452
buckets, where the tail table's centres weigh most."""
WITHOUT_REPLACEMENT_NS = MASS_NS
"""The same for sampling without replacement: the sampled Gaussian's closed-form preimages (:data:`MASS_NS`) at
about half the levels (the symmetric range [−H, H] needs the levels 0 ... H), one tail for the atom, and the
mirroring: measured 31 to 40 per unit at W = 166 to 503 (γ = 1/100 to 1/2, σ = 1/10 to 10, 20,001 and 50,001
buckets, 0.16 to 0.48 s) and 66 at W = 1102 (3.0 s); the sampled Gaussian's constant kept, a margin of 2.4 or
more."""
BOUNDED_NS = 80
"""The same for the Laplace mechanism and randomized response (a square root per level, no tail table): measured
7 to 17 per unit, and 46 at b = 1/100 (its own guard adds 148 bits there), 19,001 and 40,001 buckets; randomized
response below 1."""
WITHOUT_REPLACEMENT_LAPLACE_NS = 240
"""The same for the Laplace mechanism sampled without replacement (the sampled Laplace's masses at the levels
0 ... H of the range [−H, H], one exponential for the atom, the mirroring; the whole single step, both orders):
measured 20 to 57 per unit at N >= 50 (γ = 1/1000 to 999/1000, b = 1/100 to 100, 1,900 to 97,000 buckets,
W = 121 to 1058), 90 to 120 at N = 16 to 30 and 216 to 222 at N = 2 to 10 (b = 1/100: below N = 16 every level
is an anchor of e^{j/N}, and the sampled Laplace of scale b/2 works 300 bits above the declared guard, up to 0.6 s).
Small runs cost more per unit (307 at N = 8, b = 1/10, 313 buckets, 15 ms)."""
DISCRETE_BUCKET_NS = 20
"""The discrete Laplace's and the discrete Gaussian's work units per bucket and unit of W + W²/1024 + parts/4 (the
buckets' lists, the tails' spreading): measured 3 to 7 for the whole single step (200,001 buckets, W = 267 and
867)."""
DISCRETE_ATOM_NS = 25
"""The same per atom at sampling 1 (its masses, the kernel's chain and running sums, the first atom of each level
inside the atoms' span): measured 8 to 23 when every atom was placed, 3.4 to 8.9 by level (the discrete Gaussian
at σ² = 10^6, 45,152 and 86,142 atoms, W = 300 and 1261, 200,001 buckets, 0.16 and 0.82 s)."""
DISCRETE_SAMPLED_ATOM_NS, DISCRETE_PLACE_UNITS = 60, 2000
"""The same per atom at sampling below 1, with 2000 more units an atom for the coarse enclosure of its loss value
(96 bits whatever W) or, for the discrete Gaussian, the enclosed preimage of a level (:mod:`.discrete`: one per
level inside the atoms' span, every atom placed instead when the span holds more levels than atoms, so never more
placements than atoms).  Measured at σ² = 10^6, W = 200 (estimate 145 µs an atom): every atom placed 103 µs an atom
(q = 1/2, N = 4·10^6, 80,001 buckets, 4.0 s); a preimage for half the atoms 37 µs (N = 10^6, 1.4 s); by level at
N = 20,000 and 28,800 (q = 1/10 and 1/2) 1.7 and 2.7 µs, and 9.4 µs at W = 1264 (estimate 303 µs).  The constants
stay: the first case is the bound's."""


def discrete_work(n, atoms, W, parts, sampled):
    """The work units of the masses of a discrete pair: n buckets and ``atoms`` atoms at W bits (the constants
    above)."""
    buckets = work(n, W, parts, DISCRETE_BUCKET_NS)
    if sampled:
        return buckets + atoms * (W + W * W // 1024 + parts // 4 + DISCRETE_PLACE_UNITS) * DISCRETE_SAMPLED_ATOM_NS
    return buckets + work(atoms, W, parts, DISCRETE_ATOM_NS)


def _floor_bits(x):
    """bits(⌊x⌋) for a Fraction x >= 0."""
    return (x.numerator // x.denominator).bit_length()


# ---- the Gaussian families ------------------------------------------------------------------------------------

class ReplaceGaussian:
    """``gaussian`` under replace-one, q in (0, 1): (1 − q)·N(0, σ²) + q·N(1, σ²) against (1 − q)·N(0, σ²) +
    q·N(−1, σ²); σ given, or σ² given (``sigma_squared``: the ``gaussian_composition`` stage under replace-one,
    whose σ is irrational in general).

    Why it is the pair of a Poisson-sampled composition of Gaussian events under replace-one: divide block i of the
    output by σ_i (invertible: no divergence changes).  Each record's contribution v(x) then has
    ‖v(x)‖² <= Σ m_i/σ_i² = 1/σ², and replacing x by y, the other records' sampled sum fixed (joint convexity), is
    (1 − q)·N(0, I) + q·N(v(x), I) against (1 − q)·N(0, I) + q·N(v(y), I).  The replace-one proof of
    docs/mechanisms/poisson-subsampling.md (steps 1–4: any two contributions in a ball, non-collinear ones and 0
    included) uses only those norms, so after scaling by σ this pair dominates it, and two opposite contributions of
    norm 1/σ attain it.

    ``sigma`` is the σ given (None when σ² is), ``variance`` σ² either way; the arguments use σ's numerator and
    denominator whenever σ is rational (:func:`auditor.pld.preimages.exact_root`), enclosures of σ and 1/σ by
    integer square roots otherwise (:func:`_replace_arguments`).
    """

    __slots__ = ("q", "sigma", "variance")

    def __init__(self, q, sigma=None, *, sigma_squared=None):
        self.q = Fraction(q)
        self.sigma, self.variance = given_noise("ReplaceGaussian", sigma, sigma_squared)

    def __repr__(self):
        if self.sigma is None:
            return f"ReplaceGaussian(q={self.q}, sigma_squared={self.variance})"
        return f"ReplaceGaussian(q={self.q}, sigma={self.sigma})"

    def guard_bits(self):
        """As the sampled Gaussian's (⌊σ⌋ = isqrt(⌊σ²⌋)), and log2(1/c) = 1/(2σ² ln 2) < 3/(4σ²) bits for t's
        factor 1/c."""
        q = self.q
        return (24 + (q.denominator // q.numerator).bit_length() + 2 * (isqrt(floor(self.variance)) + 1).bit_length()
                + ceil(Fraction(3, 4) / self.variance))

    def parts(self):
        """The bits of q and of the number given, σ or σ²."""
        return bits(self.q) + bits(self.variance if self.sigma is None else self.sigma)

    def mass_work(self, n, W, parts):
        return work(n, W, parts, REPLACE_NS)

    def bucket_masses(self, N, lo, hi, W, pointer):
        table = TailTable(W)
        Wt = table.bits
        z = _replace_arguments(self.q, self.variance, N, lo, hi, Wt)
        q, inverse = self.q, _inverse_sigma(self.variance, Wt)
        zp, zm = _minus(z, inverse), _minus(z, (-inverse[1], -inverse[0]))
        return (Wt,) + gaussian_masses(table, [(z, 1 - q), (zp, q)], [(z, 1 - q), (zm, q)])


def _inverse_sigma(variance, W):
    """(lo, hi) with lo <= 2^W/σ <= hi, σ = √``variance``: rounded from σ's numerator and denominator when σ is
    rational, one unit wide by an integer square root otherwise."""
    sigma = exact_root(variance)
    if sigma is None:
        return root_fixed(1 / variance, W)
    return floor((1 << W) / sigma), ceil((1 << W) / sigma)


def _minus(args, m):
    """The arguments z − m for m enclosed by (m_lo, m_hi) over the arguments' scale, rounded outward."""
    m_lo, m_hi = m
    return [(z[0] - m_hi, z[1] - m_lo) for z in args]


def _times_sigma(positive, variance, W):
    """{j: (lo, hi)} of 2^W·σ·a_j from {j: (lo, hi)} of 2^W·a_j, every a_j >= 0: σ's numerator and denominator when
    σ is rational (one rounding each), else σ enclosed by :func:`auditor.pld.preimages.root_fixed`
    :func:`auditor.pld.preimages.guard_of` bits finer than 2^−W, so that its width adds less than a quarter unit."""
    sigma = exact_root(variance)
    if sigma is not None:
        sn, sd = sigma.numerator, sigma.denominator
        return {j: ((a * sn) // sd, ceil_div(b * sn, sd)) for j, (a, b) in positive.items()}
    G = guard_of(max(b for _, b in positive.values()) >> W)
    enclosed, scale = root_fixed(variance, W + G), 1 << (W + G)          # 2^{W+G}·σ
    return {j: enclosed_product(a, b, enclosed, scale) for j, (a, b) in positive.items()}


def _replace_arguments(q, variance, N, lo, hi, W):
    """[(lo, hi)] of 2^W·z_i, z_i = x(i/N)/σ = σ·(y/2 + asinh t), t = (1 − q)·sinh(y/2)/(q·c), for i = lo ... hi.

    Computed at |y| (z is odd in y): e^{±|y|/2} from the grid of step 1/(2N), sinh rounded outward, t increasing in
    sinh and in 1/c = e^{1/(2σ²)} (rational in σ²), asinh increasing; the logarithm from a table
    (:class:`auditor.pld.logs.LogTable`); the product by σ = √``variance`` last (:func:`_times_sigma`: y/2 + asinh t
    >= 0 at y >= 0).
    """
    one = 1 << W
    top = max(abs(lo), abs(hi))
    up = exp_grid(2 * N, 0, top, W)                 # e^{j/(2N)}
    down = exp_grid(2 * N, -top, 0, W)              # e^{−j/(2N)}, at index top − j
    ic = exp_bounds(1 / (2 * variance), W + 16)     # 1/c = e^{1/(2σ²)}
    ic_lo, ic_hi = floor(ic[0] * one), ceil(ic[1] * one)
    n_, d_ = q.numerator, q.denominator
    logs = LogTable(W)
    positive = {}
    for j in sorted({abs(i) for i in range(lo, hi + 1)}):
        if j == 0:
            positive[j] = (0, 0)
            continue
        (u_lo, u_hi), (v_lo, v_hi) = up[j], down[top - j]
        s_lo, s_hi = max(0, u_lo - v_hi) >> 1, ceil_div(u_hi - v_lo, 2)       # 2^W·sinh(y/2)
        t_lo = (s_lo * ic_lo * (d_ - n_)) // (n_ << W)
        t_hi = ceil_div(s_hi * ic_hi * (d_ - n_), n_ << W)
        a_lo = t_lo + isqrt(t_lo * t_lo + one * one)                          # 2^W·(t + √(t² + 1))
        a_hi = t_hi + isqrt(t_hi * t_hi + one * one) + 1
        l_lo, l_hi = logs.log(a_lo, a_hi, W)                                   # 2^W·asinh t
        y_lo, y_hi = (j * one) // (2 * N), ceil_div(j * one, 2 * N)          # 2^W·y/2
        positive[j] = (y_lo + l_lo, y_hi + l_hi)
    positive = _times_sigma(positive, variance, W)
    out = []
    for i in range(lo, hi + 1):
        z_lo, z_hi = positive[abs(i)]
        out.append((z_lo, z_hi) if i >= 0 else (-z_hi, -z_lo))
    return out


class GaussianMixture:
    """``mixture_of_gaussians`` (add/remove) with two or more positive Δ: Σ_k a_k·N(Δ_k, σ²) against N(0, σ²)
    (the sampling's 1 − q added to the weight at Δ = 0)."""

    __slots__ = ("sigma", "components")

    def __init__(self, sigma, components):
        self.sigma = Fraction(sigma)
        self.components = tuple((Fraction(d), Fraction(a)) for d, a in components)

    def __repr__(self):
        return f"GaussianMixture(sigma={self.sigma}, components={self.components})"

    def _positive_weight(self):
        return sum((a for d, a in self.components if d > 0), Fraction(0))

    def guard_bits(self):
        """As the sampled Gaussian's with q the weight of the positive components, and 8 bits for the brackets."""
        w = self._positive_weight()
        return 32 + _floor_bits(1 / w) + 2 * (floor(self.sigma) + 1).bit_length()

    def parts(self):
        return bits(self.sigma) + sum(bits(d) + bits(a) for d, a in self.components)

    def _standard(self):
        return [(d / self.sigma, a) for d, a in self.components]

    def mass_work(self, n, W, parts):
        positive = sum(1 for d, _ in self.components if d > 0)
        ns = MIXTURE_POLYNOMIAL_NS if roots.polynomial_route(self._standard()) else MIXTURE_NS
        return work(n, W, parts, ns * positive)

    def bucket_masses(self, N, lo, hi, W, pointer):
        table = TailTable(W)
        Wt = table.bits
        standard = self._standard()
        z = roots.brackets(standard, N, lo, hi, Wt, pointer)
        p = [(z if m == 0 else shifted(z, m, Wt), a) for m, a in standard]
        return (Wt,) + gaussian_masses(table, p, [(z, Fraction(1))])


def _without(x, z):
    """The enclosure of a mass minus a part of it enclosed by z (never below 0), rounded outward."""
    return max(0, x[0] - z[1]), x[1] - z[0]


class Symmetrised:
    """The symmetrised pair (X, Y) of a stage sampled without replacement (replace-one, γ = m/n in (0, 1)), built
    from a pair (A, B) = ((1 − γ)·D + γ·D_2, D), D the base mechanism's noise and D_2 its shift by 2 (by 2s, an
    integer, for the discrete families) (docs/accounting.md §4).  The families differ only in (A, B) and in the
    atom at loss 0; this class holds the construction they share.

    Why this pair: "Gaussian Differential Privacy" (Dong, Roth, Su 2022), §4, Theorem 4.2, makes m of n drawn
    without replacement from an f-DP step (f = T(D, D_2), the replace-one base mechanism, a symmetric tradeoff
    function) C_γ(f)-DP, C_γ(f) the symmetrised convex hull of f_γ = γ·f + (1 − γ)·Id and its inverse.  Its
    hockey-stick profile is the larger of the two's, which for α >= 1 is f_γ's, H_α(A‖B); (X, Y) is the
    symmetric pair with exactly that profile.

    With ℓ_AB = log dA/dB (non-decreasing in the output, 0 exactly at the output 1, where (A, B) are equally
    likely), the loss law of (X, Y):

    * on ℓ > 0 it is ℓ_AB's under (A, B): bucket i >= 0 of (X, Y) is AB bucket i, {ℓ_AB ∈ [ih, (i+1)h)} (the
      point ℓ_AB = 0 in AB bucket 0 is the single output 1, of no mass; for the discrete families the output s,
      of mass N(s) under both laws, which :meth:`atoms` names and which is taken out of AB bucket 0 first);
    * on ℓ < 0 its mirror image with the masses swapped: bucket i < 0, {ℓ ∈ [ih, (i+1)h)}, is
      {ℓ_AB ∈ (jh, (j+1)h]} under (B, A), j = −i − 1: the mirror turns the closed lower end into a closed upper
      end.  It holds the masses of AB bucket j, [jh, (j+1)h), as long as ℓ_AB puts no mass on a grid level
      jh >= 0 (each family's docstring says why);
    * an atom at ℓ = 0 of X- and Y-mass m0 = 1 − A(ℓ_AB > 0) − B(ℓ_AB > 0) (:meth:`atom`), in bucket 0 (0 is a
      grid level), or the high tail when the range ends at 0.

    The tails: {ℓ >= hi·h} is AB's high tail at level hi (plus the atom when hi = 0); {ℓ < lo·h} is
    {ℓ_AB > −lo·h} under (B, A), AB's high tail at level −lo (again no mass on the level), swapped.  So a range
    [lo, hi] needs the AB levels 0 ... max(−lo, hi); it must hold level 0 (lo <= 0 <= hi, checked with the
    recipe's shape), which the symmetric range [−H, H] does.  The AB masses come in two runs, levels 0 ... L and
    L ... M (L, M the smaller and larger of −lo and hi), so that both tails are single enclosures (no sums of
    buckets).
    """

    __slots__ = ()
    mechanism = None
    """The stage mechanism's name (for messages)."""

    def _ab(self):
        raise NotImplementedError

    def atom(self, W):
        """(Wt, (lo, hi)): m0 over 2^Wt, at target precision W."""
        raise NotImplementedError

    def atoms(self, W):
        """(Wt, m0, z): m0 (:meth:`atom`) and z, the enclosure of the mass that ℓ_AB puts exactly on 0 under A and
        under B (the same: there dA/dB = 1), both over 2^Wt, or z None when there is none (the continuous
        families).  z lies in AB bucket 0 (and in the AB high tail at level 0) but belongs to m0, so it is taken
        out of those before they are mirrored: otherwise it would be counted in bucket 0, in bucket −1 and in m0."""
        Wa, m0 = self.atom(W)
        return Wa, m0, None

    def bucket_masses(self, N, lo, hi, W, pointer):
        if lo > 0 or hi < 0:
            raise Malformed(f"{pointer}: the range [{lo}, {hi}] of a {self.mechanism} stage must hold "
                            f"the loss level 0 (lo <= 0 <= hi; docs/accounting.md §5)")
        ab = self._ab()
        L, M = min(-lo, hi), max(-lo, hi)
        Wt, a_list, b_list, _, high = ab.bucket_masses(N, 0, L, W, pointer)
        highs = {L: high}
        if M > L:
            _, a_more, b_more, _, highs[M] = ab.bucket_masses(N, L, M, W, pointer)
            a_list, b_list = a_list + a_more, b_list + b_more
        Wa, m0, z = self.atoms(W)
        if z is not None:
            z = rescale(z, Wa, Wt)
            if a_list:                                # AB bucket 0, [0, h)
                a_list[0], b_list[0] = _without(a_list[0], z), _without(b_list[0], z)
            if 0 in highs:                            # AB(ℓ_AB >= 0)
                highs[0] = tuple(_without(x, z) for x in highs[0])
        m0 = rescale(m0, Wa, Wt)

        def plus(x, y):
            return x[0] + y[0], x[1] + y[1]

        p_list, q_list = [], []
        for i in range(lo, hi):
            if i >= 0:
                p, q = a_list[i], b_list[i]
                if i == 0:
                    p, q = plus(p, m0), plus(q, m0)
            else:
                q, p = a_list[-i - 1], b_list[-i - 1]
            p_list.append(p)
            q_list.append(q)
        p_high, q_high = highs[hi]
        if hi == 0:
            p_high, q_high = plus(p_high, m0), plus(q_high, m0)
        a_far, b_far = highs[-lo]                     # (A, B)(ℓ_AB >= −lo·h): the low tail's masses, swapped
        return Wt, p_list, q_list, (b_far, a_far), (p_high, q_high)


class WithoutReplacementGaussian(Symmetrised):
    """``gaussian_without_replacement`` (replace-one), γ in (0, 1): the symmetrised pair (:class:`Symmetrised`) of
    A = (1 − γ)·N(0, σ²) + γ·N(2, σ²) against B = N(0, σ²); σ given, or σ² given (``sigma_squared``: the stage
    ``gaussian_composition_without_replacement``, σ irrational in general).

    ℓ_AB is continuous and increasing, and x ↦ x/2 maps (A, B) to (1 − γ)·N(0, σ²/4) + γ·N(1, σ²/4) against
    N(0, σ²/4), the sampled Gaussian of q = γ and noise σ/2 (:class:`SampledGaussian`, given by σ²/4 when σ² is
    given), with the same loss at every output: its buckets j >= 0 are the AB buckets.  ℓ_AB has no atoms, so no
    level carries mass.  The atom at 0: m0 = (1 − γ)·(1 − 2·ΦC(1/σ)) (ℓ_AB > 0 exactly when x > 1).

    Why it is the pair of a composition of Gaussian events on a batch drawn without replacement: on a fixed batch
    the composition, each block i of the output divided by σ_i (invertible: no divergence changes), is one Gaussian
    mechanism whose replace-one change has norm at most 2·√(Σ m_i/σ_i²) = 2/σ (each record's contribution has norm
    at most 1/σ), so its tradeoff function is G_{2/σ} = T(N(0, σ²), N(2, σ²)) (rotate the change onto one axis, drop
    the others, scale by σ), which is symmetric; the theorem used for one Gaussian event ("Gaussian Differential
    Privacy", Dong, Roth, Su 2022, §4, Theorem 4.2, and the symmetrisation of docs/mechanisms/poisson-subsampling.md,
    proved for any symmetric tradeoff function) then gives this pair at σ = √σ².
    """

    __slots__ = ("gamma", "sigma", "variance")

    def __init__(self, gamma, sigma=None, *, sigma_squared=None):
        self.gamma = Fraction(gamma)
        self.sigma, self.variance = given_noise("WithoutReplacementGaussian", sigma, sigma_squared)

    @property
    def mechanism(self):
        """The stage mechanism's name: ``gaussian_composition_without_replacement`` when σ² is given."""
        return "gaussian_without_replacement" if self.sigma is not None else "gaussian_composition_without_replacement"

    def __repr__(self):
        if self.sigma is None:
            return f"WithoutReplacementGaussian(gamma={self.gamma}, sigma_squared={self.variance})"
        return f"WithoutReplacementGaussian(gamma={self.gamma}, sigma={self.sigma})"

    def _ab(self):
        if self.sigma is None:
            return SampledGaussian(self.gamma, sigma_squared=self.variance / 4)
        return SampledGaussian(self.gamma, self.sigma / 2)

    def guard_bits(self):
        """The sampled Gaussian's (q = γ, noise σ/2): the atom adds a few units of the tail table's precision, at
        least 16 bits finer than the masses need (:class:`auditor.pld.tails.TailTable`)."""
        return self._ab().guard_bits()

    def parts(self):
        """The bits of γ and of the number given, σ or σ²."""
        return bits(self.gamma) + bits(self.variance if self.sigma is None else self.sigma)

    def mass_work(self, n, W, parts):
        return work(n, W, parts, WITHOUT_REPLACEMENT_NS)

    def atom(self, W):
        """(Wt, (lo, hi)): m0 = (1 − γ)·(1 − 2·ΦC(1/σ)) over 2^Wt, Wt the tail table's bits at target W (those of
        the masses); 1/σ enclosed as in :class:`ReplaceGaussian` (:func:`_inverse_sigma`)."""
        table = TailTable(W)
        Wt = table.bits
        one = 1 << Wt
        t_lo, t_hi = table.at(*_inverse_sigma(self.variance, Wt))
        n_, d_ = self.gamma.numerator, self.gamma.denominator
        return Wt, (max(0, (d_ - n_) * (one - 2 * t_hi)) // d_, ceil_div((d_ - n_) * (one - 2 * t_lo), d_))


class WithoutReplacementLaplace(Symmetrised):
    """``laplace_without_replacement`` (replace-one), γ in (0, 1): the symmetrised pair (:class:`Symmetrised`) of
    A = (1 − γ)·L(0, b) + γ·L(2, b) against B = L(0, b), L(μ, b) of density e^{−|x−μ|/b}/(2b).

    ℓ_AB(x) = log(1 − γ + γ·e^{(|x| − |x − 2|)/b}): the constant a₋ = log(1 − γ + γ·e^{−2/b}) < 0 on x <= 0, the
    constant a₊ = log(1 − γ + γ·e^{2/b}) > 0 on x >= 2, strictly increasing on [0, 2] with ℓ_AB(1) = 0.
    x ↦ x/2 maps (A, B) to (1 − γ)·L(0, b/2) + γ·L(1, b/2) against L(0, b/2), the add/remove Laplace pair of
    sampling q = γ and scale b/2 (:class:`Laplace`, :mod:`.bounded`), with the same loss at every output: its
    buckets j >= 0, atoms included, are the AB buckets.

    The grid levels jh >= 0 carry no mass of ℓ_AB, so the mirrored buckets (jh, (j+1)h] hold the masses of
    [jh, (j+1)h): the continuous part has no point masses, a₋ < 0 lies below every level used, and a₊ is never a
    grid level — 1 − γ + γ·e^{2/b} = e^{j/N} would make e^{1/m} (m a common denominator of 2/b and j/N) a root of
    the nonzero polynomial γ·t^A − t^C + (1 − γ) (C = A leaves (1 − γ)(1 − t^A); C < 0 multiplied through by
    t^{−C}), and e^{1/m} is transcendental (Lindemann), the argument :mod:`.bounded` makes for the sampled Laplace's
    atoms.  The atom at 0: m0 = 1 − A(x > 1) − B(x > 1) = (1 − γ)·(1 − e^{−1/b}).  The loss is bounded,
    |ℓ| <= a₊: every mass above the AB atom's bucket is an exact 0 (:mod:`.bounded`), on both sides of the mirror.
    """

    __slots__ = ("gamma", "scale")
    mechanism = "laplace_without_replacement"

    def __init__(self, gamma, scale):
        self.gamma, self.scale = Fraction(gamma), Fraction(scale)

    def __repr__(self):
        return f"WithoutReplacementLaplace(gamma={self.gamma}, scale={self.scale})"

    def _ab(self):
        return Laplace(self.gamma, self.scale / 2)

    def guard_bits(self):
        """The sampled Laplace's (q = γ, scale b/2): the atom is one exponential at the masses' precision."""
        return self._ab().guard_bits()

    def parts(self):
        return bits(self.gamma) + bits(self.scale)

    def mass_work(self, n, W, parts):
        return work(n, W, parts, WITHOUT_REPLACEMENT_LAPLACE_NS)

    def atom(self, W):
        """(W, (lo, hi)): m0 = (1 − γ)·(1 − e^{−1/b}) over 2^W (the Laplace masses' own scale)."""
        one = 1 << W
        c_lo, c_hi = exp_fixed(-1 / self.scale, W)
        n_, d_ = self.gamma.numerator, self.gamma.denominator
        return W, (max(0, (d_ - n_) * (one - c_hi)) // d_, ceil_div((d_ - n_) * (one - c_lo), d_))


class _WithoutReplacementDiscrete(Symmetrised):
    """A discrete Laplace or discrete Gaussian event on batches of m of n records drawn without replacement
    (replace-one, γ = m/n in (0, 1), integer sensitivity s >= 1): the symmetrised pair (:class:`Symmetrised`) of

        A = (1 − γ)·N + γ·N_{2s},   B = N,   ℓ_AB(x) = log(1 − γ + γ·e^{ℓ₁(x)}),   ℓ₁(x) = log(N_{2s}(x)/N(x)),

    N the noise on the integers centred at 0 and N_c its shift by c: (A, B) is the add/remove discrete pair of
    shift 2s sampled at q = γ (:class:`DiscreteLaplace`, :class:`DiscreteGaussian`), whose buckets j >= 0 are the
    AB buckets.

    Why (proof sketch).  On a fixed batch a replacement moves the integer value by some c with |c| <= 2s (each
    record adds at most s).  N is symmetric and log-concave, so {N_c} has a monotone likelihood ratio: the most
    powerful tests of N against N_c are thresholds (randomised on the integers), whose power grows with c, so
    T(N, N_c) >= T(N, N_{2s}) for 0 <= c <= 2s, and for −2s <= c < 0 by x ↦ −x; the other order the same way
    (T(N_c, N) = T(N, N_{−c}), shifting by −c).  So the step is f-DP with f = T(N, N_{2s}), which is symmetric:
    x ↦ 2s − x maps N to N_{2s} and N_{2s} to N, so T(N_{2s}, N) = f.  Dong–Roth–Su (Theorem 4.2) make the
    sampled step C_γ(f)-DP, f_γ = γ·f + (1 − γ)·Id = T(B, A) (mixing a share 1 − γ of B into the alternative),
    and the ordering lemma of :class:`Symmetrised` gives (X, Y) from (A, B).

    The atom at 0.  ℓ₁ is non-decreasing, 0 exactly at x = s and positive exactly at x > s (the discrete
    Laplace: a·(|x| − |x − 2s|); the discrete Gaussian: 2s·(x − s)/σ²), so ℓ_AB = 0 at the one output x = s,
    of mass N(s) under both laws (N_{2s}(s) = N(−s) = N(s)): that mass sits in AB bucket 0 (placed exactly,
    :mod:`.discrete`) and belongs to the atom m0 of (X, Y), so :meth:`atoms` hands it back to be taken out of
    AB bucket 0 before the mirror (else it would be counted three times).  With T = N(x > s) = N(x < −s),
    A(x > s) = (1 − γ)·T + γ·(1 − T − N(s)) and B(x > s) = T, so

        m0 = 1 − A(ℓ_AB > 0) − B(ℓ_AB > 0) = (1 − γ)·N(|x| <= s) + γ·N(s).

    Every other atom has ℓ₁ = c ≠ 0 rational and the value log(1 − γ + γ·e^c), never a grid level (Lindemann,
    :mod:`.discrete`), so the mirrored buckets (jh, (j+1)h] hold the masses of [jh, (j+1)h) minus that atom.

    The work is (A, B)'s own (:func:`discrete_work` over the range's buckets, sampled, the atoms of shift 2s):
    the masses at the levels 0 ... H of [−H, H], and the centre's few enclosures from the same kernel.
    """

    __slots__ = ("gamma", "noise", "sensitivity")
    mechanism = None

    def __init__(self, gamma, noise, sensitivity):
        self.gamma, self.noise, self.sensitivity = Fraction(gamma), Fraction(noise), int(sensitivity)

    def __repr__(self):
        return f"{type(self).__name__}(gamma={self.gamma}, noise={self.noise}, sensitivity={self.sensitivity})"

    def guard_bits(self):
        return self._ab().guard_bits()

    def parts(self):
        return bits(self.gamma) + bits(self.noise) + bits(self.sensitivity)

    def mass_work(self, n, W, parts):
        return self._ab().mass_work(n, W, parts)

    def _centre(self, W):
        """(Wt, N(s), N(|x| <= s)) over 2^Wt (:mod:`.discrete`)."""
        raise NotImplementedError

    def atom(self, W):
        return self.atoms(W)[:2]

    def atoms(self, W):
        """(Wt, m0, N(s)): m0 = (1 − γ)·N(|x| <= s) + γ·N(s), and the mass N(s) of ℓ_AB = 0 under A and B."""
        Wt, point, central = self._centre(W)
        return Wt, discrete._mix(self.gamma, central, point), point


class WithoutReplacementDiscreteLaplace(_WithoutReplacementDiscrete):
    """``discrete_laplace_without_replacement``: N = DLap(a), pmf tanh(a/2)·e^{−a|x|}
    (:class:`_WithoutReplacementDiscrete`).  (A, B) has the 2s + 1 atoms x <= 0, 0 < x < 2s, x >= 2s; the loss
    is bounded, |ℓ| <= log(1 − γ + γ·e^{2as}).  With r = e^{−a}: N(s) = tanh(a/2)·r^s,
    N(|x| <= s) = 1 − 2·r^{s+1}/(1 + r)."""

    __slots__ = ()
    mechanism = "discrete_laplace_without_replacement"

    def _ab(self):
        return DiscreteLaplace(self.gamma, self.noise, 2 * self.sensitivity)

    def _centre(self, W):
        return discrete.laplace_centre(self.noise, self.sensitivity, W)


class WithoutReplacementDiscreteGaussian(_WithoutReplacementDiscrete):
    """``discrete_gaussian_without_replacement``: N = N_Z(0, σ²), pmf e^{−x²/(2σ²)}/Z
    (:class:`_WithoutReplacementDiscrete`); the loss is unbounded.  N(s) = e^{−s²/(2σ²)}/Z and
    N(|x| <= s) = Σ_{|x|<=s} e^{−x²/(2σ²)}/Z from the kernel and the enclosure of Z of (A, B) itself."""

    __slots__ = ()
    mechanism = "discrete_gaussian_without_replacement"

    def _ab(self):
        return DiscreteGaussian(self.gamma, self.noise, 2 * self.sensitivity)

    def _centre(self, W):
        return discrete.gaussian_centre(self.noise, self.sensitivity, W)


# ---- the bounded losses ---------------------------------------------------------------------------------------

class Laplace:
    """``laplace`` under add/remove: (1 − q)·L(0, b) + q·L(1, b) against L(0, b) (:mod:`.bounded`)."""

    __slots__ = ("q", "scale")

    def __init__(self, q, scale):
        self.q, self.scale = Fraction(q), Fraction(scale)

    def __repr__(self):
        return f"Laplace(q={self.q}, scale={self.scale})"

    def guard_bits(self):
        """v = e^y − (1 − q) >= q·e^{−1/b} in fixed point: bits(1/q) + log2 e/b < 3/(2b) bits."""
        q = self.q
        return 24 + (q.denominator // q.numerator).bit_length() + ceil(Fraction(3, 2) / self.scale)

    def parts(self):
        return bits(self.q) + bits(self.scale)

    def mass_work(self, n, W, parts):
        return work(n, W, parts, BOUNDED_NS)

    def bucket_masses(self, N, lo, hi, W, pointer):
        return (W,) + bounded.laplace_masses(self.q, self.scale, N, lo, hi, W, pointer)


class RandomizedResponse:
    """``randomized_response``: under replace-one the output laws of two of the k buckets, under replace_special
    (``special``) the output law of one bucket against the special record's uniform one (:mod:`.bounded`)."""

    __slots__ = ("noise", "buckets", "special")

    def __init__(self, noise, buckets, special=False):
        self.noise, self.buckets, self.special = Fraction(noise), buckets, special

    def __repr__(self):
        return f"RandomizedResponse(noise={self.noise}, buckets={self.buckets}, special={self.special})"

    def guard_bits(self):
        return 24

    def parts(self):
        return bits(self.noise) + self.buckets.bit_length()

    def mass_work(self, n, W, parts):
        return work(n, W, parts, BOUNDED_NS)

    def bucket_masses(self, N, lo, hi, W, pointer):
        masses = bounded.special_response_masses if self.special else bounded.randomized_response_masses
        return (W,) + masses(self.noise, self.buckets, N, lo, hi, W, pointer)


# ---- the discrete pairs --------------------------------------------------------------------------------------

class DiscreteLaplace:
    """``discrete_laplace``: (1 − q)·N + q·N_d against N, N = DLap(a) and N_d its shift by d (:mod:`.discrete`)."""

    __slots__ = ("q", "parameter", "shift")

    def __init__(self, q, parameter, shift):
        self.q, self.parameter, self.shift = Fraction(q), Fraction(parameter), int(shift)

    def __repr__(self):
        return f"DiscreteLaplace(q={self.q}, parameter={self.parameter}, shift={self.shift})"

    def guard_bits(self):
        """The declared guard with s = 1: the masses carry their own extra bits (:mod:`.discrete`)."""
        return declared_guard(self.q, 1)

    def parts(self):
        return bits(self.q) + bits(self.parameter) + bits(self.shift)

    def mass_work(self, n, W, parts):
        return discrete_work(n, self.shift + 1, W, parts, self.q < 1)

    def bucket_masses(self, N, lo, hi, W, pointer):
        return discrete.discrete_laplace_masses(self.q, self.parameter, self.shift, N, lo, hi, W, pointer)


class DiscreteGaussian:
    """``discrete_gaussian``: (1 − q)·N + q·N_d against N, N = N_Z(0, σ²) and N_d its shift by d (:mod:`.discrete`)."""

    __slots__ = ("q", "sigma_squared", "shift")

    def __init__(self, q, sigma_squared, shift):
        self.q, self.sigma_squared, self.shift = Fraction(q), Fraction(sigma_squared), int(shift)

    def __repr__(self):
        return f"DiscreteGaussian(q={self.q}, sigma_squared={self.sigma_squared}, shift={self.shift})"

    def guard_bits(self):
        """The declared guard with s = 1: the masses carry their own extra bits (:mod:`.discrete`)."""
        return declared_guard(self.q, 1)

    def parts(self):
        return bits(self.q) + bits(self.sigma_squared) + bits(self.shift)

    def mass_work(self, n, W, parts):
        return discrete_work(n, discrete.atom_count(self.sigma_squared, self.shift, W), W, parts, self.q < 1)

    def bucket_masses(self, N, lo, hi, W, pointer):
        return discrete.discrete_gaussian_masses(self.q, self.sigma_squared, self.shift, N, lo, hi, W, pointer)


class ReplaceDiscreteLaplace:
    """``discrete_laplace`` under replace-one, q in (0, 1): (1 − q)·N + q·N_s against (1 − q)·N + q·N_{−s},
    N = DLap(a), s the sensitivity (:mod:`.discrete`: 2s + 1 atoms)."""

    __slots__ = ("q", "parameter", "sensitivity")

    def __init__(self, q, parameter, sensitivity):
        self.q, self.parameter, self.sensitivity = Fraction(q), Fraction(parameter), int(sensitivity)

    def __repr__(self):
        return f"ReplaceDiscreteLaplace(q={self.q}, parameter={self.parameter}, sensitivity={self.sensitivity})"

    def guard_bits(self):
        """The declared guard with s = 1, as the other discrete pairs'."""
        return declared_guard(self.q, 1)

    def parts(self):
        return bits(self.q) + bits(self.parameter) + bits(self.sensitivity)

    def mass_work(self, n, W, parts):
        return discrete_work(n, 2 * self.sensitivity + 1, W, parts, True)

    def bucket_masses(self, N, lo, hi, W, pointer):
        return discrete.replace_discrete_laplace_masses(self.q, self.parameter, self.sensitivity, N, lo, hi, W,
                                                        pointer)


class ReplaceDiscreteGaussian:
    """``discrete_gaussian`` under replace-one, q in (0, 1): (1 − q)·N + q·N_s against (1 − q)·N + q·N_{−s},
    N = N_Z(0, σ²), s the sensitivity (:mod:`.discrete`: the atoms −m − s ... m + s)."""

    __slots__ = ("q", "sigma_squared", "sensitivity")

    def __init__(self, q, sigma_squared, sensitivity):
        self.q, self.sigma_squared, self.sensitivity = Fraction(q), Fraction(sigma_squared), int(sensitivity)

    def __repr__(self):
        return (f"ReplaceDiscreteGaussian(q={self.q}, sigma_squared={self.sigma_squared}, "
                f"sensitivity={self.sensitivity})")

    def guard_bits(self):
        """The declared guard with s = 1, as the other discrete pairs'."""
        return declared_guard(self.q, 1)

    def parts(self):
        return bits(self.q) + bits(self.sigma_squared) + bits(self.sensitivity)

    def mass_work(self, n, W, parts):
        return discrete_work(n, discrete.atom_count(self.sigma_squared, 2 * self.sensitivity, W), W, parts, True)

    def bucket_masses(self, N, lo, hi, W, pointer):
        return discrete.replace_discrete_gaussian_masses(self.q, self.sigma_squared, self.sensitivity, N, lo, hi, W,
                                                         pointer)


# ---- from a stage mechanism to its pair --------------------------------------------------------------------------

ADD_OR_REMOVE, REPLACE = "add_or_remove_one", "replace_one"


def gaussian(sigma, q, relation):
    """The pair of a ``gaussian`` stage (q > 0)."""
    if relation == ADD_OR_REMOVE:
        return SampledGaussian(q, sigma)
    if q == 1:
        return SampledGaussian(1, Fraction(sigma) / 2)    # N(1, σ²) vs N(−1, σ²) is N(1, σ²/4) vs N(0, σ²/4)
    return ReplaceGaussian(q, sigma)


def gaussian_composition(sigma_squared, q, relation):
    """The pair of a ``gaussian_composition`` stage (q in (0, 1)), given by σ² (σ irrational in general): the
    sampled Gaussian of noise σ = √σ² (:class:`SampledGaussian`) under add/remove, the replace-one sampled Gaussian
    (:class:`ReplaceGaussian`) under replace-one."""
    if relation == ADD_OR_REMOVE:
        return SampledGaussian(q, sigma_squared=sigma_squared)
    return ReplaceGaussian(q, sigma_squared=sigma_squared)


def mixture(sigma, sensitivities, probabilities, q):
    """The pair of a ``mixture_of_gaussians`` stage (add/remove; distinct Δ, some positive)."""
    weights = {}
    for d, p in zip(sensitivities, probabilities):
        weights[Fraction(d)] = weights.get(Fraction(d), Fraction(0)) + Fraction(q) * Fraction(p)
    weights[Fraction(0)] = weights.get(Fraction(0), Fraction(0)) + 1 - Fraction(q)
    components = sorted((d, a) for d, a in weights.items() if a > 0)
    positive = [(d, a) for d, a in components if d > 0]
    if len(positive) == 1:
        d, a = positive[0]
        return SampledGaussian(a, Fraction(sigma) / d)
    return GaussianMixture(sigma, components)


def without_replacement(sigma, gamma):
    """The pair of a ``gaussian_without_replacement`` stage (replace-one, γ in (0, 1); γ = 1 reads as the
    ``gaussian`` stage of sampling 1)."""
    return WithoutReplacementGaussian(gamma, sigma)


def composition_without_replacement(sigma_squared, gamma):
    """The pair of a ``gaussian_composition_without_replacement`` stage (replace-one, γ in (0, 1)): the symmetrised
    pair of ``gaussian_without_replacement`` at σ = √σ², given by σ² (:class:`WithoutReplacementGaussian`)."""
    return WithoutReplacementGaussian(gamma, sigma_squared=sigma_squared)


def laplace_without_replacement(scale, gamma):
    """The pair of a ``laplace_without_replacement`` stage (replace-one, γ in (0, 1); γ = 1 reads as the ``laplace``
    stage of sampling 1)."""
    return WithoutReplacementLaplace(gamma, scale)


def discrete_laplace_without_replacement(parameter, sensitivity, gamma):
    """The pair of a ``discrete_laplace_without_replacement`` stage (replace-one, γ in (0, 1), s >= 1; γ = 1 reads
    as the ``discrete_laplace`` stage of sampling 1)."""
    return WithoutReplacementDiscreteLaplace(gamma, parameter, sensitivity)


def discrete_gaussian_without_replacement(sigma_squared, sensitivity, gamma):
    """The pair of a ``discrete_gaussian_without_replacement`` stage (as above)."""
    return WithoutReplacementDiscreteGaussian(gamma, sigma_squared, sensitivity)


def laplace(scale, q, relation):
    """The pair of a ``laplace`` stage (q > 0; replace-one: q = 1 the add/remove pair of scale b/2, q < 1
    :class:`auditor.pld.bounded.ReplaceLaplace`)."""
    if relation == ADD_OR_REMOVE:
        return Laplace(q, scale)
    if q < 1:
        return bounded.ReplaceLaplace(q, scale)
    return Laplace(1, Fraction(scale) / 2)


def randomized_response(noise, buckets, special=False):
    return RandomizedResponse(noise, buckets, special)


def discrete_laplace(parameter, sensitivity, q, relation):
    """The pair of a ``discrete_laplace`` stage: shift s under add/remove; under replace-one the add/remove pair of
    shift 2s at q = 1, :class:`ReplaceDiscreteLaplace` at q < 1."""
    if relation == ADD_OR_REMOVE:
        return DiscreteLaplace(q, parameter, sensitivity)
    if q < 1:
        return ReplaceDiscreteLaplace(q, parameter, sensitivity)
    return DiscreteLaplace(1, parameter, 2 * sensitivity)


def discrete_gaussian(sigma_squared, sensitivity, q, relation):
    """The pair of a ``discrete_gaussian`` stage: shift s under add/remove; under replace-one the add/remove pair of
    shift 2s at q = 1, :class:`ReplaceDiscreteGaussian` at q < 1."""
    if relation == ADD_OR_REMOVE:
        return DiscreteGaussian(q, sigma_squared, sensitivity)
    if q < 1:
        return ReplaceDiscreteGaussian(q, sigma_squared, sensitivity)
    return DiscreteGaussian(1, sigma_squared, 2 * sensitivity)
