"""Checks of ``window-request/1``: Φ(τ) to a requested width by Theorem 11 (docs/kinds.md).

Claim: Φ(τ) ∈ [phi.lower, phi.upper] with width <= 2^-bits, around the exact
optimum Φ_M^rat = ``value`` of the rational window LP.  The auditor solves
nothing; it re-derives and checks:

1. the source (S1), the stated rewards g^ against its own KL enclosures
   (|g^ − g| <= reward_error, three-way), e_M >= (2H/M)·exp(−M²/(2H)) (three-way);
2. the window rows K(x, y), rebuilt from the source by counting U;
3. primal feasibility: z >= 0, slack >= 0, EVERY flow equality (all 3(2M + 1),
   the one the producer's LP dropped as redundant included), Σz = 1,
   Σ|j|·z + slack = 1/τ;
4. dual feasibility: u >= 0 and every dual row
   g^(x mod B, d, j) − u|j| + Σ_y K(x, y)·h(y, j) − h(x, d) <= a; h(0, 0) = 0;
5. equal values τ·Σ g^·z = τ·a + u = ``value`` (weak duality: both optimal);
6. ``error`` = τ(L·e_M + η_g + 2ML·η_p), the interval, its width <= 2^-bits,
   ``dual_rows`` = 9(2M + 1), the displays (rounded outward).

Not claimed (so not checked): that ``radius`` is the least admissible M, and
that the source and reward grid follow the recipe.  Error bound (40) and the
meaning of Φ are the paper's (docs/trusted-base.md §11).
"""

from fractions import Fraction

from auditor import claims
from auditor.certificate import Malformed
from auditor.decide import fail_undecided
from auditor.rationals import read_rational
from auditor.resource.bellman import bellman_rows
from auditor.resource.display import DOWN, UP, check_display
from auditor.resource.limits import refuse_rewards, refuse_rows
from auditor.resource.model import SIGNS, column, read_parameters, state
from auditor.resource.potentials import common_denominator, read_potential
from auditor.resource.rewards import check_rewards, read_rewards
from auditor.resource.rows import denominator, window_rows
from auditor.resource.source import read_common_source
from auditor.resource.tails import exit_residual_claim


def verify(cert, report):
    undecided = []
    _verify(cert, report, undecided)
    fail_undecided(undecided, report, cert)


