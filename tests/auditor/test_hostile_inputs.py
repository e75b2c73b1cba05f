"""Malformed or out-of-domain fields that once gave the auditor's internal ERROR (exit 4).

Each is a reference certificate from ``certificates/`` with one field edited
and its digest recomputed (:mod:`tests.reseal`): the outcome must be a
verdict (MALFORMED or FAIL), never ERROR.
"""

import json
from pathlib import Path

import pytest

from auditor.api import verify_certificate
from auditor.certificate import schema_dir
from auditor.outcomes import FAIL, MALFORMED
from tests.reseal import with_value

ROOT = Path(__file__).resolve().parents[2]
CERTS = ROOT / "certificates"
KINDS = sorted(p.name[:-len(".schema.json")].rsplit("-", 1)[0] for p in schema_dir().glob("*.schema.json"))


def reference(name):
    return json.loads((CERTS / name).read_text(encoding="utf-8"))


# ---- the schema name: looked up among the known schema files, never turned into a path ----

@pytest.mark.parametrize("kind", KINDS)
def test_over_long_schema_version_is_malformed_in_every_kind(kind):
    """Once ``OSError: File name too long`` (ERROR) for every kind."""
    report = verify_certificate({"schema": f"{kind}/" + "1" * 300})
    assert report.status == MALFORMED, report.error
    assert report.error.startswith("/schema: unknown certificate kind or version"), report.error
    assert len(report.error) < 200


@pytest.mark.parametrize("name", ["x" * 300 + "/1", "a" * 5000 + "/1", "finite-game/0", "no-such-kind/1"])
def test_unknown_or_over_long_schema_name_is_malformed(name):
    report = verify_certificate({"schema": name})
    assert report.status == MALFORMED, report.error
    assert report.error.startswith("/schema: unknown certificate kind or version"), report.error


# ---- hierarchy/1: a 5001-digit number is within the reader's 10,000 digits: a verdict, not ERROR ----

HIERARCHY = "hierarchy/hierarchy-c3-p2-eps2-small.json"
LONG = "1" + "0" * 5000  # beyond Python's default int/str limit of 4300 digits


@pytest.mark.parametrize("path, pointer", [
    (("result", "upper"), "/result/upper"),
    (("result", "root_excess", 0), "/result/root_excess"),
])
def test_hierarchy_5001_digit_claim_fails_not_error(path, pointer):
    report = verify_certificate(with_value(reference(HIERARCHY), path, LONG))
    assert report.status == FAIL, report.error
    assert pointer in {f["pointer"] for f in report.failures}
    assert all(len(f["claimed"]) < 1000 for f in report.failures)  # long numbers shown abbreviated


# ---- brace-run/1: e^-gamma's stored upper end <= 0 is a false claim (FAIL), not ERROR ----

@pytest.mark.parametrize("end", ["0", "-1", "-1/2"])
def test_brace_nonpositive_upper_end_of_exp_neg_gamma_fails(end):
    report = verify_certificate(with_value(reference("brace-synthetic.json"),
                                           ("result", "constants", "exp_neg_gamma", 1), end))
    assert report.status == FAIL, report.error
    assert "/result/constants/exp_neg_gamma" in {f["pointer"] for f in report.failures}


def test_brace_nonpositive_exp_neg_gamma_pair_fails():
    cert = with_value(reference("brace-synthetic.json"), ("result", "constants", "exp_neg_gamma"), ["-1", "0"])
    report = verify_certificate(cert)
    assert report.status == FAIL, report.error
    assert "/result/constants/exp_neg_gamma/0" in {f["pointer"] for f in report.failures}
