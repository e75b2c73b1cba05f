"""Checks of ``dg-interval/1`` certificates (*Hidden Integer Feedback* §3.2, §4.3).

Re-proved by the auditor's own routes:

1. the source: 2L+1 weights at offset −L summing to S, and every nonzero atom
   below its discrete-Gaussian mass, w_n·Z⁺ <= S·f⁻(n) (Taylor bounds for
   f(n) = exp(−n²/(2σ²)), Z⁺ from the geometric tail bound);
2. τ >= w_0/S − 1/Z⁺ >= ν(0) − g(0) = TV(ν, g) (all other atoms are below g);
3. λ₋ <= e^ε <= λ₊ (Taylor bounds);
4. the finite value G_C(1, λ₋) by the auditor's own game evaluator, and
   v = G_C(1, λ₋) − λ₋; the witness (the optimising first action at the
   root) must be legal and attain that value (``stop`` gives max(1, λ₋); a
   participation from preparation k with its sign is re-valued by
   :func:`auditor.game.values.root_action_value`);
5. b = (1 + λ₊)(1 − (1 − τ)^{2C}) and the interval
   [max(0, v − (λ₊ − λ₋) − b), min(1, v + b)], exactly, with its width and
   outward-rounded displays; a requested width W must exceed the width;
6. method labels: ``result.finite.method`` is a known label, ``reduced`` only
   for a symmetric source and C <= 2 (:mod:`auditor.common`); a
   requested ``input.method`` must be the one used.

γ, σ² > 0 and the structural integers are the domain: outside it the
certificate is malformed (exit 2).  γ may be ``"0"`` (plain composition:
a = 0, B = 1, one root; docs/plain-composition.md §1).

The discrete Laplace source (``input.noise = {"family": "discrete-laplace",
"t": ...}``, σ² null; docs/plain-composition.md §2) replaces checks 1 and 2
by :func:`_check_laplace_source`: with r = e^{−1/t} enclosed by
:mod:`auditor.enclosures.laplace` (closed-form normaliser), every nonzero
atom w_n <= S·e⁻(−|n|/t)·(1 − r⁺)/(1 + r⁺) <= S·L_t(n), and
τ >= w_0/S − (1 − r⁺)/(1 + r⁺) >= ν(0) − L_t(0) = TV(ν, L_t) (the Lemma τ);
``result.source`` must carry the input's ``noise`` and σ² null.  Checks 3-6
are the same: the transfer lemma uses only TV <= τ.  Domain: t > 0
(malformed otherwise); limits: |n|/t and 1/t within
:data:`MAX_EXP_ARGUMENT`, and the precision and source-work limits below.

Enclosure checks run at a precision derived from the sizes of the numbers
(bits of S, of λ) and are retried once at four times that precision
(:func:`auditor.decide.retried`).  Each such claim (an atom below its mass, τ >= TV, λ₋ <= e^ε <= λ₊) FAILS only when
the auditor's enclosures disprove it; one neither proved nor disproved after
the retry is not established by the certificate's recipe: a FAIL (exit 1),
never OK.

Work limits, all checked from the input alone before any enclosure or game is
computed (beyond them the certificate is UNCHECKED, exit 3): the game work of
:mod:`auditor.checks.finite_game` (budget <= 64, estimated work <= 1.5e8), an
exponent |x| <= :data:`MAX_EXP_ARGUMENT` for every e^x the checks need (e^ε,
the kernel at the radius and at the end of the normaliser sum), working
precision <= :data:`MAX_BITS`, at most :data:`MAX_TERMS` normaliser terms, and
atoms x bits <= :data:`MAX_SOURCE_WORK` for the source check.
"""

from fractions import Fraction

from auditor import budget
from auditor.game import values
from auditor.game.rows import Law
from auditor.game.work import estimated_work, root_preparation_count, root_ratio_groups, support_width
from auditor.certificate import Malformed
from auditor import common
from auditor.common import check_display, outward_decimal  # re-exported
from auditor.checks.finite_game import MAX_WEIGHTS, MAX_WORK, refuse_beyond_limit, witness_value, work_estimate
from auditor.claims import interval_text, number as _q, rational_text
from auditor.decide import RETRY_FACTOR, exp_states, fail_undecided, retried, source_states, state
from auditor.common import refuse_size
# the enclosure limits of dg-interval/1 (stated once, with every kind that uses them)
from auditor.enclosure_limits import MAX_BITS, MAX_EXP_ARGUMENT, MAX_SOURCE_WORK, MAX_TERMS
from auditor.enclosures import laplace
from auditor.enclosures.gaussian import summation_length
from auditor.outcomes import Unchecked
from auditor.rationals import floor, read_rational

