"""The ``dpsgd/1`` certificate: certified ε(δ) or δ(ε) of DP-SGD (the Poisson-subsampled Gaussian).

Question (``input``): a schedule of stages (sampling rate q, noise multiplier
σ, steps T), and either δ (the answer is an enclosure [ε_lo, ε_hi] of the
smallest ε with δ(ε) <= δ) or a list of ε (the answer is, for each, an
enclosure [lower, upper] of δ(ε)), and the relative width R asked for.
δ(ε) is that of the add/remove neighbouring relation with sensitivity 1: the
larger of the two orders' hockey-stick divergences.  Result: the route
(``gaussian`` closed form, or ``pld``: connect-the-dots above, bucketed events
below, with the discretisation that reproduces the computation) and the
enclosures.  docs/dpsgd.md has the mathematics; docs/kinds.md the fields.

Limits (the auditor's are the same): 1 to 16 stages; 1 <= T per stage and
Σ T <= 10^6; 10^-7 <= q <= 1; 1/10 <= σ <= 100; 10^-30 <= δ < 1; 1 to 64
values of ε in [0, 500], distinct; 10^-6 <= R <= 1/2.  Refused before the
work, in one line (docs/dpsgd.md §10): an ε(δ) above 2000 on the gaussian
route (the largest ε the auditor evaluates), one estimated above 600 on the
pld route, a first plan beyond the work budget of the whole search
(:data:`producer.pld.search.MAX_WORK`) or the auditor's limits on a recipe
(its budget of one file among them, :mod:`producer.audit_budget`), and a
single step whose predicted width is out of reach; the finished recipe is
checked once more.  A δ(ε) below 10^-100 is written [0, 10^-100], so no
number written is long.
"""

import sys

from gmpy2 import mpq

from producer import audit_budget
from producer.certificates.canonical import make_certificate
from producer.names import entry, option, subject
from producer.pld.enclose import certify
from producer.pld.mechanism import BACKWARD, FORWARD, Stage
from producer.pld.search import certificate_cost
from producer.pld.subsampled_gaussian import SubsampledGaussian
from producer.pld.written import outcome_json
from producer.errors import InputError, LimitError
from producer.rationals import (as_items, describe_rational, epsilon_items, format_rational, parse_integer,
                                parse_rational)

KIND, VERSION = "dpsgd", 1

MAX_STAGES = 16
MAX_TOTAL_STEPS = 10**6
MIN_RATE = mpq(1, 10**7)
MIN_NOISE, MAX_NOISE = mpq(1, 10), mpq(100)
MIN_DELTA = mpq(1, 10**30)
MAX_POINTS = 64
MAX_EPSILON = mpq(500)
MIN_REL_WIDTH, MAX_REL_WIDTH = mpq(1, 10**6), mpq(1, 2)
DEFAULT_REL_WIDTH = mpq(1, 1000)
ORDER_NAMES = {FORWARD: "remove", BACKWARD: "add"}  # docs/dpsgd.md names the engine's orders by the neighbour


def limit_text(value):
    """A limit as the docs write it: a power of ten from 1000 up or 1/1000 down as ``10^k``, else ``p/q``."""
    value = mpq(value)
    for power, sign in ((value, ""), (1 / value if value else value, "-")):
        if power.denominator == 1 and power >= 1000 and str(power.numerator).rstrip("0") == "1":
            return f"10^{sign}{len(str(power.numerator)) - 1}"
    return format_rational(value)


RATE_LIMIT = limit_text(MIN_RATE)
RATE_RANGE = f"[{RATE_LIMIT}, 1]"
NOISE_RANGE = f"[{limit_text(MIN_NOISE)}, {limit_text(MAX_NOISE)}]"
STEPS_LIMIT = limit_text(MAX_TOTAL_STEPS)
DELTA_LIMIT = limit_text(MIN_DELTA)
LIMITS = (f"{RATE_LIMIT} <= q <= 1, {limit_text(MIN_NOISE)} <= σ <= {limit_text(MAX_NOISE)}, "
          f"1 <= T <= {STEPS_LIMIT}, ε <= {limit_text(MAX_EPSILON)}, δ >= {DELTA_LIMIT}")


