"""Three-way enclosure claims in the hierarchy and lower kinds: proved -> OK, disproved -> FAIL,
neither -> FAIL as "not established by the certificate's recipe" (never OK, never UNCHECKED).

A claim "tighter than the auditor can decide" is made by widening the auditor's own
enclosures (Z of the normaliser, e^x) by a relative 2^-20 around their true value: each
enclosure still contains the true number, so a true claim can then be neither proved nor
disproved, exactly as a claim closer than 2^-(4·bits) to the transcendental would be.  The
same certificate with one claim made clearly false must FAIL at that pointer, with the
widened enclosures too (disproved wins over undecided).
"""

import copy
import json
from fractions import Fraction
from pathlib import Path

import pytest

from auditor import decide
from auditor.api import verify_certificate
from auditor.checks import separation
from auditor.outcomes import FAIL, OK
from auditor.rationals import read_rational, write_rational
from tests.auditor.verdicts import only_unproved
from tests.reseal import seal

ROOT = Path(__file__).resolve().parents[2] / "certificates"
WIDEN = Fraction(1, 1 << 20)

SOURCE_KINDS = {
    "hierarchy": ("hierarchy/hierarchy-c3-p2-eps2-small.json", "/result/source"),
    "deadline-witness": ("deadline-witness-d2-law.json", "/result/source"),
    "workload": ("workload-published-static.json", "/result/source"),
    "separation-dg": ("separation-one-digit-dg-c2-eps2.json", "/result/source"),
    "calibration-lower": ("calibration-lower-k2-capped-c4.json", "/result/source"),
}


def load(name):
    return json.loads((ROOT / name).read_text())


def widened(bounds):
    """An enclosure function whose (lo, hi) is widened by the relative factor WIDEN (still an enclosure)."""
    def wide(*args):
        lo, hi = bounds(*args)
        return lo * (1 - WIDEN), hi * (1 + WIDEN)
    return wide


@pytest.fixture
def coarse(monkeypatch):
    """The auditor's enclosures, too coarse to decide claims within 2^-20 of the truth."""
    monkeypatch.setattr(decide, "normaliser_bounds", widened(decide.normaliser_bounds))
    monkeypatch.setattr(decide, "exp_bounds", widened(decide.exp_bounds))
    monkeypatch.setattr(separation, "exp_bounds", widened(separation.exp_bounds))


def block_at(cert, pointer):
    node = cert
    for key in pointer.strip("/").split("/"):
        node = node[int(key)] if isinstance(node, list) else node[key]
    return node


def doubled_atom(cert, source_pointer, index):
    """A copy with atom ``index`` doubled and the centre atom lowered by as much (S unchanged)."""
    bad = copy.deepcopy(cert)
    weights = block_at(bad, source_pointer)["weights"]
    centre = len(weights) // 2
    w = int(read_rational(weights[index], "w"))
    weights[index] = write_rational(Fraction(2 * w))
    weights[centre] = write_rational(read_rational(weights[centre], "w0") - w)
    return seal(bad)


@pytest.mark.parametrize("kind", sorted(SOURCE_KINDS))
def test_reference_certificate_is_ok(kind):
    report = verify_certificate(load(SOURCE_KINDS[kind][0]))
    assert report.status == OK, report.failures or report.unchecked


@pytest.mark.parametrize("kind", sorted(SOURCE_KINDS))
def test_undecided_atom_is_not_established_and_disproved_atom_fails(kind, coarse):
    name, source = SOURCE_KINDS[kind]
    cert = load(name)
    pointer = only_unproved(verify_certificate(cert), source + "/weights/")[0]
    bad = doubled_atom(cert, source, int(pointer.rsplit("/", 1)[1]))
    failed = verify_certificate(bad)
    assert failed.status == FAIL
    assert any(f["pointer"] == pointer and "disproved" in f["reason"] for f in failed.failures), failed.failures


@pytest.mark.parametrize("kind", sorted(SOURCE_KINDS))
def test_disproved_atom_fails_at_full_precision(kind):
    name, source = SOURCE_KINDS[kind]
    cert = load(name)
    weights = block_at(cert, source)["weights"]
    index = max(range(len(weights) // 2), key=lambda i: int(read_rational(weights[i], "w")))
    report = verify_certificate(doubled_atom(cert, source, index))
    assert report.status == FAIL
    assert f"{source}/weights/{index}" in {f["pointer"] for f in report.failures}


def test_hierarchy_threshold_three_way(monkeypatch):
    """With a decided source, a λ₋ the auditor cannot separate from e^ε is not established; λ₋ > e^ε FAILS."""
    monkeypatch.setattr(decide, "exp_bounds", widened(decide.exp_bounds))
    cert = load(SOURCE_KINDS["hierarchy"][0])
    only_unproved(verify_certificate(cert), "/result/threshold/lower")
    bad = copy.deepcopy(cert)
    for side in ("lower", "upper"):  # both doubled: still an interval, λ₋ now far above e^ε
        lam = read_rational(bad["result"]["threshold"][side], side)
        bad["result"]["threshold"][side] = write_rational(lam * 2)
    failed = verify_certificate(seal(bad))
    assert failed.status == FAIL
    assert any(f["pointer"] == "/result/threshold/lower" and "disproved" in f["reason"] for f in failed.failures)


def test_binary_pair_payoff_three_way(coarse):
    cert = load("separation-binary-pair-eps2.json")
    only_unproved(verify_certificate(cert), "/result/payoff/")
    bad = copy.deepcopy(cert)
    payoff = bad["result"]["payoff"]
    payoff["lower"] = write_rational(read_rational(payoff["upper"], "u") + 1)
    failed = verify_certificate(seal(bad))
    assert failed.status == FAIL
    assert any(f["pointer"] == "/result/payoff/lower" and "disproved" in f["reason"] for f in failed.failures)


def test_binary_pair_reference_is_ok():
    assert verify_certificate(load("separation-binary-pair-eps2.json")).status == OK
