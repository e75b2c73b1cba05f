"""Checks of ``dg-interval/1`` certificates (SPEC section 4).

Re-proved by the auditor's own routes:

1. the source: 2L+1 weights at offset −L summing to S, and every nonzero atom
   below its discrete-Gaussian mass, w_n·Z⁺ <= S·f⁻(n) (Taylor bounds for
   f(n) = exp(−n²/(2σ²)), Z⁺ from the geometric tail bound);
2. τ >= w_0/S − 1/Z⁺ >= ν(0) − g(0) = TV(ν, g) (all other atoms are below g);
3. λ₋ <= e^ε <= λ₊ (Taylor bounds);
4. the finite value G_C(1, λ₋) by the auditor's own game evaluator, and
   v = G_C(1, λ₋) − λ₋ (refused, so the certificate fails, when the estimated
   work exceeds :data:`MAX_WORK`);
5. b = (1 + λ₊)(1 − (1 − τ)^{2C}) and the interval
   [max(0, v − (λ₊ − λ₋) − b), min(1, v + b)], exactly, with its width and
   outward-rounded displays; a requested width W must exceed the width.

Enclosure checks run at a precision derived from the sizes of the numbers
(bits of S, of λ) and are retried once at four times that precision before a
claim is declared unproved.
"""

from fractions import Fraction
from math import gcd

from auditor.enclosures import exp_bounds, kernel_bounds, normaliser_bounds
from auditor.rationals import read_rational

RETRY_FACTOR = 4


# Largest estimated work (auditor.game.estimated_work, curve look-ups) recomputed,
# as for finite-game certificates: about 3 minutes.  The estimate counts the root
# preparations actually searched (B^C or the closed-carry-cell cover), so e.g.
# gamma = 336/1009, radius 6, C = 3 (about 4e7) is recomputed, radius 40 is not.
MAX_WORK = 5 * 10 ** 7


def finite_work(weights, offset, a, B, budget):
    """Estimated work of recomputing G_budget for this law."""
    from auditor.game import estimated_work, root_preparation_count
    return estimated_work(len(weights), B, budget,
                          preparations=root_preparation_count(weights, offset, a, B, budget))


def finite_value(weights, offset, a, B, budget, x, y):
    """G_budget(x, y) for the law by the auditor's own evaluator."""
    from auditor.game import root_value
    work = finite_work(weights, offset, a, B, budget)
    if work > MAX_WORK:
        raise ValueError(f"estimated work {work} > limit {MAX_WORK}, not recomputed")
    return Fraction(root_value(weights, offset, a, B, budget, x, y))


def verify(cert, report):
    verify_dg(cert, report, "")


def _gamma(text, pointer, report):
    a, B = (int(t) for t in text.split("/")) if "/" in text else (int(text), 1)
    report.check(0 < a < B and gcd(a, B) == 1, pointer, text, "0 < a < B, gcd(a, B) = 1",
                 "gamma must be a reduced fraction a/B with 0 < a < B")
    return a, B


def outward_decimal(value, digits, direction):
    """The decimal of ``value`` with ``digits`` places, rounded down (−1) or up (+1)."""
    scaled = Fraction(value) * 10 ** digits
    n = scaled.numerator // scaled.denominator if direction < 0 else -((-scaled.numerator) // scaled.denominator)
    sign = "-" if n < 0 else ""
    whole, frac = divmod(abs(n), 10 ** digits)
    return f"{sign}{whole}.{frac:0{digits}d}" if digits else f"{sign}{whole}"


def check_display(text, value, direction, pointer, report):
    """A display must be ``value`` rounded outward at its own number of decimal places."""
    digits = len(text.split(".")[1]) if "." in text else 0
    expected = outward_decimal(value, digits, direction)
    report.check(text == expected, pointer, text, expected,
                 "display is not the value rounded " + ("down" if direction < 0 else "up"))


