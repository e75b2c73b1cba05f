"""Certificate kinds born in their own home (one module per kind).

Each module holds ``KIND``, ``VERSION``, the kind's documented limits, an
immutable ``Request`` validated once in its constructor, ``build(request,
progress=None) -> dict`` (the sealed certificate) and ``claim(cert) -> str``
(the one-line answer).  :func:`claim_of_kind` dispatches on the schema name.
"""

import importlib

# schema name -> module (imported on first use: the command line loads only what it runs)
MODULES = {
    "hierarchy-exact/1": "producer.kinds.hierarchy_exact",
    "block-composition/1": "producer.kinds.block_composition",
    "minimum-deletion/1": "producer.kinds.minimum_deletion",
    "minimum-depth/1": "producer.kinds.minimum_depth",
}


def module_of(schema):
    """The kind module of a schema name such as ``"hierarchy-exact/1"`` (KeyError if not born here)."""
    return importlib.import_module(MODULES[schema])


def claim_of_kind(certificate):
    """The one-line claim of a certificate of one of these kinds."""
    return module_of(certificate["schema"]).claim(certificate)
