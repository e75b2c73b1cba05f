"""``producer steps`` on the command line: the most steps (or epochs) a DP-SGD target allows
(dpsgd-calibration/1); one-line errors (exit 2)."""

import json
import os
import subprocess
import sys

import pytest

from producer import cli
from tests.untimed import HANG_GUARD_SECONDS

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
REFERENCE = os.path.join(ROOT, "certificates", "dpsgd",
                         "dpsgd-calibration-epochs-b256-n60000-s1-opacus-eps3-delta1e-5.json")


def main(capsys, *args):
    try:
        status = cli.main(["steps", *args])
    except SystemExit as exc:      # argparse usage errors exit directly
        status = exc.code
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_epochs_under_opacus_counting_write_the_reference_bytes(tmp_path):
    out = tmp_path / "e.json"
    p = subprocess.run([sys.executable, "-m", "producer", "steps", "--epsilon", "3", "--delta", "1e-5",
                        "--noise-multiplier", "1", "--batch-size", "256", "--dataset-size", "60000",
                        "--counting", "opacus", "-o", str(out)], cwd=ROOT, capture_output=True, text=True,
                       timeout=HANG_GUARD_SECONDS)
    assert p.returncode == 0, p.stderr
    assert out.read_bytes() == open(REFERENCE, "rb").read()
    assert p.stderr.strip().splitlines()[-1].startswith(
        "E = 67 epochs (T = 15745) stay within the target (δ(3) ≤ 9.740811948e-06 ≤ 1e-05), E = 68 (T = 15980) "
        "do not (δ(3) ≥ 1.016608439e-05 > 1e-05); a crossing, not a maximality claim")


def test_steps_at_a_sampling_rate(capsys):
    status, out, err = main(capsys, "--epsilon", "1", "--delta", "1e-5", "--noise-multiplier", "10",
                            "--sampling-rate", "1")
    assert status == 0, err
    res = json.loads(out)["result"]
    assert (res["steps"], res["steps_above"]) == (7, 8)
    assert err.strip().splitlines()[-1].startswith("T = 7 steps stay within the target")


BASE = ("--epsilon", "1", "--delta", "1e-5", "--noise-multiplier", "1")


@pytest.mark.parametrize("args, fragment", [
    (BASE, "give --sampling-rate, or --batch-size and --dataset-size (one of the two)"),
    ((*BASE, "--sampling-rate", "0.1", "--batch-size", "10", "--dataset-size", "100"), "(one of the two)"),
    ((*BASE, "--batch-size", "10"), "give both --batch-size and --dataset-size"),
    ((*BASE, "--sampling-rate", "0.1", "--counting", "opacus"), "counting: it says how"),
    ((*BASE, "--sampling-rate", "0.1", "--precision", "0.01"), "unrecognized arguments: --precision"),
    ((*BASE, "--sampling-rate", "0.1", "--steps", "10"), "unrecognized arguments: --steps"),
    (("--epsilon", "1", "--delta", "1e-5", "--noise-multiplier", "0.05", "--sampling-rate", "0.1"), "[1/10, 100]"),
    (("--epsilon", "1", "--delta", "1e-5", "--sampling-rate", "0.1"), "--noise-multiplier"),
])
def test_bad_input_is_one_line_and_exit_2_before_any_work(capsys, args, fragment):
    status, out, err = main(capsys, *args)
    assert status == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and fragment in lines[0], err
    assert "float estimate" not in err


def test_no_crossing_is_one_line(capsys):
    status, out, err = main(capsys, "--epsilon", "1", "--delta", "1e-5", "--noise-multiplier", "1",
                            "--sampling-rate", "1", "--quiet")
    assert status == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and "T = 1, a single step, does not meet" in err
    assert "producer noise answers the noise multiplier" in err


def test_the_help_states_both_step_countings(capsys):
    with pytest.raises(SystemExit):
        cli.main(["steps", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for words in ("tf-privacy (the default", "T(E) = ⌈E·N/B⌉", "T(E) = E·⌈N/B⌉", "E + 1", "--counting"):
        assert words in text, words
