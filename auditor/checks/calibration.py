"""Checks of ``calibration/1`` certificates: an enclosure of ε*_C(δ) (*Hidden Integer Feedback* §3.2, §4.3).

Δ*_C(ε) is non-increasing in ε, so with ε*_C(δ) = inf{ε >= 0 : Δ*_C(ε) <= δ}:

- status "zero": a dg-interval at ε = 0 with upper end <= δ proves ε* = 0;
- status "enclosed": a dg-interval at ε_lo with lower end > δ proves
  ε* >= ε_lo, one at ε_hi with upper end <= δ proves ε* <= ε_hi.

Each embedded dg-interval is re-verified in full (digest included) by its
own kind's checks (:mod:`auditor.embedded`); it must answer the same question (γ, σ²,
C, method) at the stated ε.  The bracket must be narrower than ζ, and the
moment envelope E >= log(1 + (e^{8C/σ²} − 1)/(4δ)) is re-proved with the
auditor's Taylor bounds (it is where the search started, so ε_hi <= E).
The displays are ε_lo rounded down and ε_hi rounded up.  ``queries`` (how
many finite-game queries the search made) is a count of the producer's work,
not a claim about ε*; it is only checked to be a JSON integer >= 1.

The discrete Laplace (``input.noise``, σ² null; docs/plain-composition.md
§2.5): the envelope must satisfy E >= 2C/t, an exact rational comparison
(Δ*_C(2C/t) = 0 for every γ, including 0); the witnesses must carry the same
``noise``.

Domain (malformed, exit 2, as in every kind): γ reduced with 0 < a < B or "0",
0 < δ < 1, ζ > 0, σ² > 0 (or t > 0 for the discrete Laplace), a known ``method`` label.  Limits (UNCHECKED,
exit 3, refused before any work): those of each embedded dg-interval
(:func:`auditor.checks.dg_interval.estimate`), both witnesses' estimated work
together within the file's budget (:mod:`auditor.budget`), and 8C/σ² <=
:data:`auditor.checks.dg_interval.MAX_EXP_ARGUMENT` for the envelope.
"""

from fractions import Fraction

from auditor.certificate import Malformed
from auditor import common
from auditor import budget as file_budget
from auditor.checks.dg_interval import (MAX_EXP_ARGUMENT, check_display, estimate as estimate_dg,
                                        noise_parameters, parameters_text, fail_undecided)
from auditor.claims import interval_text, number as _q, rational_text
from auditor.decide import retried_claim, settle, state
from auditor.embedded import check_digest, verify_embedded
from auditor.enclosures import exp_bounds, log_bounds
from auditor.outcomes import Unchecked
from auditor.rationals import floor, read_rational

ENVELOPE_BITS = 96


def _domain(inp, res):
    """Validate the calibration's own input (malformed outside the domain)."""
    common.gamma(inp["gamma"], "/input/gamma")
    delta = read_rational(inp["delta"], "/input/delta")
    if not 0 < delta < 1:
        raise Malformed("/input/delta: delta must lie in (0, 1)")
    width = read_rational(inp["width"], "/input/width")
    if width <= 0:
        raise Malformed("/input/width: the width must be positive")
    sigma2, t = noise_parameters(inp, "/input")
    budget = common.integer(inp["budget"], "/input/budget", 0)
    if inp["method"] is not None:
        common.method(inp["method"], "/input/method")
    return delta, width, (sigma2, t), budget


def _estimate(cert):
    """Every limit, from the input alone, before any work."""
    inp, res = cert["input"], cert["result"]
    delta, width, law, budget = _domain(inp, res)
    sigma2 = law[0]
    x = Fraction(8 * budget) / sigma2 if sigma2 is not None else Fraction(0)
    if x > MAX_EXP_ARGUMENT:
        raise Unchecked("/input/sigma2", common.magnitude(floor(x)), MAX_EXP_ARGUMENT,
                        "exponent 8C/sigma2 of the moment envelope")
    # both witnesses at once, in the file's one budget (auditor.budget), before either is checked
    witnesses = [(res[name], estimate_dg(res[name], f"/result/{name}"))
                 for name in ("upper_witness", "lower_witness") if res[name] is not None]
    return delta, width, law, budget, witnesses


def verify(cert, report):
    undecided = []
    _verify(cert, report, undecided)
    fail_undecided(undecided, report, cert)


