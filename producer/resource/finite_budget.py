"""A finite-budget upper bound on ε*_{C,T}(δ) from a window potential (*Exact Compilation
and Resource Laws for Hidden Integer Feedback*, H.4).

Given u >= 0, b0 and a window potential h on the states (k, d), |k| <= M, with

    g(k,d,j) + Σ_y K_k(y)·h(c_M(y), j) − h(k,d) <= u|j| + b0   (|k| <= M, all d, j; TRUE rows),

put D_h = max |h(k+1, d) − h(k, d)|, B_h = h(0, 0) − min h, L_ℓ = diam/σ² (the
real-extended row log-likelihood is L_ℓ-Lipschitz, diam = the largest offset
diameter, <= 3, 2 at γ = 1/2), κ(h) = (2σ² + 1/4)(L_ℓ + D_h)²,
p_exit = min{1, 2·max(T − 1, 0)·exp(−(M + 1)²/(2H))}, p = δ − p_exit > 0.  Then

    ε*_{C,T}(δ) <= max{0, u·C + b0·T + B_h + sqrt(2·T·κ(h)·log(1/p))}.

The TRUE rows follow from a Bellman certificate of the window model with
g_hi and the rational source: b0 = a + tv·max_j span_k h(·, j).  The square
root and p = δ − p_exit are the reading of the paper's formula that its
sub-Gaussian martingale tail forces (the extraction lost both); analytic.

The price u is the window LP's at τ0 = T/C (it minimises u·C + ψ(u)·T to
leading order); h is the rounded bias of a Bellman-optimal policy there.
"""

from gmpy2 import isqrt, mpq, mpz

from producer.resource.constants import log_upper
from producer.resource.frontier import price_and_bias
from producer.resource.rewards import max_diameter

ROOT_BITS = 64


def sqrt_upper(value, bits=ROOT_BITS):
    """The least multiple of 2^-bits whose square is >= value (value >= 0 rational)."""
    value = mpq(value)
    scale = mpz(4) ** bits
    x = value * scale
    n = isqrt(x.numerator // x.denominator)
    while mpq(n * n) < x:
        n += 1
    return mpq(n, mpz(2) ** bits)


def finite_budget_bound(model, rewards, constants, tv, budget, deadline, delta, progress=None):
    """Every number of the H.4 bound, exact (a dict)."""
    tau0 = mpq(deadline, budget)
    u, _lp, _policy, h, _final = price_and_bias(model, rewards, tau0, progress)
    a = model.bellman_max(rewards.hi, u, h)
    span, lip = model.span_and_lip(h)
    b0 = a + tv * span
    dh = lip
    bh = h[(0, 0)] - min(h.values())
    diam = max_diameter(model.gamma)
    l_ell = mpq(diam) / constants.sigma2
    kappa = (2 * constants.sigma2 + mpq(1, 4)) * (l_ell + dh) ** 2
    p_exit = constants.exit_probability(model.M, deadline)
    p = mpq(delta) - p_exit
    log_term = log_upper(1 / p) if p < 1 else mpq(0)
    linear = u * budget + b0 * deadline + bh
    root = sqrt_upper(2 * deadline * kappa * log_term)
    epsilon = max(mpq(0), linear + root)
    return {"u": u, "h": h, "a": a, "span": span, "b0": b0, "lipschitz": dh, "offset": bh,
            "diameter": diam, "log_lipschitz": l_ell, "kappa": kappa, "exit_probability": p_exit, "p": p,
            "log_inverse_p": log_term, "linear": linear, "root": root, "epsilon_upper": epsilon}
