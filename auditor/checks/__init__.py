"""One module of checks per certificate kind.

Each module provides ``verify(cert, report)``: it recomputes every claim of a
schema-valid certificate by the auditor's own route and records failures in
``report``.  It may raise :class:`auditor.rationals.MalformedNumber` for a
number that is not canonical.  :mod:`.common` holds the readers and
displays the kinds share.
"""

import importlib

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
}


def checker_for(kind):
    """The checks module for ``kind``, or None when the auditor has none."""
    module_name = KINDS.get(kind)
    if module_name is None:
        return None
    return importlib.import_module(module_name)
