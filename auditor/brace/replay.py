"""Recomputing a BRACE run from its bank and released history.

:func:`verify_run` checks every exact quantity of a ``brace-run`` result
(gates, updates, corrections, activations, projections, releases), re-encloses
every bracket and calibration constant with the auditor's own routines,
checks the noise variance rule, eq. (8) for every step's γ'_t, and that the
privacy claim follows.  It returns the auditor's own recomputation so that the
``brace-compare`` checks can reuse it.

Every stored enclosure [lo, hi] of a constant claims "the true value lies in
[lo, hi]": proved when the auditor's own enclosure lies inside it, disproved
(FAIL) when the two are disjoint, refined by doubling the auditor's
precision from 160 up to :data:`MAX_BITS` bits otherwise; still undecided
there, the stored enclosure is not established (a FAIL, exit 1), never OK.  Decimal displays
(a bracket's ``display`` pair, ``admissible_display``) are the exact values
rounded outward (down for lower ends and for the admissible bound, up for
upper ends) at their own number of places.  ``result.method`` is the fixed
description :data:`METHOD`; ``claim.reason`` and ``bank.name`` are prose for
people and carry no claim.

Limits, checked from the sizes alone before any work (UNCHECKED, exit 3):
at most :data:`MAX_POINTS` bank points, dimension <= :data:`MAX_DIMENSION`,
horizon <= :data:`MAX_HORIZON`, and horizon·points·dimension <=
:data:`MAX_WORK`; the smoothness γ (``result.gamma``, and ``input.gamma``
unless ``auto``) at most :data:`MAX_GAMMA` (its e^-γ enclosure has about
1.44γ bits), and the count envelope's powers of the stored e^-γ ends at most
:data:`MAX_ENVELOPE_BITS` bits (points × the bits of each end).  Structural
integers must be JSON integers, and every vector of a step must have the
bank's dimension (malformed otherwise).
"""

from fractions import Fraction

from auditor.brace.calibration import Enclosures
from auditor.brace.draws import draws_match
from auditor.brace.enclosures import exp_bounds
from auditor.brace.geometry import project_inside, release, sqnorm, update
from auditor.brace.sensitivity import envelope, inactive_at_history, inactive_everywhere
from auditor.certificate import Malformed
from auditor import common, decide
from auditor.outcomes import Unchecked
from auditor.rationals import MalformedNumber, floor, read_rational, show

MAX_NOISE_TOLERANCE = Fraction(1, 2 ** 40)
AUTO_GAMMA_GRID = Fraction(1, 10 ** 12)
AUTO_GAMMA_MARGIN = Fraction(1, 2 ** 60)

# The producer's documented limits (docs/brace.md) and a work bound on their product.
MAX_POINTS = 20_000
MAX_DIMENSION = 64
MAX_HORIZON = 64
MAX_WORK = 10_000_000
# Largest smoothness γ (the exponent of the e^-γ enclosure), as every kind's exponent limit.
MAX_GAMMA = 50_000
# Largest bits of the envelope's powers e^k of a stored e^-γ end, k <= points: points × the bits of
# the end (the producer's ends have about 256 bits, so 20,000 points give about 5·10^6).
MAX_ENVELOPE_BITS = 2 * 10 ** 7
# Precision range of the enclosure checks.
START_BITS = 160
MAX_BITS = 2560

METHOD = ("BRACE Algorithm 1 in exact arithmetic: exact gates on squared distances, projections truncated "
          "onto a dyadic grid, count-envelope brackets under universal or history non-activation, constant "
          "2r fallback otherwise, arb enclosures")


def _vec(values, ptr):
    return tuple(read_rational(v, f"{ptr}/{i}") for i, v in enumerate(values))


def vector(values, ptr, dimension):
    """A vector of rationals of the bank's ``dimension`` (malformed otherwise)."""
    if len(values) != dimension:
        raise MalformedNumber(f"{ptr}: {len(values)} coordinates, the bank's dimension is {dimension}")
    return _vec(values, ptr)


def _pair(values, ptr):
    lo, hi = _vec(values, ptr)
    return lo, hi


