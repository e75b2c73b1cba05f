"""The ``deadline-witness/1`` certificate: finite-deadline physical lower witnesses.

(*Exact Compilation and Resource Laws for Hidden Integer Feedback*, §7.1 and
Appendix D.1; docs/lower-certificates.md §1.)

Program at horizon T = s + m: wait publicly (common zero inputs) by the
stopping table, then run the suffix pattern chosen for the start state, pad to
T releases, accept iff the suffix transcript passes the start state's
likelihood test.  On the finite source ν its payoff at λ₋ is exactly V_s(0)
(:mod:`producer.lower.waiting`).  Coupling B (T coupled draws) transfers it
to the discrete Gaussian:

    H_{e^ε}(P_g,T ‖ Q_g,T) >= LB_T = V_s(0) − (λ₊ − λ₋) − (1 + λ₊)·T·τ.

Off the window (unreachable on ν) the program keeps waiting and rejects; the
coupling charges those paths.

The question includes the participation budget C: every suffix pattern has
at most C nonzero signs, so each program is legal for C and LB_T <= Δ*_C(ε).
With ``reference`` the certificate embeds a dg-interval/1 upper end of
Δ*_C(ε) for the same γ, σ², C, ε and source, and each deadline's ratio
lower/upper; a reference below a lower end is refused (it would contradict).

Limits: T <= :data:`MAX_DEADLINE`, suffix patterns of at most
:data:`MAX_PATTERN_LENGTH` signs, σ² and an explicit radius within the
discrete Gaussian's limits, and the auditor's digit and work limits
(producer/lower/auditability.py), refused before the witness is computed.
"""

import time

from gmpy2 import mpq, mpz

from producer.certificates.canonical import make_certificate
from producer.display import down, rational, show, up
from producer.errors import InputError, LimitError
from producer.immutable import Immutable
from producer.lower.auditability import check_auditable_deadlines, deadline_cost
from producer.lower.bounds import dg_upper_certificate, positive_gamma, upper_end
from producer.lower.fields import source_claims
from producer.lower.suffix import RowCache, SuffixTest
from producer.lower.threshold import check_threshold_size, grid_threshold
from producer.lower.waiting import StartTable, check_invariant, invariant_window, run_waiting
from producer.laws import parse_gamma
from producer.names import option
from producer.rationals import (decimal_outward, format_rational, list_items, parse_integer, parse_rational,
                                parse_switch, parse_whole)
from producer.sources.auditability import check_edge_radius
from producer.sources.discrete_gaussian import DiscreteGaussianSource, check_sigma2

KIND, VERSION = "deadline-witness", 1
MAX_DEADLINE = 2000
MAX_PATTERN_LENGTH = 4
LOWER_DIGITS, RATIO_DIGITS = 28, 12
FIXED = ((1, 1, 0),)
MAX_READING = ((1, 1, 0), (1, -1, 0), (-1, 1, 0), (-1, -1, 0))
READINGS = {"fixed": FIXED, "max": MAX_READING}  # the suffix patterns of each reading