GAME_NS = 400
"""Work units of the file's budget (:mod:`auditor.budget`) per unit of the game's estimated work: the game's own
limit (:data:`MAX_WORK`) is one whole budget (a unit is 0.01 to 0.35 µs on the reference games, up to 0.48 µs
on random asymmetric laws)."""

__all__ = ["verify", "verify_open", "estimate", "claim", "verify_dg", "estimate_dg", "MAX_EXP_ARGUMENT", "MAX_BITS",
           "MAX_SOURCE_WORK", "MAX_TERMS", "check_display", "outward_decimal", "MAX_WORK",
           "finite_work", "finite_value", "fail_undecided", "RETRY_FACTOR"]


def verify(cert, report):
    undecided = []
    verify_open(cert, report, undecided)
    fail_undecided(undecided, report, cert)


def verify_open(cert, report, undecided):
    """Every claim, limits first; the pointers of undecided claims are left in ``undecided``, not raised
    (so an enclosing certificate, :func:`auditor.embedded.verify_embedded`, keeps one list of them)."""
    budget.reserve(report, [(cert, estimate(cert, ""))])
    verify_dg(cert, report, "", undecided)


def estimate(cert, prefix):
    """The limits of a dg-interval whose pointers start at ``prefix`` (:func:`auditor.embedded.refuse`), and
    its work in the file's budget (:class:`auditor.budget.Cost`): the game's estimated work times
    :data:`GAME_NS` (a game at the game's own limit is one whole budget)."""
    p = estimate_dg(cert, prefix)
    return budget.Cost(p.get("work", 0) * GAME_NS, 0, prefix + "/input/budget", "the finite game")


def _source_bits(S):
    return S.bit_length() + 64


def _threshold_bits(lam_lo, lam_hi):
    return max(lam_hi.numerator.bit_length(), lam_lo.denominator.bit_length(),
               lam_hi.denominator.bit_length()) + 48


def _refuse_exponent(x, pointer, what):
    if abs(x) > MAX_EXP_ARGUMENT:
        raise Unchecked(pointer, common.magnitude(floor(abs(x))),
                        MAX_EXP_ARGUMENT, f"exponent of {what}")


def _refuse_bits(bits, pointer):
    if bits * RETRY_FACTOR > MAX_BITS:
        raise Unchecked(pointer, bits * RETRY_FACTOR, MAX_BITS, "working precision in bits")


def parse_dg(cert, prefix):
    """The domain of a dg-interval certificate, validated (malformed otherwise)."""
    inp, res = cert["input"], cert["result"]
    I, R = prefix + "/input", prefix + "/result"
    a, B = common.gamma(inp["gamma"], I + "/gamma")
    sigma2, t = noise_parameters(inp, I)
    budget = common.integer(inp["budget"], I + "/budget", 0)
    epsilon = read_rational(inp["epsilon"], I + "/epsilon")
    if epsilon < 0:
        raise Malformed(f"{I}/epsilon: epsilon must be non-negative")
    if inp["method"] is not None:
        common.method(inp["method"], I + "/method")
    common.method(res["finite"]["method"], R + "/finite/method")
    src = res["source"]
    L = common.integer(src["radius"], R + "/source/radius", 1)
    offset = common.integer(src["offset"], R + "/source/offset")
    if "radius" in inp["source"]:
        common.integer(inp["source"]["radius"], I + "/source/radius", 1)
    elif read_rational(inp["source"]["width"], I + "/source/width") <= 0:
        raise Malformed(f"{I}/source/width: the requested width must be positive")
    return {"a": a, "B": B, "sigma2": sigma2, "t": t, "budget": budget, "epsilon": epsilon,
            "L": L, "offset": offset}


