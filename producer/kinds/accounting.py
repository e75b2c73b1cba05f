"""The ``accounting/1`` certificate: certified ε(δ) or δ(ε) of a tree of mechanisms (dp_accounting's DpEvents).

Question (``input``): the event tree (dp_accounting's class and field names,
numbers exact), the neighbouring relation (``add_or_remove_one`` or
``replace_one``), and either δ (the answer encloses ε(δ), the smallest ε with
δ(ε) <= δ) or a list of ε (each δ(ε) enclosed), within the relative width R.
δ(ε) is the larger of the two orders' hockey-stick divergences of the
product of the stages' dominating pairs.  Result: the stages the tree reads
into (a claim), the route (``gaussian`` closed form when every stage is an
unsampled Gaussian, ``lattice`` — exact, with its recipe of K and windows —
when the stages are one randomized-response stage, else ``pld``, the
computation of dpsgd/1 stage by stage, with its recipe) and the enclosures.  docs/accounting.md has the
mathematics, docs/kinds.md the fields.

Limits (docs/accounting.md §6; the auditor's are the same): at most 10^4
events nested at most 100 deep, every number of the tree with numerator and
denominator of at most 256 bits, at most 16 components of a mixture;
σ in [1/10, 10^4], b in [1/100, 10^4], Δ in [0, 100], q in [0, 1],
p in (0, 1], k in [1, 10^9], counts in [0, 10^7]; at most 16 stages and
Σ T <= 10^7; 10^-30 <= δ < 1, or 1 to 64 distinct ε in [0, 500];
10^-6 <= R <= 1/2.  Refused before the work, in one line: every event class
the kind does not read (naming what answers instead), a leaf the relation
does not define, a tree with no privacy loss, and what dpsgd/1 refuses
(docs/dpsgd.md §10).

Errors name the API's parameters (``delta``, ``epsilons``,
``neighboring_relation``, ``rel_width``, ``event``); :func:`for_command`
renders the same error with the command's flags.
"""

import sys

from gmpy2 import mpq

from producer import audit_budget
from producer.certificates.canonical import make_certificate
from producer.errors import InputError, LimitError
from producer.immutable import Immutable
from producer.pld import lattice
from producer.pld.enclose import certify
from producer.pld.events import (ADD_OR_REMOVE, RELATIONS, REPLACE, REPLACE_SPECIAL, event_json, read_number,
                                 stages)
from producer.pld.search import certificate_cost
from producer.pld.written import outcome_json
from producer.names import option
from producer.rationals import describe_rational, epsilon_items, format_rational

KIND, VERSION = "accounting", 1

MIN_DELTA = mpq(1, 10**30)
MAX_POINTS = 64
MAX_EPSILON = mpq(500)
MIN_REL_WIDTH, MAX_REL_WIDTH = mpq(1, 10**6), mpq(1, 2)
DEFAULT_REL_WIDTH = mpq(1, 1000)

# each parameter's name as the caller writes it (producer.names: the API's parameter, or the command's flag)
NAMES = {"event": dict(name="event"), "delta": dict(name="delta"), "epsilons": dict(name="epsilons"),
         "relation": dict(name="neighboring_relation", flag="--relation"), "rel_width": dict(name="rel_width"),
         "effort": dict(name="effort")}


def _named(key):
    spec = NAMES[key]
    return option(spec["name"], flag=spec.get("flag"))


def _refusal(cls, template, **values):
    """An ``cls`` error from ``template`` ({delta}, {event}, ... stand for the parameters, named as the caller
    writes them: ``rel_width`` from Python, ``--rel-width`` on the command line)."""
    return cls(template.format(**{k: _named(k) for k in NAMES}, **values))


def read_relation(value):
    """``add_or_remove_one``, ``replace_one`` or ``replace_special`` from a string or a dp_accounting
    NeighboringRelation member."""
    name = getattr(value, "name", value)
    if not isinstance(name, str) or name.lower() not in RELATIONS:
        shown = name if isinstance(name, str) else repr(value)
        raise _refusal(InputError, "{relation}: {shown} is not a neighbouring relation (add_or_remove_one, "
                                   "replace_one or replace_special)", shown=shown)
    return name.lower()


def _number(value, key):
    """An exact number of the parameter ``key`` (floats as their shortest decimal), named as the caller wrote it."""
    return read_number(value, _named(key), bits=None)