class RunInput:
    """The parsed ``input`` of a brace-run (or brace-compare) certificate."""

    __slots__ = ("points", "query", "r2", "horizon", "kappa", "epsilon", "delta",
                 "gamma", "seed", "grid_bits", "multiplier", "allow_uncalibrated")

    def __init__(self, inp):
        pts = inp["bank"]["points"]
        refuse_sizes(inp)
        self.points = [_vec(p, f"/input/bank/points/{i}") for i, p in enumerate(pts)]
        d = len(self.points[0]) if self.points else 0
        if not self.points or any(len(p) != d for p in self.points):
            raise MalformedNumber("/input/bank/points: empty bank or mixed dimensions")
        self.query = _vec(inp["query"], "/input/query")
        if len(self.query) != d:
            raise MalformedNumber("/input/query: dimension differs from the bank's")
        self.r2 = read_rational(inp["r2"], "/input/r2")
        self.horizon = common.integer(inp["horizon"], "/input/horizon", 1)
        self.kappa = read_rational(inp["kappa"], "/input/kappa")
        self.epsilon = read_rational(inp["epsilon"], "/input/epsilon")
        self.delta = read_rational(inp["delta"], "/input/delta")
        g = inp["gamma"]
        self.gamma = g if g == "auto" else read_rational(g, "/input/gamma")
        self.seed = common.integer(inp["seed"], "/input/seed")
        self.grid_bits = common.integer(inp["grid_bits"], "/input/grid_bits", 1)
        self.multiplier = read_rational(inp["noise_multiplier"], "/input/noise_multiplier")
        self.allow_uncalibrated = common.boolean(inp["allow_uncalibrated"], "/input/allow_uncalibrated")
        for name, v in (("r2", self.r2), ("kappa", self.kappa), ("epsilon", self.epsilon),
                        ("noise_multiplier", self.multiplier)):
            if v <= 0:
                raise MalformedNumber(f"/input/{name}: must be positive")
        if not 0 < self.delta < 1:
            raise MalformedNumber("/input/delta: must lie in (0, 1)")


def refuse_sizes(inp):
    """Unchecked beyond the documented sizes, from lengths alone (before reading numbers)."""
    pts, T = inp["bank"]["points"], common.integer(inp["horizon"], "/input/horizon", 1)
    d = max([len(inp["query"])] + [len(p) for p in pts[:MAX_POINTS + 1]])
    for pointer, value, limit, what in (("/input/bank/points", len(pts), MAX_POINTS, "bank points"),
                                        ("/input/query", d, MAX_DIMENSION, "dimension"),
                                        ("/input/horizon", T, MAX_HORIZON, "horizon")):
        if value > limit:
            raise Unchecked(pointer, value, limit, what)
    if T * len(pts) * d > MAX_WORK:
        raise Unchecked("/input/bank/points", T * len(pts) * d, MAX_WORK, "work horizon x points x dimension")


def refuse_constants(ri, res, base):
    """Unchecked before any enclosure: γ beyond MAX_GAMMA, or the envelope's powers of the
    stored e^-γ ends beyond MAX_ENVELOPE_BITS."""
    for pointer, text in ((f"{base}/gamma", res["gamma"]),
                          ("/input/gamma", None if ri.gamma == "auto" else ri.gamma)):
        if text is None:
            continue
        gamma = read_rational(text, pointer) if isinstance(text, str) else text
        if abs(gamma) > MAX_GAMMA:
            raise Unchecked(pointer, common.magnitude(floor(abs(gamma))), MAX_GAMMA,
                            "gamma (the exponent of e^-gamma)")
    pointer = f"{base}/constants/exp_neg_gamma"
    for i, end in enumerate(_pair(res["constants"]["exp_neg_gamma"], pointer)):
        size = len(ri.points) * (end.numerator.bit_length() + end.denominator.bit_length())
        if size > MAX_ENVELOPE_BITS:
            raise Unchecked(f"{pointer}/{i}", size, MAX_ENVELOPE_BITS,
                            "bits of the envelope's powers of e^-gamma (points x bits of the stored end)")


class _Lazy:
    """Auditor enclosures of the calibration constants, cached per precision."""

    def __init__(self, run_input):
        self.ri = run_input
        self.cache = {}

    def at(self, bits):
        if bits not in self.cache:
            ri = self.ri
            self.cache[bits] = Enclosures(ri.epsilon, ri.delta, ri.horizon, len(ri.query), bits)
        return self.cache[bits]


