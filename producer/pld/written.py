"""The result of a pld search as a certificate writes it: the route, the recipe and the certified ends.

``dpsgd/1`` and ``accounting/1`` write the same answer (docs/dpsgd.md §3-§7): this is its one home.  The
engine's orders are ``forward``/``backward``; a kind may write them under its own names (dpsgd/1: ``remove``
and ``add``, the neighbour each stands for).
"""

from producer.pld.mechanism import ORDERS
from producer.rationals import format_rational, significant_outward

DISPLAY_DIGITS = 10


def _windows_json(windows):
    if windows is None:
        return None
    return {"stages": [[list(w) for w in stage] for stage in windows["stages"]],
            "combine": [list(w) for w in windows["combine"]]}


def _discretisation(outcome, names):
    plan = outcome.plan
    out = {"grid": plan.grid, "p_bits": plan.p_bits, "q_bits": plan.q_bits,
           "ranges": [list(r) for r in outcome.ranges],
           "windows": {names[order]: {"upper": _windows_json(outcome.windows[order]["upper"]),
                                      "lower": _windows_json(outcome.windows[order]["lower"])}
                       for order in ORDERS}}
    if outcome.regrids:  # absent when there is none (the recipes written before regrids read the same)
        out["regrids"] = [g.as_json() for g in outcome.regrids]
    if outcome.split is not None:  # likewise absent when the single step is not split
        out["split"] = outcome.split.as_json(names)
    return out


def display(value, direction):
    """``value`` rounded outward (down for -1, up for +1) to :data:`DISPLAY_DIGITS` significant digits."""
    return significant_outward(value, DISPLAY_DIGITS, direction)


def outcome_json(outcome, names=None):
    """The ``result`` fields of an :class:`producer.pld.enclose.Outcome`; ``names`` maps the engine's orders
    to the names the kind writes (None: as they are)."""
    names = names or {order: order for order in ORDERS}
    result = {"route": outcome.route,
              "discretisation": _discretisation(outcome, names) if outcome.route == "pld" else None}
    if outcome.route == "lattice":  # the lattice route's recipe: K and the windows of its one power
        result["lattice"] = {"bits": outcome.plan, "windows": [list(w) for w in outcome.windows]}
    if outcome.points is None:
        result.update({"epsilon_lo": format_rational(outcome.epsilon_lo),
                       "epsilon_hi": format_rational(outcome.epsilon_hi),
                       "epsilon_lo_display": display(outcome.epsilon_lo, -1),
                       "epsilon_hi_display": display(outcome.epsilon_hi, +1),
                       "lower_order": names.get(outcome.lower_order)})
    else:
        result["points"] = [{"epsilon": format_rational(p.epsilon), "lower": format_rational(p.lower),
                             "upper": format_rational(p.upper), "lower_display": display(p.lower, -1),
                             "upper_display": display(p.upper, +1), "lower_order": names.get(p.order)}
                            for p in outcome.points]
    return result
