"""Checks of ``finite-budget/1``: ε*_{C,T}(δ) <= ``epsilon_upper`` by the window potential bound (docs/kinds.md).

Claim (a privacy guarantee): every legal program with at most C participations
within T released steps is (epsilon_upper, δ)-DP.  Re-derived by the auditor:

1. the source (S1); every stated g_hi >= g (three-way, the auditor's own KL
   enclosures); the window rows K(x, y) by counting U;
2. the Bellman certificate: u >= 0, ``bellman.a`` = the largest row
   g_hi(x mod B, d, j) − u|j| + Σ_y K(x, y)·h(y, j) − h(x, d) over ALL (x, d, j);
   ``span``, b0 = a + tv·span (so the inequality holds for the TRUE rows);
3. D_h (``lipschitz``), B_h (``offset``) from h; ``diameter`` by counting the
   offsets floor((a·k + u)/B) over k ∈ [0, B), u, d, j; L_ℓ and κ exactly;
4. p_exit >= min{1, 2·max(T − 1, 0)·exp(−(M + 1)²/(2H))} (three-way),
   p = δ − p_exit > 0, log_inverse_p >= log(1/p) (three-way), ``linear``,
   root >= 0 with root² >= 2·T·κ·log_inverse_p (so root >= the square root),
   epsilon_upper = max(0, linear + root), its display rounded up.

The bound itself (the paper's H.4, with this project's reading of its square
root and of p) is taken from the paper (docs/trusted-base.md §11).
"""

from fractions import Fraction

from auditor import claims
from auditor.certificate import Malformed
from auditor.decide import fail_undecided
from auditor.rationals import read_rational
from auditor.resource.bellman import bellman_rows
from auditor.resource.display import UP, check_display
from auditor.resource.limits import refuse_rewards, refuse_rows
from auditor.resource.model import SIGNS, read_parameters, state
from auditor.resource.potentials import lipschitz, read_potential, span
from auditor.resource.rewards import START_BITS, check_rewards, read_rewards
from auditor.resource.rows import denominator, window_rows
from auditor.resource.source import read_common_source
from auditor.resource.tails import exit_probability_claim, log_claim
from auditor.game.rows import count


def verify(cert, report):
    undecided = []
    _verify(cert, report, undecided)
    fail_undecided(undecided, report, cert)


def offset_diameter(a, B):
    """max over k ∈ [0, B), d, j of diam({floor((a·k + u)/B)} ∪ {floor((a(k − d) + u)/B) − j})."""
    best = 0
    for k in range(B):
        for d in SIGNS:
            for j in SIGNS:
                found = _offsets(a * k, B) | {o - j for o in _offsets(a * (k - d), B)}
                best = max(best, max(found) - min(found))
    return best


def _offsets(z, B):
    """{floor((z + u)/B) : u = 0 … B − 1}, by counting the draws that give each value."""
    return {h for h in range(z // B - 1, z // B + 3) if count(z, h, B)}


def _verify(cert, report, undecided):
    inp, res = cert["input"], cert["result"]
    params = read_parameters(inp)
    C, T, M = inp["budget"], inp["deadline"], inp["radius"]
    delta = read_rational(inp["delta"], "/input/delta")
    if not 0 < delta < 1:
        raise Malformed(f"/input/delta: {inp['delta']!r} is not in (0, 1)")
    residues = sorted({x % params.B for x in range(-M, M + 1)})
    refuse_rewards(params, len(residues), START_BITS, "/input/sigma2")
    refuse_rows(2 * M + 1, res["source"]["radius"], "/input/radius")
    source = read_common_source(res["source"], params.sigma2, report, undecided)
    table = read_rewards(res["rewards"], residues, ("hi",))
    check_rewards(table, params, report, undecided)

    bell = res["bellman"]
    h = read_potential(bell["h"], M, "/result/bellman/h")
    u = read_rational(bell["u"], "/result/bellman/u")
    K, D = window_rows(source, params.a, params.B, M), denominator(source, params.B)
    rows = bellman_rows(K, D, h, M, params.B, lambda k, d, j: table[(k, d, j)].hi, u, "/result/bellman/h")
    a = read_rational(bell["a"], "/result/bellman/a")
    report.equal("/result/bellman/a", a, max(rows.values()), "the largest Bellman row (g_hi, all (x, d, j))")
    h_span = read_rational(bell["span"], "/result/bellman/span")
    report.equal("/result/bellman/span", h_span, span(h, M), "span of h")
    b0 = read_rational(bell["b0"], "/result/bellman/b0")
    report.equal("/result/bellman/b0", b0, a + source.tv * h_span, "b0 = a + tv·span")

    D_h = read_rational(res["lipschitz"], "/result/lipschitz")
    report.equal("/result/lipschitz", D_h, lipschitz(h, M), "D_h = max |h(x + 1, d) − h(x, d)|")
    B_h = read_rational(res["offset"], "/result/offset")
    report.equal("/result/offset", B_h, h[state(0, 0, M)] - min(h), "B_h = h(0, 0) − min h")
    diameter = res["diameter"]
    report.equal("/result/diameter", diameter, offset_diameter(params.a, params.B), "offset diameter")
    L_l = read_rational(res["log_lipschitz"], "/result/log_lipschitz")
    report.equal("/result/log_lipschitz", L_l, diameter / params.sigma2, "L_ℓ = diameter/σ²")
    kappa = read_rational(res["kappa"], "/result/kappa")
    report.equal("/result/kappa", kappa, (2 * params.sigma2 + Fraction(1, 4)) * (L_l + D_h) ** 2,
                 "κ = (2σ² + 1/4)(L_ℓ + D_h)²")

    p_exit = read_rational(res["exit_probability"], "/result/exit_probability")
    exit_probability_claim(p_exit, params, M, T, report, undecided)
    p = read_rational(res["p"], "/result/p")
    report.equal("/result/p", p, delta - p_exit, "p = δ − p_exit")
    log_inverse = read_rational(res["log_inverse_p"], "/result/log_inverse_p")
    if report.check(p > 0, "/result/p", p, 0, "p must be positive"):
        log_claim(log_inverse, 1 / p, report, undecided, "/result/log_inverse_p", "log(1/p)")
    linear = read_rational(res["linear"], "/result/linear")
    report.equal("/result/linear", linear, u * C + b0 * T + B_h, "u·C + b0·T + B_h")
    root = read_rational(res["root"], "/result/root")
    need = 2 * T * kappa * log_inverse
    report.check(root >= 0 and root * root >= need, "/result/root", root, f"a root of {claims.rational_text(need)}",
                 "root below sqrt(2·T·κ·log_inverse_p)")
    eps = read_rational(res["epsilon_upper"], "/result/epsilon_upper")
    report.equal("/result/epsilon_upper", eps, max(Fraction(0), linear + root), "max(0, linear + root)")
    check_display(res["epsilon_display"], eps, UP, "/result/epsilon_display", report)


def claim(cert):
    """``eps*_{C,T}(1/10000) <= 349823.8686 for C = 100000, T = 200000, gamma = 1/2, ...``."""
    inp, res = cert["input"], cert["result"]

    def q(text):
        return read_rational(text, "")

    return (f"eps*_{{C,T}}({claims.rational_text(q(inp['delta']))}) <= {claims.upper_text(q(res['epsilon_upper']))} "
            f"for C = {inp['budget']}, T = {inp['deadline']}, gamma = {claims.rational_text(q(inp['gamma']))}, "
            f"sigma^2 = {claims.rational_text(q(inp['sigma2']))} (window potential bound, radius {inp['radius']})")
