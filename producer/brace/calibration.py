"""Gaussian calibration of BRACE.

(*BRACE: Differential Privacy for Dense Associative Memory with LSR Energy*, Appendix C.2, eq. (8).)

With L = log(1/δ):

    ρ = (sqrt(L + ε) - sqrt(L))^2 = ε^2 / (sqrt(L + ε) + sqrt(L))^2,
    α = 1 + sqrt(L / ρ),
    eq. (8):  γ' <= 1/4,   γ' <= 1 / (8(α - 1)),
              γ' <= N(α) / ((α - 1)(8 α (α - 1) ρ + 5 T d)),
              N(α) = α log α - (α - 1) log(α - 1).

Under eq. (8) for the smoothness γ'_t of every step's noise scale, the
per-step Rényi divergence of order α is at most αρ/T + (8α(α-1)ρ/T + 5d)γ'_t;
summing over T steps and converting (Balle et al. 2020) gives
δ_HS(ε) <= δ.  Every constant is published as a certified dyadic enclosure
computed with ``arb``.
"""

from gmpy2 import mpq

from producer.brace.enclosures import outward, precision, to_arb
from producer.errors import InputError

QUARTER = mpq(1, 4)
AUTO_GAMMA_DENOMINATOR = 10 ** 12  # --gamma auto is a multiple of 1e-12
AUTO_GAMMA_MARGIN = mpq(1, 2 ** 60)  # room for the bracket inflation γ' - γ


class Calibration:
    """Certified enclosures of ρ, α and the eq. (8) bounds for (ε, δ, T, d)."""

    __slots__ = ("epsilon", "delta", "horizon", "dimension", "log_inv_delta", "rho",
                 "alpha", "bound_alpha", "bound_divergence", "admissible")

    def __init__(self, epsilon, delta, horizon, dimension):
        epsilon, delta = mpq(epsilon), mpq(delta)
        if epsilon <= 0:
            raise InputError(f"epsilon: must be positive, got {epsilon}")
        if not 0 < delta < 1:
            raise InputError(f"delta: must lie in (0, 1), got {delta}")
        self.epsilon, self.delta = epsilon, delta
        self.horizon, self.dimension = int(horizon), int(dimension)
        with precision():
            L = to_arb(1 / delta).log()
            eps = to_arb(epsilon)
            rho = eps * eps / ((L + eps).sqrt() + L.sqrt()) ** 2
            am1 = (L / rho).sqrt()
            alpha = 1 + am1
            b_alpha = 1 / (8 * am1)
            num = alpha * alpha.log() - am1 * am1.log()
            den = am1 * (8 * alpha * am1 * rho + 5 * self.horizon * self.dimension)
            F = num / den
            self.log_inv_delta = outward(L)
            self.rho = outward(rho)
            self.alpha = outward(alpha)
            self.bound_alpha = outward(b_alpha)
            self.bound_divergence = outward(F)
        self.admissible = min(QUARTER, self.bound_alpha[0], self.bound_divergence[0])

    @classmethod
    def from_request(cls, epsilon, delta, horizon, dimension):
        return cls(epsilon, delta, horizon, dimension)

    @property
    def rho_lower(self):
        """The public ρ̲ <= ρ used in every noise variance T s^2 / (2 ρ̲)."""
        return self.rho[0]

    def holds(self, gamma_prime):
        """Whether eq. (8) is certified for a smoothness γ' (an upper bound)."""
        return 0 <= gamma_prime <= self.admissible

    def auto_gamma(self):
        """The largest multiple of 1e-12 that leaves AUTO_GAMMA_MARGIN below
        the certified admissible bound (the margin absorbs γ' - γ)."""
        x = (self.admissible - AUTO_GAMMA_MARGIN) * AUTO_GAMMA_DENOMINATOR
        n = x.numerator // x.denominator
        if n <= 0:
            raise InputError("gamma auto: no positive gamma satisfies eq. (8) for these (epsilon, delta, T, d)")
        return mpq(n, AUTO_GAMMA_DENOMINATOR)

    def variance_constant(self):
        """C = T / (2 ρ̲): every BRACE step draws noise of variance C s_t^2."""
        return mpq(self.horizon) / (2 * self.rho_lower)


TABLE_DELTA = mpq(1, 100000)  # δ = 10^-5 of the paper's MNIST settings (docs/brace.md)


def gamma_table_rows(epsilons=(16, 32, 64), delta=TABLE_DELTA, horizons=(3, 5, 7), dimension=2,
                     paper_gamma="0.25"):
    """Markdown rows of the largest admissible γ under eq. (8) (docs/brace.md):
    ε, T, certified enclosure of min(1/4, 1/(8(α-1)), F) shown to 9 decimals
    (rounded outward), the binding constraint, and the paper's γ."""
    from producer.rationals import decimal_outward
    rows = []
    for eps in epsilons:
        for T in horizons:
            c = Calibration(eps, delta, T, dimension)
            lo = c.admissible
            hi = min(QUARTER, c.bound_alpha[1], c.bound_divergence[1])
            binding = "divergence" if c.bound_divergence[1] < min(QUARTER, c.bound_alpha[0]) else "other"
            ok = "no" if mpq(paper_gamma) > hi else "yes"
            rows.append(f"| {eps} | {T} | {decimal_outward(c.rho[0], 6, -1)} | "
                        f"{decimal_outward(c.alpha[0], 6, -1)} | "
                        f"[{decimal_outward(lo, 9, -1)}, {decimal_outward(hi, 9, 1)}] | {binding} | "
                        f"{paper_gamma} | {ok} |")
    return rows
