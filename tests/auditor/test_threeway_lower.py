"""Three-way decisions in the lower kinds: an undecided claim never hides a false one.

Undecided claims (neither proved nor disproved after the precision retry) are
collected while every remaining claim is still checked; at the end each is
recorded as not established by the certificate's recipe (a FAIL), beside the
disproved claims (auditor/outcomes.py).  "Undecided" is produced as in
tests/auditor/test_threeway.py: the auditor's own enclosures are widened by a
relative 2^-20 (still enclosures), so claims tighter than that cannot be decided.
"""

import copy
from fractions import Fraction

import pytest
from hypothesis import assume, given, strategies as st

from auditor import decide
from auditor.api import verify_certificate
from auditor.checks import dg_interval
from auditor.outcomes import FAIL, OK
from auditor.rationals import read_rational, write_rational
from tests.auditor.test_threeway import load, widened
from tests.auditor.verdicts import disproved, only_unproved
from tests.reseal import seal



@pytest.fixture
def coarse_dg(monkeypatch):
    """The enclosures the dg-interval checks use (in auditor.decide, or their own), too coarse.

    The offset-event payoff uses auditor.checks.separation's own enclosures, which stay exact."""
    for module in (decide, dg_interval):
        for name in ("normaliser_bounds", "exp_bounds"):
            if hasattr(module, name):
                monkeypatch.setattr(module, name, widened(getattr(module, name)))


def test_undecided_embedded_privacy_bound_is_not_established(coarse_dg):
    only_unproved(verify_certificate(load("separation-offset-event-eps2.json")), "/result/privacy_bound/result/")


def test_false_claim_after_an_undecided_embedded_bound_fails(coarse_dg):
    """The separator at the witness's lower end (checked after the embedded dg-interval): FAIL."""
    bad = copy.deepcopy(load("separation-offset-event-eps2.json"))
    bad["input"]["separator"] = bad["result"]["payoff"]["lower"]
    report = verify_certificate(seal(bad))
    assert report.status == FAIL, report.unchecked
    assert "/result/payoff/lower" in disproved(report)


def test_false_claim_after_an_undecided_source_fails(coarse_dg):
    """A deadline witness whose source is undecided: its later false lower end still FAILS."""
    cert = load("deadline-witness-d2-law.json")
    only_unproved(verify_certificate(cert))
    bad = copy.deepcopy(cert)
    deadline = bad["result"]["deadlines"][0]
    deadline["lower"] = write_rational(read_rational(deadline["lower"], "l") * 2)
    report = verify_certificate(seal(bad))
    assert report.status == FAIL, report.unchecked
    assert "/result/deadlines/0/lower" in disproved(report)


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


# ---- the Rényi cover's band ends --------------------------------------------------------

RENYI = "separation-renyi-cover.json"
BAND = 5  # a band with left end > 1: its lower end is checked against log(M_l^low)/(l − 1)


def _renyi_enclosures(cert):
    """[lo, hi] of log(M_l^low)/(l − 1) and of max D_r(binary) for band BAND at both precisions."""
    from auditor.decide import RETRY_FACTOR
    from auditor.lower import renyi
    from auditor.report import Report
    inp, res = cert["input"], cert["result"]
    layers = renyi.Layers(inp, res, Report("c"), "/result")
    band = res["bands"][BAND]
    left, right = read_rational(band["left"], "l"), read_rational(band["right"], "r")
    p, q = read_rational(inp["p"], "p"), read_rational(inp["q"], "q")
    precisions = (renyi.BITS, renyi.BITS * RETRY_FACTOR)
    moments = [(renyi.renyi_lower(layers, left, b), renyi.renyi_upper(layers, left, b)) for b in precisions]
    binary = [(renyi.binary_lower(p, q, right, b), renyi.binary_upper(p, q, right, b)) for b in precisions]
    return moments, binary


