"""One module of checks per certificate kind.

Each module provides ``verify(cert, report)``: it recomputes every claim of a
schema-valid certificate by the auditor's own route and records failures in
``report``.  It may raise :class:`auditor.rationals.MalformedNumber` for a
number that is not canonical.  After OK, ``claim(cert)`` gives the one-line
certified claim (:func:`auditor.api.certified_claim`).  A kind whose
certificates are embedded in others with one list of undecided claims also
provides ``verify_open(cert, report, undecided)``; every kind that can be
embedded provides ``estimate(cert, prefix)``: UNCHECKED beyond its own limits,
otherwise its first pass in the file's one budget (an
:class:`auditor.budget.Cost`; :mod:`auditor.embedded`).

This package sits above the shared machinery: nothing else in ``auditor/``
(but :mod:`auditor.api` and :mod:`auditor.cli`) imports it
(``tests/auditor/test_layering.py``); :mod:`auditor.embedded` finds the checks
of an embedded kind through the :func:`checker_for` registered below.
"""

import importlib

from auditor import embedded

# certificate kind -> module of checks
KINDS = {
    "finite-game": "auditor.checks.finite_game",
    "dg-interval": "auditor.checks.dg_interval",
    "calibration": "auditor.checks.calibration",
    "envelope": "auditor.checks.envelope",
    "brace-run": "auditor.checks.brace_run",
    "brace-compare": "auditor.checks.brace_compare",
    "hierarchy": "auditor.checks.hierarchy",
    "deadline-witness": "auditor.checks.deadline_witness",
    "workload": "auditor.checks.workload",
    "separation": "auditor.checks.separation",
    "calibration-lower": "auditor.checks.calibration_lower",
    "plain-composition": "auditor.checks.plain_composition",
    "rate": "auditor.checks.rate",
    "frontier": "auditor.checks.frontier",
    "window-request": "auditor.checks.window_request",
    "finite-budget": "auditor.checks.finite_budget",
    "dpsgd": "auditor.checks.dpsgd",
    "hierarchy-exact": "auditor.checks.hierarchy_exact",
    "block-composition": "auditor.checks.block_composition",
    "minimum-deletion": "auditor.checks.minimum_deletion",
    "minimum-depth": "auditor.checks.minimum_depth",
    "epsilon-bracket": "auditor.checks.epsilon_bracket",
    "noise": "auditor.checks.noise",
    "accounting": "auditor.checks.accounting",
    "dpsgd-calibration": "auditor.checks.dpsgd_calibration",
}


def checker_for(kind):
    """The checks module for ``kind``, or None when the auditor has none."""
    module_name = KINDS.get(kind)
    if module_name is None:
        return None
    return importlib.import_module(module_name)


embedded.register(checker_for)
