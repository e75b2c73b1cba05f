"""Checks of ``deadline-witness/1`` certificates (*Hidden Integer Feedback* §7.1, App. D.1;
docs/lower-certificates.md §1).

Claim: for each deadline T, LB_T <= H_{e^ε}(P_g,T ‖ Q_g,T) for the physical
discrete-Gaussian program with T releases (a lower bound; the certificate's
``lower`` must equal what the auditor proves).  Re-derived by the auditor:

0. ``input.patterns``: every pattern has at most C = ``input.budget``
   nonzero signs (a program that participates more often is not a program of
   the question: FAIL).
1. ``result.source``: the source claims (w_n <= S·g(n) for n ≠ 0,
   τ >= w_0/S − g(0)) with the auditor's enclosures, for σ², L, S of the input.
2. ``result.threshold``: λ₋ = floor(N·e^ε)/N (N·λ₋ integral, λ₋ <= e^ε < λ₊),
   λ₊ = λ₋ + 1/N.
3. ``result.window``: contains 0 and is invariant (rows by counting draws).
4. ``result.suffix``: for every window state, every pattern's likelihood test
   (:mod:`auditor.lower.suffix`), the best pattern (lowest index on ties), its
   h, p = P_k(A), q = Q_k(A) exactly.
5. ``result.stopping``: every decision of the waiting recursion
   (:mod:`auditor.lower.waiting`), one string per s = 1..max T − m.
6. ``result.deadlines``: one per T = ``input.deadlines[i]``, waits = T − m; p = P_s(0), q = Q_s(0) and
   payoff = p − λ₋q = V_s(0) exactly; threshold_term = λ₊ − λ₋;
   coupling = (1 + λ₊)·T·τ (Coupling B: T draws, each disagreeing with
   probability <= τ, so |P_g(A) − P_ν(A)| <= 1 − (1 − τ)^T <= Tτ, same for Q);
   lower = max(0, payoff − threshold_term − coupling); lower_display rounded
   down to 28 places.
7. ``result.reference`` (``input.reference`` true): a complete dg-interval/1
   certificate re-verified in full (:mod:`auditor.lower.embedded`) for the
   same question (γ, σ², C, ε, the discrete Gaussian, source {radius, scale}
   of the input, method null); every deadline's lower <= its certified upper
   end Δ⁺ (a lower end above a proved upper end is a FAIL), and ratio_display
   = lower/Δ⁺ rounded down to 12 places.  ``input.reference`` false:
   ``result.reference`` and every ratio_display are null.

Outside the claims (not checked, documented in the docs): optimality of the
stopping rule over all deadline-T programs, and whether the source weights are
the largest integers below S·g(n) (only <= is needed).

Work is estimated from the certificate's sizes before anything is computed
(:func:`estimated_work`); beyond :data:`MAX_WORK` the check is refused with
:class:`auditor.outcomes.Unchecked`, and so it is when that work
(:data:`WORK_NS` per unit) with the reference's exceeds the file's budget
(:mod:`auditor.budget`), reserved together before either starts.

Enclosure claims (atoms below their discrete-Gaussian masses, τ >= TV, e^ε
against its rational bounds) are decided three-way (:mod:`auditor.decide`):
FAIL only when the auditor's own enclosure disproves one; one neither proved
nor disproved after the retry at four times the precision is not established by
   the certificate's recipe: a FAIL too.
"""

from fractions import Fraction

from auditor.claims import MAX_LISTED, gamma_sigma2_text, lower_text, number as _q, rational_text, upper_text
from auditor.decide import fail_undecided
from auditor.lower import inputs
from auditor.lower.display import DOWN, check_display
from auditor import budget
from auditor.embedded import cost as embedded_cost, validated
from auditor.lower.embedded import Question, verify_privacy_bound
from auditor.lower.source import read_source, read_threshold
from auditor.lower.suffix import SuffixTests
from auditor.lower.waiting import Waiting, window_rows
from auditor.outcomes import Unchecked
from auditor.rationals import read_rational
from auditor.game.rows import Law

LOWER_PLACES = 28
RATIO_PLACES = 12
# About three minutes on the 2-core development machine (the published
# reference, T <= 100 with all four patterns, is about 4e6 units, well under 2 s).
MAX_WORK = 3 * 10 ** 8
MAX_WINDOW = 10 ** 5
WORK_NS = 200
"""Units of the file's budget (:mod:`auditor.budget`) per unit of :func:`estimated_work`: the kind's own limit
is one whole budget."""


