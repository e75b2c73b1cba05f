"""``producer sampling-rate`` on the command line: the largest sampling rate a DP-SGD target allows
(dpsgd-calibration/1); one-line errors (exit 2)."""

import os
import subprocess
import sys

import pytest

from producer import cli
from tests.untimed import HANG_GUARD_SECONDS

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
REFERENCE = os.path.join(ROOT, "certificates", "dpsgd", "dpsgd-calibration-sampling-rate-s1-t1000-eps2-delta1e-5.json")


def main(capsys, *args):
    try:
        status = cli.main(["sampling-rate", *args])
    except SystemExit as exc:      # argparse usage errors exit directly
        status = exc.code
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_the_reference_bytes_and_the_answer_line(tmp_path):
    out = tmp_path / "q.json"
    p = subprocess.run([sys.executable, "-m", "producer", "sampling-rate", "--epsilon", "2", "--delta", "1e-5",
                        "--noise-multiplier", "1", "--steps", "1000", "-o", str(out)], cwd=ROOT, capture_output=True,
                       text=True, timeout=HANG_GUARD_SECONDS)
    assert p.returncode == 0, p.stderr
    assert out.read_bytes() == open(REFERENCE, "rb").read()
    assert p.stderr.strip().splitlines()[-1].startswith(
        "sampling rate q = 0.01086 stays within the target (δ(2) ≤ 9.977167793e-06 ≤ 1e-05), q = 0.01087 does not "
        "(δ(2) ≥ 1.007930404e-05 > 1e-05); a crossing of the relative grid 0.001")


BASE = ("--epsilon", "1", "--delta", "1e-5", "--noise-multiplier", "1")


@pytest.mark.parametrize("args, fragment", [
    (BASE, "the following arguments are required: --steps"),
    ((*BASE, "--steps", "0"), "T must be at least 1"),
    ((*BASE, "--steps", "10", "--precision", "1"), "0 < R < 1"),
    ((*BASE, "--steps", "10", "--batch-size", "10"), "unrecognized arguments: --batch-size"),
    (("--epsilon", "1", "--delta", "2", "--noise-multiplier", "1", "--steps", "10"), "0 < δ < 1"),
])
def test_bad_input_is_one_line_and_exit_2_before_any_work(capsys, args, fragment):
    status, out, err = main(capsys, *args)
    assert status == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and fragment in lines[0], err
    assert "float estimate" not in err


def test_full_batches_meeting_the_target_is_one_line(capsys):
    status, out, err = main(capsys, "--epsilon", "2", "--delta", "1e-5", "--noise-multiplier", "10", "--steps", "10",
                            "--quiet")
    assert status == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and "q = 1, the largest sampling rate, already meets" in err
