"""Checks of ``hierarchy-exact/1`` certificates (docs/paper-claims.md §1).

Re-proved by the auditor's own route, in this order:

1. the input's domain (γ = a/B reduced with 0 < a < B, a law of non-negative
   weights with a positive total, distinct priors in [0, 1], distinct models,
   cuts strictly increasing within 0..C−2): otherwise MALFORMED;
2. the limits, before any curve (§1.4): B <= 9, at most 9 weights of total
   <= 10^6, per model the pending-key bound 2·Σ_{c<C} Σ_{j<=h(c)} B^j <= 5,000
   (h(c) the longest pending word at level c), then the reachable graph
   (rebuilt, rows counted over the hidden draws) at most 10,000 branches and
   at most 256 selectors; beyond any of them UNCHECKED;
3. per model: the graph counts, the root function on exact curves
   (:mod:`auditor.hierarchy.exact`: testing-curve chains, Cvx(min) as the
   lower hull of the groups' vertices) — refused (UNCHECKED) when a node curve
   exceeds 10,000 vertices, the producer's rule — its values at the priors,
   and for Q_H the selector states, their number, the distinct root functions
   and Cvx(min over the selectors' roots);
4. the chain: gaps, ``strictly_increasing``, ``non_decreasing``.

``name`` is checked to be the model's display name (G_C, P_H, Q_H, U_{cuts}).
"""

import json
from fractions import Fraction
from math import lcm

from auditor.certificate import Malformed
from auditor.common import integer
from auditor.claims import law_text, rational_text
from auditor.hierarchy.curves import convex_minimum, value_at
from auditor.hierarchy.exact import ExactGame, distinct_functions
from auditor.hierarchy.graph import Graph
from auditor.hierarchy.model import Model
from auditor.hierarchy.words import Words
from auditor.outcomes import Unchecked
from auditor.rationals import read_integer, read_rational

__all__ = ["verify", "claim", "MAX_B", "MAX_WEIGHTS", "MAX_TOTAL", "MAX_PENDING_KEYS", "MAX_BRANCHES",
           "MAX_SELECTORS"]

I, R = "/input", "/result"

MAX_B = 9
MAX_WEIGHTS = 9
MAX_TOTAL = 10 ** 6
MAX_PENDING_KEYS = 5_000
MAX_BRANCHES = 10_000
MAX_SELECTORS = 256


def verify(cert, report):
    inp, res = cert["input"], cert["result"]
    a, B, weights, offset, priors, models = _input(inp)
    C = inp["budget"]
    plans = _plans(a, B, weights, offset, C, models)       # graphs and limits, before any curve
    values = _models(res, plans, priors, report)
    if values is not None:
        _chain(res, priors, values, report)


# 1. input -----------------------------------------------------------------
def _input(inp):
    gamma = read_rational(inp["gamma"], I + "/gamma")
    a, B = gamma.numerator, gamma.denominator
    if not 0 < a < B:
        raise Malformed(f"{I}/gamma: {inp['gamma']} is not a fraction a/B with 0 < a < B")
    if B > MAX_B:
        raise Unchecked(I + "/gamma", B, MAX_B, "the denominator B of γ")
    law = inp["law"]
    if len(law["weights"]) > MAX_WEIGHTS:
        raise Unchecked(I + "/law/weights", len(law["weights"]), MAX_WEIGHTS, "number of weights")
    weights = [read_integer(w, f"{I}/law/weights/{i}") for i, w in enumerate(law["weights"])]
    offset = integer(law["offset"], I + "/law/offset")
    total = sum(weights)
    if total <= 0:
        raise Malformed(f"{I}/law/weights: the weights sum to {total}, not a law")
    if total > MAX_TOTAL:
        raise Unchecked(I + "/law/weights", total, MAX_TOTAL, "total S of the weights")
    priors = [read_rational(t, f"{I}/priors/{j}") for j, t in enumerate(inp["priors"])]
    for j, t in enumerate(priors):
        if not 0 <= t <= 1:
            raise Malformed(f"{I}/priors/{j}: {inp['priors'][j]} is not in [0, 1]")
    if len(set(priors)) != len(priors):
        raise Malformed(f"{I}/priors: the priors are not distinct")
    C = inp["budget"]
    seen = set()
    for i, spec in enumerate(inp["models"]):
        key = json.dumps(spec, sort_keys=True)
        if key in seen:
            raise Malformed(f"{I}/models/{i}: {key} repeats an earlier model")
        seen.add(key)
        if spec["game"] == "cuts":
            cuts = spec["cuts"]
            if any(x >= y for x, y in zip(cuts, cuts[1:])) or any(not 0 <= x <= C - 2 for x in cuts):
                raise Malformed(f"{I}/models/{i}/cuts: {cuts} is not strictly increasing within 0..C−2 = 0..{C - 2}")
    return a, B, weights, offset, priors, inp["models"]


