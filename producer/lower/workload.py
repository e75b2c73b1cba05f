"""The static-workload matrix program and the G.6 identity: the mathematics of ``workload/1``.

Matrix mechanism (*Exact Compilation and Resource Laws for Hidden Integer
Feedback*, §7.4 and Appendix J.1; the certificate is
:mod:`producer.kinds.workload`): strategy A = d·I + e·J (n × n), one
finite DG draw per strategy coordinate (σ², scale S, every atom with
floor(S·g(n)) >= 1), public reconstruction.  Zeroing one record moves A·x by a
column of A, of squared norm ‖h‖² = (d + e)² + (n − 1)e².  For the ideal DG the
Rényi moment is E_P[(dP/dQ)^θ] = exp(θ(θ+1)‖h‖²/(2σ²)) (θ·h integral), and
(1 − t^{-1})_+ <= θ^θ t^θ/(θ+1)^{θ+1} gives

    δ_g(ε) <= θ^θ/(θ+1)^{θ+1} · exp(−θε + θ(θ+1)‖h‖²/(2σ²)).

The finite source couples each of the n draws with TV <= τ, adding
(1 + e^ε)·n·τ.  The workload matrix W itself is not given in the paper, so
no MSE figure is computed here (docs/lower-certificates.md §4).

G.6 identity (the paper's Appendix G.6): K_t = −γK_{t−1} + M_t with martingale differences of variance
v + E[r_t(1 − r_t)], r_t = {γK_{t−1}}, so for a centred law

    E(Σ_t h_t K_t)² = Σ_j c_j²·(v + E[r_j(1 − r_j)]),  c_j = Σ_{t>=j} h_t(−γ)^{t−j};

:func:`mean_square_by_paths` computes the left side by exact enumeration of
the joint law, :func:`identity_right_side` the right side.
"""

from gmpy2 import mpq

from producer.errors import InputError, LimitError
from producer.laws import FiniteLaw, Gamma
from producer.rationals import format_rational
from producer.sources.discrete_gaussian import DiscreteGaussianSource
from producer.sources.enclosures import exp_enclosure

MAX_IDENTITY_STEPS = 6
MAX_IDENTITY_LAW = 9


def column_norm2(dimension, diagonal, ones):
    """Squared norm of a column of d·I + e·J: (d + e)² + (n − 1)·e²."""
    return (diagonal + ones) ** 2 + (dimension - 1) * ones ** 2


def inverse_coefficients(dimension, diagonal, ones):
    """(α, β) with (d·I + e·J)^{-1} = α·I + β·J: α = 1/d, β = −e/(d(d + n·e)) (J² = n·J)."""
    diagonal, ones = mpq(diagonal), mpq(ones)
    if diagonal == 0 or diagonal + dimension * ones == 0:
        raise InputError("strategy: d·I + e·J is singular")
    return 1 / diagonal, -ones / (diagonal * (diagonal + dimension * ones))


def positive_radius_fast(sigma2, scale):
    """The largest n with w_n >= 1 (every positive atom): double L until the edge atom is 0, then read it off."""
    L = 8
    while DiscreteGaussianSource.from_radius_scale(sigma2, L, scale).weights[-1] > 0:
        L *= 2
        if L > 2048:
            raise LimitError("source: more than 2048 positive atoms on each side")
    weights = DiscreteGaussianSource.from_radius_scale(sigma2, L, scale).weights
    half = weights[L:]
    return max(n for n, w in enumerate(half) if w > 0)


def gaussian_term_upper(theta, epsilon, norm2, sigma2):
    """A rational >= θ^θ/(θ+1)^{θ+1}·exp(−θε + θ(θ+1)·norm2/(2σ²)) (arb, read upward)."""
    theta = int(theta)
    exponent = -theta * mpq(epsilon) + mpq(theta * (theta + 1) * norm2) / (2 * mpq(sigma2))
    return mpq(theta ** theta, (theta + 1) ** (theta + 1)) * exp_enclosure(exponent, bits=192).hi


def law_variance(law):
    """v = Σ z² w_z / S for a centred law (raises if Σ z w_z != 0)."""
    first = sum(z * law.weight(z) for z in range(law.low, law.high + 1))
    if first != 0:
        raise InputError(f"identity law {law!r} is not centred (Σ z·w_z = {int(first)})")
    return mpq(sum(z * z * law.weight(z) for z in range(law.low, law.high + 1)), law.total)


