"""``producer sweep`` on the command line: widths, the upper-only warning, the --out folder, the README's command.

Most runs are in-process (``cli.main``) on small grids at --workers 0; the
Dask paths are tests/producer/sweep/test_run.py's.
"""

import json
import re
import shlex
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from producer import cli
from producer.sweep import plots
from producer.sweep import run as sweep_run
from tests.untimed import HANG_GUARD_SECONDS

ROOT = Path(__file__).resolve().parents[2]
SMALL = ["--budgets", "2", "--sigma2s", "9", "--workers", "0"]


def _sweep(capsys, *args):
    """(exit status, stderr lines) of an in-process ``producer sweep``."""
    status = cli.main(["sweep", *args])
    return status, capsys.readouterr().err.splitlines()


def _rows(out):
    return json.loads((Path(out) / "summary.json").read_text())["rows"]


def _warnings(lines):
    return [line for line in lines if line.startswith("sweep: warning:")]


def test_absolute_width_leaves_upper_only_points_and_says_which_option_tightens_them(capsys, tmp_path):
    status, lines = _sweep(capsys, "--epsilons", "1/2,4", "--width", "1e-6", *SMALL, "--out", str(tmp_path / "a"),
                           "--quiet")
    assert status == 0
    [warning] = _warnings(lines)  # printed even with --quiet
    assert "1 of 2 points are upper-only" in warning and "ε = 4" in warning and "--rel-width" in warning
    assert [r["status"] for r in _rows(tmp_path / "a")] == ["two-sided", "upper-only"]


def test_default_relative_width_makes_every_point_two_sided_without_a_warning(capsys, tmp_path):
    status, lines = _sweep(capsys, "--epsilons", "1/2,4", *SMALL, "--out", str(tmp_path / "r"))
    assert status == 0 and _warnings(lines) == [], lines
    rows = _rows(tmp_path / "r")
    assert [r["status"] for r in rows] == ["two-sided", "two-sided"]
    for row in rows:
        lower, upper = Fraction(row["lower_exact"]), Fraction(row["upper_exact"])
        assert 0 < lower and upper - lower <= lower / 1000


def test_a_floor_above_the_needed_width_is_named_in_the_warning(capsys, tmp_path):
    status, lines = _sweep(capsys, "--epsilons", "4", "--rel-width", "1e-3", "--width", "1e-9", *SMALL,
                           "--out", str(tmp_path / "f"))
    assert status == 0
    [warning] = _warnings(lines)
    assert "a smaller --width floor (now 1e-09)" in warning
    assert _rows(tmp_path / "f")[0]["stop"] == "floor"


def test_laplace_points_with_delta_zero_stop_after_one_round(capsys, tmp_path):
    status, lines = _sweep(capsys, "--epsilons", "1/2,1,3", "--budgets", "1", "--laplace", "2", "--workers", "0",
                           "--out", str(tmp_path / "l"))
    assert status == 0
    rows = _rows(tmp_path / "l")
    assert [(r["epsilon"], r["status"], r["stop"], r["rounds"]) for r in rows][1:] == [
        ("1", "upper-only", "pure-dp", 1), ("3", "upper-only", "pure-dp", 1)]
    [warning] = _warnings(lines)
    assert "2 by nothing: δ = 0 there" in warning


@pytest.mark.parametrize("args, phrase", [
    (["--deltas", "1/100", "--rel-width", "1e-3"], "--rel-width: a δ grid's ε* enclosures take the absolute --width"),
    (["--epsilons", "1", "--rel-width", "0"], "rel-width: must be positive"),
    (["--epsilons", "1", "--rel-width", "1"], "rel-width: must be below 1"),
    (["--epsilons", "1", "--rel-width", "1e-40"], "below the limit 10^-30"),
    (["--epsilons", "1", "--width", "0"], "--width: must be > 0"),
])
def test_bad_widths_are_one_line_before_any_work(args, phrase, tmp_path):
    out = tmp_path / "never"
    run = subprocess.run([sys.executable, "-m", "producer", "sweep", *args, *SMALL, "--out", str(out)],
                         capture_output=True, timeout=HANG_GUARD_SECONDS, cwd=ROOT, text=True)
    assert run.returncode == 2 and run.stderr.count("\n") == 1 and phrase in run.stderr, run.stderr
    assert "Traceback" not in run.stderr and not out.exists()


