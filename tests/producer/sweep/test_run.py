"""``producer sweep``: a real LocalCluster gives byte for byte the serial run; grids are bounded.

The cluster has two workers with ``processes=False`` (threads in this process;
worker processes take seconds each to start on this shared machine); the CLI's
default path, a LocalCluster of worker *processes*, runs once in a subprocess.
"""

import json
import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from auditor import api as auditor_api
from producer import cli
from producer.sweep.grid import MAX_POINTS, GridPoint, build_grid, groups_of, parse_range
from producer.sweep.run import decimal_of, run_sweep
from tests.untimed import HANG_GUARD_SECONDS

distributed = pytest.importorskip("distributed")

ROOT = Path(__file__).resolve().parents[3]
GRID = ["--epsilon-range", "0:2:6", "--budgets", "1,2", "--sigma2s", "4,9", "--width", "1/1000"]


def _files(directory):
    return {p.name: p.read_bytes() for p in sorted(Path(directory).iterdir()) if p.suffix in (".json", ".csv")}


@pytest.fixture(scope="module")
def serial_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("serial")
    assert cli.main(["sweep", *GRID, "--out", str(out), "--workers", "0", "--quiet"]) == 0
    return out


def test_cluster_equals_serial_byte_for_byte(serial_run, cluster, tmp_path):
    assert cli.main(["sweep", *GRID, "--out", str(tmp_path), "--scheduler", cluster.scheduler_address,
                     "--quiet"]) == 0
    serial, parallel = _files(serial_run), _files(tmp_path)
    assert len(serial) == 24 + 2  # 6 ε x 2 C x 2 σ², plus the two summaries
    assert parallel == serial
    assert (tmp_path / "profile.png").stat().st_size > 0


def test_every_certificate_verifies_and_matches_the_summary(serial_run):
    rows = json.loads((serial_run / "summary.json").read_text())["rows"]
    assert len(rows) == 24
    for row in rows:
        report = auditor_api.verify_file(str(serial_run / row["file"]))
        assert report.ok, (row["file"], report.as_dict())
        cert = json.loads((serial_run / row["file"]).read_text())
        assert cert["input"]["epsilon"] == row["epsilon"] and cert["input"]["budget"] == row["budget"]
        assert cert["result"]["interval"]["lower"] == row["lower_exact"]


def _verify_hint_matches_the_certificates(out):
    from producer.commands.sweep import verify_hint
    rows = json.loads((out / "summary.json").read_text())["rows"]
    patterns = verify_hint(out, rows).split("`auditor verify ", 1)[1].rstrip("`").split()
    matched = sorted(p.name for pattern in patterns for p in Path(pattern).parent.glob(Path(pattern).name))
    assert matched == sorted(row["file"] for row in rows) and "summary.json" not in matched


def test_the_closing_line_names_a_verify_command_over_the_certificates_alone(serial_run):
    _verify_hint_matches_the_certificates(serial_run)


def test_run_sweep_on_client_equals_serial(cluster):
    points = build_grid([parse_range("1/3:1/3:1", "gammas")[0]], parse_range("9:9:1", "s"), [2],
                        parse_range("1/1000:1/1000:1", "w")[0], epsilons=parse_range("0:1:5", "e"))
    groups = groups_of(points, task_points=2)  # more tasks than workers: completion order varies
    with distributed.Client(cluster) as client:
        parallel = run_sweep(groups, client=client)
    assert parallel == run_sweep(groups)
    assert [name for name, _, _ in parallel] == [p.file_name() for p in points]


def test_file_names_are_distinct_and_derived_from_the_point():
    points = build_grid(parse_range("1/3:1/2:2", "g"), parse_range("1:9:3", "s"), [0, 1],
                        parse_range("1/10:1/10:1", "w")[0], epsilons=parse_range("0:3:4", "e"))
    names = [p.file_name() for p in points]
    assert len(set(names)) == len(names) == 2 * 3 * 2 * 4
    assert GridPoint("dg", *parse_range("1/3:1/3:1", "g"), *parse_range("9:9:1", "s"), 2,
                     *parse_range("1/2:1/2:1", "e"), 1).file_name() == "dg-g1_3-s9-c2-e1_2.json"


def test_grid_beyond_the_limit_is_one_line(capsys, tmp_path):
    count = MAX_POINTS // 4 + 1
    status = cli.main(["sweep", "--epsilon-range", f"0:4:{count}", "--budgets", "1,2,3,4", "--sigma2s", "9",
                       "--out", str(tmp_path / "never"), "--workers", "0"])
    err = capsys.readouterr().err
    assert status == 2
    assert err.count("\n") == 1 and f"{4 * count} points exceed the limit {MAX_POINTS}" in err, err
    assert not (tmp_path / "never").exists()


