"""producer rate / frontier / window / finite-budget: output, the answer line, refusals (exit 2, one line)."""

import json
import subprocess
import sys

import pytest

from tests.untimed import HANG_GUARD_SECONDS


def run(*args):
    return subprocess.run([sys.executable, "-m", "producer", *args], capture_output=True, text=True,
                          timeout=HANG_GUARD_SECONDS)


def test_window_writes_the_certificate_and_states_the_answer(tmp_path):
    out = tmp_path / "w.json"
    done = run("window", "--gamma", "1/2", "--sigma2", "1/4", "--tau", "2", "--bits", "4", "-o", str(out))
    assert done.returncode == 0, done.stderr
    cert = json.loads(out.read_text(encoding="utf-8"))
    assert cert["schema"] == "window-request/1"
    assert cert["input"] == {"gamma": "1/2", "sigma2": "1/4", "tau": "2", "bits": 4}
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("Φ(2) ∈ [") and "2^-4" in last


def test_finite_budget_to_stdout_quiet():
    done = run("finite-budget", "--gamma", "1/3", "--sigma2", "1", "--budget", "100", "--deadline", "300",
               "--delta", "1e-6", "--radius", "8", "--quiet")
    assert done.returncode == 0 and done.stderr == ""
    assert json.loads(done.stdout)["schema"] == "finite-budget/1"


@pytest.mark.parametrize("args, words", [
    (("rate", "--gamma", "1/2", "--sigma2", "1", "--period", "12"), "not a power of B"),
    (("rate", "--gamma", "0", "--sigma2", "1"), "0 < γ < 1"),
    (("frontier", "--gamma", "1/2", "--sigma2", "1/4", "--radius", "40"), "limit 32"),
    (("window", "--gamma", "1/2", "--sigma2", "1/4", "--tau", "2", "--bits", "65"), "limit 64"),
    (("window", "--gamma", "1/2", "--sigma2", "9999", "--tau", "1000", "--bits", "64"), "radius above"),
    (("finite-budget", "--gamma", "1/2", "--sigma2", "1/4", "--budget", "10", "--deadline", "20",
      "--delta", "2"), "(0, 1)"),
])
def test_refusals_are_one_line_exit_2(args, words):
    done = run(*args)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and words in lines[0], done.stderr
    assert done.stdout == ""
