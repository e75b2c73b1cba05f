"""The auditor's enclosures of ρ, α and the eq. (8) bounds (paper App. C.2).

L = log(1/δ), ρ = ε^2 / (sqrt(L+ε) + sqrt(L))^2, α = 1 + sqrt(L/ρ),
bound_α = 1/(8(α-1)), F = N(α) / ((α-1)(8α(α-1)ρ + 5Td)) with
N(α) = α log α - (α-1) log(α-1).  Monotonicity used for the enclosures:
ρ decreases in each square root; N increases in α (N'(α) = log(α/(α-1)) > 0);
the denominator of F increases in α - 1 and in ρ.
"""

from fractions import Fraction

from auditor.brace.enclosures import log_bounds, outward, sqrt_bounds


class Enclosures:
    """All constants at one working precision ``bits`` (each a (lo, hi) pair)."""

    __slots__ = ("L", "rho", "alpha", "bound_alpha", "bound_divergence")

    def __init__(self, epsilon, delta, horizon, dimension, bits):
        eps = Fraction(epsilon)
        w = bits + 16
        L = outward(*log_bounds(1 / Fraction(delta), w), w)
        s1 = (sqrt_bounds(L[0] + eps, w)[0], sqrt_bounds(L[1] + eps, w)[1])
        s2 = (sqrt_bounds(L[0], w)[0], sqrt_bounds(L[1], w)[1])
        rho = outward(eps * eps / (s1[1] + s2[1]) ** 2, eps * eps / (s1[0] + s2[0]) ** 2, w)
        am1 = (sqrt_bounds(L[0] / rho[1], w)[0], sqrt_bounds(L[1] / rho[0], w)[1])
        alpha = (1 + am1[0], 1 + am1[1])
        b_alpha = (1 / (8 * am1[1]), 1 / (8 * am1[0]))
        n_lo = alpha[0] * log_bounds(alpha[0], w)[0] - am1[0] * log_bounds(am1[0], w)[1]
        n_hi = alpha[1] * log_bounds(alpha[1], w)[1] - am1[1] * log_bounds(am1[1], w)[0]
        td = 5 * int(horizon) * int(dimension)
        den_lo = am1[0] * (8 * alpha[0] * am1[0] * rho[0] + td)
        den_hi = am1[1] * (8 * alpha[1] * am1[1] * rho[1] + td)
        self.L, self.rho, self.alpha = L, rho, alpha
        self.bound_alpha = outward(*b_alpha, w)
        self.bound_divergence = outward(n_lo / den_hi, n_hi / den_lo, w)