def estimated_work(B, radius, scale, window, patterns, max_T):
    """Work units: experiment atoms, prefix bisections and recursion multiply-adds.

    M = 2L + 2 bounds the support of a row; d = min(m, 2) steps form the
    sorted experiments (at most |patterns|·B^d of them), the other m − d are
    enumerated per window state; the recursion does (max T − m)·|window|·M
    multiply-adds on numerators of about max T·bits(D) bits.
    """
    M = 2 * radius + 2
    m = len(patterns[0])
    d = min(m, 2)
    leaves = window * len(patterns) * M ** (m - d)
    experiments = min(len(patterns) * B ** d, leaves)
    atoms = experiments * M ** d
    bits_D = (B * scale).bit_length()
    recursion = max(0, max_T - m) * window * M * (1 + max_T * bits_D // 2048)
    return 4 * atoms + leaves * (2 * d * M.bit_length() + 2) + 2 * recursion


def _read_input(inp):
    a, B = inputs.gamma(inp["gamma"], "/input/gamma")
    sigma2 = inputs.positive(inp["sigma2"], "/input/sigma2", "sigma2")
    epsilon = inputs.nonnegative(inp["epsilon"], "/input/epsilon", "epsilon")
    scale = inputs.integer(inp["scale"], "/input/scale", "scale", minimum=1)
    N = inputs.integer(inp["threshold_denominator"], "/input/threshold_denominator",
                       "threshold denominator", minimum=1)
    patterns = [tuple(p) for p in inp["patterns"]]
    m = len(patterns[0])
    inputs.require(all(len(p) == m for p in patterns), "/input/patterns",
                   "all patterns must have the same length")
    deadlines = inp["deadlines"]
    inputs.require(all(T >= m for T in deadlines), "/input/deadlines",
                   f"every deadline must be at least the suffix length {m}")
    inputs.require(all(s < t for s, t in zip(deadlines, deadlines[1:])), "/input/deadlines",
                   "deadlines must be increasing")
    return {"a": a, "B": B, "sigma2": sigma2, "epsilon": epsilon, "budget": inp["budget"],
            "radius": inp["radius"], "scale": scale, "N": N, "patterns": patterns, "m": m,
            "deadlines": deadlines, "reference": inp["reference"]}


def verify(cert, report):
    undecided = []  # pointers of claims neither proved nor disproved
    _verify(cert, report, undecided)
    fail_undecided(undecided, report, cert)


def _verify(cert, report, undecided):
    p = _read_input(cert["input"])
    res = cert["result"]
    low, high = res["window"]["low"], res["window"]["high"]
    inputs.require(low <= 0 <= high, "/result/window", "the window must contain the start state 0")
    size = high - low + 1
    if size > MAX_WINDOW:
        raise Unchecked("/result/window", size, MAX_WINDOW, "window states")
    work = estimated_work(p["B"], p["radius"], p["scale"], size, p["patterns"], max(p["deadlines"]))
    if work > MAX_WORK:
        raise Unchecked("/input", work, MAX_WORK, "estimated work")
    # its own work and the reference's in the file's one budget (the reference reserves its part at its turn,
    # before any of its work; every claim of this certificate comes after)
    parts = [(cert, budget.Cost(work * WORK_NS, 0, "/input", "suffix experiments and the waiting recursion"))]
    reference = res["reference"]
    if p["reference"] and isinstance(reference, dict):
        validated(reference, "/result/reference", ("dg-interval/1",), "the embedded certificate")
        part = embedded_cost(reference, "/result/reference", "dg-interval")
        if part is not None:
            parts.append((reference, part))
    budget.reserve(report, parts)
    for i, pattern in enumerate(p["patterns"]):
        report.check(sum(1 for j in pattern if j) <= p["budget"], f"/input/patterns/{i}", list(pattern),
                     f"at most C = {p['budget']} nonzero signs",
                     "the pattern participates more often than the budget allows (an illegal program)")
    upper = _reference_upper(res["reference"], p, report, undecided)

    source = read_source(res["source"], "/result/source", report, undecided, sigma2=p["sigma2"],
                         radius=p["radius"], scale=p["scale"])
    lam_lo, lam_hi = read_threshold(res["threshold"], p["epsilon"], "/result/threshold", report, undecided,
                                    denominator=p["N"], epsilon_pointer="/input/epsilon")
    if source is None:
        return
    law = Law(source.weights, source.offset, p["a"], p["B"])
    rows, escapes = window_rows(law, low, high)
    for k, n in escapes[:5]:
        report.check(False, "/result/window", f"[{low}, {high}]", f"row_{k}({n}) > 0",
                     "the window is not invariant: a row leaves it")
    if escapes:
        return
    report.check(True, "/result/window", None, None, "")

    p_num, q_num = _check_suffix(res["suffix"], law, lam_lo, p, low, size, report)
    if p_num is None:
        return
    _check_deadlines(res, law, rows, p_num, q_num, lam_lo, lam_hi, source.tau, p, low, upper, report)


def _reference_upper(reference, p, report, undecided):
    """The certified upper end Δ⁺ of the embedded reference (None without one, or when it is not proved)."""
    if not p["reference"]:
        report.check(reference is None, "/result/reference", "a certificate", None,
                     "input.reference is false: no reference may be embedded")
        return None
    if not report.check(reference is not None, "/result/reference", None, "a dg-interval/1 certificate",
                        "input.reference is true: the reference upper end is missing"):
        return None
    question = Question(Fraction(p["a"], p["B"]), p["sigma2"], p["epsilon"], p["budget"], p["radius"],
                        p["scale"], "deadline witness")
    return verify_privacy_bound(reference, "/result/reference", report, question, undecided)


def _check_suffix(entries, law, lam, p, low, size, report):
    """Per state: best pattern, h, p, q; returns the numerator vectors (over D^m) of p and q."""
    if not report.equal("/result/suffix", len(entries), size, "number of suffix entries (one per window state)"):
        return None, None
    tests = SuffixTests(law, lam)
    Dm = law.D ** p["m"]
    p_num, q_num = [], []
    for i, entry in enumerate(entries):
        ptr = f"/result/suffix/{i}"
        k = low + i
        report.equal(ptr + "/k", entry["k"], k, "state k (low + index)")
        best = None
        for index, pattern in enumerate(p["patterns"]):
            pn, qn = tests.numerators(k, pattern)
            h = Fraction(pn * lam.denominator - qn * lam.numerator, Dm * lam.denominator)
            if best is None or h > best[0]:
                best = (h, index, pn, qn)
        h, index, pn, qn = best
        report.equal(ptr + "/pattern", entry["pattern"], index, "index of the best pattern (lowest on ties)")
        report.equal(ptr + "/h", read_rational(entry["h"], ptr + "/h"), h, "h(k) = Σ_o max(P_k(o) − λ₋Q_k(o), 0)")
        report.equal(ptr + "/p", read_rational(entry["p"], ptr + "/p"), Fraction(pn, Dm), "p = P_k(A)")
        report.equal(ptr + "/q", read_rational(entry["q"], ptr + "/q"), Fraction(qn, Dm), "q = Q_k(A)")
        p_num.append(pn)
        q_num.append(qn)
    return p_num, q_num


def _check_deadlines(res, law, rows, p_num, q_num, lam_lo, lam_hi, tau, p, low, upper, report):
    m, deadlines = p["m"], p["deadlines"]
    max_waits = max(deadlines) - m
    stopping = res["stopping"]
    report.equal("/result/stopping", len(stopping), max_waits, "number of stopping rows (max T − m)")
    claimed = res["deadlines"]
    if not report.equal("/result/deadlines", len(claimed), len(deadlines), "number of deadline entries"):
        return
    wanted = {T - m: i for i, T in enumerate(deadlines)}
    origin = -low
    walk = Waiting(law, rows, p_num, q_num, lam_lo)
    for s, chars, P, Q in walk.steps(max_waits):
        if s >= 1 and s - 1 < len(stopping):
            report.equal(f"/result/stopping/{s - 1}", stopping[s - 1], chars,
                         "decisions: 'S' iff h(k) >= Σ_n row_k(n)·V_{s−1}(n)")
        if s in wanted:
            i = wanted[s]
            denominator = law.D ** (m + s)
            _check_deadline(claimed[i], f"/result/deadlines/{i}", deadlines[i], s,
                            Fraction(P[origin], denominator), Fraction(Q[origin], denominator),
                            lam_lo, lam_hi, tau, p["reference"], upper, report)


def _check_deadline(entry, ptr, T, s, prob_p, prob_q, lam_lo, lam_hi, tau, reference, upper, report):
    report.equal(ptr + "/waits", entry["waits"], s, "waits s = T − m")
    report.equal(ptr + "/p", read_rational(entry["p"], ptr + "/p"), prob_p, "P_ν(A) = P_s(0)")
    report.equal(ptr + "/q", read_rational(entry["q"], ptr + "/q"), prob_q, "Q_ν(A) = Q_s(0)")
    payoff = prob_p - lam_lo * prob_q
    report.equal(ptr + "/payoff", read_rational(entry["payoff"], ptr + "/payoff"), payoff,
                 "payoff V_s(0) = p − λ₋q")
    threshold_term = lam_hi - lam_lo
    report.equal(ptr + "/threshold_term", read_rational(entry["threshold_term"], ptr + "/threshold_term"),
                 threshold_term, "λ₊ − λ₋")
    coupling = (1 + lam_hi) * T * tau
    report.equal(ptr + "/coupling", read_rational(entry["coupling"], ptr + "/coupling"), coupling,
                 "coupling (1 + λ₊)·T·τ")
    lower = max(Fraction(0), payoff - threshold_term - coupling)
    claimed_lower = read_rational(entry["lower"], ptr + "/lower")
    report.equal(ptr + "/lower", claimed_lower, lower, "LB_T = max(0, payoff − (λ₊ − λ₋) − (1 + λ₊)Tτ)")
    check_display(entry["lower_display"], lower, DOWN, LOWER_PLACES, ptr + "/lower_display", report)
    if not reference:
        report.check(entry["ratio_display"] is None, ptr + "/ratio_display", entry["ratio_display"], None,
                     "no ratio without a reference upper end")
    elif report.check(entry["ratio_display"] is not None, ptr + "/ratio_display", None, "a decimal",
                      "a reference upper end needs a ratio display") and upper is not None:
        report.check(lower <= upper, ptr + "/lower", lower, upper,
                     "the lower end is above the reference's certified upper end")
        if upper > 0:
            check_display(entry["ratio_display"], lower / upper, DOWN, RATIO_PLACES, ptr + "/ratio_display",
                          report)
        else:
            report.check(False, ptr + "/ratio_display", entry["ratio_display"], None,
                         "no ratio to a zero upper end")


# ---- the claim: the one-line summary of a verified certificate (auditor.api states it) ----

def _sign(j):
    return {1: "+1", -1: "-1", 0: "0"}.get(j, str(j))


def claim(cert):
    """``H_{e^2}(P_T || Q_T) >= 0.00008284895910 at T = 3; ... for gamma = 1/3, sigma^2 = 9, C = 2 (...)``.

    P_T, Q_T: the discrete-Gaussian transcripts of the certificate's stopping
    program with T releases; each stated bound is the certified one rounded down.
    With a reference, its certified upper end Delta*_C(eps) <= u (rounded up).
    """
    inp, res = cert["input"], cert["result"]
    eps = rational_text(_q(inp["epsilon"]))
    bounds = [f"{lower_text(_q(d['lower']))} at T = {T}" for d, T in zip(res["deadlines"], inp["deadlines"])]
    shown = ", >= ".join(bounds[:MAX_LISTED])
    if len(bounds) > MAX_LISTED:
        shown += f" and {len(bounds) - MAX_LISTED} more deadlines"
    patterns = inp["patterns"]
    if len(patterns) == 1:
        program = f"suffix ({','.join(_sign(j) for j in patterns[0])})"
    else:
        program = f"best of {len(patterns)} suffixes of length {len(patterns[0])}"
    head = f"H_{{e^{eps}}}(P_T || Q_T) >= {shown}" if bounds else "no deadline"
    reference = res["reference"]
    if reference is not None:
        upper = _q(reference["result"]["interval"]["upper"])
        program += f"; reference Delta*_{inp['budget']}({eps}) <= {upper_text(upper)}"
    return (f"{head} for "
            f"{gamma_sigma2_text(inp['gamma'], inp['sigma2'])}, C = {inp['budget']} (deadline witness, {program})")