def _no_work(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("the sweep ran")
    monkeypatch.setattr(sweep_run, "run_sweep", refuse)


def test_a_non_empty_out_folder_is_refused_in_one_line(capsys, tmp_path, monkeypatch):
    out = tmp_path / "out"
    assert _sweep(capsys, "--epsilons", "1/2,1", "--width", "1/1000", *SMALL, "--out", str(out), "--quiet")[0] == 0
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    _no_work(monkeypatch)
    status, lines = _sweep(capsys, "--epsilons", "1", "--width", "1/1000", *SMALL, "--out", str(out))
    assert status == 2 and len(lines) == 1, lines
    assert f"--out: {out} is not empty" in lines[0] and "--overwrite" in lines[0]
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before  # untouched


@pytest.mark.parametrize("workers, fragment", [("1000000", "--workers: must be in [0, 64]"),
                                               ("-1", "--workers: must be in [0, 64]")])
def test_workers_beyond_the_limit_are_refused_before_the_work(capsys, tmp_path, monkeypatch, workers, fragment):
    _no_work(monkeypatch)
    status, lines = _sweep(capsys, "--epsilons", "1", "--budgets", "2", "--sigma2s", "9", "--workers", workers,
                           "--out", str(tmp_path / "out"))
    assert status == 2 and len(lines) == 1 and fragment in lines[0], lines


def test_a_scheduler_address_dask_cannot_read_is_one_line(capsys, tmp_path):
    pytest.importorskip("distributed")
    status, lines = _sweep(capsys, "--epsilons", "1", "--budgets", "2", "--sigma2s", "9", "--scheduler", "foo",
                           "--out", str(tmp_path / "out"))
    assert status == 2 and len(lines) == 1 and "cannot reach scheduler foo" in lines[0], lines


def test_a_folder_with_other_files_is_refused_too(capsys, tmp_path, monkeypatch):
    out = tmp_path / "out"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    _no_work(monkeypatch)
    status, lines = _sweep(capsys, "--epsilons", "1", *SMALL, "--out", str(out))
    assert status == 2 and len(lines) == 1 and "1 entries, e.g. notes.txt" in lines[0], lines


def test_an_empty_existing_folder_is_accepted(capsys, tmp_path):
    (tmp_path / "empty").mkdir()
    assert _sweep(capsys, "--epsilons", "1", "--width", "1/1000", *SMALL, "--out", str(tmp_path / "empty"))[0] == 0


def test_overwrite_removes_the_earlier_sweep_files_only(capsys, tmp_path):
    out = tmp_path / "out"
    assert _sweep(capsys, "--epsilons", "1/2,1", "--width", "1/1000", *SMALL, "--out", str(out), "--quiet")[0] == 0
    (out / "notes.txt").write_text("mine")
    (out / "dg-look-alike.json").write_text("{}")  # not a sweep file name: kept
    (out / "epsilon-star.png").write_bytes(b"old plot")  # a sweep file of another grid: removed
    status, _ = _sweep(capsys, "--epsilons", "1", "--width", "1/1000", *SMALL, "--out", str(out), "--overwrite",
                       "--quiet")
    assert status == 0
    assert sorted(p.name for p in out.iterdir()) == ["dg-g1_3-s9-c2-e1.json", "dg-look-alike.json", "notes.txt",
                                                     "profile.png", "summary.csv", "summary.json"]
    assert [r["epsilon"] for r in _rows(out)] == ["1"] and (out / "notes.txt").read_text() == "mine"


def test_sweep_file_names_are_recognised():
    from producer.commands.sweep import SWEEP_FILE
    assert SWEEP_FILE.fullmatch("dg-g1_3-s9-c2-e13_19.json") and SWEEP_FILE.fullmatch("dg-g0-t5_2-c1-e0.json")
    assert SWEEP_FILE.fullmatch("calibration-g1_3-s9-c2-d1_1000000.json")
    assert not SWEEP_FILE.fullmatch("dg-g1_3-s9-c2-e1.json.bak") and not SWEEP_FILE.fullmatch("mine.json")


def test_help_names_the_widths_and_overwrite():
    run = subprocess.run([sys.executable, "-m", "producer", "sweep", "--help"], capture_output=True,
                         timeout=HANG_GUARD_SECONDS, cwd=ROOT, text=True)
    assert run.returncode == 0
    text = " ".join(run.stdout.split())
    assert "--rel-width R" in text and "--overwrite" in text and "R = 1/1000 and W = 10^-20" in text


def readme_sweep_command():
    """The README's sweep command (the question table's line), as argument words after ``producer``."""
    command = re.search(r"`(producer sweep [^`]*)`", (ROOT / "README.md").read_text())[1]
    return shlex.split(command)[1:]


def test_readme_sweep_command_draws_a_monotone_two_sided_profile(capsys, tmp_path):
    """The README's command (run in this process, --workers 0: the same bytes as on workers): every point
    two-sided, no warning, the drawn curve falls through all of them."""
    words = readme_sweep_command()
    assert words[0] == "sweep" and "--width" not in words
    words[words.index("--out") + 1] = str(tmp_path / "readme")
    words[words.index("--workers") + 1] = "0"
    status, lines = _sweep(capsys, *words[1:])
    assert status == 0 and _warnings(lines) == [], lines
    rows = _rows(tmp_path / "readme")
    assert len(rows) >= 10 and {r["status"] for r in rows} == {"two-sided"}
    [series] = plots.plot_profile(rows, tmp_path / "again.png")
    ys = [y for _, y in series["curve"]]
    assert len(ys) == len(rows) and all(b < a for a, b in zip(ys, ys[1:]))


# ---- DP-SGD grids ------------------------------------------------------------------------------------------

DPSGD = ["--sampling-rates", "1", "--noise-multipliers", "2", "--steps", "10,20", "--workers", "0"]


def test_a_dpsgd_grid_writes_dpsgd_certificates_summaries_and_its_plot(capsys, tmp_path):
    status, lines = _sweep(capsys, *DPSGD, "--delta", "1e-5", "--out", str(tmp_path / "d"))
    assert status == 0 and _warnings(lines) == [], lines
    names = sorted(p.name for p in (tmp_path / "d").iterdir())
    assert [n for n in names if n.endswith(".json") and n != "summary.json"] == [
        "dpsgd-q1-s2-t10-d1_100000.json", "dpsgd-q1-s2-t20-d1_100000.json"]
    assert {"summary.csv", "summary.json"} <= set(names)
    assert ("epsilon-steps.png" in names) == (plots._pyplot() is not None)
    rows = _rows(tmp_path / "d")
    assert [(r["kind"], r["steps"], r["delta"]) for r in rows] == [("dpsgd", 10, "1/100000"), ("dpsgd", 20, "1/100000")]


def test_delta_and_deltas_are_one_option(capsys, tmp_path):
    assert _sweep(capsys, *DPSGD, "--delta", "1e-5", "--out", str(tmp_path / "a"), "--quiet")[0] == 0
    assert _sweep(capsys, *DPSGD, "--deltas", "1e-5", "--out", str(tmp_path / "b"), "--quiet")[0] == 0
    assert (tmp_path / "a" / "summary.csv").read_bytes() == (tmp_path / "b" / "summary.csv").read_bytes()


@pytest.mark.parametrize("args, phrase", [
    ([*DPSGD, "--deltas", "1e-5", "--budgets", "2"], "--budgets: not an option of a DP-SGD grid"),
    ([*DPSGD, "--deltas", "1e-5", "--sigma2s", "9"], "--sigma2s: not an option of a DP-SGD grid"),
    ([*DPSGD, "--deltas", "1e-5", "--gammas", "1/3"], "--gammas: not an option of a DP-SGD grid"),
    ([*DPSGD, "--deltas", "1e-5", "--width", "1e-3"], "--width: not an option of a DP-SGD grid"),
    ([*DPSGD, "--epsilons", "1"], "--epsilons: not an option of a DP-SGD grid"),
    (["--sampling-rates", "1", "--steps", "10", "--deltas", "1e-5"], "give --noise-multipliers too"),
    (["--sampling-rates", "1", "--noise-multipliers", "0.05", "--steps", "10", "--deltas", "1e-5"],
     "outside the limits [1/10, 100]"),
    (["--sampling-rates", "1", "--noise-multipliers", "1", "--steps", "1000001", "--deltas", "1e-5"],
     "exceeds the limit of 1000000 steps"),
    (["--sampling-rates", "1", "--noise-multipliers", "1", "--steps", "10", "--deltas", "1e-5", "--rel-width", "1"],
     "rel-width: 1 is outside the limits"),
    (["--sampling-rates", "0.01,1/2", "--noise-multipliers", "0.5", "--steps", "10,100000", "--deltas", "1e-5"],
     "above the ε <= 600 the certified PLD reaches"),
    (["--sampling-rates", "1", "--noise-multipliers", "1", "--steps", ",".join(map(str, range(1, 2002))),
      "--deltas", "1e-5"], "grid: 2001 points exceed the limit 2000"),
    (["--epsilons", "1", "--sigma2s", "9"], "give --budgets C,...: the budgets of a grid of ε or δ (or, for a "
                                           "DP-SGD grid, --sampling-rates"),
])
def test_a_bad_dpsgd_grid_is_one_line_before_any_work(args, phrase, capsys, tmp_path, monkeypatch):
    from producer.pld import enclose
    from tests.untimed import must_not_call
    _no_work(monkeypatch)
    must_not_call(monkeypatch, enclose, "certify")
    status, lines = _sweep(capsys, *args, "--out", str(tmp_path / "never"))
    assert status == 2 and len(lines) == 1 and phrase in lines[0], lines
    assert not (tmp_path / "never").exists()


def test_overwrite_removes_an_earlier_dpsgd_grid(capsys, tmp_path):
    out = tmp_path / "out"
    assert _sweep(capsys, *DPSGD, "--delta", "1e-5", "--out", str(out), "--quiet")[0] == 0
    (out / "notes.txt").write_text("mine")
    status, _ = _sweep(capsys, "--epsilons", "1", "--width", "1/1000", *SMALL, "--out", str(out), "--overwrite",
                       "--quiet")
    assert status == 0
    names = sorted(p.name for p in out.iterdir())
    assert not [n for n in names if n.startswith("dpsgd-") or n == "epsilon-steps.png"] and "notes.txt" in names


def test_dpsgd_file_names_are_recognised():
    from producer.commands.sweep import SWEEP_FILE
    assert SWEEP_FILE.fullmatch("dpsgd-q1_1000-s4_5-t1000-d1_100000.json")
    assert not SWEEP_FILE.fullmatch("dpsgd-q1_1000-s4_5-t1000-d1_100000.json.bak")
    assert not SWEEP_FILE.fullmatch("curve-e1-t235.json")  # producer curve's, not a sweep's


def test_the_readme_dpsgd_grid_is_checked_whole_without_work(monkeypatch):
    """The README's DP-SGD row: 2 q × 2 σ × 2 T at one δ, every point accepted before any is computed."""
    from producer.commands.sweep import grid_from_args
    from producer.pld import enclose
    from producer.sweep.grid import DpsgdPoint
    from tests.untimed import must_not_call
    with open(ROOT / "README.md", encoding="utf-8") as fh:
        row = next(line for line in fh if line.startswith("| a grid of DP-SGD settings"))
    words = shlex.split(re.search(r"`(producer sweep [^`]*)`", row)[1])[1:]
    must_not_call(monkeypatch, enclose, "certify")
    points = grid_from_args(cli.build_parser().parse_args(words))
    assert len(points) == 8 and all(isinstance(p, DpsgdPoint) for p in points)
    assert sorted({p.steps for p in points}) == [1000, 10000]
