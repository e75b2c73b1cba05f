"""The hard-resource frontier Φ(τ) from one Bellman upper and two Poisson lowers
(*Exact Compilation and Resource Laws for Hidden Integer Feedback*, §6.2, §7.3, H.2, H.3).

Φ(τ) = min_{u >= 0} {u + τ·ψ(u)}, ψ(u) the long-run penalised KL rate at
participation price u (Theorem 10; analytic).  In the window model of radius M:

*Bellman upper* (u >= 0, a, h): for ALL states and actions, with g_hi,

    g_hi(x,d,j) − u|j| + Σ_y K(x,y)·h(y,j) − h(x,d) <= a.

Then ψ(u) <= a_true = a + tv·max_j span_x h(·, j) + (R + γ·Lip h)·e_M (the
TV of the common source on the window rows; the clamp-extension residual
(R + γ·Lip h)(|k| − M)_+ outside, whose mean is <= (R + γ·Lip h)·e_M), so
Φ(τ) <= u + τ·a_true for EVERY τ > 0, and Φ(τ) <= τ·ψ(0) <= τ·(u + a_true)
(the price 0 in the definition of Φ; ψ(0) <= ψ(u) + u).

*Poisson lower* for a stationary policy π: with g_lo, on the states S*(π)
the true chain can reach from (0, 0),

    g_lo(s, π(s)) − u|π(s)| + Σ K·φ(·, π(s)) − φ(s) >= b      (s ∈ S*(π)),

so the true penalised gain is >= b_true = b − tv·span φ − (R + u + γ·Lip φ)·e_M;
the participation frequency f of π (the same rows with reward |π(s)|, potential
ψ) lies in [f_lo − ε_f, f_hi + ε_f], ε_f = tv·span ψ + γ·Lip ψ·e_M (the
participation reward |π| does not change under the clamped lookup).  With
π1 = always +1 (f = 1) and π2 a Bellman-optimal policy of low participation,
time-sharing gives participation exactly 1/τ for τ ∈ [1, 1/f2_hi], hence

    Φ(τ) >= u + τ·min(b1_true, b2_true)        on [1, τ_max],  τ_max <= 1/(f2_hi + ε_f)

(the certificate takes τ_max = min(1/(f2_hi + ε_f), max(1, the largest requested τ));
when b < 0 the lower end is u + b on the whole range, since Φ is nondecreasing),

and, outside that range, Φ(τ) >= τ·(b1_true + u) for τ <= 1 (π1 alone) and, for
τ > τ_max, Φ(τ) >= u + τ_max·b (Φ is nondecreasing: a longer deadline only
adds programs) and, when τ·(f2_hi + ε_f) <= 1, Φ(τ) >= τ·(b2_true + u·(f2_lo − ε_f))
(π2 alone meets the cap).

How u and the potentials are found (any choice is sound; the rows decide):
the window LP at τ0 (max(1, the median requested τ)) with g_mid gives u; exact policy
iteration at that u on the mirror quotient, started from the LP dual's greedy
policy, gives a Bellman-optimal policy and its bias (the raw LP dual h is not
unique where occupations vanish, and its span there can be ~10^22).
Potentials are rounded to the grid 2^-128 and the certified a, b, f are the
exact extreme rows of the rounded potentials.
"""

from gmpy2 import mpq

from producer.resource.poisson import Multichain, optimal_actions, policy_iteration
from producer.resource.conversion import fq, mq
from producer.resource.window import ACTIONS, nearest

LOW_PARTICIPATION = (0, 1, -1)     # action preference of the low-participation optimal policy


def price_and_bias(model, rewards, tau0, progress=None):
    """(u, LP solution, Bellman-optimal quotient policy, full bias rounded) at the LP price of τ0."""
    lp = model.solve_lp(rewards.mid, tau0, progress)
    u = lp["u"]
    chain = model.quotient_chain()
    reward = model.quotient_reward(rewards.mid, u)
    start = greedy_policy(model, chain, reward, lp["h"])
    anchor = model.rep_index[(0, 0)]
    try:
        policy, _gain, phi = policy_iteration(chain, reward, start, anchor, progress)
    except Multichain:
        try:
            policy, _gain, phi = policy_iteration(chain, reward, {i: 1 for i in range(chain.n)}, anchor, progress)
        except Multichain:
            h = {s: nearest(v) for s, v in lp["h"].items()}   # the LP dual itself (sound, possibly loose)
            return u, lp, None, h, None
    values = [mq(phi[i]) for i in range(chain.n)]
    h = {s: nearest(v) for s, v in model.lift_potential(values).items()}
    return u, lp, policy, h, (chain, reward, phi)


def greedy_policy(model, chain, reward, h):
    """The quotient policy greedy for the LP dual potential h (a starting point for policy iteration)."""
    phi = [fq(h[s]) for s in model.reps]
    return {i: optimal_actions(chain, i, reward, phi)[1][0] for i in range(chain.n)}


def low_participation_policy(chain, reward, phi):
    """Among the optimal actions of the final bias, prefer idling/echoing, then +1, then −1."""
    policy = {}
    for i in range(chain.n):
        _best, arg, _values = optimal_actions(chain, i, reward, phi)
        policy[i] = next(a for a in LOW_PARTICIPATION if a in arg)
    return policy


