"""The summary table of a sweep: one row per grid point, sorted like the grid.

``summary.json`` and ``summary.csv`` hold the same columns:

* the point: ``kind``, ``gamma``, ``sigma2`` or ``laplace``, ``budget``, and
  ``epsilon`` (or ``delta``) exact ("p/q") with ``epsilon_decimal`` (or
  ``delta_decimal``) beside it, 12 significant digits rounded down;
* the widths asked, ``width`` (absolute; the floor when ``rel_width`` R is
  given) and ``rel_width``, and what the kept certificate asked,
  ``source_width``, after ``rounds`` rounds, stopped for ``stop`` (met, width,
  floor, limit, rounds: :mod:`producer.sweep.refine`);
* ``status``: ``two-sided`` (a positive lower end, and R met when asked) or
  ``upper-only`` (only δ <= upper is useful);
* the enclosure: ``lower_exact``, ``upper_exact`` ("p/q") and the decimals
  ``lower`` (rounded down) and ``upper`` (rounded up), 11 significant digits;
* ``file`` and ``digest`` of the certificate.

Rows are sorted by (kind, γ, law, σ² or t, C, ε or δ) as exact rationals, so
the bytes depend on the grid alone.

A DP-SGD sweep's rows (kind ``dpsgd``) have their own columns
(:data:`DPSGD_COLUMNS`): ``sampling_rate``, ``noise_multiplier``, ``steps``
and ``delta`` exact, each rational with its decimal beside it
(``..._decimal``, 12 significant digits rounded down), ``rel_width``,
``effort`` (only in a sweep given ``--effort N``, N > 1), the ``route`` of
the certificate (``pld``, or ``gaussian`` at q = 1), ``status``, ε(δ)'s
enclosure as ``lower``/``upper`` (decimals rounded outward) and
``lower_exact``/``upper_exact``, ``file`` and ``digest``; sorted by (q, σ, δ, T).
"""

import csv
import io
import json
from fractions import Fraction

COLUMNS = ["kind", "gamma", "sigma2", "budget", "epsilon", "epsilon_decimal", "delta", "delta_decimal",
           "width", "rel_width", "source_width", "rounds", "stop", "status", "lower", "upper",
           "lower_exact", "upper_exact", "file", "digest"]
DPSGD_COLUMNS = ["kind", "sampling_rate", "sampling_rate_decimal", "noise_multiplier", "noise_multiplier_decimal",
                 "steps", "delta", "delta_decimal", "rel_width", "route", "status", "lower", "upper", "lower_exact",
                 "upper_exact", "file", "digest"]
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
    """COLUMNS with the σ² column replaced by the law columns the rows use (σ² alone when empty); DPSGD_COLUMNS
    for a DP-SGD sweep."""
    if rows and all(row["kind"] == "dpsgd" for row in rows):
        at = DPSGD_COLUMNS.index("rel_width") + 1
        effort = ["effort"] if any("effort" in row for row in rows) else []   # only a sweep that opted in
        return DPSGD_COLUMNS[:at] + effort + DPSGD_COLUMNS[at:]
    laws = [name for name in LAW_COLUMNS if any(name in row for row in rows)] or ["sigma2"]
    at = COLUMNS.index("sigma2")
    return COLUMNS[:at] + laws + COLUMNS[at + 1:]


def _key(row):
    if row["kind"] == "dpsgd":
        return (row["kind"], Fraction(row["sampling_rate"]), Fraction(row["noise_multiplier"]),
                Fraction(row["delta"]), row["steps"])
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