# 2. graphs and limits -------------------------------------------------------
def graph_model(C, spec):
    """The Model whose graph a model spec is computed on (Q_H: the P_H graph; G_C: no cuts)."""
    if spec["game"] == "full":
        return Model(C, cuts=())
    if spec["game"] == "cuts":
        return Model(C, cuts=spec["cuts"])
    return Model(C, depth=spec["depth"])


def pending_key_bound(model, B):
    """2·Σ_{c<C} Σ_{j<=h(c)} B^j, h(c) = max(longest group of G_{c+1}, h(c+1) − 1)."""
    C = model.budget
    total, h = 0, 0
    for c in range(C - 1, -1, -1):
        h = max(max(model.root_groups(c + 1)), h - 1)
        total += 2 * sum(B ** j for j in range(1, h + 1))
    return total


class _Plan:
    __slots__ = ("spec", "pointer", "graph", "game")

    def __init__(self, spec, pointer, graph):
        self.spec, self.pointer, self.graph = spec, pointer, graph
        self.game = ExactGame(graph, pointer)


def _plans(a, B, weights, offset, C, models):
    specs = [(i, spec, graph_model(C, spec)) for i, spec in enumerate(models)]
    for i, _, model in specs:
        bound = pending_key_bound(model, B)
        if bound > MAX_PENDING_KEYS:
            raise Unchecked(f"{I}/models/{i}", bound, MAX_PENDING_KEYS, "pending-key bound of the model")
    words = Words(a, B)
    plans = []
    for i, spec, model in specs:
        graph = Graph(weights, offset, a, B, model, words)
        branches = graph.counts()["branches"]
        if branches > MAX_BRANCHES:
            raise Unchecked(f"{I}/models/{i}", branches, MAX_BRANCHES, "branches of the model's reachable graph")
        plan = _Plan(spec, f"{I}/models/{i}", graph)
        if spec["game"] == "portfolio":
            count = 1
            for _, lengths in plan.game.selector_states():
                count *= len(lengths)
            if count > MAX_SELECTORS:
                raise Unchecked(f"{I}/models/{i}", count, MAX_SELECTORS, "selectors of the portfolio")
        plans.append(plan)
    return plans


# 3. models ------------------------------------------------------------------
def model_name(spec, C):
    """The display name: G_C, P_H, Q_H or U_{b1,b2,...}."""
    game = spec["game"]
    if game == "full":
        return f"G_{C}"
    if game == "depth":
        return f"P_{spec['depth']}"
    if game == "portfolio":
        return f"Q_{spec['depth']}"
    return "U_{" + ",".join(str(b) for b in spec["cuts"]) + "}"


def _state_json(state):
    if state[0] == "G":
        return {"state": "G", "c": state[1]}
    return {"state": "R", "c": state[1], "d": state[2]}


def _models(res, plans, priors, report):
    entries = res["models"]
    if not report.equal(R + "/models", len(entries), len(plans), "number of model entries (one per input model)"):
        return None
    values = []
    for i, (entry, plan) in enumerate(zip(entries, plans)):
        P = f"{R}/models/{i}"
        C = plan.graph.model.budget
        report.check(entry["model"] == plan.spec, P + "/model", json.dumps(entry["model"]), json.dumps(plan.spec),
                     "model differs from input.models[i]")
        report.equal(P + "/name", entry["name"], model_name(plan.spec, C), "display name of the model")
        root = _root(entry, plan, P, report)
        mine = [Fraction(value_at(root, t)) for t in priors]
        claimed = entry["values"]
        if report.equal(P + "/values", len(claimed), len(priors), "number of values (one per prior)"):
            for j, (text, v) in enumerate(zip(claimed, mine)):
                report.equal(f"{P}/values/{j}", read_rational(text, f"{P}/values/{j}"), v,
                             "root value u(t_j) of the exact curves")
        values.append(mine)
    return values


