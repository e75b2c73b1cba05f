"""Copy, mutate and reseal certificates in tests.

Mutation tests change one claim and must then recompute the digest, so that
only the mutated claim is wrong (a stale digest would fail on its own).  A
certificate may embed others (a separation's ``privacy_bound``): those are
resealed too, innermost first.  Paths are tuples of keys and indices.
"""

import copy
from fractions import Fraction

from auditor.certificate import digest


def get_at(cert, path):
    """The value at ``path``."""
    node = cert
    for key in path:
        node = node[key]
    return node


def set_at(cert, path, value):
    """Replace the value at ``path`` (in place)."""
    get_at(cert, path[:-1])[path[-1]] = value


def seal(cert):
    """Recompute the digest of ``cert`` itself, not of the certificates it embeds (in place); return it."""
    cert["digest"] = digest(cert)
    return cert


def reseal(node):
    """Recompute the digest of every certificate in ``node``, innermost first (in place); return it.

    A certificate is a dict with both ``schema`` and ``digest``.
    """
    if isinstance(node, dict):
        for value in node.values():
            reseal(value)
        if "digest" in node and "schema" in node:
            seal(node)
    elif isinstance(node, list):
        for value in node:
            reseal(value)
    return node


def resealed(cert, edit=None):
    """A deep copy of ``cert``, changed by ``edit(copy)`` when given, then resealed."""
    bad = copy.deepcopy(cert)
    if edit is not None:
        edit(bad)
    return reseal(bad)


def with_value(cert, path, value):
    """A resealed copy of ``cert`` with the value at ``path`` replaced by ``value``."""
    return resealed(cert, lambda bad: set_at(bad, path, value))


def display(value, like, up):
    """``value`` rounded (up or down) to as many decimal places as the display
    ``like``: the display to write beside an edited rational."""
    places = len(like.split(".")[1]) if "." in like else 0
    scaled = Fraction(value) * 10 ** places
    n = -(-scaled.numerator // scaled.denominator) if up else scaled.numerator // scaled.denominator
    whole, frac = divmod(n, 10 ** places)
    return f"{whole}.{frac:0{places}d}" if places else str(whole)
