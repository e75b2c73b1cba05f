"""``producer plain`` on the command line: one answer line, one-line errors with exit status 2."""

import json
import os
import subprocess
import sys

import pytest

from producer import cli

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def run(*args):
    return subprocess.run([sys.executable, "-m", "producer", "plain", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)


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
    (("--sigma2", "9", "--budget", "2", "--epsilons", ""), "at least one"),
    (("--sigma2", "9", "--budget", "2", "--epsilon", "10001"), "10^4"),
    (("--sigma2", "9", "--budget", "2", "--epsilon", "1", "--width", "1e-61"), "10^-60"),
    (("--sigma2", "9", "--budget", "2", "--epsilon", "1", "--width", "2"), "below 1"),
    (("--sigma2", "9", "--budget", "2", "--epsilon", "1", "--width", "x"), "not a rational"),
    (("--laplace", "0", "--budget", "2", "--epsilon", "1"), "laplace: must be positive"),
    (("--laplace", "1/1000", "--budget", "2", "--epsilon", "1"), "limits"),
    (("--sigma2", "9", "--laplace", "2", "--budget", "2", "--epsilon", "1"), "not allowed with"),
    (("--budget", "2", "--epsilon", "1"), "one of the arguments"),
    (("--sigma2", "9", "--budget", "2"), "one of the arguments"),
    (("--sigma2", "9", "--budget", "2", "--epsilon", "1", "--epsilons", "2"), "not allowed with"),
    (("--sigma2", "9", "--budget", "2", "--epsilon", "1", "--eps", "2"), "unrecognized"),
    (("--sigma2", "1000000", "--budget", "1024", "--epsilon", "1"), "coefficients"),
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
