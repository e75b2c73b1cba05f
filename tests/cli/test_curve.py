"""``producer curve`` on the command line: the folder it writes, the table, the refusals and --overwrite.

Most runs are in-process (``cli.main``) on three or fewer points (no pool of
processes); the auditor's command line checks what a run wrote.
"""

import csv
import io
import re
import subprocess
import sys
from pathlib import Path

import pytest

from producer import cli, training_curve
from tests.untimed import HANG_GUARD_SECONDS, must_not_call

ROOT = Path(__file__).resolve().parents[2]
TRAINING = ["--batch-size", "600", "--dataset-size", "60000", "--epochs", "3", "--noise-multiplier", "1.1",
            "--delta", "1e-5"]
STEPS = ["--sampling-rate", "0.01", "--steps", "25", "--every", "10", "--noise-multiplier", "1", "--delta", "1e-5"]


def _curve(capsys, *args):
    """(exit status, stdout, stderr lines) of an in-process ``producer curve``."""
    status = cli.main(["curve", *args])
    captured = capsys.readouterr()
    return status, captured.out, captured.err.splitlines()


def _audit(paths):
    run = subprocess.run([sys.executable, "-m", "auditor", "verify", *map(str, paths)], capture_output=True,
                         timeout=HANG_GUARD_SECONDS, cwd=ROOT, text=True)
    return run.returncode, run.stdout.splitlines()


@pytest.fixture(scope="module")
def training_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("curve") / "out"
    status = cli.main(["curve", *TRAINING, "--out", str(out), "--quiet"])
    assert status == 0
    return out


def test_training_terms_write_a_certificate_per_epoch_that_the_auditor_accepts(training_run):
    names = sorted(p.name for p in training_run.iterdir())
    assert names == ["curve-e1-t100.json", "curve-e2-t200.json", "curve-e3-t300.json", "curve.csv"] + (
        ["curve.png"] if "curve.png" in names else [])
    status, lines = _audit(sorted(training_run.glob("*.json")))
    assert status == 0 and len(lines) == 3 and all(": OK dpsgd/1:" in line for line in lines), lines
    for epoch, steps, line in zip((1, 2, 3), (100, 200, 300), lines):
        assert f"curve-e{epoch}-t{steps}.json" in line and f"T = {steps} " in line


def test_the_csv_names_each_points_file_and_steps(training_run):
    rows = list(csv.DictReader(io.StringIO((training_run / "curve.csv").read_text())))
    assert list(rows[0]) == ["epoch", "steps", "epsilon_lo", "epsilon_hi", "status", "file"]
    assert [(r["epoch"], r["steps"], r["file"]) for r in rows] == [
        ("1", "100", "curve-e1-t100.json"), ("2", "200", "curve-e2-t200.json"), ("3", "300", "curve-e3-t300.json")]
    for row in rows:
        certificate = (training_run / row["file"]).read_text()
        assert f'"steps":{row["steps"]}' in certificate
        assert f'"epsilon_lo_display":"{row["epsilon_lo"]}"' in certificate
        assert f'"epsilon_hi_display":"{row["epsilon_hi"]}"' in certificate


def test_the_table_goes_to_stdout_and_one_line_per_point_to_stderr(capsys, tmp_path):
    status, out, err = _curve(capsys, *STEPS, "--out", str(tmp_path / "s"))
    assert status == 0
    table = out.splitlines()
    assert table[0].startswith("DP-SGD privacy curve ε(δ): q = 0.01, σ = 1, δ = 1e-05")
    assert table[1].split() == ["steps", "ε_lo", "ε_hi", "status"]
    assert [line.split()[0] for line in table[2:]] == ["10", "20", "25"]
    progress = [line for line in err if re.match(r"curve: \d/3 points: T = \d+: ε ∈ \[", line)]
    assert len(progress) == 3 and err[-1].startswith("curve: 3 dpsgd/1 certificates, curve.csv"), err
    assert sorted(p.name for p in (tmp_path / "s").glob("*.json")) == ["curve-t10.json", "curve-t20.json",
                                                                        "curve-t25.json"]