def _ours(finder, bits):
    """The auditor's enclosure at ``bits``, or None when it cannot be formed there
    (e.g. log(1/δ) for δ next to 1 rounds to a lower end <= 0: refine)."""
    try:
        return finder(bits)
    except (ZeroDivisionError, ValueError, ArithmeticError):
        return None


def _contains(report, ptr, claimed, finder, what, undecided):
    """The claim "x in [lo, hi]", x enclosed by finder(bits): proved, disproved or undecided.

    Returns True when proved; a disproof is recorded as a failure; the pointer
    of an undecided claim is appended to ``undecided``.
    """
    lo, hi = claimed
    if not report.check(lo <= hi, ptr, common.span(lo, hi), "lo <= hi", f"{what}: empty enclosure"):
        return False
    bits = START_BITS
    while bits <= MAX_BITS:
        mine = _ours(finder, bits)
        if mine is not None:
            if lo <= mine[0] and mine[1] <= hi:
                return report.check(True, ptr, "", "", "")
            if mine[1] < lo or hi < mine[0]:
                report.fail(ptr, common.span(lo, hi), common.span(*mine),
                            f"{what}: the claimed enclosure excludes the true value")
                return False
        bits *= 2
    undecided.append(ptr)
    return False


def verify_constants(ri, res, report, base):
    """Check result.gamma and result.constants; return the verified constants."""
    c = res["constants"]
    p = f"{base}/constants"
    undecided = []
    gamma = read_rational(res["gamma"], f"{base}/gamma")
    report.check(gamma > 0, f"{base}/gamma", gamma, "> 0", "gamma must be positive")
    if ri.gamma != "auto":
        report.equal(f"{base}/gamma", gamma, ri.gamma, "gamma")
    r = _pair(c["r"], f"{p}/r")
    report.check(0 <= r[0] and r[0] ** 2 <= ri.r2 <= r[1] ** 2 and r[1] >= 0, f"{p}/r",
                 common.span(*r), f"r^2 = {show(ri.r2)}", "r bounds do not enclose sqrt(r^2)")
    E = _pair(c["exp_neg_gamma"], f"{p}/exp_neg_gamma")
    report.check(E[0] > 0, f"{p}/exp_neg_gamma/0", E[0], "> 0", "lower bound of e^-gamma must be positive")
    _contains(report, f"{p}/exp_neg_gamma", E, lambda b: exp_bounds(-gamma, b), "e^-gamma", undecided)
    lazy = _Lazy(ri)
    _contains(report, f"{p}/log_inv_delta", _pair(c["log_inv_delta"], f"{p}/log_inv_delta"),
              lambda b: lazy.at(b).L, "log(1/delta)", undecided)
    rho = _pair(c["rho"], f"{p}/rho")
    _contains(report, f"{p}/rho", rho, lambda b: lazy.at(b).rho, "rho", undecided)
    report.check(rho[0] > 0, f"{p}/rho/0", rho[0], "> 0", "rho lower bound must be positive")
    _contains(report, f"{p}/alpha", _pair(c["alpha"], f"{p}/alpha"), lambda b: lazy.at(b).alpha, "alpha",
              undecided)
    e8 = c["eq8"]
    report.equal(f"{p}/eq8/quarter", read_rational(e8["quarter"], f"{p}/eq8/quarter"), Fraction(1, 4), "1/4")
    ba = _pair(e8["alpha_bound"], f"{p}/eq8/alpha_bound")
    _contains(report, f"{p}/eq8/alpha_bound", ba, lambda b: lazy.at(b).bound_alpha, "1/(8(alpha-1))",
              undecided)
    bd = _pair(e8["divergence_bound"], f"{p}/eq8/divergence_bound")
    _contains(report, f"{p}/eq8/divergence_bound", bd, lambda b: lazy.at(b).bound_divergence,
              "eq. (8) divergence bound", undecided)
    admissible = read_rational(e8["admissible"], f"{p}/eq8/admissible")
    report.equal(f"{p}/eq8/admissible", admissible, min(Fraction(1, 4), ba[0], bd[0]),
                 "admissible bound min(1/4, lower ends)")
    common.check_display(e8["admissible_display"], admissible, -1, f"{p}/eq8/admissible_display", report)
    vc = read_rational(c["variance_constant"], f"{p}/variance_constant")
    if rho[0] > 0:
        report.equal(f"{p}/variance_constant", vc, Fraction(ri.horizon) / (2 * rho[0]), "T / (2 rho_lo)")
    tol = read_rational(c["noise_tolerance"], f"{p}/noise_tolerance")
    report.check(0 < tol <= MAX_NOISE_TOLERANCE, f"{p}/noise_tolerance", tol, MAX_NOISE_TOLERANCE,
                 "noise tolerance too large to identify the Gaussian draw")
    if ri.gamma == "auto":
        report.check(gamma <= admissible and (gamma / AUTO_GAMMA_GRID).denominator == 1
                     and gamma + AUTO_GAMMA_GRID + AUTO_GAMMA_MARGIN > admissible,
                     f"{base}/gamma", gamma, admissible,
                     "gamma auto must be the largest multiple of 1e-12 below admissible - 2^-60")
    return {"gamma": gamma, "r": r, "E": E, "rho_lo": rho[0], "admissible": admissible,
            "variance_constant": vc, "tolerance": tol, "undecided": undecided,
            "scale_bits": common.integer(c["scale_bits"], f"{p}/scale_bits", 8)}


