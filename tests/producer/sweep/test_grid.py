"""producer.sweep.grid: a grid over discrete-Laplace scales t (``producer sweep --laplace``), and DP-SGD points.

Same pattern as test_run.py: a real LocalCluster of two workers (threads in
this process, ``processes=False``) gives byte for byte the serial run; every
certificate is then checked by the auditor's command line in a subprocess.
"""

import csv
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from producer import cli
from producer.sweep import plots
from producer.errors import LimitError
from producer.rationals import parse_integer
from producer.sweep.grid import (LAPLACE, MAX_POINTS, DpsgdPoint, GridPoint, build_dpsgd_grid, build_grid, groups_of,
                                 parse_list)
from tests.untimed import HANG_GUARD_SECONDS

distributed = pytest.importorskip("distributed")

ROOT = Path(__file__).resolve().parents[3]
GRID = ["--epsilons", "0,1/2,1", "--budgets", "1,2", "--laplace", "1,2", "--width", "1/100"]


def _files(directory):
    return {p.name: p.read_bytes() for p in sorted(Path(directory).iterdir()) if p.suffix in (".json", ".csv")}


def _audit(paths):
    """The auditor CLI on ``paths``: (exit status, output lines)."""
    run = subprocess.run([sys.executable, "-m", "auditor", "verify", *map(str, paths)],
                         capture_output=True, timeout=HANG_GUARD_SECONDS, cwd=ROOT, text=True)
    return run.returncode, run.stdout.splitlines()


@pytest.fixture(scope="module")
def serial_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("laplace-serial")
    assert cli.main(["sweep", *GRID, "--out", str(out), "--workers", "0", "--quiet"]) == 0
    return out


def test_laplace_cluster_equals_serial_byte_for_byte(serial_run, cluster, tmp_path):
    assert cli.main(["sweep", *GRID, "--out", str(tmp_path), "--scheduler", cluster.scheduler_address,
                     "--quiet"]) == 0
    serial, parallel = _files(serial_run), _files(tmp_path)
    assert len(serial) == 3 * 2 * 2 + 2  # 3 ε x 2 C x 2 t, plus the two summaries
    assert parallel == serial
    assert (tmp_path / "profile.png").stat().st_size > 0


def test_laplace_certificates_verify_with_the_auditor_cli_and_match_the_summary(serial_run):
    rows = json.loads((serial_run / "summary.json").read_text())["rows"]
    files = [serial_run / row["file"] for row in rows]
    status, lines = _audit(files)
    assert status == 0, lines
    assert len(lines) == len(files) == 12 and all(": OK dg-interval/1" in line for line in lines), lines
    for row in rows:
        cert = json.loads((serial_run / row["file"]).read_text())
        assert cert["input"]["sigma2"] is None
        assert cert["input"]["noise"] == {"family": "discrete-laplace", "t": row["laplace"]}
        assert cert["input"]["epsilon"] == row["epsilon"] and cert["input"]["budget"] == row["budget"]
        assert cert["result"]["interval"]["upper"] == row["upper_exact"]


def test_laplace_summary_names_t_not_sigma2(serial_run):
    rows = list(csv.DictReader(io.StringIO((serial_run / "summary.csv").read_text())))
    assert "laplace" in rows[0] and "sigma2" not in rows[0]
    assert sorted({row["laplace"] for row in rows}) == ["1", "2"]
    assert all(f"-t{row['laplace']}-c{row['budget']}-" in row["file"] for row in rows)
    assert all("sigma2" not in row for row in json.loads((serial_run / "summary.json").read_text())["rows"])


