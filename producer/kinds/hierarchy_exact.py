"""``hierarchy-exact/1``: exact values of commitment-hierarchy games for a finite law, their chain and gaps.

For a finite innovation law ν, γ = a/B and a budget C, every game of the
hierarchy (docs/hierarchy.md §2; *Exact Compilation and Resource Laws for
Hidden Integer Feedback*, §5, App. E.2, G.1, G.3) has a node value that is a
convex piecewise-linear function u(t) of the prior t.  This kind computes the
root functions on exact rational curves (producer.hierarchy.exact) and states

- for each requested model (G_C; P_H; the fixed-selector portfolio Q_H; a cut
  game U_S) its exact root value u(t) at each requested prior, as a rational;
- the reachable graph counts of each model (synchronised, free and pending
  nodes, branches), or for Q_H the selector states and the number of distinct
  root functions;
- the chain: for each prior, the gaps between consecutive values in the order
  the models were requested, and whether they are strictly increasing.

Documented limits (the auditor's too; docs/kinds.md): C <= 6, B <= 9, at most
9 weights with total S <= 10^6, at most 16 priors and 16 models; per model at
most 5,000 pending keys by the structural bound, 10,000 branches in the reached
graph, 256 selectors for Q_H, and no node curve above 10,000 vertices (checked
while the curves are built: exact curves of irregular laws grow fast).
"""

from fractions import Fraction
from math import lcm

from gmpy2 import mpq

from producer.certificates.canonical import make_certificate
from producer.errors import InputError, LimitError
from producer.hierarchy import exact, pl
from producer.hierarchy.auditability import auditor_estimates
from producer.hierarchy.graph import Graph, Rows
from producer.hierarchy.models import CutModel, DepthModel
from producer.laws import FiniteLaw, Gamma, parse_gamma
from producer.names import entry
from producer.rationals import as_items, describe_rational, format_rational, is_sequence, parse_integer, parse_rational

KIND, VERSION = "hierarchy-exact", 1
MAX_BUDGET, MAX_B, MAX_WEIGHTS, MAX_TOTAL = 6, 9, 9, 10 ** 6
MAX_PRIORS, MAX_MODELS = 16, 16
MAX_PENDING, MAX_BRANCHES, MAX_SELECTORS, MAX_VERTICES = 5000, 10_000, 256, 10_000
GAMES = ("full", "depth", "portfolio", "cuts")


class ModelSpec:
    """One requested game: ``full`` (G_C), ``depth`` H (P_H), ``portfolio`` H (Q_H) or ``cuts`` S (U_S)."""

    __slots__ = ("game", "depth", "cuts")

    def __init__(self, game, depth=None, cuts=None):
        if game not in GAMES:
            raise InputError(f"model: unknown game {game!r} (one of {', '.join(GAMES)})")
        object.__setattr__(self, "game", game)
        object.__setattr__(self, "depth", None if depth is None else int(depth))
        if cuts is not None and cuts != "all":
            cuts = tuple(int(b) for b in cuts)
        object.__setattr__(self, "cuts", cuts)
        if game in ("depth", "portfolio") and (self.depth is None or self.depth < (2 if game == "portfolio" else 1)):
            raise InputError(f"model: {game} needs a depth H >= {2 if game == 'portfolio' else 1}, got {depth}")
        if game == "cuts" and self.cuts is None:
            raise InputError("model: a cut game needs its cut set")

    def __setattr__(self, name, value):
        raise AttributeError("a ModelSpec is immutable")

    @classmethod
    def from_text(cls, text):
        """``G``, ``P3``, ``Q2``, ``U:1+2``, ``U:none`` (the empty set) or ``U:all`` (needs the budget later)."""
        t = text.strip()
        if t == "G":
            return cls("full")
        if t[:1] in ("P", "Q") and t[1:].isdigit():
            return cls("depth" if t[0] == "P" else "portfolio", depth=int(t[1:]))
        if t.startswith("U:"):
            body = t[2:]
            if body == "none":
                return cls("cuts", cuts=())
            if body == "all":
                return cls("cuts", cuts="all")
            if all(b.strip().isdigit() for b in body.split("+")):
                return cls("cuts", cuts=sorted({int(b) for b in body.split("+")}))
        raise InputError(f"model: cannot read {text!r} (write G, P3, Q2, U:1+2, U:none or U:all)")

    def resolved(self, budget):
        """The same spec with ``U:all`` spelled out and the cuts checked against C."""
        if self.game != "cuts":
            return self
        cuts = list(range(budget - 1)) if self.cuts == "all" else list(self.cuts)
        CutModel(budget, cuts)  # raises InputError naming a cut outside 0..C−2
        return ModelSpec("cuts", cuts=cuts)

    def game_model(self, budget):
        """The producer.hierarchy.models object (G_C is the cut game with no cuts)."""
        if self.game == "full":
            return CutModel(budget, ())
        if self.game == "cuts":
            return CutModel(budget, self.cuts)
        return DepthModel(budget, self.depth)

    def name(self, budget):
        if self.game == "full":
            return f"G_{budget}"
        if self.game == "cuts":
            return f"U_{{{','.join(map(str, self.cuts))}}}"
        return f"{'P' if self.game == 'depth' else 'Q'}_{self.depth}"

    def as_json(self):
        if self.game == "full":
            return {"game": "full"}
        if self.game == "cuts":
            return {"game": "cuts", "cuts": list(self.cuts)}
        return {"game": self.game, "depth": self.depth}

    def key(self):
        return (self.game, self.depth, self.cuts)


