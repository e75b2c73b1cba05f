"""The summary table of a sweep: one row per grid point, sorted like the grid.

``summary.json`` holds exact values (``lower_exact``, ``upper_exact``, "p/q"
strings) and the outward-rounded decimals (``lower``, ``upper``) of every
enclosure; ``summary.csv`` the same columns.  Rows are sorted by (kind, γ,
σ², C, ε or δ) as exact rationals, so the bytes depend on the grid alone.
"""

import csv
import io
import json
from fractions import Fraction

COLUMNS = ["kind", "gamma", "sigma2", "budget", "epsilon", "delta", "width", "lower", "upper",
           "lower_exact", "upper_exact", "file", "digest"]


def _key(row):
    value = row.get("epsilon", row.get("delta"))
    return (row["kind"], Fraction(row["gamma"]), Fraction(row["sigma2"]), row["budget"], Fraction(value))


def sorted_rows(rows):
    return sorted(rows, key=_key)


def summary_json(rows):
    return (json.dumps({"rows": sorted_rows(rows)}, sort_keys=True, indent=1, ensure_ascii=False)
            + "\n").encode("utf-8")


def summary_csv(rows):
    text = io.StringIO()
    writer = csv.DictWriter(text, fieldnames=COLUMNS, lineterminator="\n", restval="")
    writer.writeheader()
    for row in sorted_rows(rows):
        writer.writerow(row)
    return text.getvalue().encode("utf-8")
