"""Checks of ``rate/1``: the participation rate a* and the disclosed-rounding rate ρ (docs/kinds.md).

Claims: a* <= ``a_star.upper`` (period-N Bellman certificate), at γ = 1/2
a* >= ``a_star.lower`` (the descent program's Poisson certificate), and
ρ = (1 + 3γ)/(2σ²).  Re-derived by the auditor:

1. the source (S1); every stated g_lo <= g <= g_hi, k ∈ [0, B) (three-way, the
   auditor's own KL enclosures);
2. N = B^m within the limit; the residue rows P_N(t|s), s ∈ [0, B·N), by
   counting U; every participation row
   g_hi(s mod B, d, j) + Σ_t P_N(t|s)·h(t, j) − [d ≠ 0]·h(s mod N, d) <= r
   (s ∈ [0, B·N), d ∈ {−1, 0, 1}, j = ±1) and every echo row
   g_hi(s mod B, e, 0) <= h(s mod N, e) for every pair (s mod B, s mod N) that
   an integer state k ≡ s mod B·N has (the N rows of t ∈ [0, N) when B | N;
   all of them when N = 1); span and value = r + tv·span;
3. at γ = 1/2 the descent: the rows P(e, e') of hidden state 1 + e cut to
   [−W, W], ``r_lo`` = the least row g_lo((1 + e) mod 2, 1, 1) + Σ P·φ − φ(e),
   span of φ ∪ {0}, m_out, r' = r_lo − tv·span, p_out >= 2·exp(−(W + 1/3)²/(2H))
   (three-way), value = max(0, r' − max(0, r' − m_out)·p_out);
   at other γ ``descent`` and ``a_star.lower`` are null and a reason is given;
4. a_star, ρ and disclosure_cost exactly, lower <= upper, the displays.

The meaning of a* and the descent program's legality and tail are the
paper's (docs/trusted-base.md §11); ``lower_reason`` is prose.
"""

from fractions import Fraction
from math import lcm

from auditor import claims
from auditor.certificate import Malformed
from auditor.decide import fail_undecided
from auditor.rationals import read_rational
from auditor.resource.display import DOWN, UP, check_display
from auditor.resource.limits import refuse_period, refuse_rewards, refuse_rows
from auditor.resource.model import SIGNS, read_parameters
from auditor.resource.potentials import common_denominator
from auditor.resource.rewards import START_BITS, check_rewards, read_rewards
from auditor.resource.rows import denominator, descent_rows, residue_rows
from auditor.resource.source import read_common_source
from auditor.resource.tails import p_out_claim


def verify(cert, report):
    undecided = []
    _verify(cert, report, undecided)
    fail_undecided(undecided, report, cert)


def _period_exponent(N, B):
    """m with N = B^m, or None."""
    m = 0
    while N % B == 0 and N > 1:
        N //= B
        m += 1
    return m if N == 1 else None