def noise_parameters(inp, I):
    """(σ², None) for the discrete Gaussian (no ``noise``), (None, t) for the discrete Laplace.

    Shared with the calibration.  σ² must be positive; with a ``noise`` object σ²
    must be null and t a positive rational (malformed otherwise).
    """
    noise = inp.get("noise")
    if noise is None:
        sigma2 = read_rational(inp["sigma2"], I + "/sigma2")
        if sigma2 <= 0:
            raise Malformed(f"{I}/sigma2: sigma2 must be positive")
        return sigma2, None
    if not isinstance(noise, dict) or noise.get("family") != "discrete-laplace":
        raise Malformed(f"{I}/noise: unknown noise family (known: discrete-laplace)")
    if inp["sigma2"] is not None:
        raise Malformed(f"{I}/sigma2: must be null when input.noise is given")
    t = read_rational(noise.get("t"), I + "/noise/t")
    if t <= 0:
        raise Malformed(f"{I}/noise/t: the discrete-Laplace scale must be positive")
    return None, t


def estimate_dg(cert, prefix):
    """Refuse (Unchecked) before any work when a check would exceed a limit."""
    p = parse_dg(cert, prefix)
    res = cert["result"]
    R = prefix + "/result"
    n = len(res["source"]["weights"])
    if n > MAX_WEIGHTS:
        raise Unchecked(R + "/source/weights", n, MAX_WEIGHTS, "number of weights")
    weights = _weights(res["source"], R)
    if any(w < 0 for w in weights) or not any(weights):
        return p  # an empty source is a false claim, reported by verify_dg before any work
    p["work"] = _game_work(weights, p)
    refuse_beyond_limit(p["work"], prefix + "/input/budget")
    if p["t"] is None:
        refuse_size(p["sigma2"], prefix + "/input/sigma2")
    else:
        refuse_size(p["t"], prefix + "/input/noise/t", "t")
    _refuse_exponent(p["epsilon"], prefix + "/input/epsilon", "e^epsilon")
    radius = (n - 1) // 2
    S = int(read_rational(res["source"]["scale"], R + "/source/scale"))
    if p["t"] is None:
        _refuse_exponent(Fraction(radius * radius) / (2 * p["sigma2"]), R + "/source/radius",
                         "the kernel at the radius")
        bits = _source_bits(S)
    else:
        _refuse_exponent(1 / p["t"], prefix + "/input/noise/t", "the ratio e^{-1/t}")
        _refuse_exponent(Fraction(radius) / p["t"], R + "/source/radius", "the kernel at the radius")
        bits = _source_bits(S) + laplace.extra_bits(p["t"])
    _refuse_bits(bits, R + "/source/scale")
    if n * bits * RETRY_FACTOR > MAX_SOURCE_WORK:
        raise Unchecked(R + "/source/weights", n * bits * RETRY_FACTOR, MAX_SOURCE_WORK,
                        "source check work (atoms x bits)")
    if p["t"] is None:
        terms = summation_length(p["sigma2"], bits * RETRY_FACTOR)
        if terms > MAX_TERMS:
            raise Unchecked(prefix + "/input/sigma2", terms, MAX_TERMS, "normaliser terms")
        _refuse_exponent(Fraction((terms + 1) ** 2) / (2 * p["sigma2"]), prefix + "/input/sigma2",
                         "the kernel at the end of the normaliser sum")
    th = res["threshold"]
    lam_lo = read_rational(th["lower"], R + "/threshold/lower")
    lam_hi = read_rational(th["upper"], R + "/threshold/upper")
    _refuse_bits(_threshold_bits(lam_lo, lam_hi), R + "/threshold")
    return p


def _weights(src, R):
    return [int(read_rational(w, f"{R}/source/weights/{i}")) for i, w in enumerate(src["weights"])]


def _game_work(weights, p):
    """The game's own estimate of one G_C query for this source (Unchecked beyond C = 64)."""
    return work_estimate(weights, p["offset"], p["a"], p["B"], p["budget"], "/input/budget")


