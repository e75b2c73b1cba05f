"""Three-way decisions in the lower kinds: an undecided claim never hides a false one.

Undecided claims (neither proved nor disproved after the precision retry) are
collected while every remaining claim is still checked; at the end they make
the certificate UNCHECKED only when nothing is false (FAIL is more severe than
UNCHECKED, auditor/outcomes.py).  "Undecided" is produced as in
tests/auditor/test_threeway.py: the auditor's own enclosures are widened by a
relative 2^-20 (still enclosures), so claims tighter than that cannot be decided.
"""

import copy
import json
from fractions import Fraction
from pathlib import Path

import pytest

from auditor import decide
from auditor.api import verify_certificate
from auditor.certificate import digest
from auditor.checks import dg_interval
from auditor.outcomes import FAIL, OK, UNCHECKED
from auditor.rationals import read_rational, write_rational

ROOT = Path(__file__).resolve().parents[2] / "certificates"
WIDEN = Fraction(1, 1 << 20)


def load(name):
    return json.loads((ROOT / name).read_text())


def seal(cert):
    cert["digest"] = digest(cert)
    return cert


def widened(bounds):
    def wide(*args):
        lo, hi = bounds(*args)
        return lo * (1 - WIDEN), hi * (1 + WIDEN)
    return wide


@pytest.fixture
def coarse_dg(monkeypatch):
    """The enclosures the dg-interval checks use (in auditor.decide, or their own), too coarse.

    The offset-event payoff uses auditor.checks.separation's own enclosures, which stay exact."""
    for module in (decide, dg_interval):
        for name in ("normaliser_bounds", "exp_bounds"):
            if hasattr(module, name):
                monkeypatch.setattr(module, name, widened(getattr(module, name)))


def test_undecided_embedded_privacy_bound_is_unchecked(coarse_dg):
    report = verify_certificate(load("separation-offset-event-eps2.json"))
    assert report.status == UNCHECKED, report.failures
    assert report.unchecked.startswith("/result/privacy_bound/result/"), report.unchecked


def test_false_claim_after_an_undecided_embedded_bound_fails(coarse_dg):
    """The separator at the witness's lower end (checked after the embedded dg-interval): FAIL."""
    bad = copy.deepcopy(load("separation-offset-event-eps2.json"))
    bad["result"]["separator"] = bad["result"]["payoff"]["lower"]
    report = verify_certificate(seal(bad))
    assert report.status == FAIL, report.unchecked
    assert "/result/payoff/lower" in {f["pointer"] for f in report.failures}


def test_false_claim_after_an_undecided_source_fails(coarse_dg):
    """A deadline witness whose source is undecided: its later false lower end still FAILS."""
    cert = load("deadline-witness-d2-law.json")
    assert verify_certificate(cert).status == UNCHECKED
    bad = copy.deepcopy(cert)
    deadline = bad["result"]["deadlines"][0]
    deadline["lower"] = write_rational(read_rational(deadline["lower"], "l") * 2)
    report = verify_certificate(seal(bad))
    assert report.status == FAIL, report.unchecked
    assert "/result/deadlines/0/lower" in {f["pointer"] for f in report.failures}


def test_false_relaxation_value_after_an_undecided_embedded_bound_fails(coarse_dg):
    bad = copy.deepcopy(load("separation-one-digit-dg-c2-eps2.json"))
    value = read_rational(bad["result"]["finite_value"], "v")
    bad["result"]["finite_value"] = write_rational(value + Fraction(1, 1000))
    report = verify_certificate(seal(bad))
    assert report.status == FAIL, report.unchecked
    assert "/result/finite_value" in {f["pointer"] for f in report.failures}


@pytest.mark.parametrize("name", ["separation-offset-event-eps2.json", "separation-one-digit-dg-c2-eps2.json"])
def test_references_are_ok_with_exact_enclosures(name):
    report = verify_certificate(load(name))
    assert report.status == OK, report.failures or report.unchecked
