"""An event tree in its JSON form as dp_accounting's ``DpEvent`` objects (the peers' side of the benchmarks).

Imports dp_accounting only, so a peer process timed by ``bench/run.py`` pays for nothing of this project."""

from fractions import Fraction


def dp_accounting_event(tree):
    """The dp_accounting DpEvent of an event tree in its JSON form (numbers as floats, counts as integers)."""
    from dp_accounting import dp_event

    def value(v):
        if isinstance(v, dict):
            return dp_accounting_event(v)
        if isinstance(v, list):
            return [value(x) for x in v]
        return v if isinstance(v, int) else float(Fraction(v))
    fields = {name: value(v) for name, v in tree.items() if name != "class_name"}
    return getattr(dp_event, tree["class_name"])(**fields)


def neighboring_relation(name):
    """dp_accounting's ``NeighboringRelation`` member of "add_or_remove_one" or "replace_one"."""
    from dp_accounting import NeighboringRelation
    return NeighboringRelation[name.upper()]