def _stage(rate, noise, steps, where):
    rate, noise = parse_rational(rate, f"{where}sampling rate"), parse_rational(noise, f"{where}noise multiplier")
    steps = parse_integer(steps, f"{where}steps")
    if not 0 < rate <= 1:
        raise InputError(f"{where}sampling rate: q must lie in (0, 1], got {describe_rational(rate)}")
    if rate < MIN_RATE:
        raise LimitError(f"{where}sampling rate: q = {describe_rational(rate)} is below the limit "
                         f"{RATE_LIMIT} ({entry('account')} takes the same mechanism as a DpEvent tree, with no lower "
                         "limit on q)")
    if noise <= 0:
        raise InputError(f"{where}noise multiplier: σ must be positive, got {describe_rational(noise)}")
    if not MIN_NOISE <= noise <= MAX_NOISE:
        raise LimitError(f"{where}noise multiplier: σ = {describe_rational(noise)} is outside the limits {NOISE_RANGE}")
    if steps < 1:
        raise InputError(f"{where}steps: T must be at least 1, got {steps}")
    if steps > MAX_TOTAL_STEPS:
        raise LimitError(f"{where}steps: T = {steps} exceeds the limit of {MAX_TOTAL_STEPS} steps")
    return Stage(SubsampledGaussian(rate, noise), steps)


def parse_stage(text):
    """A stage from ``"q:σxT"`` (e.g. ``0.01:1.1x1000``), read exactly."""
    if not isinstance(text, str) or ":" not in text or "x" not in text.split(":", 1)[1]:
        raise InputError(f"stage: {text!r} is not of the form q:σxT (e.g. 0.01:1x1000)")
    rate, rest = text.split(":", 1)
    noise, steps = rest.rsplit("x", 1)
    return _stage(rate, noise, steps, f"stage {text}: ")


def _stage_option():
    """How the caller gives a stage: ``--stage q:σxT``, or ``stages=["q:σxT"]`` in Python."""
    return option("stages", "q:σxT", flag="--stage", python='["q:σxT"]')


class Request:
    """A validated dpsgd request (immutable): stages, δ or the ε, and the relative width R."""

    __slots__ = ("stages", "delta", "epsilons", "rel_width", "effort")
    schema = f"{KIND}/{VERSION}"

    def __init__(self, stages, delta=None, epsilons=None, rel_width=DEFAULT_REL_WIDTH, effort=1):
        effort = audit_budget.read_effort(effort, option("effort"))
        stages = tuple(stages)
        if not stages:
            raise InputError(f"give a stage: {option('sampling_rate')}, {option('noise_multiplier')} and "
                             f"{option('steps')}, or {_stage_option()}")
        if len(stages) > MAX_STAGES:
            raise LimitError(f"stages: {len(stages)} stages exceed the limit of {MAX_STAGES}")
        total = sum(s.steps for s in stages)
        if total > MAX_TOTAL_STEPS:
            raise LimitError(f"steps: {total} steps in all exceed the limit of {MAX_TOTAL_STEPS}")
        if (delta is None) == (epsilons is None):
            raise InputError(f"give exactly one question: {option('delta', 'D')} or "
                             f"{option('epsilons', 'E1,E2,...')}")
        if delta is not None:
            delta = mpq(delta)
            if not 0 < delta < 1:
                raise InputError(f"delta: must lie in (0, 1), got {describe_rational(delta)}")
            if delta < MIN_DELTA:
                raise LimitError(f"delta: {describe_rational(delta)} is below the limit 10^-30")
        else:
            epsilons = self._epsilons(epsilons)
        rel_width = mpq(rel_width)
        if rel_width <= 0:
            raise InputError(f"{subject('rel_width')}: must be positive, got {describe_rational(rel_width)}")
        if not MIN_REL_WIDTH <= rel_width <= MAX_REL_WIDTH:
            raise LimitError(f"{subject('rel_width')}: {describe_rational(rel_width)} is outside the limits "
                             f"[10^-6, 1/2]")
        for name, value in (("stages", stages), ("delta", delta), ("epsilons", epsilons), ("rel_width", rel_width),
                            ("effort", effort)):
            object.__setattr__(self, name, value)

    @staticmethod
    def _epsilons(values):
        values = [mpq(e) for e in values]
        if not values:
            raise InputError("epsilons: give at least one ε")
        if len(values) > MAX_POINTS:
            raise LimitError(f"epsilons: {len(values)} values exceed the limit of {MAX_POINTS}")
        for e in values:
            if e < 0:
                raise InputError(f"epsilons: ε must be >= 0, got {describe_rational(e)}")
            if e > MAX_EPSILON:
                raise LimitError(f"epsilons: ε = {describe_rational(e)} exceeds the limit 500")
        values.sort()
        for a, b in zip(values, values[1:]):
            if a == b:
                raise InputError(f"epsilons: {describe_rational(a)} is given twice (each ε once)")
        return tuple(values)

    def __setattr__(self, name, value):
        raise AttributeError("a Request is immutable")

    @classmethod
    def from_strings(cls, sampling_rate=None, noise_multiplier=None, steps=None, stages=(), delta=None,
                     epsilons=None, rel_width=None, effort=None):
        """Parse user text (or Python numbers) exactly: one stage from the three values and/or ``stages``."""
        single = (sampling_rate, noise_multiplier, steps)
        parsed = []
        if any(v is not None for v in single):
            if any(v is None for v in single):
                raise InputError(f"give all three of {option('sampling_rate')}, {option('noise_multiplier')} and "
                                 f"{option('steps')} (or use {_stage_option()})")
            parsed.append(_stage(*single, ""))
        parsed += [parse_stage(s) for s in ([] if stages is None else as_items(stages))]  # a text is one stage
        if epsilons is not None:
            epsilons = [parse_rational(e, "epsilon") for e in epsilon_items(epsilons)]
        rel_width = DEFAULT_REL_WIDTH if rel_width is None else parse_rational(rel_width, subject("rel_width"))
        return cls(parsed, delta=None if delta is None else parse_rational(delta, "delta"), epsilons=epsilons,
                   rel_width=rel_width, effort=effort)

    def as_json(self):
        data = {"stages": [{"sampling_rate": format_rational(s.law.rate),
                            "noise_multiplier": format_rational(s.law.noise), "steps": s.steps} for s in self.stages],
                "rel_width": format_rational(self.rel_width)}
        if self.effort > 1:   # an opt-in; a request without it writes the bytes it always did
            data["effort"] = self.effort
        if self.delta is not None:
            data["delta"] = format_rational(self.delta)
        else:
            data["epsilons"] = [format_rational(e) for e in self.epsilons]
        return data