def _priors(values):
    priors = [mpq(t) for t in values]
    if not priors:
        raise InputError("prior: give at least one prior t in [0, 1]")
    if len(priors) > MAX_PRIORS:
        raise LimitError(f"prior: {len(priors)} priors exceed the limit of {MAX_PRIORS}")
    for t in priors:
        if not 0 <= t <= 1:
            raise InputError(f"prior: t must lie in [0, 1], got {format_rational(t)}")
    if len(set(priors)) != len(priors):
        raise InputError("prior: each prior once")
    return tuple(priors)


class Request:
    """γ, a finite law, C, the priors and the models; validated once, immutable."""

    __slots__ = ("gamma", "law", "budget", "priors", "models")

    def __init__(self, gamma, law, budget, priors, models):
        gamma = gamma if isinstance(gamma, Gamma) else parse_gamma(gamma)
        if gamma.is_zero:
            raise InputError("gamma: the hierarchy needs hidden feedback, 0 < γ < 1")
        if gamma.B > MAX_B:
            raise LimitError(f"gamma: B = {gamma.B} exceeds the limit B <= {MAX_B} of exact hierarchy curves")
        if len(law.weights) > MAX_WEIGHTS:
            raise LimitError(f"weights: {len(law.weights)} weights exceed the limit of {MAX_WEIGHTS}")
        if law.total > MAX_TOTAL:
            raise LimitError(f"weights: total S = {describe_rational(law.total)} exceeds the limit 10^6")
        budget = int(budget)
        if not 1 <= budget <= MAX_BUDGET:
            raise (InputError if budget < 1 else LimitError)(f"budget: C must lie in 1..{MAX_BUDGET}, got {budget}")
        models = tuple(m.resolved(budget) for m in models)
        if not models:
            raise InputError("models: give at least one model")
        if len(models) > MAX_MODELS:
            raise LimitError(f"models: {len(models)} models exceed the limit of {MAX_MODELS}")
        if len({m.key() for m in models}) != len(models):
            raise InputError("models: each model once")
        for spec in models:
            _check_size(spec, gamma.B, budget, len(law.weights))
        for name, value in (("gamma", gamma), ("law", law), ("budget", budget), ("priors", _priors(priors)),
                            ("models", models)):
            object.__setattr__(self, name, value)

    def __setattr__(self, name, value):
        raise AttributeError("a Request is immutable")

    @classmethod
    def from_strings(cls, gamma, weights, budget, priors, models, offset=None):
        """From command-line text: ``weights`` "1,1,1", ``priors`` "1/2,1/4", ``models`` "G,P3,Q2,U:1+2"."""
        law = FiniteLaw.from_strings(weights if isinstance(weights, str) else list(_items(weights, "weights")),
                                     offset)
        prior_list = [parse_rational(p.strip(), "prior") for p in priors.split(",")] if isinstance(priors, str) \
            else [parse_rational(p, "prior") for p in _items(priors, "priors")]
        spec_list = [ModelSpec.from_text(m) for m in models.split(",")] if isinstance(models, str) \
            else [m if isinstance(m, ModelSpec) else ModelSpec.from_text(str(m)) for m in _items(models, "models")]
        return cls(parse_gamma(gamma), law, parse_integer(budget, "budget"), prior_list, spec_list)

    def as_json(self):
        return {"gamma": str(self.gamma), "law": self.law.as_json(), "budget": self.budget,
                "priors": [format_rational(t) for t in self.priors],
                "models": [m.as_json() for m in self.models]}


def _items(value, what):
    """The items of a list parameter given as a sequence (a numpy array too); one bare number is one item."""
    if is_sequence(value) or isinstance(value, (int, float, Fraction)) or type(value).__module__ in ("numpy", "gmpy2"):
        return as_items(value)
    raise InputError(f"{what}: expected a comma-separated text or a list, got {type(value).__name__}")


