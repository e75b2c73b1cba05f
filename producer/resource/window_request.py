"""Φ(τ) to a requested width 2^-b by the rational window algorithm (*Exact Compilation
and Resource Laws for Hidden Integer Feedback*, Theorem 11, H.3, Table S2).

For ξ = 2^-b:

- M = the least radius with τ·L·e_M <= ξ/6 (e_M = (2H/M)·exp(−M²/(2H)));
- rewards g^ = multiples of 2^-s, s the least s >= b + 8 with
  η_g = 2^-(s+1) + 2^-(s+8) <= ξ/(6τ); |g^ − g| <= η_g for every entry,
  g^ clipped to [0, R], g^(k, 0, 0) = 0;
- one common source with tv = η_p <= ξ/(12·τ·M·L) (the least radius with
  tail <= η_p/2, then the least S = 2^s with 4L/S <= η_p − tail);
- the window LP (41) with g^ solved exactly: Φ_M^rat = τ·Σ g^·z = τ·a + u.

Then (40): Φ(τ) ∈ Φ_M^rat ± τ·(L·e_M + η_g + 2·M·L·η_p), of width <= ξ.  The
ξ/6 split bounds the *width* by ξ (the paper's literal split, "first term
<= ξ/3", bounds the error by ξ); it gives radii 4, 4, 3, 4 at the four Table S2
requests, 306 dual rows in all.  The error bound (40) is analytic.
"""

from gmpy2 import mpq, mpz

from producer.resource.rewards import rounded_rewards
from producer.resource.source import source_for_tv
from producer.resource.window import WindowModel

MAX_RADIUS = 40


def window_radius(constants, tau, xi, limit=MAX_RADIUS):
    """The least M >= 1 with τ·L·e_M <= ξ/6, or None when M > limit."""
    for M in range(1, limit + 1):
        if mpq(tau) * constants.L * constants.exit_residual(M) <= mpq(xi) / 6:
            return M
    return None


def reward_grid(tau, bits):
    """The least s >= b + 8 with 2^-(s+1) + 2^-(s+8) <= ξ/(6τ)."""
    xi = mpq(1, mpz(2) ** bits)
    s = bits + 8
    while mpq(1, mpz(2) ** (s + 1)) + mpq(1, mpz(2) ** (s + 8)) > xi / (6 * mpq(tau)):
        s += 1
    return s


def reward_error(grid):
    """η_g = 2^-(s+1) + 2^-(s+8): the bound |g^ − g| of rewards rounded to the grid 2^-s."""
    scale = mpz(2) ** grid
    return mpq(1, 2 * scale) + mpq(1, 256 * scale)


def solve_request(gamma, sigma2, tau, bits, constants, radius, progress=None, before_work=None):
    """The request's source, rewards, exact LP solution and interval (a dict of exact values).

    ``before_work(source, eta_g)``, if given, runs once the source is known and
    before the rewards and the LP (the auditability checks).
    """
    tau = mpq(tau)
    xi = mpq(1, mpz(2) ** bits)
    grid = reward_grid(tau, bits)
    source = source_for_tv(sigma2, xi / (12 * tau * radius * constants.L))
    if before_work is not None:
        before_work(source, reward_error(grid))
    rewards, eta_g = rounded_rewards(gamma, sigma2, grid, residues=range(-radius, radius + 1))
    if eta_g != reward_error(grid):  # pragma: no cover - the same formula
        raise ArithmeticError("window request: reward error differs from the grid's")
    model = WindowModel(source.law, gamma, radius)
    lp = model.solve_lp(rewards, tau, progress)
    e_m = constants.exit_residual(radius)
    error = tau * (constants.L * e_m + eta_g + 2 * radius * constants.L * source.tau)
    value = tau * lp["a"] + lp["u"]
    return {"source": source, "rewards": rewards, "grid": grid, "eta_g": eta_g, "model": model, "lp": lp,
            "exit_residual": e_m, "error": error, "value": value, "lower": value - error,
            "upper": value + error, "xi": xi}
