"""δ(ε) of a heterogeneous plain composition through the law of the total privacy loss.

Each release r compares N_r with N_r(· − s_r); the composition of all of them is
dominated by the product pair P = ⊗ N_r, Q = ⊗ N_r(· − s_r), and
δ(ε) = Σ_x (P(x) − e^ε Q(x))₊ = Σ_x P(x)(1 − e^{ε − ℓ(x)})₊ with the privacy
loss ℓ(x) = log P(x)/Q(x) = Σ_r ℓ_r(x_r).  Per coordinate:

- discrete Gaussian σ², sensitivity s: ℓ(x) = (s² − 2sx)/(2σ²), so a block of
  k such coordinates with sum S has loss (k s² − 2sS)/(2σ²): steps of s/σ²
  in S (the law of S: :func:`producer.plain.gaussian.sum_law`, truncated and
  pruned);
- discrete Laplace t, sensitivity s (a = e^{−1/t}): ℓ(x) = (|x − s| − |x|)/t
  = (s − 2J)/t with J = clamp(x, 0, s), P(J = 0) = 1/(1 + a),
  P(J = j) = (1 − a)a^j/(1 + a) for 0 < j < s, P(J = s) = a^s/(1 + a)
  (these add up to 1 exactly); a block of k has loss (ks − 2ΣJ)/t, steps of 2/t.

Every step is a positive rational, so all losses lie on the lattice c + g·n with
g the gcd of the steps (gcd of the numerators over the lcm of the denominators)
and each block's law is a polynomial in z^{g_r/g}.  Their product, pruned at both
ends after each factor, gives V_n = P(R ∩ {ℓ = c + gn}) for one finite set R
(dropping a coefficient drops the points whose partial loss lands there), so

    lower := Σ_{n: c+gn > ε} V_n (1 − e^{ε − c − gn})  <=  δ(ε)  <=  lower + 1 − Σ_n V_n,

as in :mod:`producer.plain.gaussian`.  Without a discrete Gaussian nothing is
truncated or pruned: R is everything and the missing mass is exactly 0 (so
δ(ε) = 0 exactly when no lattice point has loss > ε).  The sum is
U_{n₀} − e^ε·B_{n₀} from suffix sums U_n = Σ_{m>=n} V_m, B_n = Σ_{m>=n} V_m e^{−c−gm},
every term positive, accumulated from the small end.
"""

from math import gcd

from flint import arb, arb_poly
from gmpy2 import mpq

from producer.errors import LimitError
from producer.plain import gaussian
from producer.plain.enclose import GAUSSIAN
from producer.sources.enclosures import to_arb, working_precision

TRUNCATION_SHARE = 16   # Σ over the Gaussian blocks of k·P(|X| > L) <= W/16
PRUNING_SHARE = 16      # all pruned mass <= W/16 (half inside the blocks, half between them)


def _lcm(a, b):
    return a * b // gcd(a, b)


def _step(release):
    """The block's loss step: s/σ² (discrete Gaussian) or 2/t (discrete Laplace)."""
    if release.family == GAUSSIAN:
        return mpq(release.sensitivity) / release.parameter
    return mpq(2) / release.parameter


def lattice_step(releases):
    """g: the gcd of the steps (exact; every step is an integer multiple of it)."""
    steps = [_step(r) for r in releases]
    numerator, denominator = 0, 1
    for step in steps:
        numerator, denominator = gcd(numerator, int(step.numerator)), _lcm(denominator, int(step.denominator))
    return mpq(numerator, denominator)


class LatticePlan:
    """The truncation radii and the estimated lattice length of a request at absolute target w (no arb work)."""

    def __init__(self, releases, target):
        self.releases, self.target = releases, mpq(target)
        self.gaussian = any(r.family == GAUSSIAN for r in releases)
        count = sum(1 for r in releases if r.family == GAUSSIAN)
        self.radii = [gaussian.truncation_radius(r.parameter, r.count, self.target / (TRUNCATION_SHARE * count))
                      if r.family == GAUSSIAN else None for r in releases]
        self.step = lattice_step(releases)
        self.length = 1 + sum(int(_step(r) / self.step) * (self._block_length(r, L) - 1)
                              for r, L in zip(releases, self.radii))

    @staticmethod
    def _block_length(release, radius):
        if release.family == GAUSSIAN:
            return gaussian.estimated_length(radius, release.count)
        return release.count * release.sensitivity + 1


