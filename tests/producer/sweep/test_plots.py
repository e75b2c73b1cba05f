"""producer.sweep.plots: the drawn curves are monotone and hold two-sided points only.

The data is what the plot functions return, read back from the drawn
matplotlib artists; no image is compared.
"""

from fractions import Fraction

import pytest

from producer import cli
from producer.sweep import plots
from producer.sweep.refine import TWO_SIDED, UPPER_ONLY

pytest.importorskip("matplotlib")


def _row(x, lower, upper, status, parameter="epsilon", budget=2):
    kind = "dg" if parameter == "epsilon" else "calibration"
    return {"kind": kind, "gamma": "1/3", "sigma2": "9", "budget": budget, parameter: x,
            "lower_exact": lower, "upper_exact": upper, "status": status}


# A profile whose raw upper ends rise twice (overlapping bands at 1 and 3/2; a loose band at 5/2) and
# with upper-only points inside and after the two-sided run, the shape of the issue's sweep.
ROWS = [
    _row("1/2", "7/100", "71/1000", TWO_SIDED),
    _row("1", "1/100", "3/100", TWO_SIDED),
    _row("3/2", "1/100", "2/100", TWO_SIDED),
    _row("2", "0", "1/100", UPPER_ONLY),
    _row("5/2", "1/10000", "5/100", TWO_SIDED),
    _row("3", "1/100000", "1/10000", TWO_SIDED),
    _row("7/2", "0", "15/100000000", UPPER_ONLY),
    _row("4", "0", "23/100000000", UPPER_ONLY),
]


def _non_increasing(values):
    return all(b <= a for a, b in zip(values, values[1:]))


def test_profile_curve_is_monotone_and_holds_two_sided_points_only(tmp_path):
    drawn = plots.plot_profile(ROWS, tmp_path / "profile.png")
    assert (tmp_path / "profile.png").stat().st_size > 0
    [series] = drawn
    xs, ys = [x for x, _ in series["curve"]], [y for _, y in series["curve"]]
    assert xs == [0.5, 1.0, 1.5, 2.5, 3.0]  # strictly increasing ε, the two-sided points only
    assert _non_increasing(ys)  # δ(ε) only falls
    assert ys == [0.071, 0.03, 0.02, 0.01, 0.0001]  # least upper end so far: 5/2 is drawn at 0.01 (ε = 2's)
    only = {x for x, _ in series["upper_only"]}
    assert only == {2.0, 3.5, 4.0} and not only & set(xs)
    assert series["upper_only"] == [(2.0, 0.01), (3.5, 1.5e-07), (4.0, 1.5e-07)]  # 4 is drawn at 3.5's upper
    assert _non_increasing([y for _, y in sorted(series["curve"] + series["upper_only"])])
    assert "upper end only" in series["upper_only_label"] and "not joined" in series["upper_only_label"]


def test_band_is_monotone_and_encloses_each_point():
    points = plots.envelope(ROWS, "epsilon")
    own = {Fraction(r["epsilon"]): (Fraction(r["lower_exact"]), Fraction(r["upper_exact"])) for r in ROWS}
    assert [x for x, _, _, _ in points] == sorted(own)
    assert _non_increasing([lower for _, lower, _, _ in points]) and _non_increasing([up for _, _, up, _ in points])
    for x, lower, upper, _ in points:
        assert own[x][0] <= lower <= upper <= own[x][1]  # tighter than the point's own band, never looser
    assert points[4] == (Fraction(5, 2), Fraction(1, 10000), Fraction(1, 100), TWO_SIDED)


def test_without_two_sided_points_there_is_no_curve(tmp_path):
    drawn = plots.plot_profile([r for r in ROWS if r["status"] == UPPER_ONLY], tmp_path / "p.png")
    assert drawn[0]["curve"] == [] and len(drawn[0]["upper_only"]) == 3
    assert "no two-sided point" in drawn[0]["label"]


def test_a_certified_zero_is_left_out_of_the_log_scale(tmp_path):
    rows = ROWS[:2] + [_row("5", "0", "0", TWO_SIDED)]
    [series] = plots.plot_profile(rows, tmp_path / "p.png")
    assert [x for x, _ in series["curve"]] == [0.5, 1.0]


