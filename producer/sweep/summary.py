"""The summary table of a sweep: one row per grid point, sorted like the grid.

``summary.json`` holds exact values (``lower_exact``, ``upper_exact``, "p/q"
strings) and the outward-rounded decimals (``lower``, ``upper``) of every
enclosure; ``summary.csv`` the same columns.  The law's parameter is the column
``sigma2`` (discrete Gaussian) or ``laplace`` (the discrete-Laplace scale t).
Rows are sorted by (kind, γ, law, σ² or t, C, ε or δ) as exact rationals, so
the bytes depend on the grid alone.
"""

import csv
import io
import json
from fractions import Fraction

COLUMNS = ["kind", "gamma", "sigma2", "budget", "epsilon", "delta", "width", "lower", "upper",
           "lower_exact", "upper_exact", "file", "digest"]
# The law's parameter column: σ² ("sigma2") of the discrete Gaussian or the scale t
# ("laplace") of the discrete Laplace; a sweep over one law has only its own column.
LAW_COLUMNS = ("sigma2", "laplace")


def law_of(row):
    """The name of the row's law parameter column ("sigma2" or "laplace")."""
    for name in LAW_COLUMNS:
        if name in row:
            return name
    raise ValueError(f"summary row without a law parameter ({' or '.join(LAW_COLUMNS)}): {row.get('file')}")


def columns_of(rows):
    """COLUMNS with the σ² column replaced by the law columns the rows use (σ² alone when empty)."""
    laws = [name for name in LAW_COLUMNS if any(name in row for row in rows)] or ["sigma2"]
    at = COLUMNS.index("sigma2")
    return COLUMNS[:at] + laws + COLUMNS[at + 1:]


def _key(row):
    value = row.get("epsilon", row.get("delta"))
    law = law_of(row)
    return (row["kind"], Fraction(row["gamma"]), law, Fraction(row[law]), row["budget"], Fraction(value))


def sorted_rows(rows):
    return sorted(rows, key=_key)


def summary_json(rows):
    return (json.dumps({"rows": sorted_rows(rows)}, sort_keys=True, indent=1, ensure_ascii=False)
            + "\n").encode("utf-8")


def summary_csv(rows):
    text = io.StringIO()
    writer = csv.DictWriter(text, fieldnames=columns_of(rows), lineterminator="\n", restval="")
    writer.writeheader()
    for row in sorted_rows(rows):
        writer.writerow(row)
    return text.getvalue().encode("utf-8")
