"""``producer dg`` / ``producer calibrate`` on the command line, checked by ``auditor verify``."""

import json
import os
import subprocess
import sys

import pytest

from tests.untimed import HANG_GUARD_SECONDS

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def run(*args):
    return subprocess.run([sys.executable, *args], cwd=ROOT, capture_output=True, text=True, timeout=HANG_GUARD_SECONDS)


def test_dg_writes_a_verifiable_certificate_with_progress(tmp_path):
    out = tmp_path / "dg.json"
    p = run("-m", "producer", "dg", "--gamma", "1/3", "--sigma2", "9", "--budget", "2", "--epsilon", "2",
            "--width", "2e-14", "-o", str(out))
    assert p.returncode == 0, p.stderr
    assert "dg:" in p.stderr and p.stdout == ""
    cert = json.loads(out.read_text())
    assert cert["schema"] == "dg-interval/1" and cert["input"]["source"] == {"width": "1/50000000000000"}
    v = run("-m", "auditor", "verify", str(out))
    assert v.returncode == 0, v.stdout


def test_dg_explicit_source_is_deterministic_on_stdout():
    args = ("-m", "producer", "dg", "--gamma", "1/3", "--sigma2", "9/4", "--budget", "1", "--epsilon", "4.91",
            "--radius", "6", "--scale", "1000000", "--method", "reduced", "--quiet")
    first, second = run(*args), run(*args)
    assert first.returncode == 0, first.stderr
    assert first.stdout == second.stdout and first.stdout.endswith("\n")
    assert first.stderr == ""
    cert = json.loads(first.stdout)
    assert cert["input"]["epsilon"] == "491/100" and cert["input"]["method"] == "reduced"


def test_calibrate_writes_a_verifiable_certificate(tmp_path):
    out = tmp_path / "cal.json"
    p = run("-m", "producer", "calibrate", "--gamma", "1/2", "--sigma2", "1", "--budget", "1",
            "--delta", "1e-3", "--width", "1e-3", "-o", str(out))
    assert p.returncode == 0, p.stderr
    assert "calibrate: probe" in p.stderr
    assert json.loads(out.read_text())["result"]["status"] == "enclosed"
    v = run("-m", "auditor", "verify", str(out))
    assert v.returncode == 0, v.stdout


@pytest.mark.parametrize("args", [
    ("dg", "--gamma", "2/6", "--sigma2", "9", "--budget", "2", "--epsilon", "2", "--width", "1e-3"),
    ("dg", "--gamma", "1/3", "--sigma2", "-9", "--budget", "2", "--epsilon", "2", "--width", "1e-3"),
    ("dg", "--gamma", "1/3", "--sigma2", "9", "--budget", "2", "--epsilon", "two", "--width", "1e-3"),
    ("dg", "--gamma", "1/3", "--sigma2", "9", "--budget", "2", "--epsilon", "2"),
    ("dg", "--gamma", "1/3", "--sigma2", "9", "--budget", "2", "--epsilon", "2", "--radius", "5"),
    ("dg", "--gamma", "1/3", "--sigma2", "9", "--budget", "2", "--epsilon", "2", "--radius", "5",
     "--scale", "100", "--width", "1e-3"),
    ("dg", "--gamma", "1/3", "--sigma2", "9", "--budget", "2", "--epsilon", "2", "--radius", "99999",
     "--scale", "100"),
    ("calibrate", "--gamma", "1/3", "--sigma2", "9", "--budget", "2", "--delta", "1"),
    ("calibrate", "--gamma", "1/3", "--sigma2", "9", "--budget", "2", "--delta", "1e-4", "--width", "0"),
])
def test_bad_input_is_one_line_and_exit_2(args):
    p = run("-m", "producer", *args)
    assert p.returncode == 2
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and "error" in lines[0] and "Traceback" not in p.stderr


def test_beyond_the_game_the_refusal_names_the_command_that_answers():
    p = run("-m", "producer", "dg", "--gamma", "1/3", "--sigma2", "9", "--budget", "7", "--epsilon", "2",
            "--width", "1e-3")
    assert p.returncode == 2
    assert p.stderr == ("producer dg: error: budget: C = 7 exceeds the exact game's limit C <= 6; "
                        "producer hierarchy bounds it from above\n")