def verify_dg(cert, report, prefix, undecided):
    """Check one dg-interval certificate whose JSON pointers start at ``prefix``.

    :func:`estimate_dg` must have accepted it first.  Pointers of claims that
    could be neither proved nor disproved are appended to ``undecided``.
    """
    inp, res = cert["input"], cert["result"]
    I, R = prefix + "/input", prefix + "/result"
    p = parse_dg(cert, prefix)
    a, B, sigma2, budget, epsilon = p["a"], p["B"], p["sigma2"], p["budget"], p["epsilon"]

    src = res["source"]
    if p["t"] is None:
        report.equal(R + "/source/sigma2", read_rational(src["sigma2"], R + "/source/sigma2"), sigma2,
                     "source sigma2 (the request's)")
        report.check("noise" not in src, R + "/source/noise", "present", "absent",
                     "a discrete-Gaussian source carries no noise object")
    else:
        report.check(src["sigma2"] is None, R + "/source/sigma2", src["sigma2"], None,
                     "a discrete-Laplace source has sigma2 null")
        report.equal(R + "/source/noise", src.get("noise"), inp["noise"], "source noise (the request's)")
    L, offset = p["L"], p["offset"]
    S = int(read_rational(src["scale"], R + "/source/scale"))
    weights = _weights(src, R)
    ok = report.equal(R + "/source/weights", len(weights), 2 * L + 1, "number of weights (2L+1)")
    ok &= report.equal(R + "/source/offset", offset, -L, "offset (−L)")
    ok &= report.equal(R + "/source/scale", S, sum(weights), "scale S (the sum of the weights)")
    ok &= report.check(S > 0 and L >= 1, R + "/source/scale", S, "S > 0, L >= 1", "empty source")
    request = inp["source"]
    if "radius" in request:
        report.equal(I + "/source/radius", request["radius"], L, "requested radius")
        report.equal(I + "/source/scale", int(read_rational(request["scale"], I + "/source/scale")), S,
                     "requested scale")
    if not ok:
        return

    tau = read_rational(res["tau"], R + "/tau")
    report.check(0 <= tau < 1, R + "/tau", tau, "[0, 1)", "tau must lie in [0, 1)")
    if p["t"] is None:
        _check_source(weights, L, S, sigma2, tau, report, R, undecided)
    else:
        _check_laplace_source(weights, L, S, p["t"], tau, _source_bits(S), report, R, undecided)

    lam_lo = read_rational(res["threshold"]["lower"], R + "/threshold/lower")
    lam_hi = read_rational(res["threshold"]["upper"], R + "/threshold/upper")
    _check_threshold(epsilon, lam_lo, lam_hi, report, R, undecided)

    fin = res["finite"]
    _check_methods(inp["method"], fin["method"], weights, offset, budget, report, I, R)
    report.equal(R + "/finite/x", read_rational(fin["x"], R + "/finite/x"), Fraction(1), "query x")
    report.equal(R + "/finite/y", read_rational(fin["y"], R + "/finite/y"), lam_lo, "query y (λ₋)")
    claimed_value = read_rational(fin["value"], R + "/finite/value")
    refuse_beyond_limit(_game_work(weights, p), I + "/budget")
    law = Law(weights, offset, a, B)
    value = Fraction(values.root_value(law, budget, Fraction(1), lam_lo))
    report.equal(R + "/finite/value", claimed_value, value, f"G_{budget}(1, λ₋)")
    wptr = R + "/finite/witness"
    wv = witness_value(law, budget, None, fin["witness"], Fraction(1), lam_lo, report, wptr)
    if wv is not None:
        report.check(wv == value, wptr, wv, value,
                     "the witnessed action does not attain the finite value G_C(1, λ₋)")
    v = value - lam_lo
    report.equal(R + "/finite/hockey_stick", read_rational(fin["hockey_stick"], R + "/finite/hockey_stick"),
                 v, "v = G_C(1, λ₋) − λ₋")

    b = (1 + lam_hi) * (1 - (1 - tau) ** (2 * budget))
    report.equal(R + "/transfer", read_rational(res["transfer"], R + "/transfer"), b,
                 "transfer term b = (1 + λ₊)(1 − (1 − τ)^{2C})")
    lower = max(Fraction(0), v - (lam_hi - lam_lo) - b)
    upper = min(Fraction(1), v + b)
    iv = res["interval"]
    claimed_lower = read_rational(iv["lower"], R + "/interval/lower")
    claimed_upper = read_rational(iv["upper"], R + "/interval/upper")
    report.equal(R + "/interval/lower", claimed_lower, lower, "max(0, v − (λ₊ − λ₋) − b)")
    report.equal(R + "/interval/upper", claimed_upper, upper, "min(1, v + b)")
    report.equal(R + "/interval/width", read_rational(iv["width"], R + "/interval/width"),
                 claimed_upper - claimed_lower, "upper − lower")
    check_display(iv["lower_display"], claimed_lower, -1, R + "/interval/lower_display", report)
    check_display(iv["upper_display"], claimed_upper, +1, R + "/interval/upper_display", report)
    if "width" in request:
        W = read_rational(request["width"], I + "/source/width")
        report.check(claimed_upper - claimed_lower < W, R + "/interval/width",
                     claimed_upper - claimed_lower, W, "the interval is not narrower than the requested width")


