"""Checks of ``frontier/1``: Φ(τ) enclosed at each requested τ (docs/kinds.md).

Claims: Φ(τ) <= min(u + τ·a, τ·(u + a)) for every τ > 0 (one all-action
Bellman upper), Φ(τ) >= u + τ·b on [τ_min, τ_max] (two fixed-policy Poisson
lowers), and ``values[i]`` ∋ Φ(τ_i).  Re-derived by the auditor:

1. the source (S1); every stated g_lo <= g <= g_hi (three-way, the auditor's
   own KL enclosures); e_M >= (2H/M)·exp(−M²/(2H)) (three-way); the window
   rows K(x, y) by counting U;
2. the Bellman upper: u >= 0, ``a_model`` = the largest row
   g_hi(x mod B, d, j) − u|j| + Σ_y K(x, y)·h(y, j) − h(x, d) over ALL (x, d, j),
   ``span``, ``lipschitz`` of h, a = a_model + tv·span + (R + γ·lipschitz)·e_M;
3. each policy: its actions, S*(π) (the closure of (0, 0) under
   s ↦ {(y, π(s))}), φ and ψ listed exactly on S*(π), ``b_model`` = the least
   row g_lo(x mod B, d, π(s)) − u|π(s)| + Σ_y K(x, y)·φ(y, π(s)) − φ(s),
   ``f_lo``/``f_hi`` = the least/largest row |π(s)| + Σ_y K(x, y)·ψ(y, π(s)) − ψ(s),
   spans and Lipschitz constants over S*(π), b, f_lower, f_upper exactly;
   the first policy is ``always-plus`` (+1 everywhere, f_lo = f_hi = 1);
4. lower.u = upper.u, lower.b, τ_min = 1, τ_max, every value and the gap
   exactly as docs/kinds.md states them, lower <= upper, the displays.

Not claimed: that the second policy is Bellman-optimal or has the least
participation (its name is a label; the lower bound holds for any policy).
Frontier duality, the window comparison and the time-sharing of stationary
policies are the paper's (docs/trusted-base.md §11).
"""

from fractions import Fraction

from auditor import claims
from auditor.certificate import Malformed
from auditor.decide import fail_undecided
from auditor.rationals import read_rational
from auditor.resource.bellman import bellman_rows, policy_rows
from auditor.resource.display import DOWN, UP, check_display
from auditor.resource.limits import refuse_rewards, refuse_rows
from auditor.resource.model import read_parameters
from auditor.resource.potentials import lipschitz, reachable, read_potential, span
from auditor.resource.rewards import START_BITS, check_rewards, read_rewards
from auditor.resource.rows import denominator, window_rows
from auditor.resource.source import read_common_source
from auditor.resource.tails import exit_residual_claim

NAMES = ("always-plus", "optimal-low-participation")


def verify(cert, report):
    undecided = []
    _verify(cert, report, undecided)
    fail_undecided(undecided, report, cert)


def _q(block, key, pointer):
    return read_rational(block[key], f"{pointer}/{key}")