def test_epsilon_star_curve_is_non_increasing_in_delta(tmp_path):
    rows = [_row("1/1000000", "3", "31/10", TWO_SIDED, "delta"),
            _row("1/100000", "2", "32/10", TWO_SIDED, "delta"),    # a loose band: drawn at 3.1
            _row("1/10000", "0", "5/2", UPPER_ONLY, "delta"),
            _row("1/1000", "1", "11/10", TWO_SIDED, "delta")]
    [series] = plots.plot_epsilon_star(rows, tmp_path / "e.png")
    assert series["curve"] == [(1e-06, 3.1), (1e-05, 3.1), (0.001, 1.1)]  # 1/100000 drawn at 3.1, not 3.2
    assert series["upper_only"] == [(0.0001, 2.5)]


def test_issue_sweep_absolute_width_curve_stops_where_lower_ends_reach_zero(tmp_path):
    """The issue's grid with --width 1e-6 (absolute, one round): ε beyond about 2.9 has lower end 0.  Those
    points are triangles, the curve is the two-sided run and falls."""
    out = tmp_path / "abs"
    assert cli.main(["sweep", "--epsilon-range", "1/2:4:8", "--budgets", "2", "--sigma2s", "9", "--width", "1e-6",
                     "--out", str(out), "--workers", "0", "--quiet"]) == 0
    import json
    rows = json.loads((out / "summary.json").read_text())["rows"]
    [series] = plots.plot_profile(rows, tmp_path / "again.png")
    upper_only = {float(Fraction(r["epsilon"])) for r in rows if r["status"] == UPPER_ONLY}
    assert upper_only and all(Fraction(r["lower_exact"]) == 0 for r in rows if r["status"] == UPPER_ONLY)
    assert {x for x, _ in series["upper_only"]} == upper_only
    assert not upper_only & {x for x, _ in series["curve"]}
    assert _non_increasing([y for _, y in series["curve"]]) and max(upper_only) == 4.0


def _dpsgd_row(steps, lower, upper, status, noise="1"):
    return {"kind": "dpsgd", "sampling_rate": "1/100", "noise_multiplier": noise, "steps": steps,
            "delta": "1/100000", "lower_exact": lower, "upper_exact": upper, "status": status}


def test_dpsgd_plot_draws_each_certificates_own_ends_and_two_sided_points_only(tmp_path):
    rows = [_dpsgd_row(1000, "9/10", "1", TWO_SIDED), _dpsgd_row(10, "1/2", "6/10", TWO_SIDED),
            _dpsgd_row(100, "0", "7/10", UPPER_ONLY),
            _dpsgd_row(10000, "8/10", "95/100", TWO_SIDED),    # ε_hi below the one at T = 1000: drawn as it is
            _dpsgd_row(10, "1/4", "3/10", TWO_SIDED, noise="2")]
    drawn = plots.plot_dpsgd(rows, tmp_path / "epsilon-steps.png")
    assert (tmp_path / "epsilon-steps.png").stat().st_size > 0
    first, second = drawn
    assert first["label"] == "q = 0.01, σ = 1, δ = 1e-05" and second["label"] == "q = 0.01, σ = 2, δ = 1e-05"
    assert first["curve"] == [(10.0, 0.6), (1000.0, 1.0), (10000.0, 0.95)]  # the certificates' own ε_hi
    assert first["lower"] == [(10.0, 0.5), (1000.0, 0.9), (10000.0, 0.8)]   # and own ε_lo, dashed
    assert first["upper_only"] == [(100.0, 0.7)] and "ε ≤ ▽ (not joined)" in first["upper_only_label"]
    assert second["curve"] == [(10.0, 0.3)] and second["upper_only"] == []


def test_own_ends_are_not_tightened():
    rows = [_dpsgd_row(1000, "9/10", "1", TWO_SIDED), _dpsgd_row(10000, "8/10", "95/100", TWO_SIDED)]
    assert plots.own_ends(rows, "steps") == [(Fraction(1000), Fraction(9, 10), Fraction(1), TWO_SIDED),
                                             (Fraction(10000), Fraction(8, 10), Fraction(95, 100), TWO_SIDED)]