def _verify(cert, report, undecided):
    inp, res = cert["input"], cert["result"]
    params = read_parameters(inp)
    tau = read_rational(inp["tau"], "/input/tau")
    bits = inp["bits"]
    M = res["radius"]
    residues = sorted({x % params.B for x in range(-M, M + 1)})
    eta_g = read_rational(res["reward_error"], "/result/reward_error")
    reward_bits = (eta_g.denominator // eta_g.numerator).bit_length() + 16
    refuse_rewards(params, len(residues), reward_bits, "/result/reward_error")
    refuse_rows(2 * M + 1, res["source"]["radius"], "/result/radius")
    source = read_common_source(res["source"], params.sigma2, report, undecided)
    table = read_rewards(res["rewards"], residues, (), valued=True)
    check_rewards(table, params, report, undecided, error=eta_g, bits=reward_bits)
    e_M = read_rational(res["exit_residual"], "/result/exit_residual")
    exit_residual_claim(e_M, params, M, report, undecided)
    report.equal("/result/dual_rows", res["dual_rows"], 9 * (2 * M + 1), "number of dual rows 9(2M + 1)")

    K, D = window_rows(source, params.a, params.B, M), denominator(source, params.B)
    z, slack = _primal(res["primal"], M, K, D, tau, report)
    dual = res["dual"]
    h = read_potential(dual["h"], M, "/result/dual/h")
    a = read_rational(dual["a"], "/result/dual/a")
    u = read_rational(dual["u"], "/result/dual/u")
    report.equal(f"/result/dual/h/{state(0, 0, M)}", h[state(0, 0, M)], Fraction(0), "h(0, 0)")

    def reward(k, d, j):
        return table[(k, d, j)].value

    rows = bellman_rows(K, D, h, M, params.B, reward, u, "/result/dual/h")
    for (x, d, j), value in rows.items():
        report.check(value <= a, "/result/dual/a", a, value, f"dual row (x, d, j) = ({x}, {d}, {j}) exceeds a")
    primal_value = tau * sum(reward(x % params.B, d, j) * z[column(x, d, j, M)]
                             for x in range(-M, M + 1) for d in SIGNS for j in SIGNS)
    value = read_rational(res["value"], "/result/value")
    report.equal("/result/value", value, primal_value, "value = τ·Σ g^·z")
    report.equal("/result/value", value, tau * a + u, "value = τ·a + u")

    error = tau * (params.L * e_M + eta_g + 2 * M * params.L * source.tv)
    report.equal("/result/error", read_rational(res["error"], "/result/error"), error,
                 "error τ(L·e_M + η_g + 2ML·η_p)")
    phi = res["phi"]
    lower, upper = read_rational(phi["lower"], "/result/phi/lower"), read_rational(phi["upper"], "/result/phi/upper")
    report.equal("/result/phi/lower", lower, value - error, "value − error")
    report.equal("/result/phi/upper", upper, value + error, "value + error")
    width = read_rational(res["width"], "/result/width")
    report.equal("/result/width", width, upper - lower, "upper − lower")
    report.check(width <= Fraction(1, 1 << bits), "/result/width", width, f"2^-{bits}", "width above 2^-bits")
    check_display(phi["lower_display"], lower, DOWN, "/result/phi/lower_display", report)
    check_display(phi["upper_display"], upper, UP, "/result/phi/upper_display", report)


def _primal(primal, M, K, D, tau, report):
    """The primal z (column order) and slack, with every flow equality, Σz = 1 and the participation row."""
    n = 9 * (2 * M + 1)
    if len(primal["z"]) != n:
        raise Malformed(f"/result/primal/z: {len(primal['z'])} entries, expected 9(2M + 1) = {n}")
    z = [read_rational(v, f"/result/primal/z/{i}") for i, v in enumerate(primal["z"])]
    slack = read_rational(primal["slack"], "/result/primal/slack")
    nums, den = common_denominator(z, "/result/primal/z")
    width = 2 * M + 1
    for e in SIGNS:
        inflow = [sum(nums[column(x, d, e, M)] for d in SIGNS) for x in range(-M, M + 1)]
        for y in range(-M, M + 1):
            out = D * sum(nums[column(y, e, j, M)] for j in SIGNS)
            into = sum(inflow[i] * K[i][y + M] for i in range(width))
            report.check(out == into, f"/result/primal/z/{column(y, e, -1, M)}", Fraction(out, D * den),
                         Fraction(into, D * den), f"flow equality at (y, e) = ({y}, {e}): out-flow differs from inflow")
    report.equal("/result/primal/z", Fraction(sum(nums), den), Fraction(1), "Σ z")
    used = Fraction(sum(nums[column(x, d, j, M)] for x in range(-M, M + 1) for d in SIGNS for j in (-1, 1)), den)
    report.equal("/result/primal/slack", used + slack, 1 / tau, "Σ|j|·z + slack (= 1/τ)")
    return z, slack


def claim(cert):
    """``Phi(2) in [3.315754908, 3.318738576] (width <= 2^-4; window radius 4, 81 dual rows) for ...``."""
    inp, res = cert["input"], cert["result"]
    lower = read_rational(res["phi"]["lower"], "")
    upper = read_rational(res["phi"]["upper"], "")
    tau = claims.rational_text(read_rational(inp["tau"], ""))
    return (f"Phi({tau}) in {claims.interval_text(lower, upper)} (width <= 2^-{inp['bits']}; window radius "
            f"{res['radius']}, {res['dual_rows']} dual rows checked) for gamma = "
            f"{claims.rational_text(read_rational(inp['gamma'], ''))}, sigma^2 = "
            f"{claims.rational_text(read_rational(inp['sigma2'], ''))}")