def finite_work(weights, offset, a, B, budget):
    """Estimated work of recomputing G_budget for this law (auditor.game.work's estimate)."""
    law = Law(weights, offset, a, B)
    return estimated_work(support_width(weights), B, budget, preparations=root_preparation_count(law, budget),
                          root_ratios=root_ratio_groups(law), symmetric=law.is_symmetric())


def finite_value(weights, offset, a, B, budget, x, y):
    """G_budget(x, y) for the law; ValueError beyond :data:`MAX_WORK` (a library helper:
    :func:`verify` refuses such certificates as UNCHECKED before calling anything)."""
    work = finite_work(weights, offset, a, B, budget)
    if work > MAX_WORK:
        raise ValueError(f"estimated work {common.magnitude(work)} > limit {MAX_WORK}, not recomputed")
    return Fraction(values.root_value(Law(weights, offset, a, B), budget, x, y))


def _check_methods(requested, used, weights, offset, budget, report, I, R):
    """The label used is legal for this source; a requested method is the one used."""
    common.check_method(used, weights, offset, budget, R + "/finite/method", report)
    if requested is not None:
        report.equal(R + "/finite/method", used, requested, "method (the requested one)")


def _settle(items, report, undecided, pointer_of, claimed_of, shown, reason):
    """Record the claims never proved: a failure when disproved, else undecided."""
    for key, decision in items.items():
        if decision == "disproved":
            report.fail(pointer_of(key), claimed_of(key), shown(key), reason + " (disproved)")
        elif decision == "open":
            undecided.append(pointer_of(key))


def _check_source(weights, L, S, sigma2, tau, report, R, undecided):
    """Atoms below the DG masses and τ >= TV(ν, g) (*Hidden Integer Feedback* §3.2, docs §2),
    by :func:`auditor.decide.source_states`.

    Atom n: proved when w_n·Z⁺ <= S·f⁻(n) (w_n/S <= g(n)), disproved when
    w_n·Z⁻ > S·f⁺(n).  τ: proved when τ >= w_0/S − 1/Z⁺ (Lemma 2), disproved when
    τ < w_0/S − 1/Z⁻ <= ν(0) − g(0) <= TV.  At S's bits + 64 (:func:`_source_bits`)
    and RETRY_FACTOR times that; claims open after the retry are undecided.
    """
    atoms, tau_state, _, _ = source_states(weights, L, S, sigma2, tau)
    _report_source(atoms, tau_state, weights, L, tau, report, R, undecided,
                   "S·exp(−n²/(2σ²))/Z at n = {n}", "atom above its discrete-Gaussian mass",
                   "w_0/S − 1/Z", "tau below TV(ν, g) >= ν(0) − g(0)")


def _report_source(atoms, tau_state, weights, L, tau, report, R, undecided, atom_bound, atom_reason,
                   tau_bound, tau_reason):
    """Record the source decisions: proved atoms as checks, disproved claims as failures, open ones undecided."""
    for n, st in atoms.items():
        if st == "proved":
            report.check(True, f"{R}/source/weights/{n + L}", "", "", "")
    _settle(atoms, report, undecided, lambda n: f"{R}/source/weights/{n + L}", lambda n: weights[n + L],
            lambda n: atom_bound.format(n=n), atom_reason)
    _settle({"tau": tau_state}, report, undecided, lambda _: R + "/tau", lambda _: tau,
            lambda _: tau_bound, tau_reason)


