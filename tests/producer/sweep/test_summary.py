"""producer.sweep.summary: the columns of summary.csv and summary.json, decimals beside exact values."""

import csv
import io
import json
from fractions import Fraction

import pytest

from producer import cli
from producer.sweep.summary import COLUMNS, DPSGD_COLUMNS, columns_of, sorted_rows, summary_csv


@pytest.fixture(scope="module")
def sweep(tmp_path_factory):
    """ε = 0, 13/19, 4 at γ = 1/3, σ² = 9, C = 2 with the default relative width: summary.csv and summary.json."""
    out = tmp_path_factory.mktemp("summary")
    assert cli.main(["sweep", "--epsilons", "0,13/19,4", "--budgets", "2", "--sigma2s", "9", "--out", str(out),
                     "--workers", "0", "--quiet"]) == 0
    rows = list(csv.DictReader(io.StringIO((out / "summary.csv").read_text())))
    return out, rows


def test_csv_columns_in_order(sweep):
    out, rows = sweep
    header = (out / "summary.csv").read_text().splitlines()[0].split(",")
    assert header == COLUMNS
    assert header[:6] == ["kind", "gamma", "sigma2", "budget", "epsilon", "epsilon_decimal"]
    assert {"status", "rel_width", "source_width", "rounds", "stop"} <= set(header)


def test_epsilon_is_exact_with_a_decimal_beside_it(sweep):
    _, rows = sweep
    assert [(r["epsilon"], r["epsilon_decimal"]) for r in rows] == [("0", "0"), ("13/19", "0.684210526315"),
                                                                    ("4", "4")]


def test_decimal_ends_are_rounded_outward(sweep):
    _, rows = sweep
    for row in rows:
        lower, upper = Fraction(row["lower_exact"]), Fraction(row["upper_exact"])
        assert Fraction(row["lower"]) <= lower <= upper <= Fraction(row["upper"])
        assert upper - Fraction(row["upper"]) > -upper / 10 ** 9  # 11 significant digits, not a coarse bound
    assert rows[-1]["lower"].endswith("e-11") and Fraction(rows[-1]["lower"]) > 0  # δ(4) ≈ 1.514e-11, readable


def test_status_and_widths_per_row(sweep):
    out, rows = sweep
    assert [r["status"] for r in rows] == ["two-sided"] * 3
    assert all(r["rel_width"] == "1/1000" and r["width"] == "1/" + "1" + "0" * 20 for r in rows)
    assert rows[0]["rounds"] == "1" and rows[0]["source_width"] == "1/1000000" and rows[0]["stop"] == "met"
    assert int(rows[-1]["rounds"]) > 1 and Fraction(rows[-1]["source_width"]) < Fraction(1, 10 ** 12)
    exact = json.loads((out / "summary.json").read_text())["rows"]
    assert [r["epsilon_decimal"] for r in exact] == [r["epsilon_decimal"] for r in rows]
    assert exact[0]["rounds"] == 1  # a number in summary.json


def test_absolute_rows_leave_rel_width_empty():
    row = {"kind": "dg", "gamma": "1/3", "sigma2": "9", "budget": 2, "epsilon": "1", "epsilon_decimal": "1",
           "width": "1/1000000", "rel_width": None, "status": "upper-only"}
    text = summary_csv([row]).decode()
    [parsed] = csv.DictReader(io.StringIO(text))
    assert parsed["rel_width"] == "" and parsed["status"] == "upper-only"
    assert columns_of([dict(row, laplace="2")])[2:4] == ["sigma2", "laplace"]


def test_a_dpsgd_summary_has_its_own_columns_and_order():
    from producer.sweep.grid import DpsgdPoint
    from producer.sweep.run import run_point
    rows = [run_point(DpsgdPoint(Fraction(1), Fraction(s), t, Fraction(1, 10**5)))[2]
            for s, t in ((2, 20), (2, 10), (3, 10))]
    text = summary_csv(rows).decode()
    assert text.splitlines()[0].split(",") == DPSGD_COLUMNS and columns_of(rows) == DPSGD_COLUMNS
    parsed = list(csv.DictReader(io.StringIO(text)))
    assert [(r["noise_multiplier"], r["steps"]) for r in parsed] == [("2", "10"), ("2", "20"), ("3", "10")]
    assert [r["file"] for r in parsed] == [r["file"] for r in sorted_rows(rows)]
    for row in parsed:
        assert (row["sampling_rate_decimal"], row["delta_decimal"], row["route"]) == ("1", "1e-05", "gaussian")
        lower, upper = Fraction(row["lower_exact"]), Fraction(row["upper_exact"])
        assert Fraction(row["lower"]) <= lower <= upper <= Fraction(row["upper"]) and row["status"] == "two-sided"