class Request(Immutable):
    """A validated deadline-witness request: the question (γ, σ², C, ε), the source, the program's patterns.

    ``budget`` is the participation budget C of the privacy question: every
    pattern has at most C nonzero signs, so each program is legal for C.
    ``reference=True`` asks for an embedded dg-interval/1 upper end of
    Δ*_C(ε) at the same source, and the ratio of each lower end to it.
    """

    __slots__ = ("gamma", "sigma2", "budget", "epsilon", "radius", "scale", "denominator",
                 "patterns", "deadlines", "reference")

    def __init__(self, gamma, sigma2, budget, epsilon, radius, scale, denominator, patterns,
                 deadlines, reference=False):
        self.gamma = positive_gamma(gamma)
        self.sigma2 = check_sigma2(sigma2)
        self.budget = int(budget)
        if self.budget < 1:
            raise InputError(f"budget: C must be >= 1, got {mpz(self.budget)}")
        self.epsilon = mpq(epsilon)
        if self.epsilon < 0:
            raise InputError(f"epsilon: must be >= 0, got {self.epsilon}")
        self.radius, self.scale, self.denominator = int(radius), mpz(scale), mpz(denominator)
        if self.radius < 1 or self.scale < 1 or self.denominator < 1:
            raise InputError("radius, scale and threshold denominator: each must be a positive integer")
        check_threshold_size(self.epsilon, self.denominator)
        check_edge_radius(self.radius, self.sigma2)
        self.patterns = tuple(tuple(int(j) for j in p) for p in patterns)
        _check_patterns(self.patterns, self.budget)
        self.deadlines = tuple(int(t) for t in deadlines)
        m = len(self.patterns[0])
        if not self.deadlines or list(self.deadlines) != sorted(set(self.deadlines)):
            raise InputError(f"deadlines: need distinct increasing horizons, got {list(self.deadlines)}")
        if self.deadlines[0] < m:
            raise InputError(f"deadlines: T = {self.deadlines[0]} is shorter than the suffix ({m} releases)")
        if self.deadlines[-1] > MAX_DEADLINE:
            raise LimitError(f"deadlines: T = {self.deadlines[-1]} exceeds the limit {MAX_DEADLINE}")
        self.reference = parse_switch(reference, "reference")

    @classmethod
    def from_strings(cls, gamma, sigma2, epsilon, radius, scale, deadlines, *, budget,
                     threshold_denominator="1e30", reading="fixed", reference=False):
        """Parse user text exactly; ``deadlines`` one horizon, ``"3,44"`` or a list (sorted, repeats merged);
        ``reading`` one of :data:`READINGS`; the integers may be written as exact decimals (``1e24``)."""
        if reading not in READINGS:
            raise InputError(f"reading: {reading!r} is not one of {', '.join(READINGS)}")
        horizons = sorted(set(parse_integer(t, "deadline") for t in list_items(deadlines, "deadlines")))
        return cls(parse_gamma(gamma), parse_rational(sigma2, "sigma2"), parse_whole(budget, "budget"),
                   parse_rational(epsilon, "epsilon"), parse_integer(radius, "radius"), parse_whole(scale, "scale"),
                   parse_whole(threshold_denominator, "threshold denominator"), READINGS[reading], horizons,
                   reference)

    @property
    def length(self):
        return len(self.patterns[0])

    def as_json(self):
        return {
            "gamma": str(self.gamma), "sigma2": format_rational(self.sigma2), "budget": self.budget,
            "epsilon": format_rational(self.epsilon), "radius": self.radius,
            "scale": str(int(self.scale)), "threshold_denominator": str(int(self.denominator)),
            "patterns": [list(p) for p in self.patterns], "deadlines": list(self.deadlines),
            "reference": self.reference,
        }


def _check_patterns(patterns, budget):
    """Every pattern: one common length m, signs in {-1, 0, 1}, at most ``budget`` participations."""
    if not patterns:
        raise InputError("patterns: need at least one suffix sign pattern")
    m = len(patterns[0])
    for p in patterns:
        if len(p) != m or not 1 <= m <= MAX_PATTERN_LENGTH:
            raise InputError(f"patterns: all patterns need one length between 1 and {MAX_PATTERN_LENGTH}, "
                             f"got {list(p)}")
        if any(j not in (-1, 0, 1) for j in p):
            raise InputError(f"patterns: signs must be -1, 0 or 1, got {list(p)}")
        participations = sum(1 for j in p if j)
        if participations > budget:
            raise InputError(f"patterns: {list(p)} participates {participations} times, more than the budget "
                             f"C = {budget} (an illegal program for C); "
                             f"give {option('budget', participations)} or more")


def suffix_tables(rows, patterns, low, high, lam):
    """Per state of the window: (best pattern index, P, Q) over D^m, using the period B^m."""
    B, m = rows.gamma.B, len(patterns[0])
    period = B ** m
    tests = [SuffixTest(rows, p, lam.numerator, lam.denominator) for p in patterns]
    by_residue = {}
    entries = []
    for k in range(low, high + 1):
        r = k % period
        if r not in by_residue:
            # evaluate at the window representative of the residue (period proved in docs)
            best = None
            for index, test in enumerate(tests):
                p, q = test.evaluate(k)
                v = lam.denominator * p - lam.numerator * q
                if best is None or v > best[0]:
                    best = (v, index, p, q)
            by_residue[r] = best[1:]
        entries.append(by_residue[r])
    return entries


def reference_certificate(request, progress):
    """The embedded dg-interval/1 upper end of Δ*_C(ε) for the request's question and source, or None."""
    if not request.reference:
        return None
    progress(f"reference: dg-interval of Δ*_{request.budget}({request.epsilon}) at L = {request.radius}")
    return dg_upper_certificate(request.gamma, request.sigma2, request.budget, request.epsilon,
                                request.radius, request.scale)


def check_reference(lowers, reference):
    """Refuse a reference whose upper end lies below a lower end: the two would contradict each other."""
    if reference is None:
        return
    upper = upper_end(reference)
    for T, lower in lowers:
        if lower > upper:
            raise InputError(f"reference: its upper end {decimal_outward(upper, 16, +1)} of Δ*_C(ε) lies below "
                             f"the lower end {decimal_outward(lower, 16, -1)} at T = {T}; the two contradict "
                             f"each other, nothing written")