def _verify(cert, report, undecided):
    inp, res = cert["input"], cert["result"]
    params = read_parameters(inp)
    B, N = params.B, inp["period"]
    if _period_exponent(N, B) is None:
        raise Malformed(f"/input/period: {N} is not a power of B = {B}")
    refuse_period(B, N)
    refuse_rewards(params, B, START_BITS, "/input/gamma")
    src = res["source"]
    descent = res["descent"]
    W = descent["window"] if isinstance(descent, dict) else 0
    refuse_rows(B * N + 2 * W + 1, src["radius"], "/result/source/radius")
    source = read_common_source(src, params.sigma2, report, undecided)
    table = read_rewards(res["rewards"], range(B), ("lo", "hi"))
    check_rewards(table, params, report, undecided)
    D = denominator(source, B)

    upper = _upper(res["upper"], table, source, params, N, D, report)
    lower = _descent(res, table, source, params, D, report, undecided)
    star = res["a_star"]
    star_upper = read_rational(star["upper"], "/result/a_star/upper")
    report.equal("/result/a_star/upper", star_upper, upper, "upper.value")
    if lower is None:
        report.check(star["lower"] is None, "/result/a_star/lower", star["lower"], None,
                     "no lower end without a descent certificate")
        star_lower = None
    else:
        star_lower = read_rational(star["lower"], "/result/a_star/lower") if star["lower"] is not None else None
        report.equal("/result/a_star/lower", star_lower, lower, "descent.value")
        if star_lower is not None:
            report.check(star_lower <= star_upper, "/result/a_star", star_lower, star_upper,
                         "lower end above upper end")
    rho = read_rational(res["disclosed_rate"], "/result/disclosed_rate")
    report.equal("/result/disclosed_rate", rho, (1 + 3 * params.gamma) / (2 * params.sigma2), "(1 + 3γ)/(2σ²)")
    cost = res["disclosure_cost"]
    cost_lower = read_rational(cost["lower"], "/result/disclosure_cost/lower")
    report.equal("/result/disclosure_cost/lower", cost_lower, rho - star_upper, "ρ − a_star.upper")
    _displays(star, star_lower, star_upper, "/result/a_star", report)
    if star_lower is None:
        report.check(cost["upper"] is None, "/result/disclosure_cost/upper", cost["upper"], None,
                     "no upper end without a lower end of a*")
        cost_upper = None
    else:
        cost_upper = read_rational(cost["upper"], "/result/disclosure_cost/upper") if cost["upper"] else None
        report.equal("/result/disclosure_cost/upper", cost_upper, rho - star_lower, "ρ − a_star.lower")
    _displays(cost, cost_lower, cost_upper, "/result/disclosure_cost", report)


def _displays(block, lower, upper, pointer, report):
    """``lower_display`` (down) and ``upper_display`` (up), each null exactly when its value is."""
    for name, value, direction in (("lower_display", lower, DOWN), ("upper_display", upper, UP)):
        text = block[name]
        if value is None:
            report.check(text is None, f"{pointer}/{name}", text, None, "a display without a value")
        elif text is None:
            raise Malformed(f"{pointer}/{name}: null beside a value")
        else:
            check_display(text, value, direction, f"{pointer}/{name}", report)


def _upper(block, table, source, params, N, D, report):
    """The period-N Bellman certificate; returns the stated (checked) upper.value."""
    B, pointer = params.B, "/result/upper"
    h = {}
    for e, name in ((-1, "minus"), (1, "plus")):
        texts = block["h"][name]
        if len(texts) != N:
            raise Malformed(f"{pointer}/h/{name}: {len(texts)} entries, expected the period N = {N}")
        h[e] = [read_rational(t, f"{pointer}/h/{name}/{i}") for i, t in enumerate(texts)]
    r = read_rational(block["r"], pointer + "/r")
    nums, dens = {}, {}
    for e in (-1, 1):
        nums[e], dens[e] = common_denominator(h[e], f"{pointer}/h")
    rows = residue_rows(source, params.a, B, N)
    for s, folded in enumerate(rows):
        ahead = {j: Fraction(sum(w * nums[j][t] for t, w in folded.items()), D * dens[j]) for j in (-1, 1)}
        for d in SIGNS:
            here = h[d][s % N] if d else 0
            for j in (-1, 1):
                value = table[(s % B, d, j)].hi + ahead[j] - here
                report.check(value <= r, pointer + "/r", r, value,
                             f"participation row (s, d, j) = ({s}, {d}, {j}) exceeds r")
    for s in range(lcm(B, N)):
        for e, name in ((-1, "minus"), (1, "plus")):
            g_hi = table[(s % B, e, 0)].hi
            report.check(g_hi <= h[e][s % N], f"{pointer}/h/{name}/{s % N}", h[e][s % N], g_hi,
                         f"echo row at k ≡ {s} (mod B = {B} and N = {N}): g_hi(k, e, 0) above h")
    h_span = read_rational(block["span"], pointer + "/span")
    report.equal(pointer + "/span", h_span, max(max(v) - min(v) for v in h.values()), "max_e span of h(·, e)")
    value = read_rational(block["value"], pointer + "/value")
    report.equal(pointer + "/value", value, r + source.tv * h_span, "r + tv·span")
    return value


