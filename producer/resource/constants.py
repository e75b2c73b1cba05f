"""The constants of the resource laws (*Exact Compilation and Resource Laws for Hidden
Integer Feedback*, §6.2, H.1, H.4, H.6), as exact rationals or certified upper bounds.

    R = 2/σ²              the largest reward
    v0 = σ² + 1/4         conditional variance proxy of one step
    H = v0/(1 − γ²)       sub-Gaussian proxy of the P chain from 0
    L = R/(1 − γ)         Lipschitz constant of the Bellman values
    D = R + L·H
    e_M = (2H/M)·exp(−M²/(2H))          window-exit residual per step
    p_exit = min{1, 2·max(T − 1, 0)·exp(−(M + 1)²/(2H))}
    p_out = 2·exp(−(W + 1/3)²/(2H))     (descent residual outside [−W, W])

The analytic facts behind e_M, p_exit and p_out (E K_t² <= H and
P(|K_t| > x) <= 2·exp(−x²/(2H)) for the P chain from 0 under any policy)
are stated in the paper and not re-proved here (docs/trusted-base.md).
Transcendental values are returned as dyadic upper bounds: the arb upper end
rounded up at 2^(e − GUARD) relative to its size 2^e, plus one more unit, so
a checker with a few more bits decides them.
"""

from gmpy2 import mpq, mpz

from producer.sources.enclosures import arf_to_mpq, floor_log2, to_arb, working_precision

RELATIVE_BITS = 96     # relative precision of the dyadic upper bounds
PRECISION = 256


def upper_dyadic(ball, bits=RELATIVE_BITS):
    """A dyadic rational >= every point of ``ball`` (> 0), about ``bits`` bits relative, with a guard unit."""
    hi = arf_to_mpq(ball.upper())
    if hi <= 0:
        return mpq(0)
    e = floor_log2(hi) - bits
    unit = mpq(2) ** e
    steps = hi / unit
    return (mpz(-((-steps.numerator) // steps.denominator)) + 1) * unit


def exp_upper(x, bits=RELATIVE_BITS):
    """A dyadic upper bound of e^x for rational x."""
    x = mpq(x)
    with working_precision(PRECISION + int(abs(x)).bit_length()):
        return upper_dyadic(to_arb(x).exp(), bits)


def log_upper(x, bits=RELATIVE_BITS):
    """A dyadic upper bound of log x for rational x > 1."""
    with working_precision(PRECISION):
        return upper_dyadic(to_arb(mpq(x)).log(), bits)


class Constants:
    """R, v0, H, L, D of one (γ, σ²), exact."""

    __slots__ = ("gamma", "sigma2", "R", "v0", "H", "L", "D")

    def __init__(self, gamma, sigma2):
        g = mpq(gamma.a, gamma.B)
        self.gamma, self.sigma2 = gamma, mpq(sigma2)
        self.R = 2 / self.sigma2
        self.v0 = self.sigma2 + mpq(1, 4)
        self.H = self.v0 / (1 - g * g)
        self.L = self.R / (1 - g)
        self.D = self.R + self.L * self.H

    def exit_residual(self, radius):
        """e_M upper bound: (2H/M)·exp(−M²/(2H))."""
        M = mpq(radius)
        return upper_dyadic_product(2 * self.H / M, -M * M / (2 * self.H))

    def exit_probability(self, radius, horizon):
        """p_exit upper bound: min{1, 2·max(T − 1, 0)·exp(−(M + 1)²/(2H))}."""
        steps = max(int(horizon) - 1, 0)
        if steps == 0:
            return mpq(0)
        M1 = mpq(radius + 1)
        return min(mpq(1), upper_dyadic_product(2 * steps, -M1 * M1 / (2 * self.H)))

    def outside_probability(self, window):
        """p_out upper bound: 2·exp(−(W + 1/3)²/(2H))."""
        w = mpq(window) + mpq(1, 3)
        return min(mpq(1), upper_dyadic_product(2, -w * w / (2 * self.H)))


def upper_dyadic_product(factor, exponent):
    """A dyadic upper bound of factor·e^exponent (factor > 0 rational)."""
    with working_precision(PRECISION + int(abs(mpq(exponent))).bit_length()):
        return upper_dyadic(to_arb(mpq(factor)) * to_arb(mpq(exponent)).exp())


__all__ = ["Constants", "exp_upper", "log_upper", "upper_dyadic", "upper_dyadic_product"]
