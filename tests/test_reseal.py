"""tests/reseal.py: a resealed copy differs from the original only where it was changed, and
every digest in it (embedded certificates included) matches its body."""

import json
from pathlib import Path

from auditor.api import verify_certificate
from auditor.certificate import digest
from auditor.outcomes import FAIL, OK
from tests.reseal import get_at, reseal, resealed, seal, set_at, with_value

ROOT = Path(__file__).resolve().parents[1] / "certificates"
SEPARATION = "separation-offset-event-eps2.json"
INNER = ("result", "privacy_bound")
INNER_VALUE = INNER + ("result", "interval", "upper")


def load(name):
    return json.loads((ROOT / name).read_text())


def _sealed_everywhere(cert):
    return cert["digest"] == digest(cert) and get_at(cert, INNER)["digest"] == digest(get_at(cert, INNER))


def test_with_value_changes_one_value_and_reseals_the_embedded_certificate_first():
    cert = load(SEPARATION)
    original = json.dumps(cert, sort_keys=True)
    bad = with_value(cert, INNER_VALUE, "1/2")
    assert json.dumps(cert, sort_keys=True) == original       # the original is untouched
    assert get_at(bad, INNER_VALUE) == "1/2"
    assert _sealed_everywhere(bad)
    assert bad["digest"] != cert["digest"] and get_at(bad, INNER)["digest"] != get_at(cert, INNER)["digest"]
    report = verify_certificate(bad)
    assert report.status == FAIL
    assert {f["pointer"] for f in report.failures} >= {"/result/privacy_bound/result/interval/upper"}
    assert not any(f["pointer"].endswith("/digest") for f in report.failures)


def test_resealing_an_unchanged_certificate_keeps_every_digest():
    cert = load(SEPARATION)
    assert resealed(cert) == cert
    assert verify_certificate(resealed(cert)).status == OK


def test_seal_reseals_only_the_outer_certificate():
    cert = load(SEPARATION)
    set_at(cert, INNER_VALUE, "1/2")
    seal(cert)
    assert cert["digest"] == digest(cert)
    assert get_at(cert, INNER)["digest"] != digest(get_at(cert, INNER))  # the embedded one is stale
    assert _sealed_everywhere(reseal(cert))
