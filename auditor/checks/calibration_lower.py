"""Checks of ``calibration-lower/1`` certificates (*Hidden Integer Feedback* §5.2, §7.1–7.2,
App. G.5, K.2; docs/lower-certificates.md §3).

Claim: ε*_C(δ) >= epsilon_lower for the discrete Gaussian, from one witness
line (p, q): with r >= 1 − (1 − τ)^draws (draws = T, Coupling B, for the
physical capped program; 2C, Coupling A, for the informative-graph target-{0}
lines), p⁻ = p − r <= P_g(A) and q⁺ = q + r >= Q_g(A); if p⁻ > δ, every
e^ε < λ_crit = (p⁻ − δ)/q⁺ has P_g(A) − e^ε·Q_g(A) > p⁻ − λ_crit·q⁺ = δ,
so ε* >= log λ_crit >= ε_lo whenever e^{ε_lo} <= λ_crit (proved with an
upper enclosure of e^{ε_lo}); ε_lo = 0 is accepted as it stands (ε* >= 0 by
definition), even when λ_crit < 1.

The question is ``input`` (γ, σ², C = ``budget``, δ, the source's L =
``radius`` and S = ``scale``, and the claim's program or grid); ``result``
holds only claims.  Legality of the program is part of the claim (an illegal
program bounds nothing: FAIL):

- capped-preparation: the program starts at K_0 = 0 (the mechanism's start);
  ``signs`` has at most C nonzero entries; ``horizon`` T >= cap + len(signs);
  the window (contains 0 and the target, invariant under rows by counting
  draws); hit = Pr_ν[the zero-input chain from 0 first hits ``target`` within
  ``cap`` releases] by the killed chain (a target of 0 is a hit with no
  wait); the suffix test at λ_E from (target, target)
  (:mod:`auditor.lower.suffix`, with the number of accepted transcripts);
  p = hit·suffix_p, q = hit·suffix_q; draws = T (Coupling B).
- target-zero: the line tree rebuilt exactly over the reachable index ranges
  (:class:`auditor.lower.lines.PackedLines`) from the root [C] (C
  participations left, none once they are spent: every path uses at most C),
  on the grid ρ_i = ρ_0·β^i of the input, root numerators, p = a/2^b,
  q = c/2^b, draws = 2C (Coupling A).

Not claimed: that the chosen lines are optimal, or the paper's own mesh.

Limits, from the certificate's sizes before the work (UNCHECKED beyond):
capped work ⌈cap·|window|·M·(1 + ⌊cap·b/64⌋)/200⌉ + M^max(0, m−2)·20 + B²·M² <= :data:`MAX_CAPPED_WORK`
(b the bits of the chain's denominator D = B·S, whose powers D^t the masses after t releases are over);
target-{0} nodes × priors × M × ⌈(b + 192)/256⌉ <= :data:`MAX_LINE_WORK` (b the lines' scale: wider
fields cost in proportion, measured about (b + 200)/260 of the b = 60 time), the lines' scale b <=
:data:`MAX_SCALE_BITS` bits, the grid ratio β with numerator and denominator
of at most :data:`MAX_RATIO_BITS` bits and the grid's powers (n + 2)·bits(β)
<= :data:`MAX_GRID_BITS`; for both, draws × bits(τ) <= :data:`MAX_COUPLING_BITS`
(the exact (1 − τ)^draws), γ's denominator within
:data:`auditor.common.MAX_GAMMA_BITS`, and the enclosure limits of the
source and of e^{epsilon_lower} (:mod:`auditor.enclosure_limits`).  And the
work (:data:`LINE_NS` or :data:`CAPPED_NS` per unit) and the line tree's
memory within the file's budget (:mod:`auditor.budget`), which binds the
target-{0} lines before their own limit (about 8.6·10⁸ units).

Enclosure claims (atoms below their discrete-Gaussian masses, τ >= TV, e^ε
against its rational bounds, e^{epsilon_lower} <= λ_crit) are decided three-way (:mod:`auditor.decide`):
FAIL only when the auditor's own enclosure disproves one; one neither proved
nor disproved after the retry at four times the precision is not established by
   the certificate's recipe: a FAIL too.
"""