def bellman_upper(model, rewards, constants, tv, u, h):
    """The all-action Bellman certificate: a (max row, g_hi), span, Lip, e_M and a_true."""
    a = model.bellman_max(rewards.hi, u, h)
    span, lip = model.span_and_lip(h)
    e_m = constants.exit_residual(model.M)
    gamma = mpq(model.gamma.a, model.gamma.B)
    a_true = a + tv * span + (constants.R + gamma * lip) * e_m
    return {"u": u, "a_model": a, "h": h, "span": span, "lip": lip, "exit_residual": e_m, "a": a_true}


def poisson_lower(model, rewards, constants, tv, u, policy, phi, psi):
    """A fixed-policy lower: rows on S*(π) with g_lo, the true gain b and participation bounds."""
    states = model.reachable(policy)
    B = model.gamma.B
    gamma = mpq(model.gamma.a, model.gamma.B)
    e_m = constants.exit_residual(model.M)

    def gain_reward(s, j):
        return rewards.lo[(s[0] % B, s[1], j)] - u * abs(j)

    def part_reward(_s, j):
        return mpq(abs(j))
    b = min(model.policy_rows(gain_reward, policy, phi, states))
    span, lip = model.span_and_lip(phi, states)
    b_true = b - tv * span - (constants.R + u + gamma * lip) * e_m
    f_rows = model.policy_rows(part_reward, policy, psi, states)
    f_lo, f_hi = min(f_rows), max(f_rows)
    pspan, plip = model.span_and_lip(psi, states)
    eps_f = tv * pspan + gamma * plip * e_m
    return {"policy": policy, "phi": {s: phi[s] for s in states}, "psi": {s: psi[s] for s in states},
            "states": states, "b_model": b, "span": span, "lip": lip, "b": b_true,
            "f_lo": f_lo, "f_hi": f_hi, "participation_span": pspan, "participation_lip": plip,
            "participation_error": eps_f, "f_lower": max(mpq(0), f_lo - eps_f), "f_upper": f_hi + eps_f}


def always_plus(model, rewards, u):
    """π1 = always +1 with its rounded potentials (gain with g_lo; participation potential 0)."""
    policy = {s: 1 for s in model.states}
    B = model.gamma.B
    _gain, phi = model.evaluate_full(policy, lambda s, j: rewards.lo[(s[0] % B, s[1], j)] - u * abs(j))
    phi = {s: nearest(v) for s, v in phi.items()}
    psi = {s: mpq(0) for s in phi}
    return policy, phi, psi


def symmetric_policy_potentials(model, rewards, u, quotient_policy):
    """The lifted policy of a quotient policy and its rounded gain and participation potentials."""
    policy = model.lift_policy(quotient_policy)
    _gain, phi = model.evaluate_symmetric(quotient_policy, model.quotient_reward(rewards.lo, u))
    _f, psi = model.evaluate_symmetric(quotient_policy, lambda i, j: fq(mpq(abs(j))))
    return policy, {s: nearest(v) for s, v in phi.items()}, {s: nearest(v) for s, v in psi.items()}


def frontier_certificate(model, rewards, constants, tv, tau0, progress=None):
    """u, the Bellman upper and the two Poisson lowers (dicts of exact rationals)."""
    u, lp, qpolicy, h, final = price_and_bias(model, rewards, tau0, progress)
    upper = bellman_upper(model, rewards, constants, tv, u, h)
    lowers = [poisson_lower(model, rewards, constants, tv, u, *always_plus(model, rewards, u))]
    if final is not None:
        chain, reward, phi = final
        candidates = [low_participation_policy(chain, reward, phi), qpolicy]
        for quotient_policy in candidates:
            try:
                lowers.append(poisson_lower(model, rewards, constants, tv, u,
                                            *symmetric_policy_potentials(model, rewards, u, quotient_policy)))
                break
            except Multichain:
                continue
    return u, upper, lowers, lp


def lower_bound(u, lowers, tau, tau_max):
    """The certified lower end of Φ(τ) from the lowers (the module docstring's three pieces)."""
    tau = mpq(tau)
    first = lowers[0]
    b = min(low["b"] for low in lowers)
    if tau <= 1:
        value = tau * (first["b"] + u)
    elif tau <= tau_max:
        value = u + max(b, tau * b)                  # b < 0: Φ(τ) >= Φ(1) (Φ is nondecreasing)
    else:
        value = u + max(b, tau_max * b)              # Φ is nondecreasing (a longer deadline only adds programs)
        if len(lowers) > 1 and tau * lowers[1]["f_upper"] <= 1:    # π2 alone meets the cap 1/τ
            value = max(value, tau * (lowers[1]["b"] + u * lowers[1]["f_lower"]))
    return max(mpq(0), value)


def tau_range(lowers, largest):
    """[τ_min, τ_max] of the time-shared lower: τ_max = min(1/f2_upper, max(1, largest requested τ))
    (1/0 = ∞; τ_max = 1 without a second policy or when f2_upper >= 1)."""
    cap = max(mpq(1), mpq(largest))
    if len(lowers) < 2 or lowers[1]["f_upper"] >= 1:
        return mpq(1), mpq(1)
    if lowers[1]["f_upper"] == 0:
        return mpq(1), cap
    return mpq(1), min(cap, 1 / lowers[1]["f_upper"])


def upper_bound(upper, tau):
    """min(u + τ·a_true, τ·(u + a_true))."""
    tau = mpq(tau)
    return min(upper["u"] + tau * upper["a"], tau * (upper["u"] + upper["a"]))


__all__ = ["frontier_certificate", "lower_bound", "upper_bound", "tau_range", "ACTIONS"]