def _check_size(spec, B, budget, n_weights):
    """Structural limits, before any curve is built (the pending-key bound of docs/hierarchy.md §9)."""
    model = DepthModel(budget, spec.depth) if spec.game == "portfolio" else spec.game_model(budget)
    est = auditor_estimates(model, B, n_weights, 1, 64)
    if est["pending"] > MAX_PENDING:
        raise LimitError(f"{spec.name(budget)}: the pending-key bound {est['pending']} exceeds the limit "
                         f"{MAX_PENDING} of exact hierarchy curves (use {entry('hierarchy')} for a sampled bound)")
    if spec.game == "portfolio":
        count = 1
        for lengths in exact.selector_choices(budget, spec.depth)[1]:
            count *= len(lengths)
        if count > MAX_SELECTORS:
            raise LimitError(f"{spec.name(budget)}: {count} fixed selectors exceed the limit of {MAX_SELECTORS}")


def _state_json(state):
    return {"state": "G", "c": state[1]} if state[0] == "G" else {"state": "R", "c": state[1], "d": state[2]}


def _graph_of(model, rows, name):
    graph = Graph(model, rows)
    counts = graph.counts()
    if counts["branches"] > MAX_BRANCHES:
        raise LimitError(f"{name}: {counts['branches']} branches exceed the limit of {MAX_BRANCHES} "
                         "of exact hierarchy curves")
    return graph, counts


def _evaluate(spec, request, rows):
    """(root curve, graph counts or None, portfolio summary or None) of one model."""
    C, name = request.budget, spec.name(request.budget)
    if spec.game == "portfolio":
        _graph_of(DepthModel(C, spec.depth), rows, name)  # every selector graph is a subgraph of P_H's
        states, allowed = exact.selector_choices(C, spec.depth)
        hull, roots = exact.selector_portfolio(C, request.law, request.gamma, spec.depth, MAX_VERTICES)
        count = 1
        for lengths in allowed:
            count *= len(lengths)
        return hull, None, {"states": [_state_json(s) for s in states], "selectors": count,
                            "distinct_roots": len(roots)}
    model = spec.game_model(C)
    graph, counts = _graph_of(model, rows, name)
    _, curves = exact.solve(model, request.law, request.gamma, MAX_VERTICES, graph=graph)
    return curves[("G", C)], counts, None


def build(request, progress=None):
    """The sealed hierarchy-exact/1 certificate."""
    say = progress or (lambda message: None)
    rows = Rows(request.law, request.gamma)
    entries, values = [], []
    for spec in request.models:
        say(f"{spec.name(request.budget)} ...")
        curve, counts, portfolio = _evaluate(spec, request, rows)
        at = [pl.evaluate(curve, t) for t in request.priors]
        values.append(at)
        entries.append({"model": spec.as_json(), "name": spec.name(request.budget),
                        "values": [format_rational(v) for v in at], "graph": counts, "portfolio": portfolio})
        say(f"{spec.name(request.budget)}: {len(curve)} root vertices")
    chain = []
    for i, t in enumerate(request.priors):
        column = [v[i] for v in values]
        gaps = [b - a for a, b in zip(column, column[1:])]
        chain.append({"prior": format_rational(t), "gaps": [format_rational(g) for g in gaps],
                      "strictly_increasing": all(g > 0 for g in gaps),
                      "non_decreasing": all(g >= 0 for g in gaps)})
    return make_certificate(KIND, VERSION, request.as_json(), {"models": entries, "chain": chain})


def claim(cert):
    """``(G_4, P_3, …)(1/2) = (3737, 3740, …)/3888 for γ = 1/2, ν = …, C = 4; gaps 3, 6, … (strict)``."""
    inp, res = cert["input"], cert["result"]
    names = [m["name"] for m in res["models"]]
    parts = []
    for i, link in enumerate(res["chain"]):
        column = [mpq(m["values"][i]) for m in res["models"]]
        gaps = [mpq(g) for g in link["gaps"]]
        den = lcm(*(int(v.denominator) for v in column + gaps))
        if den <= 10 ** 6:
            shown = ", ".join(str(int(v * den)) for v in column)
            gap_text = ", ".join(str(int(g * den)) for g in gaps)
            text = f"({', '.join(names)})({link['prior']}) = ({shown})/{den}"
            if gaps:
                text += f"; gaps {gap_text} (/{den})"
        else:
            text = f"({', '.join(names)})({link['prior']}) = ({', '.join(format_rational(v) for v in column)})"
        if gaps:
            text += ", strictly increasing" if link["strictly_increasing"] else \
                (", non-decreasing" if link["non_decreasing"] else ", not monotone")
        parts.append(text)
    law = inp["law"]
    high = law["offset"] + len(law["weights"]) - 1
    return (f"{'; '.join(parts)} for γ = {inp['gamma']}, ν ∝ ({', '.join(law['weights'])}) on "
            f"{{{law['offset']}, …, {high}}}, C = {inp['budget']} (exact hierarchy values of a finite law)")
