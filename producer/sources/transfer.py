"""From the exact finite value to an interval for the discrete-Gaussian value.

(*Exact Compilation and Resource Laws for Hidden Integer Feedback*, §4.3.)

For a source ν with TV(ν, g) <= τ, the coupling of the informative games
(the paper's Appendix A.6; C participations and C echoes, so 2C coupled draws) gives

    |Δ_g,C(λ) − Δ_ν,C(λ)| <= (1 + λ)·(1 − (1 − τ)^{2C}).

With λ₋ <= e^ε <= λ₊ and v = Δ_ν,C(λ₋): Δ_ν is non-increasing and
1-Lipschitz in λ, so v − (λ₊ − λ₋) <= Δ_ν,C(e^ε) <= v, and with
b = (1 + λ₊)(1 − (1 − τ)^{2C}) >= (1 + e^ε)(1 − (1 − τ)^{2C}),

    Δ*_C(ε) ∈ [max(0, v − (λ₊ − λ₋) − b), min(1, v + b)].

Everything here is exact rational arithmetic.
"""

from gmpy2 import mpq


def transfer_term(tau, budget, lam_hi):
    """b = (1 + λ₊)·(1 − (1 − τ)^{2C})."""
    tau, lam_hi = mpq(tau), mpq(lam_hi)
    if not 0 <= tau <= 1:
        raise ValueError(f"tau must lie in [0, 1], got {tau}")
    return (1 + lam_hi) * (1 - (1 - tau) ** (2 * int(budget)))


def dg_interval(v, lam_lo, lam_hi, b):
    """(lower, upper) = (max(0, v − (λ₊ − λ₋) − b), min(1, v + b))."""
    v, lam_lo, lam_hi, b = mpq(v), mpq(lam_lo), mpq(lam_hi), mpq(b)
    lower = max(mpq(0), v - (lam_hi - lam_lo) - b)
    upper = min(mpq(1), v + b)
    return lower, upper


def width_bound(tau, budget, lam_lo, lam_hi):
    """An upper bound on the interval width known before the game is solved.

    upper − lower <= (λ₊ − λ₋) + 2b (clipping only narrows the interval).
    """
    return (mpq(lam_hi) - mpq(lam_lo)) + 2 * transfer_term(tau, budget, lam_hi)


def tau_budget(width, budget, lam_lo, lam_hi):
    """τ_max with width_bound < width for every τ < τ_max.

    1 − (1 − τ)^{2C} <= 2C·τ, so 2b <= 4C(1 + λ₊)τ and τ < τ_max suffices with
    τ_max = (W − (λ₊ − λ₋)) / (4C(1 + λ₊)).
    """
    budget = int(budget)
    room = mpq(width) - (mpq(lam_hi) - mpq(lam_lo))
    return room / (4 * max(budget, 1) * (1 + mpq(lam_hi)))