def verify_dg(cert, report, prefix):
    """Check one dg-interval certificate whose JSON pointers start at ``prefix``."""
    inp, res = cert["input"], cert["result"]
    I, R = prefix + "/input", prefix + "/result"
    a, B = _gamma(inp["gamma"], I + "/gamma", report)
    sigma2 = read_rational(inp["sigma2"], I + "/sigma2")
    budget = inp["budget"]
    epsilon = read_rational(inp["epsilon"], I + "/epsilon")
    if not report.check(sigma2 > 0, I + "/sigma2", sigma2, "> 0", "sigma2 must be positive"):
        return
    report.check(epsilon >= 0, I + "/epsilon", epsilon, ">= 0", "epsilon must be non-negative")
    if not (0 < a < B):
        return

    src = res["source"]
    report.equal(R + "/source/sigma2", read_rational(src["sigma2"], R + "/source/sigma2"), sigma2,
                 "source sigma2 (the request's)")
    L, offset = src["radius"], src["offset"]
    S = int(read_rational(src["scale"], R + "/source/scale"))
    weights = [int(read_rational(w, f"{R}/source/weights/{i}")) for i, w in enumerate(src["weights"])]
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
    bits = S.bit_length() + 64
    _check_source(weights, L, S, sigma2, tau, bits, report, R)

    lam_lo = read_rational(res["threshold"]["lower"], R + "/threshold/lower")
    lam_hi = read_rational(res["threshold"]["upper"], R + "/threshold/upper")
    _check_threshold(epsilon, lam_lo, lam_hi, report, R)

    fin = res["finite"]
    report.equal(R + "/finite/x", read_rational(fin["x"], R + "/finite/x"), Fraction(1), "query x")
    report.equal(R + "/finite/y", read_rational(fin["y"], R + "/finite/y"), lam_lo, "query y (λ₋)")
    claimed_value = read_rational(fin["value"], R + "/finite/value")
    try:
        value = finite_value(weights, offset, a, B, budget, Fraction(1), lam_lo)
    except Exception as exc:  # the evaluator refused (size limits) or is missing
        report.check(False, R + "/finite/value", claimed_value, "unavailable",
                     f"the auditor could not recompute the finite value ({exc})")
        return
    report.equal(R + "/finite/value", claimed_value, value, f"G_{budget}(1, λ₋)")
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


def _check_source(weights, L, S, sigma2, tau, bits, report, R):
    """Atoms below the DG masses and τ above w_0/S − 1/Z⁺, retrying once at higher precision."""
    pending = [n for n in range(-L, L + 1) if n != 0 and weights[n + L] > 0]
    tau_ok = False
    for attempt in range(2):
        _, z_hi = normaliser_bounds(sigma2, bits)
        still = []
        for n in pending:
            f_lo, _ = kernel_bounds(n, sigma2, bits)
            if weights[n + L] * z_hi > S * f_lo:
                still.append(n)
        pending = still
        bound = Fraction(weights[L], S) - 1 / z_hi
        tau_ok = tau_ok or tau >= bound
        if not pending and tau_ok:
            break
        bits *= RETRY_FACTOR
    for n in pending:
        report.check(False, f"{R}/source/weights/{n + L}", weights[n + L],
                     f"S·exp(−n²/(2σ²))/Z⁺ at n = {n}",
                     "atom not proved to be below its discrete-Gaussian mass")
    report.check(tau_ok, R + "/tau", tau, bound,
                 "tau not proved to bound TV(ν, g) = ν(0) − g(0) <= w_0/S − 1/Z⁺")


def _check_threshold(epsilon, lam_lo, lam_hi, report, R):
    """λ₋ <= e^ε <= λ₊ (and λ₋ > 0), retrying once at higher precision."""
    report.check(0 < lam_lo <= lam_hi, R + "/threshold", f"[{lam_lo}, {lam_hi}]", "0 < λ₋ <= λ₊",
                 "the threshold enclosure must be a positive interval")
    bits = max(lam_hi.numerator.bit_length(), lam_lo.denominator.bit_length(),
               lam_hi.denominator.bit_length()) + 48
    lo_ok = hi_ok = False
    for _ in range(2):
        e_lo, e_hi = exp_bounds(epsilon, bits)
        lo_ok = lo_ok or lam_lo <= e_lo
        hi_ok = hi_ok or lam_hi >= e_hi
        if lo_ok and hi_ok:
            break
        bits *= RETRY_FACTOR
    report.check(lo_ok, R + "/threshold/lower", lam_lo, e_lo, "λ₋ not proved to be <= e^ε")
    report.check(hi_ok, R + "/threshold/upper", lam_hi, e_hi, "λ₊ not proved to be >= e^ε")
