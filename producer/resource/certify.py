"""JSON pieces shared by the resource certificates (rate/1, frontier/1, window-request/1, finite-budget/1).

Conventions (docs/kinds.md): exact numbers are reduced ``"p/q"`` strings;
window states are listed x = −M … M and, for each x, d = −1, 0, 1 (index
3(x + M) + d + 1); window columns (x, d, j) likewise with j = −1, 0, 1 (index
9(x + M) + 3(d + 1) + j + 1); reward entries are sorted by (k, d, j).
"""

from gmpy2 import mpq

from producer.rationals import format_rational, significant_outward
from producer.resource.rewards import ACTIONS
from producer.resource.source import source_json

DISPLAY_DIGITS = 12

__all__ = ["q", "source_json", "reward_bounds_json", "reward_values_json", "state_list", "column_list",
           "display_pair", "display"]


def q(value):
    """An exact rational as its canonical string."""
    return format_rational(mpq(value))


def display(value, direction):
    """``value`` rounded outward to DISPLAY_DIGITS significant digits (down: −1, up: +1)."""
    return significant_outward(mpq(value), DISPLAY_DIGITS, direction)


def display_pair(lower, upper):
    return {"lower_display": display(lower, -1), "upper_display": display(upper, +1)}


def reward_bounds_json(table, residues, with_lo=True, with_hi=True):
    """[{k, d, j, lo?, hi?}] for the residues k (sorted), d, j ∈ {−1, 0, 1}."""
    out = []
    for k in sorted(set(int(r) % table.gamma.B for r in residues)):
        for d in sorted(ACTIONS):
            for j in sorted(ACTIONS):
                entry = {"k": k, "d": d, "j": j}
                if with_lo:
                    entry["lo"] = q(table.lo[(k, d, j)])
                if with_hi:
                    entry["hi"] = q(table.hi[(k, d, j)])
                out.append(entry)
    return out


def reward_values_json(values, B, residues):
    """[{k, d, j, value}] of a single-valued reward table (window-request/1)."""
    return [{"k": k, "d": d, "j": j, "value": q(values[(k, d, j)])}
            for k in sorted(set(int(r) % B for r in residues)) for d in sorted(ACTIONS) for j in sorted(ACTIONS)]


def state_list(model, values):
    """A potential in state order (null where it is not defined)."""
    out = []
    for s in model.states:
        v = values.get(s)
        out.append(None if v is None else q(v))
    return out


def column_list(model, values):
    return [q(values[c]) for c in model.columns()]
