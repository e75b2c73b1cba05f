"""Certificate kinds born in their own module (``KIND``, ``VERSION``, limits, ``Request``,
``build(request, progress=None)``, ``claim(cert)``).

``MODULES`` maps a schema name to its module; :func:`claim_of` dispatches the
one-line summary.
"""

import importlib

MODULES = {
    "rate/1": "producer.kinds.rate",
    "frontier/1": "producer.kinds.frontier",
    "window-request/1": "producer.kinds.window_request",
    "finite-budget/1": "producer.kinds.finite_budget",
    "dpsgd/1": "producer.kinds.dpsgd",
}


def module_for(schema):
    name = MODULES.get(schema)
    return None if name is None else importlib.import_module(name)


def claim_of(certificate):
    return module_for(certificate["schema"]).claim(certificate)
