"""Two-sided brackets of ε*_C(δ) from a lower-end and an upper-end certificate."""

import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

import producer
from producer.brackets import bracket
from producer.errors import InputError

ROOT = Path(__file__).resolve().parents[2]
CERTS = ROOT / "certificates"
K2 = CERTS / "calibration-lower-k2-capped-c4.json"
C4 = CERTS / "calibration-published-c4-delta1e-4.json"
LOWER8 = CERTS / "slow" / "calibration-lower-target-zero-c8.json"
UPPER8 = CERTS / "hierarchy" / "hierarchy-c8-p4-delta1e-4.json"
UPPER16 = CERTS / "hierarchy" / "hierarchy-c16-p3-delta1e-4.json"


def load(path):
    return json.loads(path.read_text())


def test_budget_four_bracket_from_witness_and_exact_calibration():
    b = bracket(load(K2), load(C4))
    d = b.as_dict()
    lo, hi = Fraction(d["epsilon_lower"]), Fraction(d["epsilon_upper"])
    assert lo < hi
    # the witness lower end lies below the exact game's enclosure of ε*_4(10^-4)
    assert lo <= Fraction(load(C4)["result"]["epsilon_lo"])
    assert b.line().startswith("14.643279 ≤ ε*_4(1/10000) ≤ 14.740489")


def test_budget_eight_bracket_meets_the_published_ends():
    d = bracket(load(LOWER8), load(UPPER8)).as_dict()
    assert Fraction(d["epsilon_lower"]) > Fraction("4.833477")   # published lower end
    assert Fraction(d["epsilon_upper"]) <= Fraction("4.875282")  # published upper end


def test_different_questions_are_refused():
    with pytest.raises(InputError, match="different questions"):
        bracket(load(LOWER8), load(UPPER16))


def test_contradicting_certificates_are_refused():
    upper = load(UPPER8)
    upper["result"]["epsilon"] = "4"  # below the witness: one of the two must be false
    with pytest.raises(InputError, match="contradict"):
        bracket(load(LOWER8), upper)


def test_wrong_kinds_are_named():
    with pytest.raises(InputError, match="no lower end"):
        bracket(load(UPPER8), load(UPPER8))
    with pytest.raises(InputError, match="no upper end"):
        bracket(load(K2), load(K2))


def test_api_and_cli_agree():
    line = producer.bracket(str(K2), load(C4)).line()
    run = subprocess.run([sys.executable, "-m", "producer", "bracket", str(K2), str(C4)],
                         capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 0 and run.stdout.strip() == line
    bad = subprocess.run([sys.executable, "-m", "producer", "bracket", str(LOWER8), str(UPPER16)],
                         capture_output=True, text=True, cwd=ROOT)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr and len(bad.stderr.splitlines()) == 1
