"""The lower-kind auditor leaves Python's int <-> str digit limit alone.

Importing :mod:`auditor.lower` and verifying lower certificates must not change
the process's limit (a library must not change a process-wide setting), and
long numbers must still be handled under the default limit of 4300 digits:
they are converted through gmpy2 or shown abbreviated, so a certificate with a
very long display or threshold gives a verdict (FAIL), never an ERROR.
"""

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest

import auditor.checks.deadline_witness  # imported before the fixture sets the limit
import auditor.checks.separation  # noqa: F401
from auditor.api import verify_certificate
from auditor.outcomes import FAIL
from tests.reseal import seal
from tests.untimed import HANG_GUARD_SECONDS

ROOT = Path(__file__).resolve().parents[2]
CERTS = ROOT / "certificates"
DEFAULT_LIMIT = 4300  # CPython's default int <-> str digit limit

# One certificate of every lower kind that verifies in seconds.
FAST_LOWER = ["calibration-lower-k2-capped-c4.json", "deadline-witness-d2-law.json",
              "separation-binary-pair-eps2.json", "separation-offset-event-eps2.json",
              "separation-renyi-cover.json", "workload-published-static.json"]

_PROBE = """
import sys
sys.set_int_max_str_digits({limit})
before = sys.get_int_max_str_digits()
import auditor.lower
after_import = sys.get_int_max_str_digits()
from auditor.api import verify_file
statuses = [verify_file(path).status for path in sys.argv[1:]]
print(before, after_import, sys.get_int_max_str_digits(), *statuses)
"""


def _probe(limit, names):
    done = subprocess.run([sys.executable, "-c", _PROBE.format(limit=limit), *[str(CERTS / n) for n in names]],
                          capture_output=True, text=True, timeout=HANG_GUARD_SECONDS, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    return [int(x) for x in done.stdout.split()]


@pytest.mark.parametrize("limit", [DEFAULT_LIMIT, 640])
def test_importing_and_verifying_leaves_the_limit_unchanged(limit):
    before, after_import, after_verify, *statuses = _probe(limit, FAST_LOWER)
    assert before == after_import == after_verify == limit
    assert statuses == [0] * len(FAST_LOWER)


@pytest.fixture
def default_limit():
    saved = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(DEFAULT_LIMIT)
    yield
    sys.set_int_max_str_digits(saved)


def test_long_display_fails_under_the_default_limit(default_limit):
    """A display with 5000 decimals is compared exactly (and is wrong), not an ERROR."""
    cert = json.loads((CERTS / "separation-binary-pair-eps2.json").read_text())
    bad = copy.deepcopy(cert)
    bad["result"]["payoff"]["lower_display"] = "0." + "0" * 4999 + "1"
    report = verify_certificate(seal(bad))
    assert report.status == FAIL, report.error
    assert "/result/payoff/lower_display" in {f["pointer"] for f in report.failures}


def test_long_threshold_fails_under_the_default_limit(default_limit):
    """λ₋ (about 30) > λ₊ with 5000-digit numbers: a failed claim shown abbreviated, not an ERROR."""
    cert = json.loads((CERTS / "deadline-witness-d2-law.json").read_text())
    bad = copy.deepcopy(cert)
    threshold = bad["result"]["threshold"]
    threshold["lower"] = "1" + "0" * 5001 + "/" + "3" * 4999 + "1"
    report = verify_certificate(seal(bad))
    assert report.status == FAIL, report.error
    failed = {f["pointer"]: f for f in report.failures}
    assert "/result/threshold" in failed
    assert "digits" in failed["/result/threshold"]["claimed"]
