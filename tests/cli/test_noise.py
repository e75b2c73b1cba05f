"""``producer noise`` on the command line: the reference bytes, one answer line, one-line errors (exit 2)."""

import json
import os
import subprocess
import sys

import pytest

from producer import cli
from tests.untimed import HANG_GUARD_SECONDS

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
REFERENCE = os.path.join(ROOT, "certificates", "plain")


def run(*args):
    return subprocess.run([sys.executable, "-m", "producer", "noise", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=HANG_GUARD_SECONDS)


@pytest.mark.parametrize("args, name", [
    (("--epsilon", "2", "--delta", "1e-5", "--budget", "100"), "noise-dg-c100-eps2-delta1e-5.json"),
    (("--epsilon", "1", "--delta", "1e-5", "--budget", "100", "--laplace"), "noise-dl-c100-eps1-delta1e-5.json"),
    (("--epsilon", "2", "--delta", "1e-5", "--release", "dl:2x5", "--release", "dg:4:2x20", "--release", "dg:9x100"),
     "noise-releases-dg9x100-dl2x5-dg4s2x20-eps2-delta1e-5.json"),
])
def test_noise_writes_the_reference_bytes(tmp_path, args, name):
    out = tmp_path / "n.json"
    p = run(*args, "-o", str(out), "--quiet")
    assert p.returncode == 0 and p.stderr == "" and p.stdout == ""
    assert out.read_bytes() == open(os.path.join(REFERENCE, name), "rb").read()


def test_the_answer_line_names_both_noises_and_the_route():
    p = run("--epsilon", "2", "--delta", "1e-5", "--budget", "100")
    assert p.returncode == 0, p.stderr
    res = json.loads(p.stdout)["result"]
    last = p.stderr.strip().splitlines()[-1]
    assert last == ("σ² = 397.6 suffices for ε*_100(1e-05) ≤ 2 (the grid point below, σ² = 397.5, does not; "
                    "precision 0.001); route product-pair")
    assert (res["sigma2"], res["sigma2_below"]) == ("1988/5", "795/2")


def test_the_exact_game_route_and_precision():
    p = run("--epsilon", "1", "--delta", "1e-2", "--budget", "1", "--gamma", "1/2", "--precision", "1/10")
    assert p.returncode == 0, p.stderr
    cert = json.loads(p.stdout)
    assert cert["input"]["precision"] == "1/10" and cert["result"]["route"] == "exact-game"
    assert p.stderr.strip().splitlines()[-1].endswith("; route exact-game")


def main(capsys, *args):
    status = None
    try:
        status = cli.main(["noise", *args])
    except SystemExit as exc:      # argparse usage errors exit directly
        status = exc.code
    captured = capsys.readouterr()
    return status, captured.out, captured.err


BASE = ("--epsilon", "1", "--delta", "1e-5")


@pytest.mark.parametrize("args, fragment", [
    (("--epsilon", "-1", "--delta", "1e-5", "--budget", "2"), "epsilon: must be >= 0"),
    (("--epsilon", "1", "--delta", "0", "--budget", "2"), "0 < δ < 1"),
    (("--epsilon", "1", "--delta", "1", "--budget", "2"), "0 < δ < 1"),
    ((*BASE, "--budget", "2", "--precision", "1"), "0 < R < 1"),
    ((*BASE, "--budget", "2", "--precision", "0"), "0 < R < 1"),
    ((*BASE, "--budget", "2", "--precision", "1e-13"), "10^-12"),
    ((*BASE, "--budget", "0"), "C must be at least 1"),
    ((*BASE, "--budget", "1025"), "C <= 1024"),
    ((*BASE, "--budget", "2.5"), "not an integer"),
    ((*BASE, "--budget", "7", "--gamma", "1/3"), "producer calibrate"),
    ((*BASE, "--budget", "2", "--gamma", "2/4"), "gamma"),
    (("--epsilon", "20000", "--delta", "1e-5", "--budget", "2"), "10^4"),
    (("--epsilon", "1", "--delta", "1e-50", "--budget", "2"), "10^-45"),
    ((*BASE, "--budget", "2", "-o", "/nonexistent-folder/n.json"), "does not exist"),
    (BASE, "--budget is required"),
    ((*BASE, "--release", "dg:9x10", "--budget", "10"), "not allowed with --budget"),
    ((*BASE, "--release", "dg:9x10", "--laplace"), "not allowed with --budget or --laplace"),
    ((*BASE, "--release", "dg:9x10", "--gamma", "1/3"), "γ = 0"),
    ((*BASE, "--release", "dg:9"), "law:scale[:sensitivity]xcount"),
    ((*BASE, "--release", "dg:9x1000", "--release", "dl:1x25"), "1024"),
])
def test_bad_input_is_one_line_and_exit_2_before_any_work(capsys, args, fragment):
    status, out, err = main(capsys, *args)
    assert status == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and fragment in lines[0], err
    assert "float estimate" not in err  # refused before the search started


def test_no_noise_meets_is_said_clearly(capsys):
    status, out, err = main(capsys, "--epsilon", "0", "--delta", "1e-5", "--budget", "1", "--quiet")
    assert status == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and "total variation" in err and "no σ² up to" in err


def test_the_help_states_the_limits(capsys):
    with pytest.raises(SystemExit):
        cli.main(["noise", "--help"])
    text = capsys.readouterr().out
    for words in ("1024", "exact game", "--precision", "--laplace", "producer calibrate", "--release", "f·σ²"):
        assert words in " ".join(text.split()), words


# ---- DP-SGD: the noise multiplier of a training run (dpsgd-calibration/1) ----

DPSGD_REFERENCE = os.path.join(ROOT, "certificates", "dpsgd",
                               "dpsgd-calibration-noise-b100-n10000-e10-eps2-delta1e-5.json")
TRAINING = ("--epsilon", "2", "--delta", "1e-5", "--batch-size", "100", "--dataset-size", "10000", "--epochs", "10")


def test_a_training_run_writes_the_reference_bytes_and_names_both_noise_multipliers(tmp_path):
    out = tmp_path / "n.json"
    p = run(*TRAINING, "-o", str(out))
    assert p.returncode == 0, p.stderr
    assert out.read_bytes() == open(DPSGD_REFERENCE, "rb").read()
    last = p.stderr.strip().splitlines()[-1]
    assert last.startswith("noise multiplier σ = 0.9596 suffices (δ(2) ≤ 9.861378203e-06 ≤ 1e-05), σ = 0.9587 "
                           "does not (δ(2) ≥ 1.010957930e-05 > 1e-05); a crossing of the relative grid 0.001")
    assert all(line.startswith("noise: ") for line in p.stderr.strip().splitlines()[:-1])


def test_a_sampling_rate_and_steps(capsys):
    status, out, err = main(capsys, "--epsilon", "1", "--delta", "1e-5", "--sampling-rate", "0.05", "--steps", "20",
                            "--quiet")
    assert status == 0 and err == ""
    cert = json.loads(out)
    assert cert["schema"] == "dpsgd-calibration/1" and "training" not in cert["input"]
    assert (cert["result"]["noise_multiplier"], cert["result"]["noise_multiplier_below"]) == ("273/200", "341/250")


SGD = ("--epsilon", "1", "--delta", "1e-5")


@pytest.mark.parametrize("args, fragment", [
    ((*SGD, "--budget", "10", "--steps", "100"), "argument --budget: not allowed with --steps"),
    ((*SGD, "--laplace", "--sampling-rate", "0.01", "--steps", "100"), "argument --laplace: not allowed with"),
    ((*SGD, "--release", "dg:9x10", "--batch-size", "10"), "argument --release: not allowed with --batch-size"),
    ((*SGD, "--gamma", "1/3", "--sampling-rate", "0.01", "--steps", "10"),
     "--gamma: a question of discrete noise (noise/1), not of DP-SGD (--sampling-rate, --steps"),
    ((*SGD, "--sampling-rate", "0.01"), "steps: required to solve the noise multiplier (give --steps)"),
    ((*SGD, "--steps", "100"), "give --sampling-rate and --steps, or --batch-size, --dataset-size and --epochs"),
    ((*SGD, "--sampling-rate", "0.01", "--steps", "10", "--batch-size", "10", "--dataset-size", "100",
      "--epochs", "1"), "(one of the two)"),
    ((*SGD, "--batch-size", "10", "--dataset-size", "100"), "epochs: required with --batch-size and --dataset-size"),
    ((*SGD, "--batch-size", "10", "--epochs", "3"), "give both --batch-size and --dataset-size"),
    ((*SGD, "--epochs", "3"), "epochs: give --batch-size and --dataset-size with it (or --steps)"),
    ((*SGD, "--sampling-rate", "0.01", "--steps", "10", "--counting", "opacus"), "counting: it says how"),
    ((*SGD, "--batch-size", "10", "--dataset-size", "100", "--epochs", "1", "--counting", "jax"), "invalid choice"),
    ((*SGD, "--batch-size", "0", "--dataset-size", "100", "--epochs", "1"), "--batch-size: must be in [1, "),
    ((*SGD, "--batch-size", "1", "--dataset-size", "1000", "--epochs", "1001"), "--epochs: T = 1001000 steps"),
    ((*SGD, "--sampling-rate", "1e-8", "--steps", "10"), "below the limit 10^-7"),
    ((*SGD, "--sampling-rate", "0.01", "--steps", "1.5"), "not an integer"),
    ((*SGD, "--sampling-rate", "0.01", "--steps", "10", "--precision", "1e-7"), "below the limit 10^-6"),
    (("--epsilon", "501", "--delta", "1e-5", "--sampling-rate", "0.01", "--steps", "10"), "limit 500"),
])
def test_bad_dpsgd_input_is_one_line_and_exit_2_before_any_work(capsys, args, fragment):
    status, out, err = main(capsys, *args)
    assert status == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and fragment in lines[0], err
    assert "float estimate" not in err


def test_no_noise_multiplier_in_range_is_one_line(capsys):
    status, out, err = main(capsys, "--epsilon", "2", "--delta", "1e-5", "--sampling-rate", "1e-7", "--steps", "10",
                            "--quiet")
    assert status == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and "already meets" in err and "producer steps answers" in err


def test_the_help_states_both_step_countings(capsys):
    with pytest.raises(SystemExit):
        cli.main(["noise", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for words in ("--batch-size", "tf-privacy (the default", "T(E) = ⌈E·N/B⌉", "opacus", "T(E) = E·⌈N/B⌉",
                  "compute_dp_sgd_privacy_statement", "PrivacyEngine", "dpsgd-calibration/1"):
        assert words in text, words
