"""Three-way decisions of the remaining enclosure claims: proved -> OK, disproved -> FAIL,
neither -> FAIL as "not established by the certificate's recipe" (never OK, never UNCHECKED).

The claims: hierarchy/1's τ, calibration/1's moment envelope, calibration-lower/1's
e^{epsilon_lower} <= λ_crit, workload/1's Gaussian term and separation/1's offset-event
payoff and D_∞ bound.  One claim at a time is made undecidable by widening the auditor's
enclosure of e^x at that claim's argument x only (by a relative 2^-20, so it still contains
e^x), wherever in the auditor e^x is enclosed: every other claim stays decided, so the
certificate FAILs, not established, at exactly that pointer.  The same claim made clearly false
must FAIL there (disproved), with the widened enclosure too.
"""

import json
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from auditor import decide, enclosures
from auditor.api import verify_certificate
from auditor.hierarchy.source import check_source
from auditor.outcomes import FAIL, OK
from auditor.rationals import read_rational, write_rational
from auditor.report import Report
from tests.auditor.test_threeway import widened
from tests.auditor.verdicts import only_unproved
from tests.reseal import display, resealed, with_value

ROOT = Path(__file__).resolve().parents[2] / "certificates"
WIDEN = Fraction(1, 1 << 20)


def load(name):
    return json.loads((ROOT / name).read_text())


def rational(text):
    return read_rational(text, "test")


def widen_everywhere(monkeypatch, name, original, at=None):
    """Widen ``original`` (an enclosure function of the auditor) wherever an auditor module bound it.

    Only for the first argument ``at`` when given (every argument otherwise): (lo, hi)
    becomes (lo·(1 − WIDEN), hi·(1 + WIDEN)), still an enclosure of the same number.
    """
    def wide(x, *args):
        lo, hi = original(x, *args)
        if at is None or Fraction(x) == at:
            return lo * (1 - WIDEN), hi * (1 + WIDEN)
        return lo, hi
    for module_name, module in list(sys.modules.items()):
        if module_name.startswith("auditor") and getattr(module, name, None) is original:
            monkeypatch.setattr(module, name, wide)


def assert_not_established_at(cert, pointer):
    """Not established, first at ``pointer`` (the claim made undecidable; its sibling end may follow)."""
    assert only_unproved(verify_certificate(cert))[0] == pointer


def assert_disproved_at(cert, pointer):
    report = verify_certificate(cert)
    assert report.status == FAIL
    assert any(f["pointer"] == pointer and "disproved" in f["reason"] for f in report.failures), report.failures


# ---------------------------------------------------------------- references

@pytest.mark.parametrize("name", ["calibration-c2-delta1e-4.json", "calibration-lower-k2-capped-c4.json",
                                  "workload-published-static.json", "separation-binary-pair-eps2.json",
                                  "hierarchy/hierarchy-c3-p2-eps2-small.json"])
def test_reference_is_ok_with_exact_enclosures(name):
    report = verify_certificate(load(name))
    assert report.status == OK, report.failures or report.unchecked


# ---------------------------------------------------------------- calibration/1 envelope

CALIBRATION = "calibration-c2-delta1e-4.json"


def _envelope_exponent(cert):
    return Fraction(8 * cert["input"]["budget"]) / rational(cert["input"]["sigma2"])


def test_calibration_envelope_undecided_is_not_established(monkeypatch):
    cert = load(CALIBRATION)
    widen_everywhere(monkeypatch, "exp_bounds", enclosures.exp_bounds, at=_envelope_exponent(cert))
    assert_not_established_at(cert, "/result/envelope")


def test_calibration_envelope_below_the_bound_fails_when_widened(monkeypatch):
    cert = load(CALIBRATION)
    widen_everywhere(monkeypatch, "exp_bounds", enclosures.exp_bounds, at=_envelope_exponent(cert))
    E = rational(cert["result"]["envelope"])
    eps_hi = rational(cert["result"]["epsilon_hi"])
    # still >= epsilon_hi (so only the envelope claim is false), far below log(1 + (e^x − 1)/(4δ))
    low = (E + eps_hi) / 2
    assert eps_hi <= low < E - 1
    assert_disproved_at(with_value(cert, ("result", "envelope"), write_rational(low)), "/result/envelope")


# ---------------------------------------------------------------- calibration-lower/1 e^{ε_lo} <= λ_crit

CAL_LOWER = "calibration-lower-k2-capped-c4.json"


def test_calibration_lower_exponential_undecided_is_not_established(monkeypatch):
    cert = load(CAL_LOWER)
    widen_everywhere(monkeypatch, "exp_bounds", enclosures.exp_bounds, at=rational(cert["result"]["epsilon_lower"]))
    assert_not_established_at(cert, "/result/epsilon_lower")


def test_calibration_lower_exponential_above_lambda_crit_fails_when_widened(monkeypatch):
    cert = load(CAL_LOWER)
    eps = rational(cert["result"]["epsilon_lower"]) + 1  # e^{ε_lo + 1} >= e·λ_crit·(1 − 2^-20): far above λ_crit
    widen_everywhere(monkeypatch, "exp_bounds", enclosures.exp_bounds, at=eps)

    def edit(bad):
        bad["result"]["epsilon_lower"] = write_rational(eps)
        bad["result"]["epsilon_lower_display"] = display(eps, cert["result"]["epsilon_lower_display"], up=False)
    assert_disproved_at(resealed(cert, edit), "/result/epsilon_lower")


