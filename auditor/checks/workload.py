"""Checks of ``workload/1`` certificates (*Hidden Integer Feedback* §7.4, App. G.6, J, docs/lower-certificates.md §4).

Claim: δ(ε) <= delta_upper for the finite matrix program releasing A·x plus
``dimension`` independent draws of the finite source ν, A = d·I + e·J, and
the G.6 mean-square identity on each small law listed.  Re-derived:

1. ``strategy``: the request's n, d, e; the squared column norm
   ‖A_{·j}‖² = (d + e)² + (n − 1)e² (column j has d + e once and e n − 1 times);
   the inverse αI + βJ by (dI + eJ)(αI + βJ) = dα·I + (dβ + eα + neβ)·J = I.
2. ``source``: the dg_source claims with the auditor's enclosures (σ², S as
   requested), both end atoms positive (radius = outermost positive atom).
3. ``variance`` v = Σ n²w_n/S with Σ n·w_n = 0 (centred source).
4. ``threshold_upper`` λ₊ >= e^ε (Taylor enclosure).
5. ``gaussian_term`` G >= θ^θ/(θ+1)^{θ+1}·exp(−θε + θ(θ+1)‖A_{·j}‖²/(2σ²)):
   the ideal discrete Gaussian with integral shift h has
   E_P[(dP/dQ)^θ] = exp(θ(θ+1)‖h‖²/(2σ²)), and (1 − 1/t)_+ <= θ^θ t^θ/(θ+1)^{θ+1}
   (the maximum of (1 − 1/t)/t^θ is at t = (θ+1)/θ), so
   H_{e^ε} = E_P[(1 − e^ε/L)_+] <= θ^θ/(θ+1)^{θ+1}·e^{−θε}·E_P[L^θ].
   The exponential is enclosed from above by the auditor's Taylor bounds.
6. ``coupling`` = (1 + λ₊)·n·τ (n draws, TV of the product <= nτ, and
   |H_λ(P′‖Q′) − H_λ(P‖Q)| <= TV(P, P′) + λ·TV(Q, Q′)); ``delta_upper`` = G +
   coupling exactly; its display rounded up to 18 places.
7. ``identity_checks``: one per requested case, echoing it; ν centred;
   c_j, E[r_j(1 − r_j)], v and E(Σ h_t K_t)² recomputed by
   :mod:`auditor.lower.moments` (an exact moment recursion, not the identity),
   and the identity mean_square = Σ_j c_j²(v + E[r_j(1 − r_j)]) checked exactly.

Outside the claims: the workload matrix W and every MSE figure that needs it
(the paper does not give W), and whether the source atoms are the largest
integers below S·g(n).

Enclosure claims (atoms below their discrete-Gaussian masses, τ >= TV, e^ε
against its rational bounds, the Gaussian term against θ^θ/(θ+1)^{θ+1}·e^x)
are decided three-way (:mod:`auditor.decide`):
FAIL only when the auditor's own enclosure disproves one; one neither proved
nor disproved after the retry at four times the precision is not established by
   the certificate's recipe: a FAIL too.
"""

from fractions import Fraction

from auditor.certificate import Malformed
from auditor.claims import number as _q, rational_text, upper_text
from auditor.decide import exp_states, fail_undecided, settle
from auditor.enclosure_limits import refuse_bits, refuse_exponent
from auditor.lower import inputs, moments
from auditor.lower.display import UP, check_display
from auditor.lower.source import exp_enclosure_check, read_source
from auditor.outcomes import Unchecked
from auditor.rationals import read_rational
from auditor.game.rows import Law

DELTA_PLACES = 18
# Identity cases: the moment recursion does about steps² · len² row products.
MAX_IDENTITY_WORK = 2 * 10 ** 6
MAX_DIMENSION = 10 ** 9
MAX_THETA = 10 ** 4


def verify(cert, report):
    undecided = []  # pointers of claims neither proved nor disproved
    _verify(cert, report, undecided)
    fail_undecided(undecided, report, cert)