def build(request, progress=None):
    """The sealed dpsgd/1 certificate (a dict) of a :class:`Request`; ``progress`` receives text lines."""
    log = progress if progress is not None else (lambda message: None)
    outcome = certify(request, log)
    return make_certificate(KIND, VERSION, request.as_json(), outcome_json(outcome, ORDER_NAMES))


def auditor_cost(cert):
    """The auditor's budget estimate of a dpsgd/1 certificate (producer.pld.search); the gaussian route is a
    closed form and counts nothing."""
    inp, res = cert["input"], cert["result"]
    if res["route"] != "pld":
        return None
    stages = [Stage(SubsampledGaussian(_q(s["sampling_rate"]), _q(s["noise_multiplier"])), s["steps"])
              for s in inp["stages"]]
    engine = {name: order for order, name in ORDER_NAMES.items()}   # remove -> forward, add -> backward
    disc = dict(res["discretisation"], windows={engine[k]: v for k, v in res["discretisation"]["windows"].items()})
    if "split" in disc:
        disc["split"] = dict(disc["split"], body={engine[k]: v for k, v in disc["split"]["body"].items()})
    orders = [res["lower_order"]] if "points" not in res else [p["lower_order"] for p in res["points"]]
    return certificate_cost(stages, disc, {engine[o] for o in orders if o is not None})


def _q(text):
    return mpq(str(text))


def _schedule_text(inp):
    stages = inp["stages"]
    parts = [f"q = {describe_rational(_q(s['sampling_rate']))}, σ = {describe_rational(_q(s['noise_multiplier']))}, "
             f"T = {s['steps']}" for s in stages[:3]]
    if len(stages) > 3:
        parts.append(f"and {len(stages) - 3} more stages")
    return "; ".join(parts)


def claim(cert):
    """The one-line answer of a dpsgd/1 certificate."""
    inp, res = cert["input"], cert["result"]
    route = "Gaussian closed form" if res["route"] == "gaussian" else \
        f"certified PLD, h = 1/{res['discretisation']['grid']}"
    if "delta" in inp:
        delta = describe_rational(_q(inp["delta"]))
        answer = f"ε({delta}) ∈ [{res['epsilon_lo_display']}, {res['epsilon_hi_display']}]"
    else:
        points = res["points"]
        answer = "; ".join(f"δ({describe_rational(_q(p['epsilon']))}) ∈ [{p['lower_display']}, {p['upper_display']}]"
                           for p in points)
    return (f"{answer} for DP-SGD with {_schedule_text(inp)} (Poisson-subsampled Gaussian, sensitivity 1, "
            f"add/remove; {route})")


def progress_printer(prefix="dpsgd"):
    return lambda message: print(f"{prefix}: {message}", file=sys.stderr, flush=True)