def _with_band_end(cert, end, value):
    bad = copy.deepcopy(cert)
    bad["result"]["bands"][BAND][end] = write_rational(value)
    return seal(bad)


def test_band_lower_end_at_the_enclosure_edge_is_not_established_and_above_it_fails():
    cert = load(RENYI)
    assert read_rational(cert["result"]["bands"][BAND]["left"], "l") > 1
    moments, _ = _renyi_enclosures(cert)
    edge = min(hi for _, hi in moments)          # inside every enclosure, above every lower end
    assert max(lo for lo, _ in moments) < edge
    only_unproved(verify_certificate(_with_band_end(cert, "lower", edge)), f"/result/bands/{BAND}/lower")
    failed = verify_certificate(_with_band_end(cert, "lower", edge + Fraction(1, 10 ** 6)))
    assert failed.status == FAIL
    assert f"/result/bands/{BAND}/lower" in {f["pointer"] for f in failed.failures}


def test_band_upper_end_at_the_enclosure_edge_is_not_established_and_below_it_fails():
    cert = load(RENYI)
    _, binary = _renyi_enclosures(cert)
    edge = max(lo for lo, _ in binary)           # inside every enclosure, below every upper end
    assert edge < min(hi for _, hi in binary)
    only_unproved(verify_certificate(_with_band_end(cert, "upper", edge)), f"/result/bands/{BAND}/upper")
    failed = verify_certificate(_with_band_end(cert, "upper", edge - Fraction(1, 10 ** 6)))
    assert failed.status == FAIL
    assert f"/result/bands/{BAND}/upper" in {f["pointer"] for f in failed.failures}


def test_renyi_enclosures_contain_the_reference_claims():
    """The claimed band ends lie on the proved side of the enclosures (the reference verifies)."""
    cert = load(RENYI)
    band = cert["result"]["bands"][BAND]
    moments, binary = _renyi_enclosures(cert)
    assert all(lo <= hi for lo, hi in moments + binary)
    assert read_rational(band["lower"], "L") <= moments[0][0]
    assert read_rational(band["upper"], "U") >= binary[0][1]


@given(st.integers(0, 10 ** 6), st.integers(1, 10 ** 6), st.integers(1, 10 ** 6), st.integers(3, 64),
       st.integers(0, 4), st.integers(8, 120))
def test_term_bounds_bracket_the_exact_dyadic_term(P, Q, S, m, k, bits):
    """floor/ceil of 2^bits·(P/S)^a (Q/S)^{1−a}, a = m/2^k > 1, checked by raising to the 2^k-th power."""
    from auditor.lower.renyi import DOWN, UP, _term
    a = Fraction(m, 1 << k)
    assume(a > 1)
    lo, hi = _term(P, Q, S, a, bits, DOWN), _term(P, Q, S, a, bits, UP)
    n = 1 << k
    exact = Fraction(P, S) ** m * Fraction(Q, S) ** (n - m) * (1 << (bits * n))  # (2^bits·term)^(2^k)
    assert 0 <= lo <= hi
    assert lo ** n <= exact <= hi ** n


def test_layer_weights_undecided_are_not_established_and_disproved_fail(monkeypatch):
    """Layer weights against a too coarse normaliser: not established; a doubled P-weight: disproved there."""
    from auditor.lower import renyi
    monkeypatch.setattr(renyi, "normaliser_bounds", widened(renyi.normaliser_bounds))
    cert = load(RENYI)
    only_unproved(verify_certificate(cert), "/result/layers/")
    bad = copy.deepcopy(cert)
    row = bad["result"]["layers"][0]["p"][0]
    i = max(range(len(row)), key=lambda j: read_rational(row[j], "w"))
    row[i] = write_rational(2 * read_rational(row[i], "w"))
    failed = verify_certificate(seal(bad))
    assert failed.status == FAIL
    assert f"/result/layers/0/p/0/{i}" in {f["pointer"] for f in failed.failures}
