"""The auditor on ``plain-composition/1``'s releases form and relative widths (:mod:`auditor.plain.releases`).

True certificates are hand-made inputs whose points come from an independent
brute force (:mod:`tests.auditor.plain_releases_corpus`: loss-keyed masses of P and
Q, mpmath at 400 bits), resealed after every edit (:mod:`tests.reseal`).  A
corpus of wrong ones must each FAIL or be MALFORMED as
docs/plain-composition-audit.md §7 says.
"""

import copy
import json
from fractions import Fraction
from pathlib import Path

import pytest

from auditor.api import verify_certificate
from auditor.outcomes import FAIL, MALFORMED, OK, UNCHECKED
from auditor.plain import releases
from tests.auditor.plain_releases_corpus import (FAMILY, MIXED, PRODUCER, _draw, _mp, brute_delta, built, noise,
                                                 point)
from tests.reseal import reseal, seal



def status(cert):
    report = verify_certificate(cert)
    return report.status, {f["pointer"] for f in report.failures}, report


def edited(cert, edit):
    bad = copy.deepcopy(cert)
    edit(bad)
    return reseal(bad)


def set_point(cert, i, lower, upper):
    return edited(cert, lambda c: c["result"]["points"].__setitem__(
        i, point(Fraction(c["result"]["points"][i]["epsilon"]), lower, upper)))


def ends(cert, i):
    p = cert["result"]["points"][i]
    return Fraction(p["lower"]), Fraction(p["upper"])


# ---- true certificates -------------------------------------------------------------------

@pytest.mark.parametrize("name", ["mixed", "small", "laplace", "tiny-relative", "single-relative", "single-both"])
def test_true_certificate_is_ok(name):
    code, failed, report = status(built(name))
    assert (code, failed) == (OK, set()), (report.failures, report.unchecked, report.error)


def test_relative_claim_far_below_any_absolute_width():
    """δ(50) about 10^-100 with both ends positive, within R = 1/1000 of lower."""
    lo, hi = ends(built("tiny-relative"), 1)
    assert 0 < lo < hi < Fraction(1, 10 ** 90) and hi - lo <= lo / 1000


def test_claim_summary_names_every_release():
    claim = verify_certificate(built("small")).claim
    assert claim.startswith("delta(eps) of the plain composition of 1 x the discrete Gaussian sigma^2 = 1 "
                            "(sensitivity 3), 2 x the discrete Laplace t = 1/2 (sensitivity 2): eps = 1: delta in [")


def test_enclosure_contains_the_brute_force():
    rs = [releases.Release(FAMILY[f], x, s, k) for f, x, s, k in MIXED]
    for e, (lo, hi) in zip([0, 2, 5], releases.delta_bounds(rs, [Fraction(0), Fraction(2), Fraction(5)], 100)):
        v = brute_delta(MIXED, Fraction(e))
        assert _mp(lo) <= v <= _mp(hi) and hi - lo < Fraction(1, 10 ** 25)


def test_single_release_matches_the_single_law_route():
    """One discrete Gaussian release with sensitivity 1 through the lattice = the convolution of the sum."""
    from auditor.plain import gaussian
    rs = [releases.Release("discrete-gaussian", 9, 1, 8)]
    for (a, b), (c, d) in zip(releases.delta_bounds(rs, [Fraction(1, 2), Fraction(2)], 80),
                              gaussian.delta_bounds(9, 8, [Fraction(1, 2), Fraction(2)], 80)):
        assert max(a, c) <= min(b, d)


def test_lattice_is_exact():
    """h is the gcd of the steps: every β_r = d_r·h with integers d_r whose gcd is 1."""
    from math import gcd
    rs = [releases.Release("discrete-gaussian", Fraction(9, 2), 2, 1), releases.Release("discrete-laplace", 3, 1, 1),
          releases.Release("discrete-gaussian", 4, 3, 1)]
    h, d, A = releases.loss_lattice(rs)
    assert [r.step for r in rs] == [k * h for k in d] and gcd(*d) == 1
    assert A == Fraction(4, 9) - Fraction(1, 3) + Fraction(9, 8)


# ---- false claims and malformed inputs -----------------------------------------------------

@pytest.mark.parametrize("name,i", [("mixed", 2), ("small", 0), ("tiny-relative", 1)])
def test_lower_above_the_truth_fails(name, i):
    cert = built(name)
    _, hi = ends(cert, i)
    d = min(hi / 10 ** 12, Fraction(1, 10 ** 42))      # within either width claim
    bad = set_point(cert, i, hi + d, hi + 2 * d)
    code, failed, _ = status(bad)
    assert code == FAIL and failed == {f"/result/points/{i}/lower"}


@pytest.mark.parametrize("name,i", [("mixed", 3), ("small", 1), ("tiny-relative", 0)])
def test_upper_below_the_truth_fails(name, i):
    cert = built(name)
    lo, _ = ends(cert, i)
    d = min(lo / 10 ** 12, Fraction(1, 10 ** 42))
    bad = set_point(cert, i, lo - 2 * d, lo - d)
    code, failed, _ = status(bad)
    assert code == FAIL and failed == {f"/result/points/{i}/upper"}


def test_positive_upper_in_the_pure_region_fails_exactly():
    bad = set_point(built("laplace"), 2, Fraction(0), Fraction(1, 10 ** 50))
    assert status(bad)[0] == OK                       # upper >= 0 = δ: true
    bad = set_point(built("laplace"), 1, Fraction(1, 10 ** 50), Fraction(1, 10 ** 49))
    code, failed, _ = status(bad)
    assert code == FAIL and failed == {"/result/points/1/lower"}