# ---------------------------------------------------------------- workload/1 Gaussian term

WORKLOAD = "workload-published-static.json"


def _gaussian_exponent(cert):
    inp, res = cert["input"], cert["result"]
    theta = inp["theta"]
    norm2 = int(res["strategy"]["column_norm2"])
    return -theta * rational(inp["epsilon"]) + Fraction(theta * (theta + 1) * norm2) / (2 * rational(inp["sigma2"]))


def test_workload_gaussian_term_undecided_is_not_established(monkeypatch):
    cert = load(WORKLOAD)
    widen_everywhere(monkeypatch, "exp_bounds", enclosures.exp_bounds, at=_gaussian_exponent(cert))
    assert_not_established_at(cert, "/result/gaussian_term")


def test_workload_gaussian_term_below_the_bound_fails_when_widened(monkeypatch):
    cert = load(WORKLOAD)
    widen_everywhere(monkeypatch, "exp_bounds", enclosures.exp_bounds, at=_gaussian_exponent(cert))
    half = write_rational(rational(cert["result"]["gaussian_term"]) / 2)
    assert_disproved_at(with_value(cert, ("result", "gaussian_term"), half), "/result/gaussian_term")


# ---------------------------------------------------------------- separation/1 payoffs and D_∞

BINARY = "separation-binary-pair-eps2.json"
OFFSET = "separation-offset-event-eps2.json"


def _d_infinity(cert):
    return rational(cert["result"]["d_infinity_upper"])


def test_d_infinity_bound_undecided_is_not_established(monkeypatch):
    cert = load(BINARY)
    widen_everywhere(monkeypatch, "exp_bounds", enclosures.exp_bounds, at=_d_infinity(cert))
    assert_not_established_at(cert, "/result/d_infinity_upper")


def test_d_infinity_bound_below_the_logarithm_fails_when_widened(monkeypatch):
    cert = load(BINARY)
    U = _d_infinity(cert) / 2
    widen_everywhere(monkeypatch, "exp_bounds", enclosures.exp_bounds, at=U)

    def edit(bad):
        bad["result"]["d_infinity_upper"] = write_rational(U)
        bad["result"]["d_infinity_display"] = display(U, cert["result"]["d_infinity_display"], up=True)
    assert_disproved_at(resealed(cert, edit), "/result/d_infinity_upper")


def test_offset_event_payoff_undecided_is_not_established(monkeypatch):
    """The payoff's own enclosures of Z and g, widened (the embedded dg-interval stays exact)."""
    from auditor.checks import separation
    monkeypatch.setattr(separation, "normaliser_bounds", widened(separation.normaliser_bounds))
    assert_not_established_at(load(OFFSET), "/result/payoff/lower")


def test_offset_event_payoff_above_the_truth_fails_when_widened(monkeypatch):
    from auditor.checks import separation
    monkeypatch.setattr(separation, "normaliser_bounds", widened(separation.normaliser_bounds))
    cert = load(OFFSET)
    payoff = cert["result"]["payoff"]
    def edit(bad):  # both ends doubled: still ordered, the lower end far above the payoff
        for end, up in (("lower", False), ("upper", True)):
            value = rational(payoff[end]) * 2
            bad["result"]["payoff"][end] = write_rational(value)
            bad["result"]["payoff"][end + "_display"] = display(value, payoff[end + "_display"], up=up)
    assert rational(payoff["lower"]) > 0
    assert_disproved_at(resealed(cert, edit), "/result/payoff/lower")


# ---------------------------------------------------------------- hierarchy/1 τ

HIERARCHY = "hierarchy/hierarchy-c3-p2-eps2-small.json"


def _hierarchy_source(cert):
    src = cert["result"]["source"]
    weights = [int(w) for w in src["weights"]]
    return weights, src["radius"], int(src["scale"]), rational(src["sigma2"]), rational(cert["result"]["tau"])


def test_hierarchy_tau_undecided_is_recorded_and_a_small_tau_is_disproved(monkeypatch):
    """τ against w_0/S − 1/Z with a widened Z: the claimed τ undecided, τ = 0 disproved."""
    monkeypatch.setattr(decide, "normaliser_bounds", widened(decide.normaliser_bounds))
    weights, L, S, sigma2, tau = _hierarchy_source(load(HIERARCHY))
    report, undecided = Report("test"), []
    check_source(weights, L, S, sigma2, tau, report, undecided, "/result/source", "/result/tau")
    assert "/result/tau" in undecided and report.ok
    report, undecided = Report("test"), []
    check_source(weights, L, S, sigma2, Fraction(0), report, undecided, "/result/source", "/result/tau")
    assert "/result/tau" not in undecided
    assert any(f["pointer"] == "/result/tau" and "disproved" in f["reason"] for f in report.failures)


def test_hierarchy_tau_zero_fails_end_to_end_with_a_widened_normaliser(monkeypatch):
    monkeypatch.setattr(decide, "normaliser_bounds", widened(decide.normaliser_bounds))
    cert = load(HIERARCHY)
    assert_disproved_at(with_value(cert, ("result", "tau"), "0"), "/result/tau")