from fractions import Fraction

from auditor import budget
from auditor.certificate import Malformed
from auditor.common import refuse_size
from auditor.claims import gamma_sigma2_text, lower_text, number as _q, rational_text
from auditor.decide import exp_states, fail_undecided, settle
from auditor.enclosure_limits import refuse_bits, refuse_exponent
from auditor.lower import inputs
from auditor.lower.display import DOWN, check_display
from auditor.lower.lines import PackedLines
from auditor.lower.source import read_source
from auditor.lower.suffix import SuffixTests
from auditor.lower.waiting import window_rows
from auditor.outcomes import MalformedInput, Unchecked
from auditor.rationals import read_rational
from auditor.game.rows import Law

I, R = "/input", "/result"
START = 0   # K_0 = 0: the mechanism's start, where every program begins
# Target-{0}: nodes × priors × outputs (field multiply-adds, done packed); the
# C = 8 reference is about 2.9e8 (7 s), C = 16 about 5.9e8; the limit is a few minutes.
MAX_LINE_WORK = 3 * 10 ** 9
MAX_CAPPED_WORK = 5 * 10 ** 7
# Bits of (1 − τ)^draws: draws × the bits of τ (the references: below 10^5).
MAX_COUPLING_BITS = 4 * 10 ** 6
# Target-{0}: the fixed-point scale b of the lines (the references: 60); the grid ratio β's numerator
# and denominator (the references: 7 bits) and the bits of the grid's powers β^{−n−1} .. β^{n+1},
# (n + 2) × bits(β) (the references: about 6·10^4); every snapping compares with those powers.
MAX_SCALE_BITS = 4096
MAX_RATIO_BITS = 64
MAX_GRID_BITS = 10 ** 6
# The whole check in the file's budget (auditor.budget), measured on the development machine: the line tree
# took 28, 60 and 66 work units (about 1 ns) per unit of line work at C = 8, 16 and 64 (8 s, 35 s, about
# 160 s) and held 0.6, 0.9 and 1.45 bytes per unit; the capped program's own limit is one whole budget.
LINE_NS = 70
LINE_BYTES = 3, 2
CAPPED_NS = 1200


def verify(cert, report):
    inp, res = cert["input"], cert["result"]
    common = _read_common(inp, res)
    common["cert"] = cert  # the key of its part of the file's budget (auditor.budget)
    if inp["claim"] == "capped-preparation":
        law, witness = _capped(inp, res, common, report)
    else:
        law, witness = _target_zero(inp, res, common, report)
    if witness is not None:
        _check_line(res, common, witness, report)
    fail_undecided(common["undecided"], report, cert)