def _verify(cert, report, undecided):
    inp, res = cert["input"], cert["result"]
    delta, width, (sigma2, t), budget, witnesses = _estimate(cert)
    file_budget.reserve(report, witnesses, "estimated total work of both witnesses")
    eps_lo = read_rational(res["epsilon_lo"], "/result/epsilon_lo")
    eps_hi = read_rational(res["epsilon_hi"], "/result/epsilon_hi")
    envelope = read_rational(res["envelope"], "/result/envelope")
    if t is None:
        _check_envelope(envelope, sigma2, budget, delta, report, undecided)
    else:
        bound = Fraction(2 * budget) / t
        report.check(envelope >= bound, "/result/envelope", envelope, bound,
                     "envelope below 2C/t, the discrete-Laplace bound (docs/plain-composition.md §2.5)")
    report.check(eps_hi <= envelope, "/result/epsilon_hi", eps_hi, envelope,
                 "epsilon_hi must not exceed the moment envelope where the search started")
    _check_displays(res, eps_lo, eps_hi, report)

    upper = res["upper_witness"]
    _check_witness(upper, "/result/upper_witness", inp, eps_hi, report, undecided)
    up_end = read_rational(upper["result"]["interval"]["upper"], "/result/upper_witness/result/interval/upper")
    report.check(up_end <= delta, "/result/upper_witness/result/interval/upper", up_end, delta,
                 "the upper witness must prove Δ*(ε_hi) <= δ")

    lower = res["lower_witness"]
    if res["status"] == "zero":
        report.equal("/result/epsilon_lo", eps_lo, Fraction(0), "epsilon_lo (status zero)")
        report.equal("/result/epsilon_hi", eps_hi, Fraction(0), "epsilon_hi (status zero)")
        report.check(lower is None, "/result/lower_witness", "present", "null",
                     "status zero has no lower witness")
        return
    if not report.check(lower is not None, "/result/lower_witness", "null", "a dg-interval",
                        "status enclosed needs a lower witness"):
        return
    _check_witness(lower, "/result/lower_witness", inp, eps_lo, report, undecided)
    low_end = read_rational(lower["result"]["interval"]["lower"], "/result/lower_witness/result/interval/lower")
    report.check(low_end > delta, "/result/lower_witness/result/interval/lower", low_end, delta,
                 "the lower witness must prove Δ*(ε_lo) > δ")
    report.check(0 <= eps_lo < eps_hi, "/result/epsilon_lo", eps_lo, eps_hi,
                 "need 0 <= epsilon_lo < epsilon_hi")
    report.check(eps_hi - eps_lo < width, "/result/epsilon_hi", eps_hi - eps_lo, width,
                 "the enclosure is not narrower than the requested width")


def _check_witness(witness, pointer, outer_input, epsilon, report, undecided):
    """An embedded dg-interval: same question at ``epsilon``, valid digest, verified in full."""
    check_digest(witness, pointer, report, "dg-interval")
    inner = witness["input"]
    for key in ("gamma", "sigma2", "budget", "method"):
        report.equal(f"{pointer}/input/{key}", inner[key], outer_input[key], f"{key} (the calibration's)")
    report.equal(f"{pointer}/input/noise", inner.get("noise"), outer_input.get("noise"), "noise (the calibration's)")
    report.equal(pointer + "/input/epsilon", read_rational(inner["epsilon"], pointer + "/input/epsilon"),
                 epsilon, "epsilon of the witness (the bracket end)")
    verify_embedded(witness, pointer, "dg-interval", report, None, undecided)  # limits: refused in _estimate


def _check_envelope(envelope, sigma2, budget, delta, report, undecided):
    """E >= log(1 + (e^{8C/σ²} − 1)/(4δ)), decided three-way (:func:`auditor.decide.retried_claim`).

    The expression increases in e^{8C/σ²}, so E is proved against its value at
    the upper ends of the enclosures (E >= log⁺ of 1 + (e⁺ − 1)/(4δ)) and
    disproved against its value at the lower ends (E < log⁻ of 1 + (e⁻ − 1)/(4δ));
    retried once at four times :data:`ENVELOPE_BITS`, then undecided.
    """
    if budget == 0:
        report.check(envelope >= 0, "/result/envelope", envelope, 0, "the envelope must be >= 0")
        return
    log_lower = []  # the disproving bound at the last precision used

    def decide_at(bits):
        m_lo, m_hi = exp_bounds(Fraction(8 * budget) / sigma2, bits)
        _, log_hi = log_bounds(1 + (m_hi - 1) / (4 * delta), bits)
        log_lower[:] = [log_bounds(1 + (m_lo - 1) / (4 * delta), bits)[0]]
        return state(envelope >= log_hi, envelope < log_lower[0])

    settle(retried_claim(decide_at, ENVELOPE_BITS), report, undecided, "/result/envelope", envelope,
           log_lower[0], "envelope below log(1 + (e^{8C/σ²} − 1)/(4δ))")


def _check_displays(res, eps_lo, eps_hi, report):
    check_display(res["epsilon_lo_display"], eps_lo, -1, "/result/epsilon_lo_display", report)
    check_display(res["epsilon_hi_display"], eps_hi, +1, "/result/epsilon_hi_display", report)


# ---- the claim: the one-line summary of a verified certificate (auditor.api states it) ----

def claim(cert):
    """``eps*_2(1/10000) in [lo, hi] for gamma = 1/3, sigma^2 = 9, C = 2``."""
    inp, res = cert["input"], cert["result"]
    head = f"eps*_{inp['budget']}({rational_text(_q(inp['delta']))})"
    if res.get("status") == "zero":
        body = f"{head} = 0"
    else:
        body = f"{head} in {interval_text(_q(res['epsilon_lo']), _q(res['epsilon_hi']))}"
    return f"{body} for {parameters_text(inp)}"