def _root(entry, plan, P, report):
    game = plan.game
    if plan.spec["game"] != "portfolio":
        counts = plan.graph.counts()
        graph = entry["graph"]
        if report.check(graph is not None, P + "/graph", None, "counts", "a non-portfolio model states its graph"):
            for key in ("synchronised", "free", "pending", "branches"):
                report.equal(f"{P}/graph/{key}", graph[key], counts[key], f"{key} count of the rebuilt graph")
        report.check(entry["portfolio"] is None, P + "/portfolio", "an object", None,
                     "only a portfolio model has portfolio fields")
        return game.root()
    report.check(entry["graph"] is None, P + "/graph", "counts", None, "a portfolio states no graph")
    states = game.selector_states()
    roots = game.selector_roots()
    count = 1
    for _, lengths in states:
        count *= len(lengths)
    claimed = entry["portfolio"]
    if report.check(claimed is not None, P + "/portfolio", None, "the selector fields",
                    "a portfolio model states its selectors"):
        report.check(claimed["states"] == [_state_json(s) for s, _ in states], P + "/portfolio/states",
                     json.dumps(claimed["states"]), json.dumps([_state_json(s) for s, _ in states]),
                     "selector states differ from the free states of the P_H graph with >= 2 lengths")
        report.equal(P + "/portfolio/selectors", claimed["selectors"], count, "number of selectors")
        report.equal(P + "/portfolio/distinct_roots", claimed["distinct_roots"], distinct_functions(roots),
                     "number of distinct selector root functions")
    return convex_minimum(roots)


# 4. chain ---------------------------------------------------------------------
def _chain(res, priors, values, report):
    chain = res["chain"]
    if not report.equal(R + "/chain", len(chain), len(priors), "number of chain entries (one per prior)"):
        return
    for j, (entry, t) in enumerate(zip(chain, priors)):
        P = f"{R}/chain/{j}"
        report.equal(P + "/prior", read_rational(entry["prior"], P + "/prior"), t, "prior (input.priors[j])")
        column = [v[j] for v in values]
        gaps = [y - x for x, y in zip(column, column[1:])]
        claimed = entry["gaps"]
        if report.equal(P + "/gaps", len(claimed), len(gaps), "number of gaps (models − 1)"):
            for i, (text, gap) in enumerate(zip(claimed, gaps)):
                report.equal(f"{P}/gaps/{i}", read_rational(text, f"{P}/gaps/{i}"), gap,
                             "gap values[i+1] − values[i]")
        report.equal(P + "/strictly_increasing", entry["strictly_increasing"], all(g > 0 for g in gaps),
                     "every gap > 0")
        report.equal(P + "/non_decreasing", entry["non_decreasing"], all(g >= 0 for g in gaps), "every gap >= 0")


# summary ------------------------------------------------------------------------
def claim(cert):
    """``(G_4, P_3, P_2, Q_2, P_1)(1/2) = (3737, 3740, 3746, 3748, 3753)/3888, strictly increasing; ...``."""
    inp, res = cert["input"], cert["result"]
    names = [m["name"] for m in res["models"]]
    parts = []
    for j, entry in enumerate(res["chain"]):
        column = [read_rational(m["values"][j], "") for m in res["models"]]
        den = 1
        for v in column:
            den = lcm(den, v.denominator)
        if all(len(str(v * den)) <= 12 for v in column) and den < 10 ** 12:
            shown = f"({', '.join(str(v * den) for v in column)})/{den}" if den > 1 else \
                f"({', '.join(str(v) for v in column)})"
        else:
            shown = "(" + ", ".join(rational_text(v) for v in column) + ")"
        order = ("strictly increasing" if entry["strictly_increasing"]
                 else "non-decreasing" if entry["non_decreasing"] else "not monotone")
        parts.append(f"({', '.join(names)})({rational_text(read_rational(entry['prior'], ''))}) = {shown}, {order}")
    text = "; ".join(parts[:3]) + (f"; and {len(parts) - 3} more priors" if len(parts) > 3 else "")
    return (f"{text} for gamma = {rational_text(read_rational(inp['gamma'], ''))}, law {law_text(inp['law'])}, "
            f"C = {inp['budget']} (exact hierarchy values)")