def _capped_work(inp, res, B, S):
    """The capped program's estimated work ⌈cap·|window|·M·(1 + ⌊cap·b/64⌋)/200⌉ + M^max(0, m − 2)·20 + B²·M²
    (M = 2L + 2, b the bits of D = B·S).

    After t releases the chain's masses are integers over D^t, so a release costs about |window|·M
    products of t·b-bit integers: about 5 ns a 64-bit limb on the development machine, where a unit of
    the rest (the suffix tests) is about 1200 ns; hence the chain's limb count over 200.
    """
    low, high = res["window"]["low"], res["window"]["high"]
    M, cap = 2 * inp["radius"] + 2, inp["cap"]
    limbs = cap * max(0, high - low + 1) * M * (1 + cap * (B * S).bit_length() // 64)
    return -(-limbs // 200) + M ** max(0, len(inp["signs"]) - 2) * 20 + B ** 2 * M ** 2


def _refuse_scale_bits(inp, prefix=""):
    """UNCHECKED for lines at a fixed point beyond MAX_SCALE_BITS (before the line work, which grows with it)."""
    if inp["scale_bits"] > MAX_SCALE_BITS:
        raise Unchecked(prefix + I + "/scale_bits", inp["scale_bits"], MAX_SCALE_BITS,
                        "bits of the lines' fixed-point scale")


def _line_work(inp, res):
    """The line tree's work: nodes × priors × outputs (M = 2L + 2) × ⌈(b + 192)/256⌉, b the lines' scale bits
    (1 up to b = 64; the packed fields widen with b)."""
    width = -(-(inp["scale_bits"] + 192) // 256)
    return len(res["nodes"]) * inp["grid_count"] * (2 * inp["radius"] + 2) * width


def _cost(inp, work):
    """The work (and memory) in the file's budget (:class:`auditor.budget.Cost`) of the claim's program."""
    if inp["claim"] == "capped-preparation":
        return budget.Cost(work * CAPPED_NS, 0, I, "the capped program's window, chain and suffix")
    num, den = LINE_BYTES
    return budget.Cost(work * LINE_NS, work * num // den, R + "/nodes", "the line tree")


def estimate(cert, prefix=""):
    """The work of the check in the file's budget (:class:`auditor.budget.Cost`) of a certificate embedded at
    ``prefix`` (:func:`auditor.embedded.cost`); UNCHECKED beyond the kind's work limits, with the pointers
    prefixed."""
    inp, res = cert["input"], cert["result"]
    try:
        _, B = inputs.gamma(inp["gamma"], I + "/gamma")
        S = inputs.integer(inp["scale"], I + "/scale", "scale", minimum=1)
    except MalformedInput as exc:
        raise Malformed(f"{prefix}{exc}") from None
    if inp["claim"] == "capped-preparation":
        work, limit, pointer, what = _capped_work(inp, res, B, S), MAX_CAPPED_WORK, I, "estimated work"
    else:
        _refuse_scale_bits(inp, prefix)
        work, limit, pointer, what = (_line_work(inp, res), MAX_LINE_WORK, R + "/nodes",
                                      "line-tree work (nodes × priors × outputs × ⌈(b + 192)/256⌉)")
    if work > limit:
        raise Unchecked(prefix + pointer, work, limit, what)
    cost = _cost(inp, work)
    return cost.at(prefix)


def _read_common(inp, res):
    a, B = inputs.gamma(inp["gamma"], I + "/gamma")
    draws = inp["horizon"] if inp["claim"] == "capped-preparation" else 2 * inp["budget"]
    draws_pointer = I + ("/horizon" if inp["claim"] == "capped-preparation" else "/budget")
    tau = inputs.nonnegative(res["source"]["tau"], R + "/source/tau", "tau")
    coupling_bits = draws * (tau.numerator.bit_length() + tau.denominator.bit_length())
    if coupling_bits > MAX_COUPLING_BITS:
        raise Unchecked(draws_pointer, coupling_bits, MAX_COUPLING_BITS,
                        "bits of (1 − τ)^draws (draws × bits of τ)")
    return {"a": a, "B": B,
            "sigma2": inputs.positive(inp["sigma2"], I + "/sigma2", "sigma2"),
            "budget": inp["budget"],
            "delta": inputs.probability(inp["delta"], I + "/delta", "delta"),
            "radius": inp["radius"],
            "scale": inputs.integer(inp["scale"], I + "/scale", "scale", minimum=1),
            "draws": draws,
            "undecided": []}  # pointers of source claims neither proved nor disproved


def _source_law(res, common, report):
    source = read_source(res["source"], R + "/source", report, common["undecided"], sigma2=common["sigma2"],
                         radius=common["radius"], scale=common["scale"])
    if source is None:
        return None, None
    return source, Law(source.weights, source.offset, common["a"], common["B"])


# ---------------------------------------------------------------- K.2 capped preparation

def _capped(inp, res, common, report):
    signs = tuple(inp["signs"])
    target, cap, T = inp["target"], inp["cap"], inp["horizon"]
    lam_E = inputs.nonnegative(inp["event_threshold"], I + "/event_threshold", "event threshold")
    low, high = res["window"]["low"], res["window"]["high"]
    inputs.require(low <= START <= high and low <= target <= high, R + "/window",
                   "the window must contain the start state 0 and the target")
    work = _capped_work(inp, res, common["B"], common["scale"])
    if work > MAX_CAPPED_WORK:
        raise Unchecked(I, work, MAX_CAPPED_WORK, "estimated work")
    budget.reserve(report, [(common["cert"], _cost(inp, work))])
    report.check(sum(1 for j in signs if j) <= common["budget"], I + "/signs", list(signs),
                 f"at most C = {common['budget']} nonzero signs",
                 "the suffix participates more often than the budget allows (an illegal program)")
    report.check(cap + len(signs) <= T, I + "/horizon", T, cap + len(signs),
                 "the horizon must fit the longest wait and the suffix")
    source, law = _source_law(res, common, report)
    if law is None:
        return None, None
    rows, escapes = window_rows(law, low, high)
    for k, n in escapes[:5]:
        report.check(False, R + "/window", f"[{low}, {high}]", f"row_{k}({n}) > 0", "the window is not invariant")
    if escapes:
        return None, None
    hit = first_hit(rows, law.D, low, START, target, cap)
    report.equal(R + "/hit", read_rational(res["hit"], R + "/hit"), hit,
                 "Pr_ν[first hit of the target from 0 within cap]")
    p_num, q_num, count = SuffixTests(law, lam_E).numerators_and_count(target, signs)
    Dm = law.D ** len(signs)
    sp, sq = Fraction(p_num, Dm), Fraction(q_num, Dm)
    report.equal(R + "/suffix_p", read_rational(res["suffix_p"], R + "/suffix_p"), sp, "P_target(A)")
    report.equal(R + "/suffix_q", read_rational(res["suffix_q"], R + "/suffix_q"), sq, "Q_target(A)")
    report.equal(R + "/atoms", int(res["atoms"]), count, "number of accepted suffix transcripts")
    return law, (hit * sp, hit * sq, source.tau)


def first_hit(rows, D, low, start, target, cap):
    """Pr[the zero-input chain from ``start`` is at ``target`` at some time t <= cap] (killed chain)."""
    size = len(rows)
    mass = [0] * size
    mass[start - low] = 1
    hit = 0  # Σ_{s <= t} at_s·D^(t − s) after step t (Horner), so Pr = hit / D^cap: one reduction at the end
    for t in range(cap + 1):
        if t > 0:
            new = [0] * size
            for i, m in enumerate(mass):
                if m:
                    first, r = rows[i]
                    for off, v in enumerate(r):
                        new[first + off] += m * v
            mass = new
            hit *= D
        hit += mass[target - low]
        mass[target - low] = 0
    return Fraction(hit, D ** cap)


# ---------------------------------------------------------------- target-{0} lines

def _target_zero(inp, res, common, report):
    n = inp["grid_count"]
    rho0 = inputs.positive(inp["grid_first"], I + "/grid_first", "first prior")
    beta = read_rational(inp["grid_ratio"], I + "/grid_ratio")
    inputs.require(beta > 1, I + "/grid_ratio", "the grid ratio must exceed one")
    bits = inp["scale_bits"]
    _refuse_scale_bits(inp)
    work = _line_work(inp, res)
    if work > MAX_LINE_WORK:
        raise Unchecked(R + "/nodes", work, MAX_LINE_WORK,
                        "line-tree work (nodes × priors × outputs × ⌈(b + 192)/256⌉)")
    budget.reserve(report, [(common["cert"], _cost(inp, work))])
    refuse_size(beta, I + "/grid_ratio", "the grid ratio", MAX_RATIO_BITS)
    grid_bits = (n + 2) * (beta.numerator.bit_length() + beta.denominator.bit_length())
    if grid_bits > MAX_GRID_BITS:
        raise Unchecked(I + "/grid_count", grid_bits, MAX_GRID_BITS,
                        "bits of the grid's powers (priors × bits of β)")
    root = res["root"]
    inputs.require(0 <= root["index"] < n, R + "/root/index", "root index outside the grid")
    source, law = _source_law(res, common, report)
    if law is None:
        return None, None
    del rho0  # the priors only label lines; every index is rebuilt from the snapping rule
    tree = PackedLines(law, res["nodes"], n, beta, bits, report)
    got = tree.rebuild((common["budget"],), root["index"])
    if got is None:
        return None, None
    a, c = got
    report.equal(R + "/root/a", inputs.integer(root["a"], R + "/root/a", "root a"), a, "root P numerator")
    report.equal(R + "/root/c", inputs.integer(root["c"], R + "/root/c", "root c"), c, "root Q numerator")
    return law, (Fraction(a, 1 << bits), Fraction(c, 1 << bits), source.tau)


# ---------------------------------------------------------------- the inverse from a line

def _check_line(res, common, witness, report):
    p, q, tau = witness
    report.equal(R + "/p", read_rational(res["p"], R + "/p"), p, "P_ν(A) (recomputed)")
    report.equal(R + "/q", read_rational(res["q"], R + "/q"), q, "Q_ν(A) (recomputed)")
    r = read_rational(res["coupling"], R + "/coupling")
    report.at_least(R + "/coupling", r, 1 - (1 - tau) ** common["draws"], "r >= 1 − (1 − τ)^draws (T or 2C)")
    p_lower, q_upper = p - r, q + r
    report.equal(R + "/p_lower", read_rational(res["p_lower"], R + "/p_lower"), p_lower, "p⁻ = p − r")
    report.equal(R + "/q_upper", read_rational(res["q_upper"], R + "/q_upper"), q_upper, "q⁺ = q + r")
    delta = common["delta"]
    if not report.check(p_lower > delta, R + "/p_lower", p_lower, delta, "the line needs p⁻ > δ"):
        return
    lam = (p_lower - delta) / q_upper
    report.equal(R + "/lambda_crit", read_rational(res["lambda_crit"], R + "/lambda_crit"), lam,
                 "λ_crit = (p⁻ − δ)/q⁺")
    eps = inputs.nonnegative(res["epsilon_lower"], R + "/epsilon_lower", "epsilon_lower")
    check_display(res["epsilon_lower_display"], eps, DOWN, None, R + "/epsilon_lower_display", report)
    if eps == 0:
        return  # ε* >= 0 holds by definition, whatever λ_crit is
    # e^{ε_lo} <= λ_crit is the upper side of an enclosure of e^{ε_lo} (proved when e⁺ <= λ_crit,
    # disproved when e⁻ > λ_crit).
    bits = max(lam.numerator.bit_length() - lam.denominator.bit_length(), 0) + eps.denominator.bit_length() + 64
    refuse_exponent(eps, R + "/epsilon_lower", "e^{epsilon_lower}")
    refuse_bits(bits, R + "/lambda_crit")
    _, decision, _ = exp_states(eps, None, lam, bits=bits)
    settle(decision, report, common["undecided"], R + "/epsilon_lower", eps, lam,
           "e^{epsilon_lower} above λ_crit")


# ---- the claim: the one-line summary of a verified certificate (auditor.api states it) ----

def claim(cert):
    """``eps*_8(1/10000) >= 4.834164195612 for gamma = 1/3, sigma^2 = 9 (target-{0} witness lines)``."""
    inp, res = cert["input"], cert["result"]
    if inp["claim"] == "target-zero":
        witness = "target-{0} witness lines"
    else:
        witness = (f"capped preparation of state {inp['target']} from 0 within {inp['cap']} "
                   f"releases, T = {inp['horizon']}")
    return (f"eps*_{inp['budget']}({rational_text(_q(inp['delta']))}) >= "
            f"{lower_text(_q(res['epsilon_lower']))} for {gamma_sigma2_text(inp['gamma'], inp['sigma2'])} "
            f"({witness})")