def _check_laplace_source(weights, L, S, t, tau, bits, report, R, undecided):
    """Atoms below the discrete-Laplace masses and τ >= TV(ν, L_t) (docs/plain-composition.md §2.3).

    With enclosures of r = e^{−1/t} and of e^{−|n|/t} (at bits, then
    RETRY_FACTOR·bits, :func:`auditor.decide.retried`): atom n proved when
    w_n <= S·lo(L_t(n)), disproved when w_n > S·hi(L_t(n)); τ proved when
    τ >= w_0/S − lo(L_t(0)) (Lemma τ), disproved when τ < w_0/S − hi(L_t(0))
    <= ν(0) − L_t(0) <= TV.  Open claims are undecided.
    """
    w0 = Fraction(weights[L], S)

    def decide_at(pending, bits):
        centre = laplace.centre_bounds(t, bits)
        masses = {}  # |n| -> (lo, hi): w_n = w_{-n} is not assumed, the enclosure is shared
        decisions = {}
        for n in pending:
            if n == "tau":
                decisions[n] = state(tau >= w0 - centre[0], tau < w0 - centre[1])
                continue
            if abs(n) not in masses:
                masses[abs(n)] = laplace.atom_bounds(abs(n), t, bits, centre)
            m_lo, m_hi = masses[abs(n)]
            decisions[n] = state(weights[n + L] <= S * m_lo, weights[n + L] > S * m_hi)
        return decisions

    atoms = [n for n in range(-L, L + 1) if n != 0 and weights[n + L] > 0]
    decisions = retried(decide_at, atoms + ["tau"], bits)
    tau_state = decisions.pop("tau")
    _report_source(decisions, tau_state, weights, L, tau, report, R, undecided,
                   "S·e^(−|n|/t)(1 − r)/(1 + r) at n = {n}", "atom above its discrete-Laplace mass",
                   "w_0/S − (1 − r)/(1 + r)", "tau below TV(ν, L_t) >= ν(0) − L_t(0)")


def _check_threshold(epsilon, lam_lo, lam_hi, report, R, undecided):
    """λ₋ <= e^ε <= λ₊ (and λ₋ > 0) by :func:`auditor.decide.exp_states`: proved, disproved or undecided."""
    report.check(0 < lam_lo <= lam_hi, R + "/threshold", common.span(lam_lo, lam_hi), "0 < λ₋ <= λ₊",
                 "the threshold enclosure must be a positive interval")
    lower, upper, (e_lo, e_hi) = exp_states(epsilon, lam_lo, lam_hi, bits=_threshold_bits(lam_lo, lam_hi))
    for key, st in (("lower", lower), ("upper", upper)):
        report.check(st != "disproved", f"{R}/threshold/{key}", lam_lo if key == "lower" else lam_hi,
                     common.span(e_lo, e_hi), f"e^ε is not {'above λ₋' if key == 'lower' else 'below λ₊'}")
        if st == "open":
            undecided.append(f"{R}/threshold/{key}")


# ---- the claim: the one-line summary of a verified certificate (auditor.api states it) ----

def parameters_text(inp):
    """``gamma = 1/3, sigma^2 = 9, C = 2`` (or the discrete Laplace's t): the mechanism of an input."""
    noise = inp.get("noise")
    law = (f"sigma^2 = {rational_text(_q(inp['sigma2']))}" if noise is None
           else f"discrete Laplace t = {rational_text(_q(noise['t']))}")
    return f"gamma = {rational_text(_q(inp['gamma']))}, {law}, C = {inp['budget']}"


def claim(cert):
    """``Delta*_2(2) in [lo, hi] for gamma = 1/3, sigma^2 = 9, C = 2``."""
    inp, iv = cert["input"], cert["result"]["interval"]
    return (f"Delta*_{inp['budget']}({rational_text(_q(inp['epsilon']))}) in "
            f"{interval_text(_q(iv['lower']), _q(iv['upper']))} "
            f"({'discrete Gaussian' if inp.get('noise') is None else 'discrete Laplace'}) "
            f"for {parameters_text(inp)}")