def _laplace_block(release):
    """(c, coefficients by increasing loss) of k discrete-Laplace coordinates (current precision)."""
    t, s, k = release.parameter, release.sensitivity, release.count
    a = to_arb(-1 / t).exp()
    first = 1 / (1 + a)
    one = [first] + [(1 - a) * a ** j * first for j in range(1, s)] + [a ** s * first]
    power = (arb_poly(one) ** k).coeffs()          # index J = ΣJ_i, loss (ks − 2J)/t
    power += [arb(0)] * (k * s + 1 - len(power))   # trailing exact zeros, if any were trimmed
    return mpq(-k * s) / t, power[::-1]            # increasing loss: J from ks down to 0


def _gaussian_block(release, radius, prune):
    """(c, coefficients by increasing loss) of k discrete-Gaussian coordinates (current precision)."""
    sigma2, s, k = release.parameter, release.sensitivity, release.count
    law = gaussian.sum_law(sigma2, k, radius, prune)
    top = law.offset + len(law.coefficients) - 1    # the largest S: the smallest loss
    return (mpq(k * s * s) - 2 * s * top) / (2 * sigma2), law.coefficients[::-1]


def _spaced(coefficients, spacing):
    if spacing == 1:
        return list(coefficients)
    out = [arb(0)] * ((len(coefficients) - 1) * spacing + 1)
    out[::spacing] = coefficients
    return out


class LossLaw:
    """V_n on the lattice c + gn, built once at ``bits`` bits; :meth:`at` gives the balls of one ε."""

    def __init__(self, plan, bits):
        self.plan, self.bits, g = plan, bits, plan.step
        prune = plan.target / (2 * PRUNING_SHARE * len(plan.releases))
        with working_precision(bits):
            coefficients, base = [arb(1)], mpq(0)
            for release, radius in zip(plan.releases, plan.radii):
                if release.family == GAUSSIAN:
                    c, block = _gaussian_block(release, radius, prune)
                else:
                    c, block = _laplace_block(release)
                base += c
                coefficients = (arb_poly(coefficients) * arb_poly(_spaced(block, int(_step(release) / g)))).coeffs()
                if plan.gaussian:
                    coefficients, shift = gaussian._prune(coefficients, 0, to_arb(prune))
                    base += shift * g
            self.base, self.suffix_u, self.suffix_b = base, *self._suffixes(coefficients, base, g)
            self.missing = 1 - self.suffix_u[0] if plan.gaussian else None

    @staticmethod
    def _suffixes(coefficients, base, g):
        n = len(coefficients)
        u, b = [arb(0)] * (n + 1), [arb(0)] * (n + 1)
        weight, up = to_arb(-(base + g * (n - 1))).exp(), to_arb(g).exp()   # e^{−c−gm}, m = n − 1 down to 0
        for m in range(n - 1, -1, -1):
            u[m] = u[m + 1] + coefficients[m]
            b[m] = b[m + 1] + coefficients[m] * weight
            weight *= up
        return u, b

    def at(self, epsilon):
        """(lower ball or None, missing ball or None): δ(ε) ∈ [lower.lower, lower.upper + missing.upper];
        None for an exact zero (no lattice point above ε; no missing mass without a discrete Gaussian)."""
        q = (mpq(epsilon) - self.base) / self.plan.step
        first = max(0, int(q.numerator // q.denominator) + 1)   # the least n with c + gn > ε
        if first >= len(self.suffix_u) - 1:
            return None, self.missing
        with working_precision(self.bits):
            return self.suffix_u[first] - to_arb(mpq(epsilon)).exp() * self.suffix_b[first], self.missing


def check_work(plan, bits, limit):
    if plan.length * bits > limit:
        raise LimitError(f"the composition's loss law would need about {plan.length} lattice points of {bits} "
                         f"bits (common loss step {plan.step}), above the limit of {limit} coefficient-bits; "
                         f"ask for a larger width or fewer or more commensurable releases")
