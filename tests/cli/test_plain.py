"""``producer plain`` on the command line: one answer line, one-line errors with exit status 2."""

import json
import os
from fractions import Fraction
import subprocess
import sys

import pytest

from producer import cli
from tests.untimed import HANG_GUARD_SECONDS

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def run(*args):
    return subprocess.run([sys.executable, "-m", "producer", "plain", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=HANG_GUARD_SECONDS)


def test_plain_writes_the_certificate_and_one_answer_line(tmp_path):
    out = tmp_path / "p.json"
    p = run("--sigma2", "9", "--budget", "2", "--epsilons", "1/2,1,2,4", "--width", "1e-20", "-o", str(out),
            "--quiet")
    assert p.returncode == 0 and p.stderr == "" and p.stdout == ""
    assert out.read_bytes() == open(os.path.join(ROOT, "certificates", "plain",
                                                 "plain-composition-dg-sigma2_9-c2.json"), "rb").read()
    loud = run("--laplace", "2", "--budget", "8", "--epsilon", "4", "--epsilon", "1")
    assert loud.returncode == 0, loud.stderr
    cert = json.loads(loud.stdout)
    assert cert["input"]["epsilons"] == ["1", "4"] and cert["result"]["points"][1]["upper"] == "0"
    last = loud.stderr.strip().splitlines()[-1]
    assert last.startswith("δ_8(1) ∈ [") and "δ_8(4) = 0" in last and "discrete Laplace t = 2" in last


def test_the_answer_line_states_every_requested_point():
    p = run("--sigma2", "9", "--budget", "8", "--epsilons", "1/2,1,2,4,6")
    assert p.returncode == 0, p.stderr
    last = p.stderr.strip().splitlines()[-1]
    assert "more point" not in last
    for epsilon in ("0.5", "1", "2", "4", "6"):
        assert f"δ_8({epsilon}) " in last


def main(capsys, *args):
    status = None
    try:
        status = cli.main(["plain", *args])
    except SystemExit as exc:      # argparse usage errors exit directly
        status = exc.code
    captured = capsys.readouterr()
    return status, captured.out, captured.err


@pytest.mark.parametrize("args, fragment", [
    (("--sigma2", "0", "--budget", "2", "--epsilon", "1"), "sigma2: must be positive"),
    (("--sigma2", "-9", "--budget", "2", "--epsilon", "1"), "sigma2: must be positive"),
    (("--sigma2", "9", "--budget", "0", "--epsilon", "1"), "C must be at least 1"),
    (("--sigma2", "9", "--budget", "1025", "--epsilon", "1"), "C <= 1024"),
    (("--sigma2", "9", "--budget", "2.5", "--epsilon", "1"), "not an integer"),
    (("--sigma2", "9", "--budget", "2", "--epsilon", "-1"), "epsilon: must be >= 0"),
    (("--sigma2", "9", "--budget", "2", "--epsilons", "1,1/2,2/2"), "given twice"),
    (("--sigma2", "9", "--budget", "2", "--epsilons", "1,,2"), "epsilon"),
    (("--sigma2", "9", "--budget", "2", "--epsilons", ""), "an empty ε"),
    (("--sigma2", "9", "--budget", "2", "--epsilon", "10001"), "10^4"),
    (("--sigma2", "9", "--budget", "2", "--epsilon", "1", "--width", "1e-61"), "10^-60"),
    (("--sigma2", "9", "--budget", "2", "--epsilon", "1", "--width", "2"), "below 1"),
    (("--sigma2", "9", "--budget", "2", "--epsilon", "1", "--width", "x"), "not a rational"),
    (("--laplace", "0", "--budget", "2", "--epsilon", "1"), "laplace: must be positive"),
    (("--laplace", "1/1000", "--budget", "2", "--epsilon", "1"), "limits"),
    (("--sigma2", "9", "--laplace", "2", "--budget", "2", "--epsilon", "1"), "not allowed with"),
    (("--budget", "2", "--epsilon", "1"), "one of the arguments"),
    (("--sigma2", "9", "--budget", "2"), "--epsilon/--epsilons is required"),
    (("--sigma2", "9", "--budget", "2", "--epsilon", "1", "--eps", "2"), "unrecognized"),
    (("--sigma2", "1000000", "--budget", "1024", "--epsilon", "1"), "coefficients"),
    (("--release", "dg:9x8", "--sigma2", "9", "--epsilon", "1"), "--release: not allowed with --sigma2"),
    (("--release", "dg:9x8", "--laplace", "2", "--epsilon", "1"), "--release: not allowed with --laplace"),
    (("--release", "dg:9x8", "--budget", "8", "--epsilon", "1"), "--release: not allowed with --budget"),
    (("--sigma2", "9", "--epsilon", "1"), "--budget is required"),
    (("--release", "dg:9", "--epsilon", "1"), "not of the form"),
    (("--release", "dg:9x8", "--release", "dx:2x1", "--epsilon", "1"), "not of the form"),
    (("--release", "dg:9:0x8", "--epsilon", "1"), "sensitivity must be an integer >= 1"),
    (("--release", "dg:9x0", "--epsilon", "1"), "count must be an integer >= 1"),
    (("--release", "dg:9x1000", "--release", "dl:2x25", "--epsilon", "1"), "1025 exceeds the limit of 1024"),
    (("--release", "dg:9x2", "--release", "dl:2x1", "--epsilon", "1", "--rel-width", "1"), "below 1"),
    (("--release", "dg:9x2", "--release", "dl:2x1", "--epsilon", "1", "--rel-width", "1e-31"), "10^-30"),
    (("--sigma2", "9", "--budget", "2", "--epsilon", "1", "--rel-width", "0"), "rel-width: must be positive"),
    (("--release", "dg:9x100", "--delta", "1e-5"), "producer calibrate --gamma 0 --release ... --delta 1e-5"),
    (("--sigma2", "9", "--budget", "2", "--epsilon", "1", "--delta", "1e-5"), "producer calibrate --gamma 0"),
])
def test_bad_input_is_one_line_and_status_2(capsys, args, fragment):
    status, out, err = main(capsys, *args)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith(("producer plain: error: ", "producer: error: ")), err
    assert fragment in err, err


def test_a_bad_input_from_a_real_process_has_no_traceback():
    p = run("--sigma2", "9", "--budget", "2", "--epsilons", "1,1")
    assert p.returncode == 2 and p.stdout == ""
    assert p.stderr == "producer plain: error: epsilon: 1 is given twice (each ε once)\n"


def test_a_heterogeneous_composition_on_the_command_line(tmp_path):
    out = tmp_path / "h.json"
    p = run("--release", "dg:4:2x2", "--release", "dl:2x5", "--release", "dg:9x10", "--epsilons", "1,2", "-o", str(out))
    assert p.returncode == 0, p.stderr
    cert = json.loads(out.read_text(encoding="utf-8"))
    assert [r["count"] for r in cert["input"]["releases"]] == [2, 10, 5]
    assert cert["input"]["width"] == "1/1" + "0" * 60 and cert["input"]["rel_width"] == "1/1000"
    last = p.stderr.strip().splitlines()[-1]
    assert last.startswith("δ_17(1) ∈ [") and "5 × discrete Laplace t = 2" in last and "(sensitivity 2)" in last
    same = run("--release", "dg:9x4", "--release", "dl:2x5", "--release", "dg:4:2x2", "--release", "dg:9x6",
               "--epsilons", "2,1", "--quiet")
    assert same.returncode == 0 and same.stdout.encode() == out.read_bytes()


def test_width_alone_keeps_the_absolute_form_and_the_default_is_relative():
    absolute = json.loads(run("--sigma2", "9", "--budget", "2", "--epsilon", "1", "--width", "1e-15").stdout)
    assert absolute["input"]["width"] == "1/1000000000000000" and "rel_width" not in absolute["input"]
    default = json.loads(run("--sigma2", "100", "--budget", "1", "--epsilon", "2").stdout)
    assert default["input"]["width"] == "1/1" + "0" * 60 and default["input"]["rel_width"] == "1/1000"
    point = default["result"]["points"][0]
    assert 0 < Fraction(point["lower"]) and Fraction(point["upper"]) <= Fraction(point["lower"]) * Fraction(1001, 1000)
