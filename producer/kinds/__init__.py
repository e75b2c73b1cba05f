"""Certificate kinds born in their own home (one module per kind).

Each module holds ``KIND``, ``VERSION``, the kind's documented limits, an
immutable ``Request`` validated once in its constructor, ``build(request,
progress=None) -> dict`` (the sealed certificate) and ``claim(cert) -> str``
(the one-line answer).  The mathematics lives in a topic package.
``MODULES`` maps a schema name to its module; :func:`claim_of` dispatches the
one-line summary.
"""

import importlib

# schema name -> module (imported on first use: the command line loads only what it runs)
MODULES = {
    "rate/1": "producer.kinds.rate",
    "frontier/1": "producer.kinds.frontier",
    "window-request/1": "producer.kinds.window_request",
    "finite-budget/1": "producer.kinds.finite_budget",
    "dpsgd/1": "producer.kinds.dpsgd",
    "hierarchy-exact/1": "producer.kinds.hierarchy_exact",
    "block-composition/1": "producer.kinds.block_composition",
    "minimum-deletion/1": "producer.kinds.minimum_deletion",
    "minimum-depth/1": "producer.kinds.minimum_depth",
}


def module_for(schema):
    """The kind module of a schema name such as ``"rate/1"``, or None if the kind was not born here."""
    name = MODULES.get(schema)
    return None if name is None else importlib.import_module(name)


def claim_of(certificate):
    """The one-line claim of a certificate of one of these kinds."""
    return module_for(certificate["schema"]).claim(certificate)