def test_quiet_leaves_only_the_table(capsys, tmp_path):
    status, out, err = _curve(capsys, *STEPS, "--out", str(tmp_path / "q"), "--quiet")
    assert status == 0 and err == [] and len(out.splitlines()) == 5


def test_the_certificates_are_those_of_producer_dpsgd(training_run, tmp_path):
    run = subprocess.run([sys.executable, "-m", "producer", "dpsgd", "--sampling-rate", "600/60000",
                          "--noise-multiplier", "1.1", "--steps", "200", "--delta", "1e-5", "--quiet"],
                         capture_output=True, timeout=HANG_GUARD_SECONDS, cwd=ROOT)
    assert run.returncode == 0 and run.stdout == (training_run / "curve-e2-t200.json").read_bytes()


def test_opacus_counting_changes_the_steps(capsys, tmp_path):
    # 256 of 1000: tf-privacy ⌈e·1000/256⌉ = 4, 8; opacus e·⌈1000/256⌉ = 4, 8 too, but q = 1/4, not 32/125
    status, out, _ = _curve(capsys, "--batch-size", "256", "--dataset-size", "1000", "--epochs", "2",
                            "--counting", "opacus", "--noise-multiplier", "2", "--delta", "1e-5",
                            "--out", str(tmp_path / "o"), "--quiet")
    assert status == 0 and "q = 0.25 (B = 256, N = 1000, opacus counting)" in out.splitlines()[0]


@pytest.mark.parametrize("args, phrase", [
    (["--sampling-rate", "0.01", "--steps", "10000", "--every", "9"], "every: 1112 points (one after every 9 steps)"
                                                                       " exceed the limit of 1000 points of one "
                                                                       "curve; give a larger --every"),
    (["--sampling-rate", "0.01", "--steps", "1000001", "--every", "1000"], "exceeds the limit of 1000000 steps"),
    (["--sampling-rate", "0.01", "--steps", "100"], "give --every too"),
    (["--sampling-rate", "0.01", "--steps", "100", "--every", "10", "--epochs", "2"], "not both"),
    (["--batch-size", "100", "--dataset-size", "1000000", "--epochs", "101"], "--epochs: 101 epochs are T = "
                                                                               "1010000 steps"),
    (["--batch-size", "2000", "--dataset-size", "1000", "--epochs", "1"], "--batch-size: must be in [1, "
                                                                          "--dataset-size] = [1, 1000]"),
    (["--batch-size", "10", "--dataset-size", "1000", "--epochs", "1", "--workers", "-1"], "workers: must be in"),
    (["--sampling-rate", "1/2", "--steps", "100000", "--every", "50000"], "above the ε <= 600"),
])
def test_bad_input_is_one_line_before_any_work(args, phrase, capsys, tmp_path, monkeypatch):
    must_not_call(monkeypatch, training_curve, "certify_point")
    sigma = "0.5" if "1/2" in args else "1.1"
    status, out, err = _curve(capsys, *args, "--noise-multiplier", sigma, "--delta", "1e-5",
                              "--out", str(tmp_path / "never"))
    assert status == 2 and len(err) == 1 and phrase in err[0] and out == "", err
    assert err[0].startswith("producer curve: error: ") and not (tmp_path / "never").exists()


def test_a_refusal_is_one_line_without_a_traceback_from_a_process(tmp_path):
    run = subprocess.run([sys.executable, "-m", "producer", "curve", "--sampling-rate", "0.01", "--steps", "10",
                          "--every", "0", "--noise-multiplier", "1", "--delta", "1e-5", "--out", str(tmp_path / "n")],
                         capture_output=True, timeout=HANG_GUARD_SECONDS, cwd=ROOT, text=True)
    assert run.returncode == 2 and run.stderr == "producer curve: error: every: K must be at least 1, got 0\n"
    assert not (tmp_path / "n").exists()


def test_a_missing_option_is_argparse_usage(capsys, tmp_path):
    with pytest.raises(SystemExit) as stop:
        cli.main(["curve", "--sampling-rate", "0.01", "--steps", "10", "--every", "1", "--out", str(tmp_path)])
    assert stop.value.code == 2 and "--noise-multiplier" in capsys.readouterr().err