def noise_matches(variance, zeta, xi, tol):
    """|xi_i - sigma zeta_i| <= tol for sigma = sqrt(variance), exactly:
    sign agreement and (|xi_i| - tol)^2 <= variance zeta_i^2 <= (|xi_i| + tol)^2."""
    for z, x in zip(zeta, xi):
        target2 = variance * z * z
        if z != 0 and x != 0 and (z > 0) != (x > 0) and abs(x) > tol:
            return False
        lo = max(Fraction(0), abs(x) - tol)
        if not lo * lo <= target2 <= (abs(x) + tol) ** 2:
            return False
    return True


def verify_steps(ri, res, consts, report, base):
    """Replay every step; return (clean trajectory z_0..z_T, released Y_1..Y_T, zetas, eq8_all, gp_max).

    ``eq8_all``: every step claims eq. (8) and its γ'_t is within the certified
    admissible bound; ``gp_max``: the largest γ'_t (None when there is no step).
    """
    steps = res["steps"]
    T, n, g, d = ri.horizon, len(ri.points), ri.grid_bits, len(ri.query)
    report.check(len(steps) == T, f"{base}/steps", len(steps), T, "one step per t = 1..T")
    r, E, p = consts["r"], consts["E"], consts["scale_bits"]
    gamma, adm = consts["gamma"], consts["admissible"]
    z_prev, y_prev = ri.query, ri.query
    clean, released, zetas = [ri.query], [], []
    history = [ri.query]
    eq8_all, gp_max = True, None
    for idx, s in enumerate(steps[:T]):
        sp = f"{base}/steps/{idx}"
        t = idx + 1
        report.equal(f"{sp}/t", common.integer(s["t"], f"{sp}/t", 1), t, "step index")
        for key in ("clean_gate", "released_gate"):
            for i, v in enumerate(s[key]):
                common.integer(v, f"{sp}/{key}/{i}", 0)
        common.integer(s["H"], f"{sp}/H", 0)
        if s["bracket"]["argmax_k"] is not None:
            common.integer(s["bracket"]["argmax_k"], f"{sp}/bracket/argmax_k", -1)
        I, z = update(ri.points, z_prev, ri.r2)
        J, a = update(ri.points, y_prev, ri.r2)
        report.equal(f"{sp}/clean_gate", s["clean_gate"], I, "clean gate I_t")
        report.equal(f"{sp}/released_gate", s["released_gate"], J, "released gate J_t")
        report.equal(f"{sp}/z", vector(s["z"], f"{sp}/z", d), z, "clean state z_t")
        report.equal(f"{sp}/a", vector(s["a"], f"{sp}/a", d), a, "update a_t")
        R = tuple(x - y for x, y in zip(z, a))
        report.equal(f"{sp}/R", vector(s["R"], f"{sp}/R", d), R, "correction R_t")
        Rn2 = sqnorm(R)
        report.equal(f"{sp}/R_norm2", read_rational(s["R_norm2"], f"{sp}/R_norm2"), Rn2, "||R_t||^2")
        H = 1 if Rn2 > ri.kappa * T * ri.r2 else 0
        report.equal(f"{sp}/H", s["H"], H, "activation H_t")
        target = tuple(x + y for x, y in zip(a, R)) if H else a
        Q, Qp = project_inside(y_prev, target, ri.r2, g)
        report.equal(f"{sp}/Q", vector(s["Q"], f"{sp}/Q", d), Q, "projected query Q_t")
        report.equal(f"{sp}/Q_projected", s["Q_projected"], Qp, "projection flag of Q_t")
        b = s["bracket"]
        lo = read_rational(b["lo"], f"{sp}/bracket/lo")
        hi = read_rational(b["hi"], f"{sp}/bracket/hi")
        scale = read_rational(s["scale"], f"{sp}/scale")
        gp = read_rational(s["gamma_prime"], f"{sp}/gamma_prime")
        report.check(0 < lo <= hi, f"{sp}/bracket", common.span(lo, hi), "0 < lo <= hi", "bracket out of order")
        common.check_display_pair(b["display"], lo, hi, f"{sp}/bracket/display", report)
        report.equal(f"{sp}/scale", scale, hi, "noise scale (must be the bracket's upper end)")
        if inactive_everywhere(t, ri.kappa, T):
            rule = "non-activation"
        elif inactive_at_history(history, ri.query, ri.r2, ri.kappa, T):
            rule = "history-non-activation"
        else:
            rule = "fallback"
        report.equal(f"{sp}/bracket/method", b["method"], rule, "bracket method")
        if rule != "fallback":
            # the envelopes need e^-gamma's stored ends > 0; otherwise verify_constants has already
            # recorded a false claim (a lower end <= 0, or an upper end below it) and they are skipped
            if E[1] > 0:
                up, arg = envelope(len(J), n, r[1], E[1])
                # the exact envelopes carry powers of e^-gamma: shown by size when beyond str()'s limit
                report.check(up <= hi, f"{sp}/bracket/hi", hi, show(up), "upper end below the certified envelope")
                report.check(hi <= up * (1 + Fraction(1, 2 ** p)), f"{sp}/bracket/hi", hi,
                             show(up * (1 + Fraction(1, 2 ** p))),
                             "upper end above envelope*(1+2^-p): smoothness lost")
                report.equal(f"{sp}/bracket/argmax_k", b["argmax_k"], arg, "maximising k")
            if E[0] > 0:
                down, _ = envelope(len(J), n, r[0], E[0])
                report.check(lo <= down, f"{sp}/bracket/lo", lo, show(down),
                             "lower end above the certified envelope")
            need = gamma + (hi / lo - 1) + Fraction(1, 2 ** p) if lo > 0 else None
            report.check(need is not None and gp >= need, f"{sp}/gamma_prime", gp,
                         None if need is None else show(need),
                         "gamma' must be at least gamma + (hi/lo - 1) + 2^-p >= gamma + log(hi/lo)")
        else:
            report.check(lo <= 2 * r[0] / n, f"{sp}/bracket/lo", lo, 2 * r[0] / n,
                         "fallback lower end above 2r/n")
            report.equal(f"{sp}/bracket/hi", hi, 2 * r[1], "fallback upper end 2 r_hi")
            report.equal(f"{sp}/bracket/argmax_k", b["argmax_k"], None, "no maximising k in the fallback")
            report.check(gp >= 0, f"{sp}/gamma_prime", gp, 0, "gamma' of a constant scale")
        holds = gp <= adm
        report.check(s["eq8"] is False or holds, f"{sp}/eq8", s["eq8"], holds,
                     "eq. (8) is claimed but gamma'_t exceeds the certified admissible bound")
        eq8_all = eq8_all and holds and s["eq8"] is True
        gp_max = gp if gp_max is None else max(gp_max, gp)
        required = consts["variance_constant"] * scale ** 2
        rv = read_rational(s["required_variance"], f"{sp}/required_variance")
        report.equal(f"{sp}/required_variance", rv, required, "T hi^2 / (2 rho_lo)")
        var = read_rational(s["variance"], f"{sp}/variance")
        report.equal(f"{sp}/variance", var, required * ri.multiplier, "multiplier * required variance")
        zeta = vector(s["zeta"], f"{sp}/zeta", d)
        xi = vector(s["xi"], f"{sp}/xi", d)
        report.check(noise_matches(var, zeta, xi, consts["tolerance"]), f"{sp}/xi", "xi",
                     "sqrt(variance) * zeta", "noise is not sigma * zeta within the tolerance")
        y_tilde = tuple(x + y for x, y in zip(Q, xi))
        Y, Yp = release(ri.query, y_tilde, (t + 1) ** 2 * ri.r2, g)
        Yc = vector(s["Y"], f"{sp}/Y", d)
        report.equal(f"{sp}/Y", Yc, Y, "released Y_t")
        report.equal(f"{sp}/Y_projected", s["Y_projected"], Yp, "projection flag of Y_t")
        clean.append(z)
        released.append(Yc)
        zetas.append(zeta)
        z_prev, y_prev = z, Yc  # the certificate's release is the history
        history.append(Yc)
    return clean, released, zetas, eq8_all, gp_max


