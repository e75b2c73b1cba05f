"""Enclosure claims beyond the dg-interval/1 limits are refused (UNCHECKED) before any enclosure.

Without the refusal each of these certificates makes the auditor enclose an e^x with
an astronomically large x, or sum hundreds of millions of normaliser terms: it would
hang instead of answering.  Each certificate is otherwise consistent (no claim is false
before the limit), so the answer must be UNCHECKED at the pointer of the limit.
"""

import json
from fractions import Fraction
from pathlib import Path

import pytest

from auditor.api import verify_certificate
from auditor.checks.dg_interval import MAX_EXP_ARGUMENT, MAX_TERMS
from auditor.enclosure_limits import refuse_dg_source, refuse_exponent, refuse_threshold
from auditor.outcomes import UNCHECKED, Unchecked
from auditor.rationals import read_rational, write_rational
from tests.reseal import display, resealed

ROOT = Path(__file__).resolve().parents[2] / "certificates"
HUGE_SIGMA2 = "1000000000000000"


def load(name):
    return json.loads((ROOT / name).read_text())


def rational(text):
    return read_rational(text, "test")


def assert_unchecked(cert, pointer, what):
    report = verify_certificate(cert)
    assert report.status == UNCHECKED, report.failures
    assert report.unchecked.startswith(pointer + ":") and what in report.unchecked, report.unchecked


# ---------------------------------------------------------------- the limits themselves

def test_exponent_limit_is_inclusive():
    refuse_exponent(Fraction(MAX_EXP_ARGUMENT), "/x", "e^x")
    refuse_exponent(-Fraction(MAX_EXP_ARGUMENT), "/x", "e^x")
    with pytest.raises(Unchecked):
        refuse_exponent(Fraction(MAX_EXP_ARGUMENT) + Fraction(1, 10 ** 9), "/x", "e^x")


def test_source_limits_accept_the_reference_sizes_and_refuse_a_wide_normaliser():
    refuse_dg_source(Fraction(9), 24, 1 << 48, 49, "/s2", "/source")
    with pytest.raises(Unchecked) as refused:
        refuse_dg_source(Fraction(10 ** 15), 24, 1 << 48, 49, "/s2", "/source")
    assert refused.value.pointer == "/s2" and refused.value.estimate > MAX_TERMS


def test_threshold_precision_limit():
    refuse_threshold(Fraction(2), [Fraction(7)], "/eps", "/threshold")
    with pytest.raises(Unchecked) as refused:
        refuse_threshold(Fraction(2), [Fraction(7, 1 << 20000)], "/eps", "/threshold")
    assert refused.value.pointer == "/threshold"


# ---------------------------------------------------------------- hierarchy/1

HIERARCHY = "hierarchy/hierarchy-c3-p2-eps2-small.json"


def test_hierarchy_huge_sigma2_is_unchecked():
    def edit(bad):
        bad["input"]["sigma2"] = bad["result"]["source"]["sigma2"] = HUGE_SIGMA2
    assert_unchecked(resealed(load(HIERARCHY), edit), "/input/sigma2", "normaliser terms")


def test_hierarchy_huge_epsilon_is_unchecked():
    def edit(bad):
        bad["input"]["query"]["epsilon"] = bad["result"]["epsilon"] = "100000000"
    assert_unchecked(resealed(load(HIERARCHY), edit), "/result/epsilon", "exponent of e^epsilon")


# ---------------------------------------------------------------- lower kinds

def test_deadline_witness_huge_sigma2_is_unchecked():
    def edit(bad):
        bad["input"]["sigma2"] = HUGE_SIGMA2
    assert_unchecked(resealed(load("deadline-witness-d2-law.json"), edit), "/input/sigma2",
                     "normaliser terms")


def test_workload_huge_gaussian_exponent_is_unchecked():
    """A diagonal of 10^6: θ(θ+1)‖A_j‖²/(2σ²) is about 1.5·10^10 (the strategy block kept consistent)."""
    cert = load("workload-published-static.json")
    n, d, e = cert["input"]["dimension"], 10 ** 6, int(cert["input"]["ones"])
    alpha = Fraction(1, d)
    beta = -e * alpha / (d + n * e)      # (dI + eJ)(αI + βJ) = I

    def edit(bad):
        bad["input"]["diagonal"] = bad["result"]["strategy"]["diagonal"] = str(d)
        bad["result"]["strategy"]["column_norm2"] = str((d + e) ** 2 + (n - 1) * e * e)
        bad["result"]["strategy"]["inverse"] = {"diagonal": write_rational(alpha), "ones": write_rational(beta)}
    assert_unchecked(resealed(cert, edit), "/result/gaussian_term", "exponent of the Gaussian term")


def test_calibration_lower_huge_epsilon_lower_is_unchecked():
    cert = load("calibration-lower-k2-capped-c4.json")
    eps = Fraction(10 ** 6)

    def edit(bad):
        bad["result"]["epsilon_lower"] = write_rational(eps)
        bad["result"]["epsilon_lower_display"] = display(eps, cert["result"]["epsilon_lower_display"], up=False)
    assert_unchecked(resealed(cert, edit), "/result/epsilon_lower", "exponent of e^{epsilon_lower}")


def test_separation_huge_d_infinity_bound_is_unchecked():
    cert = load("separation-binary-pair-eps2.json")
    U = Fraction(10 ** 9)

    def edit(bad):
        bad["result"]["d_infinity_upper"] = write_rational(U)
        bad["result"]["d_infinity_display"] = display(U, cert["result"]["d_infinity_display"], up=True)
    assert_unchecked(resealed(cert, edit), "/result/d_infinity_upper", "exponent of e^U")


def test_separation_offset_event_huge_sigma2_is_unchecked():
    cert = load("separation-offset-event-eps2.json")
    assert rational(cert["input"]["sigma2"]) > 0

    def edit(bad):
        bad["input"]["sigma2"] = HUGE_SIGMA2
    assert_unchecked(resealed(cert, edit), "/input/sigma2", "normaliser terms")


def test_separation_renyi_cover_huge_sigma2_is_unchecked():
    def edit(bad):
        bad["input"]["sigma2"] = HUGE_SIGMA2
    assert_unchecked(resealed(load("separation-renyi-cover.json"), edit), "/input/sigma2", "normaliser terms")
