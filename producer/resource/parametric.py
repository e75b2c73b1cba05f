"""The window LP's optimum by exact parametric policy iteration (the route when the LP repair is long).

By LP duality over the participation row, the window LP value is
Φ_M(τ) = min_{u >= 0} {u + τ·ψ_M(u)}, where ψ_M(u) is the optimal gain of the
window chain at participation price u (reward g − u|j|).  ψ_M is convex and
piecewise linear: every stationary policy π gives the line
ψ_M(u) >= R_π − u·f_π (R_π its reward rate, f_π its participation
frequency), and ψ_M is their maximum.  The minimiser u* is where the optimal
participation frequency crosses 1/τ.  The search keeps two optimal policies
π_a (f_a > 1/τ) and π_b (f_b < 1/τ), evaluates exact policy iteration at the
crossing u_c = (R_a − R_b)/(f_a − f_b) of their lines, and stops when the
optimal gain at u_c equals the lines' value (both are optimal there);
otherwise the new optimal policy replaces π_a or π_b.  Finitely many policies
make it finite.

The optimum is then explicit: the dual (h, a, u*) with h the lifted bias of
an optimal policy (Bellman optimality is the dual feasibility), and the
primal z = α·μ_a + (1 − α)·μ_b, μ the (lifted, mirror-symmetric) stationary
occupations, α chosen so that Σ|j|·z = 1/τ; both policies have penalised
gain a, so τ·Σ g·z = τ·a + u*.
"""

from flint import fmpz_mat
from gmpy2 import mpq

from producer.errors import LimitError
from producer.resource.poisson import poisson, policy_iteration
from producer.resource.conversion import fq, mq
from producer.resource.rows import representative

MAX_STEPS = 200


def _frequency(model, chain, policy):
    anchor = model.rep_index[(0, 0)]
    f, _psi = poisson(chain, policy, lambda i, j: fq(mpq(abs(j))), range(chain.n), anchor)
    return mq(f)


def price_search(model, rewards, tau, progress=None):
    """(u*, π_a, π_b, gain a, bias φ) on the quotient: exact (raises Multichain or LimitError)."""
    chain = model.quotient_chain()
    anchor = model.rep_index[(0, 0)]
    cap = 1 / mpq(tau)

    def solve_at(u, start):
        policy, gain, phi = policy_iteration(chain, model.quotient_reward(rewards, u), start, anchor)
        f = _frequency(model, chain, policy)
        return policy, mq(gain), phi, f

    pa, ga, phia, fa = solve_at(mpq(0), {i: 1 for i in range(chain.n)})
    if fa <= cap:
        return mpq(0), pa, pa, ga, phia
    u_hi = 2 * max(rewards.values()) + 1
    pb, gb, _phib, fb = solve_at(u_hi, pa)
    if fb >= cap:
        raise LimitError("the participation price search found no policy below the cap 1/τ")
    line_a, line_b = (ga, fa), (gb + u_hi * fb, fb)          # (reward rate R, frequency f)
    for step in range(1, MAX_STEPS + 1):
        (ra, fa), (rb, fb) = line_a, line_b
        u = (ra - rb) / (fa - fb)
        pc, gc, phic, fc = solve_at(u, pa)
        if progress:
            progress(f"price search: step {step}, u = {float(u):.15g}")
        if gc == ra - u * fa:
            return u, pa, pb, gc, phic
        rc = gc + u * fc
        if fc > cap:
            pa, line_a = pc, (rc, fc)
        elif fc < cap:
            pb, line_b = pc, (rc, fc)
        else:
            return u, pc, pc, gc, phic
    raise LimitError(f"the participation price search did not settle in {MAX_STEPS} steps (the limit)")


def stationary(chain, policy):
    """The stationary law of the quotient chain under ``policy`` (unichain), exact, as a list."""
    n = chain.n
    entries = [0] * (n * n)                       # row t: Σ_s μ(s)·P(s, t) − μ(t) = 0, scaled by den
    for s in range(n):
        for t, v in chain.succ[s][policy[s]]:
            entries[t * n + s] += int(v)
    for t in range(n):
        entries[t * n + t] -= chain.den
    entries[(n - 1) * n:] = [1] * n               # Σ μ = 1 replaces the last balance row
    rhs = fmpz_mat(n, 1, [0] * (n - 1) + [1])
    sol = fmpz_mat(n, n, entries).solve(rhs)
    return [mq(sol[i, 0]) for i in range(n)]


def lifted_occupation(model, chain, policy):
    """z over the full model's columns: the mirror-symmetric lift of the quotient's stationary law."""
    mu = stationary(chain, policy)
    full_policy = model.lift_policy(policy)
    z = {c: mpq(0) for c in model.columns()}
    for s in model.states:
        rep, _flipped = representative(s)
        weight = mu[model.rep_index[rep]]
        if rep != (-rep[0], -rep[1]):          # a mirror pair shares the representative's mass
            weight = weight / 2
        z[(s[0], s[1], full_policy[s])] += weight
    return z


def window_optimum(model, rewards, tau, progress=None):
    """The window LP's exact optimum (the dict of WindowModel.solve_lp) by the price search."""
    tau = mpq(tau)
    u, pa, pb, gain, phi = price_search(model, rewards, tau, progress)
    chain = model.quotient_chain()
    za, zb = lifted_occupation(model, chain, pa), lifted_occupation(model, chain, pb)
    fa, fb = (sum(abs(c[2]) * v for c, v in zz.items()) for zz in (za, zb))
    cap = 1 / tau
    alpha = mpq(1) if fa == fb or fa <= cap else (cap - fb) / (fa - fb)
    z = {c: alpha * za[c] + (1 - alpha) * zb[c] for c in za}
    part = sum(abs(c[2]) * v for c, v in z.items())
    h = model.lift_potential([mq(phi[i]) for i in range(chain.n)])
    value = tau * sum(rewards[(c[0] % model.gamma.B, c[1], c[2])] * v for c, v in z.items())
    return {"z": z, "slack": cap - part, "h": h, "a": gain, "u": u, "value": value, "route": "price search",
            "pivots": 0, "check": value == tau * gain + u}


__all__ = ["price_search", "window_optimum", "stationary", "lifted_occupation"]