def _verify(cert, report, undecided):
    inp, res = cert["input"], cert["result"]
    params = read_parameters(inp)
    M = inp["radius"]
    taus = [read_rational(t, f"/input/taus/{i}") for i, t in enumerate(inp["taus"])]
    if any(s >= t for s, t in zip(taus, taus[1:])):
        raise Malformed("/input/taus: the τ must be strictly increasing")
    residues = sorted({x % params.B for x in range(-M, M + 1)})
    refuse_rewards(params, len(residues), START_BITS, "/input/sigma2")
    refuse_rows(2 * M + 1, res["source"]["radius"], "/input/radius")
    source = read_common_source(res["source"], params.sigma2, report, undecided)
    table = read_rewards(res["rewards"], residues, ("lo", "hi"))
    check_rewards(table, params, report, undecided)
    e_M = read_rational(res["exit_residual"], "/result/exit_residual")
    exit_residual_claim(e_M, params, M, report, undecided)
    K, D = window_rows(source, params.a, params.B, M), denominator(source, params.B)

    up = res["upper"]
    u = _q(up, "u", "/result/upper")
    h = read_potential(up["h"], M, "/result/upper/h")
    rows = bellman_rows(K, D, h, M, params.B, lambda k, d, j: table[(k, d, j)].hi, u, "/result/upper/h")
    a_model = _q(up, "a_model", "/result/upper")
    report.equal("/result/upper/a_model", a_model, max(rows.values()), "the largest Bellman row (g_hi, all (x, d, j))")
    h_span, h_lip = _q(up, "span", "/result/upper"), _q(up, "lipschitz", "/result/upper")
    report.equal("/result/upper/span", h_span, span(h, M), "span of h")
    report.equal("/result/upper/lipschitz", h_lip, lipschitz(h, M), "Lipschitz constant of h")
    a = _q(up, "a", "/result/upper")
    report.equal("/result/upper/a", a, a_model + source.tv * h_span + (params.R + params.gamma * h_lip) * e_M,
                 "a_model + tv·span + (R + γ·lipschitz)·e_M")

    low = res["lower"]
    report.equal("/result/lower/u", _q(low, "u", "/result/lower"), u, "lower.u = upper.u")
    policies = [_policy(p, i, K, D, M, params, table, u, source.tv, e_M, report)
                for i, p in enumerate(low["policies"])]
    b = _q(low, "b", "/result/lower")
    report.equal("/result/lower/b", b, min(p["b"] for p in policies), "the least policy b")
    report.equal("/result/lower/tau_min", _q(low, "tau_min", "/result/lower"), Fraction(1), "tau_min")
    tau_max = _q(low, "tau_max", "/result/lower")
    second = policies[1] if len(policies) > 1 else None
    report.equal("/result/lower/tau_max", tau_max, _tau_max(second, taus[-1]), "tau_max")
    if len(res["values"]) != len(taus):
        raise Malformed(f"/result/values: {len(res['values'])} values for {len(taus)} requested τ")
    for i, (tau, entry) in enumerate(zip(taus, res["values"])):
        _value(entry, f"/result/values/{i}", tau, u, a, b, policies[0]["b"], second, tau_max, report)
    gap = res["gap"]
    gap_value = _q(gap, "value", "/result/gap")
    report.equal("/result/gap/value", gap_value, max(t * (a - b) for t in (Fraction(1), tau_max)),
                 "max over τ in {tau_min, tau_max} of τ·(a − b)")
    check_display(gap["display"], gap_value, UP, "/result/gap/display", report)


def _tau_max(second, last_tau):
    """min(1/f_upper of the second policy, max(1, the last τ)); 1 without one or when f_upper >= 1."""
    if second is None or second["f_upper"] >= 1:
        return Fraction(1)
    cap = max(Fraction(1), last_tau)
    return cap if second["f_upper"] == 0 else min(1 / second["f_upper"], cap)


def _value(entry, pointer, tau, u, a, b, b1, second, tau_max, report):
    report.equal(pointer + "/tau", read_rational(entry["tau"], pointer + "/tau"), tau, "τ (the request's)")
    upper = min(u + tau * a, tau * (u + a))
    if tau <= 1:
        bound = tau * (b1 + u)
    elif tau <= tau_max:
        bound = u + max(b, tau * b)
    else:
        bound = u + max(b, tau_max * b)
        if second is not None and tau * second["f_upper"] <= 1:
            bound = max(bound, tau * (second["b"] + u * second["f_lower"]))
    lower = max(Fraction(0), bound)
    stated_lower, stated_upper = _q(entry, "lower", pointer), _q(entry, "upper", pointer)
    report.equal(pointer + "/lower", stated_lower, lower, "lower end at τ")
    report.equal(pointer + "/upper", stated_upper, upper, "upper end min(u + τ·a, τ·(u + a))")
    report.check(stated_lower <= stated_upper, pointer, stated_lower, stated_upper, "lower end above upper end")
    check_display(entry["lower_display"], stated_lower, DOWN, pointer + "/lower_display", report)
    check_display(entry["upper_display"], stated_upper, UP, pointer + "/upper_display", report)