def test_sweep_point_is_the_dg_command_certificate(serial_run):
    """The same certified route as ``producer dg --laplace T``: the same bytes."""
    run = subprocess.run([sys.executable, "-m", "producer", "dg", "--gamma", "1/3", "--laplace", "2",
                          "--budget", "2", "--epsilon", "1/2", "--width", "1/100", "--quiet"],
                         capture_output=True, timeout=HANG_GUARD_SECONDS, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    assert run.stdout == (serial_run / "dg-g1_3-t2-c2-e1_2.json").read_bytes()


def test_laplace_delta_grid_gives_calibrations_that_verify(tmp_path):
    assert cli.main(["sweep", "--deltas", "1/10", "--budgets", "1", "--laplace", "2", "--width", "1/100",
                     "--out", str(tmp_path), "--workers", "0", "--quiet"]) == 0
    rows = json.loads((tmp_path / "summary.json").read_text())["rows"]
    assert [(row["laplace"], row["delta"]) for row in rows] == [("2", "1/10")]
    status, lines = _audit([tmp_path / rows[0]["file"]])
    assert status == 0 and "discrete Laplace t = 2" in lines[0], lines
    assert (tmp_path / "epsilon-star.png").stat().st_size > 0


def test_plot_labels_name_the_law():
    rows = [{"kind": "dg", "gamma": "1/3", "laplace": "5/2", "budget": 2, "epsilon": "1",
             "lower": "0.1", "upper": "0.2"}]
    assert [plots._label(key) for key in plots._series(rows, "epsilon")] == ["γ = 1/3, t = 5/2, C = 2"]
    assert plots._law_names(rows) == "discrete Laplace"
    gaussian = [dict(rows[0], sigma2="9")]
    del gaussian[0]["laplace"]
    assert [plots._label(key) for key in plots._series(gaussian, "epsilon")] == ["γ = 1/3, σ² = 9, C = 2"]


def test_laplace_and_gaussian_points_have_distinct_names():
    t = parse_list("2", "laplace")[0]
    args = ("dg", *parse_list("1/3", "g"), t, 2, *parse_list("1/2", "e"), 1)
    assert GridPoint(*args, law=LAPLACE).file_name() == "dg-g1_3-t2-c2-e1_2.json"
    assert GridPoint(*args).file_name() == "dg-g1_3-s2-c2-e1_2.json"
    points = build_grid(parse_list("1/3", "g"), None, [1], 1, epsilons=[t], laplaces=parse_list("1,2", "t"))
    assert [p.law for p in points] == [LAPLACE, LAPLACE]


@pytest.mark.parametrize("args, phrase", [
    (["--epsilons", "1", "--laplace", "0"], "the scale t must be positive, got 0"),
    (["--epsilons", "1", "--laplace", "2,-1"], "the scale t must be positive, got -1"),
    (["--epsilons", "1", "--laplace", "1,,2"], "--laplace: empty entry"),
    (["--epsilons", "1", "--laplace", "1/100000"], "outside the limits"),
    (["--epsilons", "1", "--laplace", "2", "--sigma2s", "9"], "not allowed with argument"),
    (["--epsilons", "1"], "give --sigma2s Q,... or --laplace T,...: the innovation law of a grid of ε or δ"),
    (["--epsilons", "65", "--laplace", "2"], "exceeds the limit 64"),
    (["--deltas", "1/10", "--laplace", "1/100"], "pure-DP bound 2C/t = 200"),
])
def test_bad_laplace_input_is_one_line_exit_2(args, phrase, tmp_path):
    out = tmp_path / "never"
    run = subprocess.run([sys.executable, "-m", "producer", "sweep", *args, "--budgets", "1",
                          "--out", str(out), "--workers", "0"],
                         capture_output=True, timeout=HANG_GUARD_SECONDS, cwd=ROOT, text=True)
    assert run.returncode == 2 and run.stderr.count("\n") == 1 and phrase in run.stderr, run.stderr
    assert "Traceback" not in run.stderr and not out.exists()


def _dpsgd_grid(rates="0.01,1/1000", noises="1.1,4/5", steps="1000,10", deltas="1e-5"):
    return build_dpsgd_grid(parse_list(rates, "q"), parse_list(noises, "s"), parse_list(steps, "t", parse_integer),
                            parse_list(deltas, "d"))


def test_dpsgd_points_are_named_by_the_point_alone_and_sorted():
    points = _dpsgd_grid()
    names = [p.file_name() for p in points]
    assert len(set(names)) == len(names) == 8
    assert names[:2] == ["dpsgd-q1_1000-s4_5-t10-d1_100000.json", "dpsgd-q1_1000-s4_5-t1000-d1_100000.json"]
    assert names[-1] == "dpsgd-q1_100-s11_10-t1000-d1_100000.json"
    assert [p.sort_key() for p in points] == sorted(p.sort_key() for p in points)
    assert DpsgdPoint(*points[0].request_texts()[:4]).as_json() == {
        "kind": "dpsgd", "sampling_rate": "1/1000", "noise_multiplier": "4/5", "steps": 10, "delta": "1/100000",
        "rel_width": "1/1000"}


def test_dpsgd_points_are_tasks_of_their_own():
    points = _dpsgd_grid()
    assert [len(task) for task in groups_of(points)] == [1] * 8  # DP-SGD points share no work


def test_a_dpsgd_grid_beyond_the_limit_is_refused():
    steps = ",".join(str(t) for t in range(1, MAX_POINTS // 2 + 2))
    with pytest.raises(LimitError, match=f"grid: {2 * (MAX_POINTS // 2 + 1)} points exceed the limit {MAX_POINTS}"):
        _dpsgd_grid(rates="0.01,0.02", noises="1", steps=steps)