def evaluate(request, progress=None):
    """All numbers of the certificate (a dict of exact values)."""
    start_time = time.monotonic()
    progress = progress or (lambda message: None)
    source = DiscreteGaussianSource.from_radius_scale(request.sigma2, request.radius, request.scale)
    lam_lo, lam_hi = grid_threshold(request.epsilon, request.denominator)
    rows = RowCache(source.law, request.gamma)
    low, high = invariant_window(rows, 0)
    check_invariant(rows, low, high)
    check_auditable_deadlines(request, low, high, lam_lo.denominator)
    reference = reference_certificate(request, progress)  # its limits are refused before the witness's work
    progress(f"window [{low}, {high}], suffix tables for {len(request.patterns)} pattern(s)")
    entries = suffix_tables(rows, request.patterns, low, high, lam_lo)
    start = StartTable(low, high, [e[1] for e in entries], [e[2] for e in entries],
                       lam_lo.numerator, lam_lo.denominator)
    max_waits = request.deadlines[-1] - request.length
    stopping, layers = run_waiting(rows, start, max_waits)
    D, m = rows.denominator, request.length
    zero = -low
    deadlines = []
    for T in request.deadlines:
        s = T - m
        P, Q, V = layers[s]
        scale = D ** (m + s)
        p, q = mpq(P[zero], scale), mpq(Q[zero], scale)
        payoff = mpq(V[zero], scale * lam_lo.denominator)
        if payoff != p - lam_lo * q:
            raise ArithmeticError("waiting recursion: payoff differs from p − λ₋q")
        coupling = (1 + lam_hi) * T * source.tau
        lower = max(mpq(0), payoff - (lam_hi - lam_lo) - coupling)
        deadlines.append(dict(T=T, waits=s, p=p, q=q, payoff=payoff, threshold_term=lam_hi - lam_lo,
                              coupling=coupling, lower=lower))
    dm = D ** m
    suffix = [dict(k=low + i, pattern=e[0], p=mpq(e[1], dm), q=mpq(e[2], dm))
              for i, e in enumerate(entries)]
    check_reference([(d["T"], d["lower"]) for d in deadlines], reference)
    progress(f"done in {time.monotonic() - start_time:.1f} s")
    return dict(source=source, lam_lo=lam_lo, lam_hi=lam_hi, low=low, high=high,
                suffix=suffix, stopping=stopping, deadlines=deadlines, reference=reference)


def result_json(values):
    lam_lo, reference = values["lam_lo"], values["reference"]
    suffix = [{"k": e["k"], "pattern": e["pattern"], "h": format_rational(e["p"] - lam_lo * e["q"]),
               "p": format_rational(e["p"]), "q": format_rational(e["q"])} for e in values["suffix"]]
    deadlines = []
    for d in values["deadlines"]:
        ratio = None
        if reference is not None:
            ratio = decimal_outward(d["lower"] / upper_end(reference), RATIO_DIGITS, -1)
        deadlines.append({
            "waits": d["waits"], "p": format_rational(d["p"]), "q": format_rational(d["q"]),
            "payoff": format_rational(d["payoff"]), "threshold_term": format_rational(d["threshold_term"]),
            "coupling": format_rational(d["coupling"]), "lower": format_rational(d["lower"]),
            "lower_display": decimal_outward(d["lower"], LOWER_DIGITS, -1), "ratio_display": ratio,
        })
    return {
        "source": source_claims(values["source"]),
        "threshold": {"lower": format_rational(lam_lo), "upper": format_rational(values["lam_hi"])},
        "window": {"low": values["low"], "high": values["high"]},
        "suffix": suffix,
        "stopping": values["stopping"],
        "deadlines": deadlines,
        "reference": reference,
    }


def build(request, progress=None):
    """The deadline-witness certificate for ``request``."""
    values = evaluate(request, progress)
    return make_certificate(KIND, VERSION, request.as_json(), result_json(values))


def claim(cert):
    inp, res = cert["input"], cert["result"]
    eps, C = show(rational(inp["epsilon"])), inp["budget"]
    rows = list(zip(inp["deadlines"], res["deadlines"]))
    parts = [f"H_{{e^{eps}}}(P_{T}‖Q_{T}) ≥ {down(d['lower'])}" for T, d in rows[:3]]
    if len(rows) > 3:
        parts.append(f"and {len(rows) - 3} more deadlines")
    reading = "fixed suffix" if len(inp["patterns"]) == 1 else f"best of {len(inp['patterns'])} suffixes"
    reference = ""
    if res["reference"] is not None:
        upper = res["reference"]["result"]["interval"]["upper"]
        reference = f"; reference Δ*_{C}({eps}) ≤ {up(upper)}, ratio ≥ {res['deadlines'][-1]['ratio_display']}"
    return (f"{'; '.join(parts)} for γ = {inp['gamma']}, σ² = {show(rational(inp['sigma2']))}, C = {C}, "
            f"source L = {inp['radius']}{reference} (deadline witness of the physical program, {reading})")


def auditor_cost(cert):
    """The auditor's budget estimate of a deadline-witness certificate (producer.lower.auditability): at most
    two budgets (its own work and its reference's, each within one by its own limits), so never refused."""
    return deadline_cost(cert)
