"""``producer dpsgd`` on the command line: refusals in one line (exit 2, no file) before the work, and the
short answers the auditor accepts (issue 34, item 3: the producer refuses before it works)."""

import json

import pytest

from producer import cli


def main(capsys, *args):
    status = None
    try:
        status = cli.main(["dpsgd", *args])
    except SystemExit as exc:      # argparse usage errors exit directly
        status = exc.code
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def refused(capsys, tmp_path, *args):
    """The one error line of a refused request; asserts exit 2, nothing on stdout, no file."""
    out = tmp_path / "refused.json"
    status, stdout, stderr = main(capsys, *args, "-o", str(out))
    assert status == 2 and stdout == "" and not out.exists(), stderr
    assert stderr.count("\n") == 1 and stderr.startswith("producer dpsgd: error: "), stderr
    return stderr


def verified(path):
    from auditor.cli import verify_file
    status, report = verify_file(str(path))
    assert status == 0, report.failures


def test_a_gaussian_epsilon_beyond_what_the_auditor_evaluates_is_refused_in_one_line(capsys, tmp_path):
    """q = 1, σ = 1/2, T = 1000: ε(10^-5) is about 2270, above the auditor's ε <= 2000 (was exit 70, a TypeError)."""
    line = refused(capsys, tmp_path, "--sampling-rate", "1", "--noise-multiplier", "0.5", "--steps", "1000",
                   "--delta", "1e-5")
    assert "ε(1e-05) lies above 2000" in line and "--epsilons" in line


def test_a_gaussian_epsilon_just_inside_the_limit_is_answered_and_verifies(capsys, tmp_path):
    out = tmp_path / "g.json"
    status, _, err = main(capsys, "--sampling-rate", "1", "--noise-multiplier", "0.5", "--steps", "800",
                          "--delta", "1e-5", "-o", str(out), "--quiet")
    assert status == 0, err
    result = json.loads(out.read_text(encoding="utf-8"))["result"]
    assert 1800 < float(result["epsilon_lo_display"]) <= float(result["epsilon_hi_display"]) < 2000
    verified(out)


@pytest.mark.parametrize("steps,epsilons", [("1", "500"), ("3", "0,10")])
def test_a_negligible_delta_is_answered_with_short_numbers_the_auditor_accepts(capsys, tmp_path, steps, epsilons):
    """σ = 100, q = 1: δ(500) is about e^(−1.25·10^9) (was 403 s, 3.7 GB, then a 1.09 GB number refused) and
    δ(10) at T = 3 about 10^-72000 (was refused: a string of 72405 characters).  Now [0, 10^-100]."""
    out = tmp_path / "short.json"
    status, _, err = main(capsys, "--sampling-rate", "1", "--noise-multiplier", "100", "--steps", steps,
                          "--epsilons", epsilons, "-o", str(out), "--quiet")
    assert status == 0, err
    point = json.loads(out.read_text(encoding="utf-8"))["result"]["points"][-1]
    assert point["upper"] == "1/1" + "0" * 100 and point["lower"] == "0" and point["lower_order"] is None
    assert point["upper_display"] == "1.000000000e-100"
    assert out.stat().st_size < 1000
    verified(out)


def test_an_unreachable_width_is_refused_before_the_work_naming_the_width_in_reach(capsys, tmp_path):
    """q = 10^-5, σ = 1/2, one step: ε = 10^-6 lies inside the first bucket of any grid coarser than 10^-6,
    where nearly all the loss is; with ε up to 20 the step's buckets would be over 10^7 (was 650 s, 2.8 GB,
    five attempts, then refused)."""
    line = refused(capsys, tmp_path, "--stage", "0.00001:0.5x1", "--epsilons", "0,0.000001,1,5,20")
    assert "the relative width 0.001 at ε = 1e-06 needs h = 1/" in line
    assert "the auditor's limit: 2·10^6" in line and "ask for --rel-width 0.02" in line
    assert "leave ε = 1e-06 out" in line


def test_without_the_unreachable_point_a_single_step_is_answered_on_a_coarse_grid(capsys, tmp_path):
    """The same step at ε = 0, 1, 5, 20: every ε is a grid point of h = 1/4, where one step's bounds are exact."""
    out = tmp_path / "coarse.json"
    status, _, err = main(capsys, "--stage", "0.00001:0.5x1", "--epsilons", "0,1,5,20", "-o", str(out), "--quiet")
    assert status == 0, err
    result = json.loads(out.read_text(encoding="utf-8"))["result"]
    assert result["discretisation"]["grid"] == 4
    verified(out)


@pytest.mark.slow
def test_the_width_named_in_the_refusal_is_answered(capsys, tmp_path):
    """--rel-width 0.02, as the refusal above suggests: answered in one attempt (about 20 s), and verified."""
    out = tmp_path / "named.json"
    status, _, err = main(capsys, "--stage", "0.00001:0.5x1", "--epsilons", "0,0.000001,1,5,20",
                          "--rel-width", "0.02", "-o", str(out), "--quiet")
    assert status == 0, err
    verified(out)


def test_a_pld_epsilon_above_the_search_range_is_refused_before_the_work(capsys, tmp_path):
    """q = 1/2, σ = 1/2, T = 850: ε(10^-5) is about 700, above the ε <= 600 of the certified PLD."""
    line = refused(capsys, tmp_path, "--sampling-rate", "0.5", "--noise-multiplier", "0.5", "--steps", "850",
                   "--delta", "1e-5")
    assert "above the ε <= 600 the certified PLD reaches" in line and "--epsilons" in line