def verify_run(inp, res, report, base="/result", settle=True):
    """All checks of one BRACE run; returns the auditor's recomputation.

    With ``settle`` false the caller records the undecided enclosures itself
    (:func:`fail_undecided`) after its own checks.
    """
    ri = RunInput(inp)
    if res["method"] != METHOD:
        raise Malformed(f"{base}/method: unknown method description")
    refuse_constants(ri, res, base)
    consts = verify_constants(ri, res, report, base)
    clean, released, zetas, eq8_all, gp_max = verify_steps(ri, res, consts, report, base)
    report.check(draws_match(ri.seed, zetas), f"{base}/steps", "zeta", f"seed {ri.seed}",
                 "the standard-normal draws are not those of the documented seeded generator")
    cal = res["calibration"]
    cp = f"{base}/calibration"
    gamma_ok = consts["gamma"] <= consts["admissible"]
    report.equal(f"{cp}/gamma_admissible", cal["gamma_admissible"], gamma_ok, "eq. (8) for gamma itself")
    eq8_all = eq8_all and gamma_ok
    report.equal(f"{cp}/eq8_holds", cal["eq8_holds"], eq8_all, "eq. (8) for gamma and every gamma'_t")
    noise_ok = ri.multiplier >= 1
    report.equal(f"{cp}/noise_sufficient", cal["noise_sufficient"], noise_ok,
                 "variance >= T hi^2 / (2 rho_lo) at every step")
    if gp_max is not None:
        report.equal(f"{cp}/max_gamma_prime", read_rational(cal["max_gamma_prime"], f"{cp}/max_gamma_prime"),
                     gp_max, "largest gamma'")
    report.equal(f"{cp}/admissible", read_rational(cal["admissible"], f"{cp}/admissible"),
                 consts["admissible"], "admissible bound")
    claim = res["claim"]
    calibrated = eq8_all and noise_ok
    report.equal(f"{base}/claim/epsilon", read_rational(claim["epsilon"], f"{base}/claim/epsilon"),
                 ri.epsilon, "epsilon")
    report.equal(f"{base}/claim/delta", read_rational(claim["delta"], f"{base}/claim/delta"),
                 ri.delta, "delta")
    if claim["status"] == "private":
        report.check(calibrated, f"{base}/claim/status", "private", "calibration fails",
                     "privacy is claimed but the calibration does not hold")
    else:
        report.check(not calibrated and ri.allow_uncalibrated, f"{base}/claim/status", claim["status"],
                     "calibrated" if calibrated else "allow_uncalibrated is false",
                     "'not private' needs a failed calibration and --allow-uncalibrated")
    if settle:
        fail_undecided(consts["undecided"], report)
    return {"undecided": consts["undecided"], "input": ri, "constants": consts, "clean": clean,
            "released": released, "zetas": zetas}


def fail_undecided(undecided, report):
    """Record every stored enclosure still undecided at MAX_BITS: not established (a FAIL)."""
    decide.fail_undecided(undecided, report, None,
                          found=f"an enclosure neither inside nor disjoint from it, also at {MAX_BITS} bits",
                          what="the stored enclosure of a constant")