def _descent(res, table, source, params, D, report, undecided):
    """The γ = 1/2 descent certificate; returns its stated (checked) value, or None when absent."""
    block, reason = res["descent"], res["lower_reason"]
    half = params.gamma == Fraction(1, 2)
    if block is None:
        report.check(not half, "/result/descent", None, "a descent certificate",
                     "at gamma = 1/2 the descent lower end is part of the claim")
        report.check(reason is not None, "/result/lower_reason", None, "a reason", "no lower end and no reason")
        return None
    if not half:
        raise Malformed("/result/descent: the descent certificate applies at gamma = 1/2 only")
    report.check(reason is None, "/result/lower_reason", reason, None, "a reason beside a lower end")
    pointer = "/result/descent"
    W = block["window"]
    if len(block["phi"]) != 2 * W + 1:
        raise Malformed(f"{pointer}/phi: {len(block['phi'])} entries, expected 2W + 1 = {2 * W + 1}")
    phi = [read_rational(t, f"{pointer}/phi/{i}") for i, t in enumerate(block["phi"])]
    nums, den = common_denominator(phi, pointer + "/phi")
    rows = descent_rows(source, W)
    least = None
    for i, folded in enumerate(rows):
        e = i - W
        value = (table[((1 + e) % 2, 1, 1)].lo + Fraction(sum(w * nums[t] for t, w in folded.items()), D * den)
                 - phi[i])
        least = value if least is None else min(least, value)
    r_lo = read_rational(block["r_lo"], pointer + "/r_lo")
    report.equal(pointer + "/r_lo", r_lo, least, "the least descent row (g_lo)")
    widened = phi + [Fraction(0)]
    phi_span = read_rational(block["span"], pointer + "/span")
    report.equal(pointer + "/span", phi_span, max(widened) - min(widened), "span of φ ∪ {0}")
    m_out = read_rational(block["m_out"], pointer + "/m_out")
    report.equal(pointer + "/m_out", m_out, min(widened), "min(0, min φ)")
    r_prime = read_rational(block["r_prime"], pointer + "/r_prime")
    report.equal(pointer + "/r_prime", r_prime, r_lo - source.tv * phi_span, "r_lo − tv·span")
    p_out = read_rational(block["p_out"], pointer + "/p_out")
    p_out_claim(p_out, params, W, report, undecided, pointer + "/p_out")
    value = read_rational(block["value"], pointer + "/value")
    report.equal(pointer + "/value", value,
                 max(Fraction(0), r_prime - max(Fraction(0), r_prime - m_out) * p_out),
                 "max(0, r′ − max(0, r′ − m_out)·p_out)")
    return value


def claim(cert):
    """``a* in [1.027840558, 1.027840559] (...); disclosed rate rho = 5/4, rho - a* in [..] for ...``."""
    inp, res = cert["input"], cert["result"]

    def q(text):
        return read_rational(text, "")

    star, cost = res["a_star"], res["disclosure_cost"]
    if star["lower"] is None:
        rate = f"a* <= {claims.upper_text(q(star['upper']))} (period-{inp['period']} Bellman upper)"
        saving = f"rho - a* >= {claims.lower_text(q(cost['lower']))}"
    else:
        rate = (f"a* in {claims.interval_text(q(star['lower']), q(star['upper']))} "
                f"(period-{inp['period']} Bellman upper, descent lower)")
        saving = f"rho - a* in {claims.interval_text(q(cost['lower']), q(cost['upper']))}"
    return (f"{rate}; disclosed rate rho = {claims.rational_text(q(res['disclosed_rate']))}, {saving}, "
            f"for gamma = {claims.rational_text(q(inp['gamma']))}, sigma^2 = {claims.rational_text(q(inp['sigma2']))}")