class Request(Immutable):
    """A validated accounting request: the tree (JSON form), the relation, the stages, δ or the ε, R."""

    __slots__ = ("event", "relation", "stages", "stages_json", "delta", "epsilons", "rel_width", "effort")
    schema = f"{KIND}/{VERSION}"

    def __init__(self, event, relation=ADD_OR_REMOVE, delta=None, epsilons=None, rel_width=DEFAULT_REL_WIDTH,
                 effort=1):
        relation = read_relation(relation)
        effort = audit_budget.read_effort(effort, _named("effort"))
        if (delta is None) == (epsilons is None):
            raise _refusal(InputError, "give exactly one question: {delta} (ε at δ) or {epsilons} (δ at each ε)")
        if delta is not None:
            delta = mpq(delta)
            if not 0 < delta < 1:
                raise _refusal(InputError, "{delta}: must lie in (0, 1), got {value}", value=describe_rational(delta))
            if delta < MIN_DELTA:
                raise _refusal(LimitError, "{delta}: {value} is below the limit 10^-30",
                               value=describe_rational(delta))
        else:
            epsilons = self._epsilons(epsilons)
        rel_width = mpq(rel_width)
        if rel_width <= 0:
            raise _refusal(InputError, "{rel_width}: must be positive, got {value}",
                           value=describe_rational(rel_width))
        if not MIN_REL_WIDTH <= rel_width <= MAX_REL_WIDTH:
            raise _refusal(LimitError, "{rel_width}: {value} is outside the limits [10^-6, 1/2]",
                           value=describe_rational(rel_width))
        try:
            tree = event_json(event)
            engine_stages, stages_json = stages(tree, relation)
        except InputError as error:
            raise _refusal(type(error), "{event}: {text}", text=str(error)) from None
        if not engine_stages:
            raise _refusal(InputError, "{event}: the tree has no privacy loss under {relation_value} (every leaf is a "
                                       "no-op, never run, never sampled, or leaves the output's law unchanged), so "
                                       "δ(ε) = 0 for every ε; there is nothing to certify",
                           relation_value=relation)
        self.event, self.relation, self.stages, self.stages_json = tree, relation, tuple(engine_stages), stages_json
        self.delta, self.epsilons, self.rel_width, self.effort = delta, epsilons, rel_width, effort

    @staticmethod
    def _epsilons(values):
        values = [mpq(e) for e in values]
        if not values:
            raise _refusal(InputError, "{epsilons}: give at least one ε")
        if len(values) > MAX_POINTS:
            raise _refusal(LimitError, "{epsilons}: {n} values exceed the limit of 64", n=len(values))
        for e in values:
            if e < 0:
                raise _refusal(InputError, "{epsilons}: ε must be >= 0, got {value}", value=describe_rational(e))
            if e > MAX_EPSILON:
                raise _refusal(LimitError, "{epsilons}: ε = {value} exceeds the limit 500", value=describe_rational(e))
        values.sort()
        for a, b in zip(values, values[1:]):
            if a == b:
                raise _refusal(InputError, "{epsilons}: {value} is given twice (each ε once)",
                               value=describe_rational(a))
        return tuple(values)

    @classmethod
    def from_strings(cls, event, delta=None, epsilons=None, neighboring_relation=ADD_OR_REMOVE, rel_width=None,
                     effort=None):
        """Read Python values exactly: strings (``"1e-5"``, ``"1/3"``), ints, Fractions, and floats as their
        shortest decimal (``0.01`` is 1/100); ``epsilons`` a list or ``"1,2,4"``."""
        relation = read_relation(neighboring_relation)
        if epsilons is not None:
            epsilons = [_number(e, "epsilons") for e in epsilon_items(epsilons, _named("epsilons"))]
        return cls(event, relation, delta=None if delta is None else _number(delta, "delta"), epsilons=epsilons,
                   rel_width=DEFAULT_REL_WIDTH if rel_width is None else _number(rel_width, "rel_width"),
                   effort=effort)

    def as_json(self):
        data = {"event": self.event, "relation": self.relation, "rel_width": format_rational(self.rel_width)}
        if self.effort > 1:   # an opt-in; a request without it writes the bytes it always did
            data["effort"] = self.effort
        if self.delta is not None:
            data["delta"] = format_rational(self.delta)
        else:
            data["epsilons"] = [format_rational(e) for e in self.epsilons]
        return data


def build(request, progress=None):
    """The sealed accounting/1 certificate (a dict) of a :class:`Request`; ``progress`` receives text lines."""
    log = progress if progress is not None else (lambda message: None)
    outcome = lattice.certify(request, log) if lattice.applies(request.stages) else certify(request, log)
    return make_certificate(KIND, VERSION, request.as_json(), dict(outcome_json(outcome), stages=request.stages_json))