@pytest.mark.parametrize("args, phrase", [
    (["--epsilons", "1,-1"], "outside [0, ∞)"),
    (["--deltas", "0"], "outside (0, 1)"),
    (["--epsilon-range", "2:1:3"], "B < A"),
    (["--epsilons", "1,,2"], "empty entry"),
])
def test_bad_grid_is_one_line(args, phrase, capsys, tmp_path):
    status = cli.main(["sweep", *args, "--budgets", "1", "--sigma2s", "9", "--out", str(tmp_path),
                       "--workers", "0"])
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1 and phrase in err, err


def test_delta_grid_gives_calibrations(tmp_path):
    assert cli.main(["sweep", "--deltas", "1/100,1/10", "--budgets", "1", "--sigma2s", "9",
                     "--width", "1/100", "--out", str(tmp_path), "--workers", "0", "--quiet"]) == 0
    rows = json.loads((tmp_path / "summary.json").read_text())["rows"]
    assert [row["delta"] for row in rows] == ["1/100", "1/10"]
    assert all(auditor_api.verify_file(str(tmp_path / row["file"])).ok for row in rows)
    assert (tmp_path / "epsilon-star.png").exists()
    _verify_hint_matches_the_certificates(tmp_path)


def test_other_commands_do_not_import_dask():
    code = ("import sys; from producer import cli; cli.build_parser(); "
            "import producer.api; assert 'distributed' not in sys.modules and 'dask' not in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT, timeout=HANG_GUARD_SECONDS)


def test_workers_subprocess_local_cluster_equals_serial(serial_run, tmp_path):
    """The default path: a LocalCluster of two worker processes."""
    run = subprocess.run([sys.executable, "-m", "producer", "sweep", *GRID, "--out", str(tmp_path),
                          "--workers", "2"], capture_output=True, timeout=HANG_GUARD_SECONDS, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    assert b"sweep: 24/24 grid points" in run.stderr
    assert _files(tmp_path) == _files(serial_run)


@pytest.mark.slow
def test_issue_grid_twenty_epsilons_cluster_equals_serial_all_verified(tmp_path):
    """The documented grid (docs/sweep.md): 20 ε in [0, 2] at C = 2, σ² = 9, the default relative width 10^-3,
    serial and on a 2-process LocalCluster."""
    grid = ["--epsilon-range", "0:2:20", "--budgets", "2", "--sigma2s", "9", "--quiet"]
    assert cli.main(["sweep", *grid, "--out", str(tmp_path / "serial"), "--workers", "0"]) == 0
    run = subprocess.run([sys.executable, "-m", "producer", "sweep", *grid, "--out", str(tmp_path / "cluster"),
                          "--workers", "2"], capture_output=True, timeout=HANG_GUARD_SECONDS, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    serial = _files(tmp_path / "serial")
    assert len(serial) == 22 and _files(tmp_path / "cluster") == serial
    for name in serial:
        if name.startswith("dg-"):
            assert auditor_api.verify_file(str(tmp_path / "cluster" / name)).ok, name


DPSGD_GRID = ["--sampling-rates", "0.01,1", "--noise-multipliers", "1,2", "--steps", "10,20", "--delta", "1e-5"]


@pytest.fixture(scope="module")
def dpsgd_serial(tmp_path_factory):
    out = tmp_path_factory.mktemp("dpsgd-serial")
    assert cli.main(["sweep", *DPSGD_GRID, "--out", str(out), "--workers", "0", "--quiet"]) == 0
    return out


def test_dpsgd_grid_on_a_cluster_equals_serial_byte_for_byte(dpsgd_serial, cluster, tmp_path):
    assert cli.main(["sweep", *DPSGD_GRID, "--out", str(tmp_path), "--scheduler", cluster.scheduler_address,
                     "--quiet"]) == 0
    serial = _files(dpsgd_serial)
    assert len(serial) == 8 + 2 and _files(tmp_path) == serial


def test_each_dpsgd_point_is_the_dpsgd_certificate_of_its_row(dpsgd_serial):
    from producer import api
    rows = json.loads((dpsgd_serial / "summary.json").read_text())["rows"]
    assert [(r["sampling_rate"], r["noise_multiplier"], r["steps"]) for r in rows][:3] == [
        ("1/100", "1", 10), ("1/100", "1", 20), ("1/100", "2", 10)]
    assert {r["route"] for r in rows} == {"pld", "gaussian"}  # q = 1 is the Gaussian mechanism's closed form
    for row in rows:
        data = (dpsgd_serial / row["file"]).read_bytes()
        assert auditor_api.verify_certificate(data).ok, row["file"]
        cert = json.loads(data)
        assert cert["input"]["stages"] == [{"sampling_rate": row["sampling_rate"], "steps": row["steps"],
                                            "noise_multiplier": row["noise_multiplier"]}]
        assert cert["input"]["delta"] == row["delta"] and cert["input"]["rel_width"] == row["rel_width"]
        assert (cert["result"]["epsilon_lo"], cert["result"]["epsilon_hi"]) == (row["lower_exact"],
                                                                                 row["upper_exact"])
        lower, upper = Fraction(row["lower_exact"]), Fraction(row["upper_exact"])
        assert Fraction(row["lower"]) <= lower <= upper <= Fraction(row["upper"]) and row["status"] == "two-sided"
        assert data == api.dpsgd(row["sampling_rate"], row["noise_multiplier"], row["steps"],
                                 delta=row["delta"]).to_json()


@pytest.mark.parametrize("value, text", [
    (Fraction(1, 2), "0.5"), (Fraction(13, 19), "0.684210526315"), (Fraction(4), "4"),
    (Fraction(1, 10 ** 6), "1e-06"), (Fraction(0), "0"), (Fraction(1, 3), "0.333333333333"),
])
def test_decimal_of(value, text):
    assert decimal_of(value) == text
    assert Fraction(text) <= value  # rounded down


# One point the search refuses after its first attempt (about a second), naming the width and the effort.
REFUSED_GRID = ["--sampling-rates", "0.001", "--noise-multipliers", "0.7", "--steps", "1000000", "--delta", "1e-5",
                "--rel-width", "1e-6"]


@pytest.mark.parametrize("where", ["serial", "cluster"])
def test_a_refusal_during_the_run_is_one_line_naming_the_point_and_the_options(where, cluster, capfd, tmp_path):
    place = ["--workers", "0"] if where == "serial" else ["--scheduler", cluster.scheduler_address]
    assert cli.main(["sweep", *REFUSED_GRID, "--out", str(tmp_path / "out"), *place, "--quiet"]) == 2
    err = capfd.readouterr().err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err   # no worker log, no traceback
    assert lines[0].startswith("producer sweep: error: dpsgd-q1_1000-s7_10-t1000000-d1_100000.json: could not reach")
    # its options, not Python's: the width in reach after the first attempt, and the effort
    assert re.search(r"ask for --rel-width 0\.\d+\b", lines[0]) and "--effort 2" in lines[0], lines[0]


def test_a_dpsgd_grid_at_an_effort_writes_it_into_each_certificate_and_the_summary(tmp_path):
    from producer import api
    grid = ["--sampling-rates", "0.01", "--noise-multipliers", "1", "--steps", "10,20", "--delta", "1e-5"]
    assert cli.main(["sweep", *grid, "--effort", "2", "--out", str(tmp_path), "--workers", "0", "--quiet"]) == 0
    rows = json.loads((tmp_path / "summary.json").read_text())["rows"]
    assert [row["effort"] for row in rows] == [2, 2]
    assert (tmp_path / "summary.csv").read_text().splitlines()[0].split(",")[8:11] == ["rel_width", "effort",
                                                                                       "route"]
    for row in rows:
        data = (tmp_path / row["file"]).read_bytes()
        assert json.loads(data)["input"]["effort"] == 2 and auditor_api.verify_certificate(data).ok
        assert data == api.dpsgd(row["sampling_rate"], row["noise_multiplier"], row["steps"], delta=row["delta"],
                                 effort=2).to_json()


@pytest.mark.parametrize("args, phrase", [
    (["--epsilons", "1", "--budgets", "2", "--sigma2s", "9", "--effort", "2"], "--effort: an option of a DP-SGD"),
    (DPSGD_GRID + ["--effort", "9"], "--effort: must be an integer from 1 to 8, got 9"),
])
def test_a_wrong_effort_is_one_line(args, phrase, capsys, tmp_path):
    assert cli.main(["sweep", *args, "--out", str(tmp_path / "out"), "--workers", "0"]) == 2
    assert phrase in capsys.readouterr().err


def test_a_worker_returns_a_refusal_rather_than_raising_it():
    """Raised on a worker process, Dask would log the refusal with its traceback on the caller's stderr."""
    from producer.errors import LimitError
    from producer.sweep.grid import DpsgdPoint
    from producer.sweep.run import run_group_task
    point = DpsgdPoint(Fraction(1, 1000), Fraction(7, 10), 10 ** 6, Fraction(1, 10 ** 5), Fraction(1, 10 ** 6))
    refusal = run_group_task([point], True)
    assert isinstance(refusal, LimitError) and str(refusal).startswith(point.file_name() + ": could not reach")
    assert "--effort 2" in str(refusal)