def _verify(cert, report, undecided):
    inp, res = cert["input"], cert["result"]
    n = inp["dimension"]
    d = inputs.integer(inp["diagonal"], "/input/diagonal", "diagonal")
    e = inputs.integer(inp["ones"], "/input/ones", "ones")
    sigma2 = inputs.positive(inp["sigma2"], "/input/sigma2", "sigma2")
    scale = inputs.integer(inp["scale"], "/input/scale", "scale", minimum=1)
    epsilon = inputs.nonnegative(inp["epsilon"], "/input/epsilon", "epsilon")
    theta = inp["theta"]
    if n > MAX_DIMENSION:
        raise Unchecked("/input/dimension", n, MAX_DIMENSION, "dimension")
    if theta > MAX_THETA:
        raise Unchecked("/input/theta", theta, MAX_THETA, "moment order θ")
    cases = [_read_case(c, f"/input/identity_cases/{i}") for i, c in enumerate(inp["identity_cases"])]
    work = sum(len(c["h"]) ** 2 * (len(c["weights"]) + 1) ** 2 for c in cases)
    if work > MAX_IDENTITY_WORK:
        raise Unchecked("/input/identity_cases", work, MAX_IDENTITY_WORK, "estimated identity work")

    norm2 = _check_strategy(res["strategy"], n, d, e, report)
    source = read_source(res["source"], "/result/source", report, undecided, sigma2=sigma2, scale=scale)
    report.equal("/result/theta", res["theta"], theta, "θ (the request's)")
    lam_hi = read_rational(res["threshold_upper"], "/result/threshold_upper")
    exp_enclosure_check(epsilon, None, lam_hi, report, None, "/result/threshold_upper", undecided,
                        epsilon_pointer="/input/epsilon")
    G = read_rational(res["gaussian_term"], "/result/gaussian_term")
    _check_gaussian_term(G, theta, epsilon, norm2, sigma2, report, undecided)
    if source is not None:
        _check_variance(res["variance"], source, report)
        coupling = (1 + lam_hi) * n * source.tau
        report.equal("/result/coupling", read_rational(res["coupling"], "/result/coupling"), coupling,
                     "coupling (1 + λ₊)·dimension·τ")
        delta = G + coupling
        report.equal("/result/delta_upper", read_rational(res["delta_upper"], "/result/delta_upper"), delta,
                     "delta_upper = gaussian_term + coupling")
        check_display(res["delta_upper_display"], delta, UP, DELTA_PLACES, "/result/delta_upper_display", report)
    _check_identities(res["identity_checks"], cases, report)


def _check_strategy(st, n, d, e, report):
    P = "/result/strategy"
    report.equal(P + "/dimension", st["dimension"], n, "dimension (the request's)")
    report.equal(P + "/diagonal", inputs.integer(st["diagonal"], P + "/diagonal", "diagonal"), d,
                 "diagonal (the request's)")
    report.equal(P + "/ones", inputs.integer(st["ones"], P + "/ones", "ones"), e, "ones (the request's)")
    norm2 = (d + e) ** 2 + (n - 1) * e * e
    report.equal(P + "/column_norm2", inputs.integer(st["column_norm2"], P + "/column_norm2", "column_norm2"),
                 norm2, "squared column norm (d + e)² + (n − 1)e²")
    alpha = read_rational(st["inverse"]["diagonal"], P + "/inverse/diagonal")
    beta = read_rational(st["inverse"]["ones"], P + "/inverse/ones")
    report.equal(P + "/inverse/diagonal", d * alpha, Fraction(1), "I-coefficient of A·A^{-1} (d·α)")
    report.equal(P + "/inverse/ones", d * beta + e * alpha + n * e * beta, Fraction(0),
                 "J-coefficient of A·A^{-1} (dβ + eα + neβ)")
    return norm2


def _check_variance(text, source, report):
    w, L = source.weights, source.radius
    report.check(w[0] >= 1 and w[-1] >= 1, "/result/source/radius", L, "w_{±L} >= 1",
                 "the radius must be the outermost positive atom")
    first = sum((i - L) * x for i, x in enumerate(w))
    report.equal("/result/source/weights", first, 0, "Σ n·w_n (the source must be centred)")
    v = Fraction(sum((i - L) ** 2 * x for i, x in enumerate(w)), source.scale)
    report.equal("/result/variance", read_rational(text, "/result/variance"), v, "v = Σ n²w_n/S")


def _check_gaussian_term(G, theta, epsilon, norm2, sigma2, report, undecided):
    """G >= θ^θ/(θ+1)^{θ+1}·exp(x), x = −θε + θ(θ+1)·norm2/(2σ²), decided three-way.

    As e^x <= G/factor (factor = θ^θ/(θ+1)^{θ+1} > 0), the upper side of an
    enclosure of e^x (:func:`auditor.decide.exp_states`): proved when
    G >= factor·e⁺, disproved when G < factor·e⁻; retried once at RETRY_FACTOR
    times the precision.
    """
    factor = Fraction(theta ** theta, (theta + 1) ** (theta + 1))
    x = -theta * epsilon + Fraction(theta * (theta + 1) * norm2) / (2 * sigma2)
    bits = max(G.numerator.bit_length(), G.denominator.bit_length()) + 48
    refuse_exponent(x, "/result/gaussian_term", "the Gaussian term, θ(θ+1)‖A_j‖²/(2σ²) − θε")
    refuse_bits(bits, "/result/gaussian_term")
    _, decision, (_, e_hi) = exp_states(x, None, G / factor, bits=bits)
    settle(decision, report, undecided, "/result/gaussian_term", G, factor * e_hi,
           "gaussian_term below θ^θ/(θ+1)^{θ+1}·exp(−θε + θ(θ+1)‖A_j‖²/(2σ²))")