def test_width_violated_fails():
    cert = built("mixed")
    lo, hi = ends(cert, 1)
    bad = set_point(cert, 1, lo - Fraction(1, 10 ** 39), hi)
    code, failed, _ = status(bad)
    assert code == FAIL and failed == {"/result/points/1"}


def test_rel_width_violated_fails():
    cert = built("tiny-relative")
    lo, hi = ends(cert, 0)
    bad = set_point(cert, 0, lo / 2, hi)              # still true, but wider than R·lower
    code, failed, report = status(bad)
    assert code == FAIL and failed == {"/result/points/0"}
    assert "R·lower" in str(report.failures[0])


def test_either_width_suffices():
    """W or R: a point wider than W but within R·lower meets the claim; one beyond both fails."""
    cert = built("single-both")
    lo, hi = ends(cert, 0)
    wide = set_point(cert, 0, lo - lo / 10 ** 5, hi)
    assert status(wide)[0] == OK
    too_wide = set_point(cert, 0, lo - lo / 100, hi)
    assert status(too_wide)[:2] == (FAIL, {"/result/points/0"})


def _releases_edit(edit):
    return lambda c: edit(c["input"]["releases"])


@pytest.mark.parametrize("edit,phrase", [
    (_releases_edit(lambda r: r.reverse()), "sorted by (family, scale, sensitivity)"),
    (_releases_edit(lambda r: r.insert(1, copy.deepcopy(r[0]))), "merged"),
    (_releases_edit(lambda r: r[0].__setitem__("sensitivity", 0)), "/input/releases/0/sensitivity"),
    (_releases_edit(lambda r: r[0].__setitem__("count", 1021)), "total count 1025 is above the limit 1024"),
    (_releases_edit(lambda r: r.__delitem__(slice(1, None))), "single-law form"),
    (lambda c: c["input"].update(width=None, rel_width=None), "/input/rel_width"),   # the schema: one non-null
    (lambda c: c["input"].update(budget=2), "/input"),
    (lambda c: c["input"].update(rel_width="1/" + "1" + "0" * 61), "below the limit"),
])
def test_malformed(edit, phrase):
    code, _, report = status(edited(built("mixed"), edit))
    assert code == MALFORMED and phrase in report.error, report.error


def test_unmerged_duplicate_of_a_single_release_is_malformed():
    cert = edited(built("small"), _releases_edit(lambda r: r.insert(0, copy.deepcopy(r[0]))))
    assert status(cert)[0] == MALFORMED


def test_beyond_the_work_limit_is_unchecked_before_work():
    """Incommensurable scales spread the lattice (d about 2000 each): refused with the estimate."""
    spec = (("dg", Fraction(2049, 100), 1, 500), ("dg", Fraction(2051, 100), 1, 500))
    cert = seal({"schema": "plain-composition/1", "producer": dict(PRODUCER),
                   "input": {"releases": [{"noise": noise(f, x), "sensitivity": s, "count": k} for f, x, s, k in spec],
                             "epsilons": ["1"], "width": "1/1000000000000000"},
                   "result": {"points": [point(Fraction(1), Fraction(1, 10), Fraction(1, 10))]}})
    code, _, report = status(cert)
    assert code == UNCHECKED
    assert "/input/releases" in str(report.unchecked)


def test_laplace_base_list_bounds_the_law_from_above():
    """The rounded-up law of m (module docstring, step 1) against mpmath, and its exact excess."""
    r = releases.Release("discrete-laplace", Fraction(3, 2), 4, 1)
    v, excess = releases._laplace_base(r, 80)
    law = _draw("dl", Fraction(3, 2), 4)
    # m = s − clamp(x, 0, s) ↔ loss −s/t + 2m/t
    for m, vm in enumerate(v):
        p = law[Fraction(-4 + 2 * m) / Fraction(3, 2)][0]
        assert p * 2 ** 80 <= vm <= p * 2 ** 80 + 2
    assert excess == sum(v) - 2 ** 80 and 0 <= excess <= len(v) + 1


# ---- the producer's references (black boxes: their bytes, never their code) ------------------------

REFERENCES = Path(__file__).resolve().parents[2] / "certificates" / "plain"
RELEASES_REFERENCE = REFERENCES / "plain-composition-releases-dg9x100-dl2x5-dg4s2x20.json"
RELATIVE_REFERENCE = REFERENCES / "plain-composition-dg-sigma2_100-c1-rel1e-3.json"


def _reference(path):
    if not path.exists():
        pytest.skip(f"{path.name} is not in this tree")
    return json.loads(path.read_text(encoding="utf-8"))


def test_producer_relative_reference_contains_the_brute_force():
    """δ(2) about 4.16·10^-91 for σ² = 100, C = 1: both ends positive, around the brute force."""
    cert = _reference(RELATIVE_REFERENCE)
    assert status(cert)[:2] == (OK, set())
    lo, hi = ends(cert, 0)
    v = brute_delta((("dg", 100, 1, 1),), Fraction(2))
    assert 0 < lo and _mp(lo) <= v <= _mp(hi) and hi - lo <= lo / 1000


@pytest.mark.parametrize("side", ["lower", "upper"])
def test_producer_releases_reference_verifies_and_a_moved_end_fails(side):
    cert = _reference(RELEASES_REFERENCE)
    assert status(cert)[:2] == (OK, set())
    lo, hi = ends(cert, 1)
    d = Fraction(1, 10 ** 16)
    bad = set_point(cert, 1, hi + d, hi + 2 * d) if side == "lower" else set_point(cert, 1, lo - 2 * d, lo - d)
    assert status(bad)[:2] == (FAIL, {f"/result/points/1/{side}"})
