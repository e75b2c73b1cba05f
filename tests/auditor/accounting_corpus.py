"""accounting/1 certificates for the auditor's tests, made without the producer (docs/accounting.md).

* :func:`from_dpsgd`: a ``dpsgd/1`` reference rewritten as the ``accounting/1`` certificate of the same question:
  each stage (q, σ, T) a ``SelfComposedDpEvent`` of count T of a ``PoissonSampledDpEvent`` of a
  ``GaussianDpEvent`` (a ``ComposedDpEvent`` of them for a schedule), the relation ``add_or_remove_one``, the
  orders remove/add renamed forward/backward, the stages sorted by the canonical JSON of their mechanism and the
  recipe's per-stage lists (ranges, window lists) permuted the same way (the ``combine`` windows are kept: with
  two stages the one product is the same either way round, convolution being commutative).
* :func:`full_windows`: a recipe that truncates nothing (every window the whole product), so that a hand-built
  certificate's bounds are those of its grid alone.
* :func:`certificate`: a sealed ``accounting/1`` certificate from its parts.
"""

import copy
import json
from fractions import Fraction

from auditor.claims import outward
from auditor.rationals import write_rational
from tests.reseal import reseal

PRODUCER = {"name": "dp-certify-tests", "version": "0"}
ORDERS = ("forward", "backward")
ORDER_NAMES = {"remove": "forward", "add": "backward", None: None}


def canonical(mechanism):
    return json.dumps(mechanism, sort_keys=True, separators=(",", ":"))


def gaussian_event(q, sigma, steps, poisson=True):
    inner = {"class_name": "GaussianDpEvent", "noise_multiplier": sigma}
    if poisson:
        inner = {"class_name": "PoissonSampledDpEvent", "sampling_probability": q, "event": inner}
    return {"class_name": "SelfComposedDpEvent", "count": steps, "event": inner}


def from_dpsgd(cert, poisson=True):
    """The ``accounting/1`` certificate of a ``dpsgd/1`` certificate's question and recipe (module docstring)."""
    inp, res = cert["input"], copy.deepcopy(cert["result"])
    stages = inp["stages"]
    events = [gaussian_event(s["sampling_rate"], s["noise_multiplier"], s["steps"],
                             poisson=poisson or s["sampling_rate"] != "1") for s in stages]
    event = events[0] if len(events) == 1 else {"class_name": "ComposedDpEvent", "events": events}
    mechanisms = [{"mechanism": "gaussian", "sampling": s["sampling_rate"], "sigma": s["noise_multiplier"]}
                  for s in stages]
    order = sorted(range(len(stages)), key=lambda s: canonical(mechanisms[s]))
    assert len({canonical(m) for m in mechanisms}) == len(stages), "equal stages would merge"
    assert len(stages) <= 2 or order == sorted(order), "combine windows are only kept for two stages"
    out = {"schema": "accounting/1", "producer": dict(PRODUCER),
           "input": {"event": event, "relation": "add_or_remove_one", "rel_width": inp["rel_width"]},
           "result": {"stages": [{"mechanism": mechanisms[s], "count": stages[s]["steps"]} for s in order],
                      "route": res["route"], "discretisation": None},
           "digest": ""}
    for key in ("delta", "epsilons"):
        if key in inp:
            out["input"][key] = copy.deepcopy(inp[key])
    for key in ("epsilon_lo", "epsilon_hi", "epsilon_lo_display", "epsilon_hi_display"):
        if key in res:
            out["result"][key] = res[key]
    if "lower_order" in res:
        out["result"]["lower_order"] = ORDER_NAMES[res["lower_order"]]
    if "points" in res:
        out["result"]["points"] = [dict(pt, lower_order=ORDER_NAMES[pt["lower_order"]]) for pt in res["points"]]
    d = res["discretisation"]
    if d is not None:
        windows = {}
        for old, new in (("remove", "forward"), ("add", "backward")):
            chains = {}
            for side in ("upper", "lower"):
                chain = d["windows"][old][side]
                chains[side] = None if chain is None else {"stages": [chain["stages"][s] for s in order],
                                                           "combine": chain["combine"]}
            windows[new] = chains
        out["result"]["discretisation"] = {"grid": d["grid"], "p_bits": d["p_bits"], "q_bits": d["q_bits"],
                                           "ranges": [d["ranges"][s] for s in order], "windows": windows}
    return reseal(out)


def reversed_schedule(cert):
    """A two-stage ``dpsgd/1`` certificate with its stages listed the other way round (the same question: the
    product of the two stage powers is commutative), resealed."""
    out = copy.deepcopy(cert)
    out["input"]["stages"].reverse()
    d = out["result"]["discretisation"]
    d["ranges"].reverse()
    for order in ("remove", "add"):
        for side in ("upper", "lower"):
            if d["windows"][order][side] is not None:
                d["windows"][order][side]["stages"].reverse()
    return reseal(out)


def power_windows(lo, hi, steps):
    """Windows of the T-fold power of an array on [lo, hi] that keep every entry, and the power's index range."""
    windows, (a, b) = [], (lo, hi)
    for bit in bin(steps)[3:]:
        a, b = 2 * a, 2 * b
        windows.append([a, b])
        if bit == "1":
            a, b = a + lo, b + hi
            windows.append([a, b])
    return windows, (a, b)


def full_windows(ranges, counts, lower=("forward", "backward")):
    """``windows`` of a recipe that truncates nothing, both orders; lower chains for the orders in ``lower``."""
    chains = {}
    for order in ("forward", "backward"):
        per_stage, spans = [], []
        for (lo, hi), T in zip(ranges, counts):
            if order == "backward":
                lo, hi = -hi, -lo
            w, span = power_windows(lo, hi, T)
            per_stage.append(w)
            spans.append(span)
        combine, (a, b) = [], spans[0]
        for c, d in spans[1:]:
            a, b = a + c, b + d
            combine.append([a, b])
        chain = {"stages": per_stage, "combine": combine}
        chains[order] = {"upper": chain, "lower": copy.deepcopy(chain) if order in lower else None}
    return chains


def discretisation(grid, p_bits, q_bits, ranges, counts, lower=("forward", "backward")):
    return {"grid": grid, "p_bits": p_bits, "q_bits": q_bits, "ranges": [list(r) for r in ranges],
            "windows": full_windows(ranges, counts, lower)}


def point(epsilon, lower, upper, lower_order):
    lower, upper = Fraction(lower), Fraction(upper)
    return {"epsilon": write_rational(Fraction(epsilon)), "lower": write_rational(lower),
            "upper": write_rational(upper), "lower_display": outward(lower, 10)[0],
            "upper_display": outward(upper, 10)[1], "lower_order": lower_order if lower > 0 else None}


def certificate(event, relation, stages, question, rel_width, result):
    """A sealed ``accounting/1`` certificate: ``question`` {"delta": ...} or {"epsilons": [...]}, ``result`` the
    fields after ``stages`` (route, discretisation, and the ends or points)."""
    cert = {"schema": "accounting/1", "producer": dict(PRODUCER),
            "input": dict({"event": event, "relation": relation, "rel_width": rel_width}, **question),
            "result": dict({"stages": stages}, **result), "digest": ""}
    return reseal(cert)