def _read_case(case, ptr):
    if not isinstance(case, dict) or set(case) != {"gamma", "h", "law"}:
        raise Malformed(f"{ptr}: an identity case is an object with gamma, h and law")
    a, B = inputs.gamma(case["gamma"], ptr + "/gamma")
    law = case["law"]
    if not isinstance(law, dict) or set(law) != {"weights", "offset"} or not isinstance(law["offset"], int) \
            or not isinstance(law["weights"], list) or not law["weights"]:
        raise Malformed(f"{ptr}/law: a law is an object with a weight list and an integer offset")
    weights = [inputs.integer(w, f"{ptr}/law/weights/{i}", "weight", minimum=0)
               for i, w in enumerate(law["weights"])]
    inputs.require(sum(weights) > 0, ptr + "/law/weights", "the weights must not all be zero")
    inputs.require(sum((law["offset"] + i) * w for i, w in enumerate(weights)) == 0, ptr + "/law",
                   "the G.6 identity needs a centred law (Σ z·w_z = 0)")
    if not isinstance(case["h"], list) or not case["h"]:
        raise Malformed(f"{ptr}/h: a non-empty list of rationals")
    h = inputs.rationals(case["h"], ptr + "/h")
    return {"gamma": Fraction(a, B), "a": a, "B": B, "weights": weights, "offset": law["offset"], "h": h,
            "raw": case}


def _check_identities(entries, cases, report):
    if not report.equal("/result/identity_checks", len(entries), len(cases), "number of identity checks"):
        return
    for i, (entry, case) in enumerate(zip(entries, cases)):
        ptr = f"/result/identity_checks/{i}"
        raw = case["raw"]
        report.equal(ptr + "/gamma", entry["gamma"], raw["gamma"], "γ (the request's)")
        report.equal(ptr + "/law", entry["law"], raw["law"], "law (the request's)")
        report.equal(ptr + "/h", entry["h"], raw["h"], "h (the request's)")
        steps = len(case["h"])
        report.equal(ptr + "/steps", entry["steps"], steps, "steps (the length of h)")
        law = Law(case["weights"], case["offset"], case["a"], case["B"])
        c = moments.coefficients(case["h"], case["gamma"])
        rv = moments.residual_variances(law, moments.state_laws(law, steps))
        S = law.S
        v = Fraction(sum((case["offset"] + j) ** 2 * w for j, w in enumerate(case["weights"])), S)
        ms = moments.mean_square(law, case["h"])
        _equal_list(entry["c"], c, ptr + "/c", "c_j = Σ_{t>=j} h_t(−γ)^{t−j}", report)
        _equal_list(entry["residual_variance"], rv, ptr + "/residual_variance", "E[r_j(1 − r_j)]", report)
        report.equal(ptr + "/variance", read_rational(entry["variance"], ptr + "/variance"), v, "v = Var ν")
        claimed = read_rational(entry["mean_square"], ptr + "/mean_square")
        report.equal(ptr + "/mean_square", claimed, ms, "E(Σ_t h_t K_t)² (moment recursion)")
        identity = sum(cj * cj * (v + r) for cj, r in zip(c, rv))
        report.equal(ptr + "/mean_square", ms, identity, "G.6 identity Σ_j c_j²(v + E[r_j(1 − r_j)])")


def _equal_list(texts, values, ptr, what, report):
    if not report.equal(ptr, len(texts), len(values), f"number of entries of {what}"):
        return
    for j, (t, v) in enumerate(zip(texts, values)):
        report.equal(f"{ptr}/{j}", read_rational(t, f"{ptr}/{j}"), v, what)


# ---- the claim: the one-line summary of a verified certificate (auditor.api states it) ----

def claim(cert):
    """``delta(2) <= ... for the static workload with A = 15I + J (n = 100), sigma^2 = 1444, ...``."""
    inp, res = cert["input"], cert["result"]
    ones = _q(inp["ones"])
    matrix = f"{rational_text(_q(inp['diagonal']))}I + {'' if ones == 1 else rational_text(ones)}J"
    cases = len(res["identity_checks"])
    return (f"delta({rational_text(_q(inp['epsilon']))}) <= {upper_text(_q(res['delta_upper']))} "
            f"for the static workload with A = {matrix} (dimension {inp['dimension']}), "
            f"sigma^2 = {rational_text(_q(inp['sigma2']))}, theta = {inp['theta']}; "
            f"the G.6 mean-square identity on {cases} small law{'s' if cases != 1 else ''}")