def auditor_cost(cert):
    """The auditor's budget estimate of an accounting/1 certificate (producer.pld.search, with each law's
    mass constant; the lattice route's products, producer.pld.lattice); the gaussian route is a closed form
    and counts nothing."""
    res = cert["result"]
    if res["route"] not in ("pld", "lattice"):
        return None
    engine_stages, _ = stages(event_json(cert["input"]["event"]), read_relation(cert["input"]["relation"]))
    if res["route"] == "lattice":
        return lattice.cost_of(res["stages"][0]["count"], res["lattice"]["bits"], res["lattice"]["windows"],
                               engine_stages[0].law)
    orders = [res["lower_order"]] if "points" not in res else [p["lower_order"] for p in res["points"]]
    return certificate_cost(list(engine_stages), res["discretisation"], {o for o in orders if o is not None})


# ---- the claim line ---------------------------------------------------------------------------

def _q(text):
    return mpq(str(text))


def describe_mechanism(m):
    """A stage mechanism in a few words (its parameters as the user wrote them)."""
    kind, q = m["mechanism"], _q(m["sampling"])
    if kind == "randomized_response":
        return f"randomized response p = {describe_rational(_q(m['noise']))}, k = {m['buckets']}"
    base = kind.removesuffix("_without_replacement")
    if base in ("gaussian", "truncated_gaussian"):
        text = f"Gaussian σ = {describe_rational(_q(m['sigma']))}"
    elif base == "gaussian_composition":
        text = f"composition of Gaussians, one of σ² = {describe_rational(_q(m['sigma_squared']))}"
    elif base == "laplace":
        text = f"Laplace b = {describe_rational(_q(m['scale']))}"
    elif base == "discrete_laplace":
        text = f"discrete Laplace a = {describe_rational(_q(m['parameter']))}, s = {m['sensitivity']}"
    elif base == "discrete_gaussian":
        text = f"discrete Gaussian σ² = {describe_rational(_q(m['sigma_squared']))}, s = {m['sensitivity']}"
    else:
        text = (f"mixture of {len(m['sensitivities'])} Gaussians σ = {describe_rational(_q(m['sigma']))}, "
                f"Δ <= {describe_rational(_q(m['sensitivities'][-1]))}")
    if kind == "truncated_gaussian":
        return (f"{text} on Poisson samples of q = {describe_rational(q)} truncated to {m['batch_size']} of "
                f"{m['dataset_size']} records")
    comma = "," if base == "gaussian_composition" else ""   # its σ² is one of several: a clause of its own
    if base != kind:
        return f"{text}{comma} on batches drawn without replacement, γ = {describe_rational(q)}"
    return text if q == 1 else f"{text}{comma} sampled at q = {describe_rational(q)}"


def _stages_text(stages_json):
    parts = [f"{describe_mechanism(s['mechanism'])} ×{s['count']}" for s in stages_json[:3]]
    if len(stages_json) > 3:
        parts.append(f"and {len(stages_json) - 3} more stages")
    return "; ".join(parts)


def _route_text(res):
    if res["route"] == "gaussian":
        return "Gaussian closed form"
    if res["route"] == "lattice":
        return f"exact lattice, K = {res['lattice']['bits']}"
    return f"certified PLD, h = 1/{res['discretisation']['grid']}"


def claim(cert):
    """The one-line answer of an accounting/1 certificate."""
    inp, res = cert["input"], cert["result"]
    route = _route_text(res)
    if "delta" in inp:
        answer = (f"ε({describe_rational(_q(inp['delta']))}) ∈ [{res['epsilon_lo_display']}, "
                  f"{res['epsilon_hi_display']}]")
    else:
        answer = "; ".join(f"δ({describe_rational(_q(p['epsilon']))}) ∈ [{p['lower_display']}, {p['upper_display']}]"
                           for p in res["points"])
    names = {ADD_OR_REMOVE: "add/remove", REPLACE: "replace-one", REPLACE_SPECIAL: "replace-special"}
    relation = names[inp["relation"]]
    return f"{answer} for {_stages_text(res['stages'])} ({relation}; {route})"


def progress_printer(prefix="account"):
    return lambda message: print(f"{prefix}: {message}", file=sys.stderr, flush=True)


__all__ = ["KIND", "VERSION", "Request", "build", "claim", "auditor_cost", "REPLACE"]
