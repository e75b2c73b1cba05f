"""One module per certificate kind: the home of its question, limits, builder and claim line.

Each module holds ``KIND`` and ``VERSION`` (the schema name is
``KIND/VERSION``), the kind's documented limits, an immutable ``Request``
validated once in its constructor (raising
:class:`producer.errors.InputError`/``LimitError`` naming the value) with a
``from_strings(...)`` constructor that reads user text exactly,
``build(request, progress=None) -> dict`` (the sealed certificate) and
``claim(cert) -> str`` (the one-line answer).  The mathematics lives in the
topic packages (producer/game/, sources/, lower/, hierarchy/, plain/,
brace/, envelope/, resource/, pld/); :mod:`producer.api` only parses, builds and wraps.
CONTRIBUTING.md says how a new kind is added.
"""

import importlib

# schema name -> module, one line per kind, alphabetical (imported on first use:
# the command line loads only what it runs)
MODULES = {
    "accounting/1": "producer.kinds.accounting",
    "block-composition/1": "producer.kinds.block_composition",
    "brace-compare/1": "producer.kinds.brace_compare",
    "brace-run/1": "producer.kinds.brace_run",
    "calibration-lower/1": "producer.kinds.calibration_lower",
    "calibration/1": "producer.kinds.calibration",
    "deadline-witness/1": "producer.kinds.deadline_witness",
    "dg-interval/1": "producer.kinds.dg_interval",
    "dpsgd-calibration/1": "producer.kinds.dpsgd_calibration",
    "dpsgd/1": "producer.kinds.dpsgd",
    "envelope/1": "producer.kinds.envelope",
    "epsilon-bracket/1": "producer.kinds.epsilon_bracket",
    "finite-budget/1": "producer.kinds.finite_budget",
    "finite-game/1": "producer.kinds.finite_game",
    "frontier/1": "producer.kinds.frontier",
    "hierarchy-exact/1": "producer.kinds.hierarchy_exact",
    "hierarchy/1": "producer.kinds.hierarchy",
    "minimum-deletion/1": "producer.kinds.minimum_deletion",
    "minimum-depth/1": "producer.kinds.minimum_depth",
    "noise/1": "producer.kinds.noise",
    "plain-composition/1": "producer.kinds.plain_composition",
    "rate/1": "producer.kinds.rate",
    "separation/1": "producer.kinds.separation",
    "window-request/1": "producer.kinds.window_request",
    "workload/1": "producer.kinds.workload",
}


def module_of(schema):
    """The kind module of a schema name such as ``"dg-interval/1"`` (KeyError for an unknown one)."""
    return importlib.import_module(MODULES[schema])


def claim_of(certificate):
    """The one-line claim of ``certificate`` (a certificate dict), stated by its kind's module."""
    return module_of(certificate["schema"]).claim(certificate)