def _transition(law, gamma, k):
    """(next state, probability) pairs of K' = η − floor((a·k + U)/B)."""
    out = {}
    for u in range(gamma.B):
        f = (gamma.a * k + u) // gamma.B
        for z in range(law.low, law.high + 1):
            w = law.weight(z)
            if w:
                out[z - f] = out.get(z - f, mpq(0)) + mpq(w, law.total * gamma.B)
    return out


def mean_square_by_paths(law, gamma, h):
    """E(Σ_t h_t K_t)² from K_0 = 0 by exact enumeration of (K_t, partial sum)."""
    dist = {(0, mpq(0)): mpq(1)}
    for weight in h:
        new = {}
        for (k, s), p in dist.items():
            for n, w in _transition(law, gamma, k).items():
                key = (n, s + weight * n)
                new[key] = new.get(key, mpq(0)) + p * w
        dist = new
    return sum((p * s * s for (_, s), p in dist.items()), mpq(0))


def identity_right_side(law, gamma, h):
    """(c, residual variances, v, Σ_j c_j²(v + E[r_j(1 − r_j)]))."""
    g = mpq(gamma.a, gamma.B)
    n = len(h)
    c = [sum((h[t] * (-g) ** (t - j) for t in range(j, n)), mpq(0)) for j in range(n)]
    v = law_variance(law)
    marginal = {0: mpq(1)}
    residual = []
    for _ in range(n):
        residual.append(sum((p * _frac(g * k) * (1 - _frac(g * k)) for k, p in marginal.items()), mpq(0)))
        new = {}
        for k, p in marginal.items():
            for m, w in _transition(law, gamma, k).items():
                new[m] = new.get(m, mpq(0)) + p * w
        marginal = new
    total = sum((cj * cj * (v + rj) for cj, rj in zip(c, residual)), mpq(0))
    return c, residual, v, total


def _frac(q):
    return q - (q.numerator // q.denominator)


class IdentityCase:
    """One G.6 check: γ, a centred finite law, weights h."""

    def __init__(self, gamma, weights, offset, h):
        self.gamma = gamma if isinstance(gamma, Gamma) else Gamma.from_string(gamma)
        self.law = FiniteLaw(weights, offset)
        self.h = [mpq(x) for x in h]
        if not 1 <= len(self.h) <= MAX_IDENTITY_STEPS:
            raise LimitError(f"identity: 1..{MAX_IDENTITY_STEPS} steps, got {len(self.h)}")
        if len(self.law.weights) > MAX_IDENTITY_LAW:
            raise LimitError(f"identity: at most {MAX_IDENTITY_LAW} weights, got {len(self.law.weights)}")
        law_variance(self.law)

    def as_json(self):
        return {"gamma": str(self.gamma), "law": self.law.as_json(),
                "h": [format_rational(x) for x in self.h]}

    def result_json(self):
        c, residual, v, total = identity_right_side(self.law, self.gamma, self.h)
        lhs = mean_square_by_paths(self.law, self.gamma, self.h)
        if lhs != total:
            raise ArithmeticError(f"G.6 identity fails on {self.law!r}: {lhs} != {total}")
        return {"gamma": str(self.gamma), "law": self.law.as_json(), "steps": len(self.h),
                "h": [format_rational(x) for x in self.h], "c": [format_rational(x) for x in c],
                "residual_variance": [format_rational(x) for x in residual],
                "variance": format_rational(v), "mean_square": format_rational(lhs)}


def analytic_gaussian_delta(s, epsilon, bits=192):
    """Enclosure of d_s(ε) = N(1/(2s) − εs) − e^ε·N(−1/(2s) − εs) (the paper's Appendix J.2; N the normal CDF).

    N(t) = erfc(−t/√2)/2, evaluated with arb balls.
    """
    from flint import arb
    from producer.sources.enclosures import enclosure_of, to_arb, working_precision
    s, epsilon = mpq(s), mpq(epsilon)
    with working_precision(bits):
        S, E = to_arb(s), to_arb(epsilon)
        root2 = arb(2).sqrt()

        def normal_cdf(t):
            return (-t / root2).erfc() / 2

        return enclosure_of(normal_cdf(1 / (2 * S) - E * S) - E.exp() * normal_cdf(-1 / (2 * S) - E * S))
