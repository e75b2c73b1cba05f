"""The paper's §6 baselines on the same bank, draws and start.

- naive DAM: Y_t = Φ_D(Y_{t-1}) + ξ_t with count scale 2r̄ / max(1, m_t),
  m_t = |I(D, Y_{t-1})| (not private: the scale itself leaks);
- global-noise DAM: the same recursion with the constant scale 2r̄;
- clean endpoint plus noise: z_T + ξ with the single-release scale 2T r̄.

Iterative baselines use variance T s^2 / (2 ρ̲), the endpoint s^2 / (2 ρ̲).
All reuse BRACE's standard-normal draws ζ_t (the endpoint uses ζ_T) and round
toward q onto q + 2^-g Z^d.  Errors are per-coordinate squared distances
||Y_t - z_t||^2 / d to the clean trajectory, exact rationals.
"""

from gmpy2 import mpq

from producer.brace.draws import scaled_noise
from producer.brace.projection import truncate_offset
from producer.brace.retrieval import add, phi, squared_distance, sub

NAIVE = "naive DAM: scale 2r/max(1, m_t), variance T s^2/(2 rho_lo)"
GLOBAL = "global-noise DAM: scale 2r, variance T s^2/(2 rho_lo)"
ENDPOINT = "clean endpoint plus noise: scale 2Tr, variance s^2/(2 rho_lo), draw zeta_T"


def grid_round(q, point, g):
    return add(q, truncate_offset(sub(point, q), g))


def per_coordinate_error(y, z):
    return squared_distance(y, z) / len(z)


class BaselineStep:
    __slots__ = ("t", "count", "scale", "variance", "xi", "Y")

    def __init__(self, t, count, scale, variance, xi, Y):
        self.t, self.count, self.scale, self.variance, self.xi, self.Y = t, count, scale, variance, xi, Y


def iterative(points, q, r2, horizon, r_hi, rho_lo, zetas, g, counted):
    """Naive (``counted``) or global-noise DAM."""
    C = mpq(horizon) / (2 * rho_lo)
    y = tuple(q)
    steps = []
    for t in range(1, horizon + 1):
        J, a = phi(points, y, r2)
        s = 2 * r_hi / max(1, len(J)) if counted else 2 * r_hi
        var = C * s * s
        xi = scaled_noise(var, zetas[t - 1])
        y = grid_round(q, add(a, xi), g)
        steps.append(BaselineStep(t, len(J) if counted else None, s, var, xi, y))
    return steps


def endpoint(q, z_T, horizon, r_hi, rho_lo, zeta_T, g):
    s = 2 * horizon * r_hi
    var = s * s / (2 * rho_lo)
    xi = scaled_noise(var, zeta_T)
    return [BaselineStep(horizon, None, s, var, xi, grid_round(q, add(z_T, xi), g))]