def test_a_non_empty_out_is_refused_before_any_work(capsys, tmp_path, monkeypatch):
    out = tmp_path / "out"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    must_not_call(monkeypatch, training_curve, "certify_point")
    must_not_call(monkeypatch, training_curve, "plan")
    status, _, err = _curve(capsys, *STEPS, "--out", str(out))
    assert status == 2 and len(err) == 1, err
    assert f"--out: {out} is not empty (1 entries, e.g. notes.txt)" in err[0] and "--overwrite" in err[0]
    assert sorted(p.name for p in out.iterdir()) == ["notes.txt"]


def test_overwrite_replaces_an_earlier_curve_and_keeps_other_files(capsys, tmp_path):
    out = tmp_path / "out"
    assert _curve(capsys, *STEPS, "--out", str(out), "--quiet")[0] == 0
    (out / "notes.txt").write_text("mine")
    (out / "curve-t10.json.bak").write_text("{}")  # not a name the command writes: kept
    status, _, _ = _curve(capsys, "--sampling-rate", "0.01", "--steps", "15", "--every", "15", "--noise-multiplier",
                          "1", "--delta", "1e-5", "--out", str(out), "--overwrite", "--quiet")
    assert status == 0
    names = sorted(p.name for p in out.iterdir())
    assert [n for n in names if n.endswith(".json")] == ["curve-t15.json"]
    assert "notes.txt" in names and "curve-t10.json.bak" in names and "curve.csv" in names
    assert (out / "curve.csv").read_text().splitlines()[1].startswith("15,")


def test_without_matplotlib_the_plot_is_skipped_and_said(capsys, tmp_path, monkeypatch):
    from producer.sweep import plots
    monkeypatch.setattr(plots, "_pyplot", lambda: None)
    status, _, err = _curve(capsys, *STEPS, "--out", str(tmp_path / "p"))
    assert status == 0 and "no plot: matplotlib is not installed" in err[-1]
    assert not (tmp_path / "p" / "curve.png").exists() and (tmp_path / "p" / "curve.csv").exists()


def test_help_states_the_countings_the_limit_and_overwrite():
    run = subprocess.run([sys.executable, "-m", "producer", "curve", "--help"], capture_output=True,
                         timeout=HANG_GUARD_SECONDS, cwd=ROOT, text=True)
    assert run.returncode == 0
    text = " ".join(run.stdout.split())
    for phrase in ("tf-privacy", "opacus", "T(e) = ⌈e·N/B⌉", "at most 1000 points", "--overwrite",
                   "auditor verify DIR/*.json"):
        assert phrase in text, phrase


def readme_curve_command():
    """The README's curve command (its row of the question table), as argument words after ``producer``."""
    with open(ROOT / "README.md", encoding="utf-8") as fh:
        row = next(line for line in fh if line.startswith("| the privacy curve"))
    return re.search(r"`producer (curve [^`]*)`", row)[1].split()


def test_the_readme_command_is_planned_as_its_row_says():
    """The README's run: ten epochs of 256 of 60000 (tf-privacy counting), 2344 steps at the end."""
    words = readme_curve_command()
    options = {words[i]: words[i + 1] for i in range(1, len(words) - 1) if words[i].startswith("--")}
    curve_plan = training_curve.plan(options["--noise-multiplier"], options["--delta"],
                                     batch_size=options["--batch-size"], dataset_size=options["--dataset-size"],
                                     epochs=options["--epochs"])
    assert [p.steps for p in curve_plan.points][-1] == 2344 and len(curve_plan.points) == 10


@pytest.mark.slow
def test_the_readme_command_runs_on_two_processes_and_every_point_verifies(tmp_path):
    words = readme_curve_command()
    words[words.index("--out") + 1] = str(tmp_path / "readme")
    run = subprocess.run([sys.executable, "-m", "producer", *words], capture_output=True,
                         timeout=HANG_GUARD_SECONDS, cwd=ROOT, text=True)
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines()[-1].split()[:2] == ["10", "2344"]
    status, lines = _audit(sorted((tmp_path / "readme").glob("*.json")))
    assert status == 0 and len(lines) == 10
