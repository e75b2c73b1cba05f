"""``producer calibrate`` chooses the route and names it: product-pair, exact game, hierarchy-witness."""

import json
import re
import os
import subprocess
import sys

import pytest

from tests.untimed import HANG_GUARD_SECONDS

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def run(*args):
    return subprocess.run([sys.executable, "-m", "producer", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=HANG_GUARD_SECONDS)


def test_gamma_zero_is_the_product_pair_at_c1000(tmp_path):
    out = tmp_path / "c.json"
    p = run("calibrate", "--gamma", "0", "--sigma2", "9", "--budget", "1000", "--delta", "1e-5", "--width", "1e-3",
            "-o", str(out))
    assert p.returncode == 0, p.stderr
    assert out.read_bytes() == open(os.path.join(ROOT, "certificates", "plain",
                                                 "epsilon-bracket-dg-sigma2_9-c1000-delta1e-5.json"), "rb").read()
    last = p.stderr.strip().splitlines()[-1]
    assert last.startswith("ε*_1000(1e-05) ∈ [99.67") and last.endswith("route product-pair)")
    assert "calibrate: eps = " in p.stderr  # progress lines


def test_gamma_zero_with_releases_is_the_product_pair_in_the_releases_form(tmp_path):
    out = tmp_path / "r.json"
    p = run("calibrate", "--gamma", "0", "--release", "dg:9x100", "--release", "dl:2x5", "--release", "dg:4:2x20",
            "--delta", "1e-5", "-o", str(out))
    assert p.returncode == 0, p.stderr
    assert out.read_bytes() == open(os.path.join(ROOT, "certificates", "plain",
                                                 "epsilon-bracket-releases-dg9x100-dl2x5-dg4s2x20-delta1e-5.json"),
                                    "rb").read()
    last = p.stderr.strip().splitlines()[-1]
    assert last.startswith("ε*_125(1e-05) ∈ [39.6264") and last.endswith("route product-pair)")
    assert "5 × discrete Laplace t = 2" in last


def test_one_release_is_the_single_law_certificate():
    one = run("calibrate", "--gamma", "0", "--release", "dl:2x4", "--delta", "1e-4", "--width", "1e-3", "--quiet")
    law = run("calibrate", "--gamma", "0", "--laplace", "2", "--budget", "4", "--delta", "1e-4", "--width", "1e-3",
              "--quiet")
    assert one.returncode == law.returncode == 0 and one.stdout == law.stdout and '"noise"' in one.stdout


def test_gamma_zero_with_a_method_keeps_the_game_route():
    p = run("calibrate", "--gamma", "0", "--sigma2", "9", "--budget", "1", "--delta", "1e-3", "--width", "1e-2",
            "--method", "reduced", "--quiet")
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["schema"] == "calibration/1"


def test_feedback_within_the_game_is_calibration_1_and_says_so():
    p = run("calibrate", "--gamma", "1/2", "--sigma2", "1", "--budget", "1", "--delta", "1e-3", "--width", "1e-2")
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["schema"] == "calibration/1"
    assert p.stderr.strip().splitlines()[-1].endswith("route exact game)")


@pytest.mark.parametrize("argv, fragment", [
    (["calibrate", "--gamma", "0", "--sigma2", "9", "--budget", "2000", "--delta", "1e-5"], "route product-pair"),
    (["calibrate", "--gamma", "1/3", "--laplace", "2", "--budget", "8", "--delta", "1e-4"], "give --sigma2"),
    (["calibrate", "--gamma", "1/3", "--sigma2", "9", "--budget", "8", "--delta", "1e-4", "--width", "1e-3"],
     "cannot aim at a width"),
    # C = 5 is within the game's budget, but the auditor's work for one query is not: refused before any probe
    (["calibrate", "--gamma", "1/3", "--sigma2", "9", "--budget", "5", "--delta", "1e-4", "--width", "1e-6",
      "--quiet"],
     "the exact game does not reach this request (estimated work"),
    (["calibrate", "--gamma", "1/3", "--sigma2", "9", "--budget", "8", "--delta", "1e-4", "--method", "reduced"],
     "without --method, producer calibrate answers beyond C = 6 (route hierarchy-witness)"),
    (["calibrate", "--gamma", "1/3", "--release", "dg:9x8", "--delta", "1e-4"],
     "--sigma2 Q (or --laplace T), and --budget C"),
    (["calibrate", "--gamma", "0", "--release", "dg:9x8", "--budget", "8", "--delta", "1e-4"],
     "--release: not allowed with --budget"),
    (["calibrate", "--gamma", "0", "--release", "dg:9x8", "--sigma2", "9", "--delta", "1e-4"], "not allowed with"),
    (["calibrate", "--gamma", "0", "--sigma2", "9", "--delta", "1e-4"], "--budget is required"),
    (["calibrate", "--gamma", "0", "--release", "dg:9x8", "--delta", "1e-4", "--method", "reduced"], "omit --method"),
    (["calibrate", "--gamma", "0", "--release", "dg:9x1000", "--release", "dl:2x25", "--delta", "1e-4"], "1024"),
    (["hierarchy", "--gamma", "0", "--sigma2", "9", "--budget", "8", "--depth", "2", "--delta", "1e-4"],
     "producer calibrate --gamma 0"),
])
def test_refusals_are_one_line_and_point_to_the_route(argv, fragment):
    p = run(*argv)
    assert p.returncode == 2 and p.stdout == ""
    assert len(p.stderr.strip().splitlines()) == 1 and fragment in p.stderr, p.stderr
    if "--width" in argv:
        assert p.stderr.endswith("; omit --width\n")


@pytest.mark.slow
def test_c4_is_answered_on_the_exact_game_and_verified_with_the_budget_it_names(tmp_path):
    """C = 4, σ² = 9, δ = 10⁻⁴ (about 1.5 min and 1.7 GB, the auditor about 15 s): the exact game answers at
    the default width, relative width below 10⁻⁶; its two witnesses (radius 21, symmetric law: the auditor's
    estimate counts one F_2 curve per orbit of mirror and transposition) fit the auditor's one-query limit, and
    together need twice its budget of one file, which the last line names and which then verifies it."""
    from fractions import Fraction
    out = tmp_path / "c4.json"
    p = run("calibrate", "--gamma", "1/3", "--sigma2", "9", "--budget", "4", "--delta", "1e-4", "-o", str(out))
    assert p.returncode == 0, p.stderr
    lines = p.stderr.strip().splitlines()
    assert lines[-2].endswith("route exact game)") and "`auditor verify --budget 2`" in lines[-1], p.stderr
    res = json.loads(out.read_text())["result"]
    lo, hi = Fraction(res["epsilon_lo"]), Fraction(res["epsilon_hi"])
    assert res["status"] == "enclosed" and 0 < hi - lo <= Fraction(1, 10 ** 6) * lo
    check = subprocess.run([sys.executable, "-m", "auditor", "verify", "--budget", "2", str(out)], cwd=ROOT,
                           capture_output=True, text=True, timeout=HANG_GUARD_SECONDS)
    assert check.returncode == 0, check.stdout + check.stderr
    plain = subprocess.run([sys.executable, "-m", "auditor", "verify", str(out)], cwd=ROOT,
                           capture_output=True, text=True, timeout=HANG_GUARD_SECONDS)
    assert plain.returncode == 3 and "--budget 2" in plain.stdout, plain.stdout


def test_the_help_states_the_budgets_the_command_takes():
    """The limits on C that `calibrate --help` states are where the command stops: the largest C it states
    is answered (γ = 0 end to end, about a second; γ > 0 by its requests, the builds take minutes) and the
    next one is refused in one line, or changes route as stated."""
    from producer.kinds import calibration, epsilon_bracket
    from producer.errors import ReachError
    text = " ".join(run("calibrate", "--help").stdout.split())
    plain = int(re.search(r"1 <= C <= (\d+) at γ = 0", text)[1])
    game = int(re.search(r"at γ > 0, 0 <= C <= (\d+) by the exact game", text)[1])
    target = int(re.search(r"a target-zero lower end up to C = (\d+)", text)[1])
    args = ("calibrate", "--gamma", "0", "--sigma2", "9", "--delta", "1e-5", "--width", "1e-3", "--quiet")
    largest = run(*args, "--budget", str(plain))
    assert largest.returncode == 0 and json.loads(largest.stdout)["input"]["budget"] == plain, largest.stderr
    for refused in (plain + 1, 0):
        p = run(*args, "--budget", str(refused))
        assert p.returncode == 2 and len(p.stderr.splitlines()) == 1 and f"{refused}" in p.stderr, p.stderr
    calibration.Request.from_strings("1/3", 9, game, "1e-4")
    with pytest.raises(ReachError):  # calibrate then goes on to the hierarchy-witness route
        calibration.Request.from_strings("1/3", 9, game + 1, "1e-4")
    assert epsilon_bracket.Request.from_strings("1/3", target, "1e-4", sigma2=9).lower is not None
    beyond = epsilon_bracket.Request.from_strings("1/3", target + 1, "1e-4", sigma2=9)
    assert beyond.lower is None and f"C <= {target}" in beyond.lower_reason


def test_a_certificate_beyond_the_auditors_default_budget_is_written_with_the_notice(tmp_path, monkeypatch, capsys):
    """Both halves' budget scaled below a C = 2 calibration's estimate (its two witnesses' games): the file is
    written, the last line on stderr says which `auditor verify --budget N` checks it; --quiet says nothing."""
    from auditor import budget
    from producer import audit_budget
    from producer.cli import main
    out = tmp_path / "c.json"
    args = ["calibrate", "--gamma", "1/3", "--sigma2", "9", "--budget", "2", "--delta", "1e-4", "-o", str(out)]
    assert main(args) == 0
    written = json.loads(out.read_text())
    work = audit_budget.cost_of(written).work
    for module, name in ((audit_budget, "WORK"), (budget, "MAX_WORK")):
        monkeypatch.setattr(module, name, (work - 1) // 2)
    capsys.readouterr()
    assert main(args) == 0 and json.loads(out.read_text()) == written
    last = capsys.readouterr().err.strip().splitlines()[-1]
    assert last.endswith("verify it with `auditor verify --budget 3`")
    from auditor.cli import main as auditor_main
    assert auditor_main(["verify", "--quiet", str(out)]) == 3
    assert auditor_main(["verify", "--quiet", "--budget", "3", str(out)]) == 0
    capsys.readouterr()
    assert main([*args, "--quiet"]) == 0 and capsys.readouterr().err == ""
