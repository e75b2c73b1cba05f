"""The grid, the truncation and the precision, chosen from the requested relative width.

Nothing chosen here is a claim: any grid h = 1/N, any index ranges and
windows and any fixed point 2^-K give valid bounds (docs/dpsgd.md).  These
choices only make the enclosure narrow enough, and they are made with floats
(a Gaussian approximation of the composed loss), which is allowed because no
decision about a claim depends on them.

The width model.  Connect-the-dots spreads each step's loss over two grid
points (added variance about h²/6 per step) and the lower side misclassifies
outputs through the fractional parts of the bucketed losses (variance about
h²/12 per step); both act like an increase Δμ² ≈ 0.3·T·h² of the variance μ²
of a Gaussian privacy loss N(μ²/2, μ²) with μ² = Σ_s T_s·Var_P(ℓ_s).  So the
ε-width is about (∂ε/∂μ²)·0.3·T·h², and h is chosen to make it 70% of the
requested width; the driver refines h if the certified width misses.
"""

import math

from gmpy2 import mpq

from producer.pld.normal import log_phi_bar_float as log_phi_bar
from producer.pld.normal import phi_bar_float as phi_bar

SPREAD = 0.3            # Δμ² ≈ SPREAD·T·h²
AIM = 0.7               # aim at this share of the requested width
TRUNCATION_SHARE = 64   # truncation mass <= δ·R/64 (--delta) or R·δ(ε)/64 (--epsilons)
MAX_GRID = 2_000_000    # N = 1/h
MIN_GRID = 4


def gdp_delta(mu2, epsilon):
    """δ(ε) of a Gaussian loss N(μ²/2, μ²) in floats (hint)."""
    mu = math.sqrt(mu2)
    first = phi_bar(epsilon / mu - mu / 2)
    exponent = epsilon + log_phi_bar(epsilon / mu + mu / 2)
    return max(first - math.exp(min(exponent, 700)), 0.0)


def gdp_epsilon(mu2, delta):
    """ε(δ) of that Gaussian loss (hint; 0 when δ(0) <= δ)."""
    if gdp_delta(mu2, 0.0) <= delta:
        return 0.0
    lo, hi = 0.0, 1.0
    while gdp_delta(mu2, hi) > delta:
        lo, hi = hi, 2 * hi
        if hi > 1e6:
            return hi
    for _ in range(80):
        mid = (lo + hi) / 2
        if gdp_delta(mu2, mid) > delta:
            lo = mid
        else:
            hi = mid
    return hi


def loss_delta(mean, variance, epsilon):
    """δ(ε) = E[(1 − e^{ε − L})₊] of a loss L ~ N(mean, variance) under the first law, in floats (hint).

    E[e^{−L}; L > ε] = e^{−mean + variance/2}·P(N(mean − variance, variance) > ε).
    """
    s = math.sqrt(variance)
    first = phi_bar((epsilon - mean) / s)
    exponent = epsilon - mean + variance / 2 + log_phi_bar((epsilon - mean + variance) / s)
    return max(first - math.exp(min(exponent, 700)), 0.0)


class Sizing:
    """Float summaries of a schedule: μ², the composed mean and the total steps."""

    def __init__(self, stages):
        self.stages = tuple(stages)
        moments = [s.law.moments() for s in stages]
        self.steps = sum(s.steps for s in stages)
        self.mu2 = max(sum(s.steps * v for s, (_, v) in zip(stages, moments)), 1e-12)
        self.mean = sum(s.steps * m for s, (m, _) in zip(stages, moments))
        self.moments = moments

    def epsilon(self, delta):
        return gdp_epsilon(self.mu2, float(delta))

    def epsilon_estimate(self, delta):
        """ε(δ) of a Gaussian loss with the composed loss's own mean and variance (a hint; the GDP form of
        :meth:`epsilon` takes the mean to be μ²/2, far too large when q < 1 and the loss is large)."""
        delta, lo, hi = float(delta), 0.0, 1.0
        if loss_delta(self.mean, self.mu2, 0.0) <= delta:
            return 0.0
        while loss_delta(self.mean, self.mu2, hi) > delta:
            lo, hi = hi, 2 * hi
            if hi > 1e6:
                return hi
        for _ in range(60):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if loss_delta(self.mean, self.mu2, mid) > delta else (lo, mid)
        return hi

    def epsilon_slope(self, delta):
        """∂ε(δ)/∂μ² of the Gaussian approximation (hint)."""
        eps = self.epsilon(delta)
        moved = gdp_epsilon(self.mu2 * 1.01, float(delta))
        return max((moved - eps) / (0.01 * self.mu2), 1e-3), eps

    def log_delta_slope(self, epsilon):
        """|∂ log δ(ε)/∂μ²| of the Gaussian approximation (hint)."""
        d0 = gdp_delta(self.mu2, float(epsilon))
        d1 = gdp_delta(self.mu2 * 1.01, float(epsilon))
        if d0 <= 0 or d1 <= 0:
            return 1e3 / self.mu2, max(d0, 1e-300)
        return max(abs(math.log(d1 / d0)) / (0.01 * self.mu2), 1e-3), d0


def grid_for(h):
    """N = 1/h rounded up to three significant digits, within [MIN_GRID, MAX_GRID]."""
    n = max(MIN_GRID, math.ceil(1 / h))
    digits = len(str(n))
    unit = 10 ** max(0, digits - 3)
    return min(MAX_GRID, -(-n // unit) * unit)


def bits_for(value):
    """The smallest multiple of 8 that is >= value."""
    return 8 * max(1, math.ceil(value / 8))


class Plan:
    """One attempt's parameters: grid N (h = 1/N), truncation τ, precisions K (P) and K' (Q), ε_cap."""

    __slots__ = ("grid", "tau", "p_bits", "q_bits", "epsilon_cap", "tail")

    def __init__(self, grid, tau, p_bits, q_bits, epsilon_cap, tail):
        self.grid, self.tau, self.p_bits, self.q_bits = grid, tau, p_bits, q_bits
        self.epsilon_cap, self.tail = epsilon_cap, tail

    @property
    def h(self):
        return mpq(1, self.grid)

    def __repr__(self):
        return (f"Plan(N={self.grid}, tau={self.tau:.3g}, K={self.p_bits}, K'={self.q_bits}, "
                f"eps_cap={self.epsilon_cap:.3g})")


def make_plan(sizing, h, tau, epsilon_cap, range_estimate, grid=None):
    """A :class:`Plan` from a grid spacing h (float; or the ``grid`` N itself), a truncation mass τ and ε_cap."""
    grid = grid_for(h) if grid is None else int(grid)
    steps = sizing.steps
    tail = tau * math.exp(-min(epsilon_cap, 600)) / (16 * steps)
    entries = max(range_estimate * grid, 16)
    p_bits = bits_for(math.log2(32 * steps * entries / tau) + 8)
    q_bits = bits_for(p_bits + epsilon_cap * math.log2(math.e) + 8)
    return Plan(grid, tau, p_bits, q_bits, epsilon_cap, max(tail, 1e-300))
