"""``producer hierarchy`` on the command line: a schema-valid certificate, and one-line errors."""

import json
import os
import subprocess
import sys

import jsonschema
import pytest

from tests.untimed import HANG_GUARD_SECONDS

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCHEMA = json.load(open(os.path.join(ROOT, "schemas", "hierarchy-1.schema.json")))
BASE = ("-m", "producer", "hierarchy", "--gamma", "1/3", "--sigma2", "9", "--radius", "16",
        "--source-scale", "2^40", "--priors", "30")


def run(*args):
    return subprocess.run([sys.executable, *args], cwd=ROOT, capture_output=True, text=True, timeout=HANG_GUARD_SECONDS)


def test_delta_query_gives_a_schema_valid_certificate():
    p = run(*BASE, "--budget", "3", "--depth", "2", "--delta", "1e-2", "--quiet")
    assert p.returncode == 0, p.stderr
    cert = json.loads(p.stdout)
    jsonschema.validate(cert, SCHEMA)
    assert cert["result"]["meets_delta"] is True
    assert cert["result"]["graph"]["pending"] == 2 * sum(3 ** j for c in range(3) for j in range(1, min(2, c + 1) + 1))


def test_cut_query_records_the_cut_set():
    p = run(*BASE, "--budget", "4", "--cuts", "all-minus:1", "--epsilon", "3", "--quiet")
    assert p.returncode == 0, p.stderr
    cert = json.loads(p.stdout)
    jsonschema.validate(cert, SCHEMA)
    assert cert["input"]["model"] == {"game": "cuts", "cuts": [0, 2]}
    assert cert["result"]["delta"] is None and cert["result"]["meets_delta"] is None


@pytest.mark.parametrize("extra, word", [
    (("--budget", "4", "--cuts", "0,3", "--epsilon", "1"), "cuts"),
    (("--budget", "4", "--depth", "0", "--epsilon", "1"), "depth"),
    (("--budget", "4", "--depth", "2", "--delta", "2"), "delta"),
    (("--budget", "4", "--depth", "2", "--epsilon", "1", "--source-scale", "2^x"), "source scale"),
    (("--budget", "8", "--depth", "4", "--epsilon", "5", "--priors", "20000", "--quiet"), "work"),
])
def test_bad_input_is_one_line(extra, word):
    p = run(*BASE, *extra)
    assert p.returncode == 2
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and word in lines[0] and "Traceback" not in p.stderr
