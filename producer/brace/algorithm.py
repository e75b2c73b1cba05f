"""BRACE Algorithm 1, steps 1–6, in exact arithmetic.

(*BRACE: Differential Privacy for Dense Associative Memory with LSR Energy*, Algorithm 1.)

Per step t, with the released history fixed:

1. I_t = I(D, z_{t-1}), J_t = I(D, Y_{t-1}), z_t = Φ_D(z_{t-1}), a_t = Φ_D(Y_{t-1});
2. R_t = z_t - a_t (equal to the paper's eq. (1) by its Appendix B.2);
3. H_t = [||R_t||^2 > κ T r^2], decided on rationals;
4. Q_t = projection of a_t + H_t R_t onto B(Y_{t-1}, r) (exact when inside,
   otherwise radial and truncated toward Y_{t-1} onto 2^-g Z^d, see
   :mod:`producer.brace.projection`; both stay inside the ball);
5. the bracket [lo, hi] of Δ̄_t and the noise scale s_t (:mod:`sensitivity`):
   the count envelope under universal or history non-activation, else the
   constant fallback 2r̄;
6. ξ_t ≈ N(0, σ_t^2 I) with σ_t^2 = M T s_t^2 / (2 ρ̲), Ỹ_t = Q_t + ξ_t, and the
   release Y_t = projection of Ỹ_t onto B(q, (t+1) r), rounded toward q onto
   q + 2^-g Z^d.  The rounding is post-processing, so every later step is exact.
"""

from gmpy2 import mpq

from producer.brace.draws import normals_by_step, scaled_noise
from producer.brace.enclosures import exp_neg_bounds, sqrt_bounds
from producer.brace.projection import project_and_round, project_internal
from producer.brace.retrieval import add, phi, squared_norm, sub
from producer.brace.sensitivity import (HISTORY_NON_ACTIVATION, SensitivityBracket, history_inactive,
                                        universally_inactive)

DEFAULT_GRID_BITS = 32


class Step:
    """Everything BRACE computes at one step (immutable record)."""

    __slots__ = ("t", "I", "J", "z", "a", "R", "R_norm2", "H", "Q", "Q_projected",
                 "bracket", "variance", "required_variance", "eq8", "zeta", "xi",
                 "Y_tilde", "Y", "Y_projected")

    def __init__(self, **kw):
        for k in self.__slots__:
            setattr(self, k, kw[k])


class PublicConstants:
    """Constants that depend only on public inputs: r̲ <= r <= r̄, E̲ <= e^{-γ} <= Ē."""

    __slots__ = ("r", "exp_neg_gamma")

    def __init__(self, r2, gamma):
        self.r = sqrt_bounds(r2)
        self.exp_neg_gamma = exp_neg_bounds(gamma)


def run_brace(points, q, r2, horizon, kappa, calibration, gamma, seed,
              grid_bits=DEFAULT_GRID_BITS, noise_multiplier=1, progress=None):
    """Run BRACE on ``points``; return (constants, steps)."""
    n, d = len(points), len(q)
    consts = PublicConstants(r2, gamma)
    zetas = normals_by_step(seed, horizon, d)
    C = calibration.variance_constant()
    z_prev = tuple(mpq(c) for c in q)
    y_prev = z_prev
    steps = []
    history = [y_prev]
    for t in range(1, horizon + 1):
        I, z = phi(points, z_prev, r2)
        J, a = phi(points, y_prev, r2)
        R = sub(z, a)
        R_norm2 = squared_norm(R)
        H = 1 if R_norm2 > mpq(kappa) * horizon * r2 else 0
        target = add(a, R) if H else a
        Q, Q_projected = project_internal(y_prev, target, r2, grid_bits)
        if universally_inactive(t, kappa, horizon):
            bracket = SensitivityBracket.from_count(len(J), n, consts.r, consts.exp_neg_gamma, gamma)
        elif history_inactive(history, q, r2, kappa, horizon):
            bracket = SensitivityBracket.from_count(len(J), n, consts.r, consts.exp_neg_gamma, gamma,
                                         method=HISTORY_NON_ACTIVATION)
        else:
            bracket = SensitivityBracket.fallback(n, consts.r)
        if H and bracket.method != "fallback":  # impossible by the non-activation proofs
            raise AssertionError(f"step {t}: H_t = 1 under {bracket.method}")
        required = C * bracket.scale ** 2
        variance = required * mpq(noise_multiplier)
        xi = scaled_noise(variance, zetas[t - 1])
        y_tilde = add(Q, xi)
        Y, Y_projected = project_and_round(q, y_tilde, (t + 1) ** 2 * r2, grid_bits)
        steps.append(Step(t=t, I=I, J=J, z=z, a=a, R=R, R_norm2=R_norm2, H=H, Q=Q,
                          Q_projected=Q_projected, bracket=bracket, variance=variance,
                          required_variance=required,
                          eq8=calibration.holds(bracket.gamma_prime),
                          zeta=zetas[t - 1], xi=xi, Y_tilde=y_tilde, Y=Y,
                          Y_projected=Y_projected))
        if progress:
            progress(f"brace: step {t}/{horizon}: |J_t| = {len(J)}, H_t = {H}, {bracket.method}")
        z_prev, y_prev = z, Y
        history.append(Y)
    return consts, steps