def _policy(p, i, K, D, M, params, table, u, tv, e_M, report):
    """Check one policy's rows; return its b, f_lower, f_upper (the stated values, checked)."""
    pointer = f"/result/lower/policies/{i}"
    if i >= len(NAMES) or p["name"] != NAMES[i]:
        raise Malformed(f"{pointer}/name: policy {i} must be named {NAMES[min(i, 1)]!r}")
    actions = p["actions"]
    if len(actions) != 3 * (2 * M + 1):
        raise Malformed(f"{pointer}/actions: {len(actions)} entries, expected 3(2M + 1) = {3 * (2 * M + 1)}")
    if i == 0:
        report.check(all(j == 1 for j in actions), pointer + "/actions", "not all +1", "+1 at every state",
                     "always-plus must participate with +1 at every state")
    states = reachable(actions, M)
    phi = read_potential(p["phi"], M, pointer + "/phi", nulls=True)
    psi = read_potential(p["psi"], M, pointer + "/psi", nulls=True)
    for name, values in (("phi", phi), ("psi", psi)):
        wrong = [s for s, v in enumerate(values) if (v is not None) != (s in states)]
        if wrong:
            report.fail(f"{pointer}/{name}/{wrong[0]}", "listed" if values[wrong[0]] is not None else "null",
                        "listed exactly on S*(π)", f"{name} must be listed exactly on the states reachable from (0, 0)")
            raise Malformed(f"{pointer}/{name}: not listed exactly on S*(π); its rows cannot be read")
    gains = policy_rows(K, D, phi, M, params.B, actions, states, lambda k, d, j: table[(k, d, j)].lo, u,
                        pointer + "/phi")
    freqs = policy_rows(K, D, psi, M, params.B, actions, states, lambda k, d, j: Fraction(abs(j)), Fraction(0),
                        pointer + "/psi")
    b_model = _q(p, "b_model", pointer)
    report.equal(pointer + "/b_model", b_model, min(gains.values()), "the least Poisson row (g_lo, S*(π))")
    f_lo, f_hi = _q(p, "f_lo", pointer), _q(p, "f_hi", pointer)
    report.equal(pointer + "/f_lo", f_lo, min(freqs.values()), "the least participation row")
    report.equal(pointer + "/f_hi", f_hi, max(freqs.values()), "the largest participation row")
    values = {}
    for name, pot in (("span", phi), ("participation_span", psi)):
        values[name] = _q(p, name, pointer)
        report.equal(f"{pointer}/{name}", values[name], span(pot, M), name)
    for name, pot in (("lipschitz", phi), ("participation_lipschitz", psi)):
        values[name] = _q(p, name, pointer)
        report.equal(f"{pointer}/{name}", values[name], lipschitz(pot, M), name)
    b = _q(p, "b", pointer)
    report.equal(pointer + "/b", b, b_model - tv * values["span"]
                 - (params.R + u + params.gamma * values["lipschitz"]) * e_M,
                 "b_model − tv·span − (R + u + γ·lipschitz)·e_M")
    eps_f = tv * values["participation_span"] + params.gamma * values["participation_lipschitz"] * e_M
    f_lower, f_upper = _q(p, "f_lower", pointer), _q(p, "f_upper", pointer)
    report.equal(pointer + "/f_lower", f_lower, max(Fraction(0), f_lo - eps_f), "max(0, f_lo − ε_f)")
    report.equal(pointer + "/f_upper", f_upper, f_hi + eps_f, "f_hi + ε_f")
    if i == 0:
        report.check(f_lo == f_hi == 1, pointer + "/f_lo", f_lo, 1,
                     "always-plus must have participation frequency exactly 1")
    return {"b": b, "f_lower": f_lower, "f_upper": f_upper}


def claim(cert):
    """``Phi(1) in [..]; Phi(2) in [..]; ... (Phi <= u + tau*a for all tau, >= u + tau*b on [1, 10]) for ...``."""
    inp, res = cert["input"], cert["result"]

    def q(text):
        return read_rational(text, "")

    values = [f"Phi({claims.rational_text(q(v['tau']))}) in {claims.interval_text(q(v['lower']), q(v['upper']))}"
              for v in res["values"]]
    low = res["lower"]
    return (f"{claims.listed(values)}; the affine bounds u + tau*a >= Phi (every tau > 0) and u + tau*b <= Phi "
            f"(tau in [{claims.rational_text(q(low['tau_min']))}, {claims.rational_text(q(low['tau_max']))}]) "
            f"differ by at most {claims.upper_text(q(res['gap']['value']))} for gamma = "
            f"{claims.rational_text(q(inp['gamma']))}, sigma^2 = {claims.rational_text(q(inp['sigma2']))} "
            f"(window radius {inp['radius']})")
