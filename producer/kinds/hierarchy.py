"""The ``hierarchy/1`` certificate: Δ*_C(ε) <= upper (and so ε*_C(δ) <= ε) through a game above G_C.

Question (``input``): γ (0 < γ < 1), σ², C, the model (the proof hierarchy
P_H or the cut game U_S of *Exact Compilation and Resource Laws for Hidden
Integer Feedback*, §5 and Appendix E), the query (δ or ε) and the numerics
(source radius and scale, grid priors and bits, table scale).  Fields and how
each is re-checked: docs/hierarchy.md.

Limits: at most :data:`MAX_PRIORS` grid priors and :data:`MAX_WORK`
perspective-sum terms, and the auditor's hierarchy limits
(producer/hierarchy/auditability.py), refused before the tables are solved.
"""

import time
from types import MappingProxyType

from gmpy2 import mpq, mpz

from producer.certificates.canonical import make_certificate
from producer.display import mechanism_inputs, rational, show, up
from producer.errors import InputError, LimitError
from producer.hierarchy.auditability import certificate_cost, check_auditable_hierarchy, check_budget
from producer.hierarchy.dg_bound import THRESHOLD_GAP, bound_at, smallest_epsilon
from producer.hierarchy.grid import check_logit_range, log_odds_grid
from producer.hierarchy.models import CutModel, DepthModel, parse_cuts
from producer.hierarchy.sampled import Sandwich
from producer.immutable import Immutable
from producer.laws import parse_gamma
from producer.names import entry, option
from producer.rationals import (decimal_outward, format_rational, parse_integer, parse_rational, parse_scale,
                                significant_outward)
from producer.sources.discrete_gaussian import DiscreteGaussianSource, check_sigma2
from producer.sources.enclosures import check_threshold_size

KIND, VERSION = "hierarchy", 1
# F = 56 and S = 2^48 keep every line coefficient below 2^58 and every row numerator below 2^50,
# so the exact int64 limb path applies (producer.hierarchy.limbs); larger values use Python integers.
DEFAULTS = {"radius": 24, "source_scale": mpz(2) ** 48, "scale_bits": 56, "grid_bits": 64,
            "priors": 1500, "logit_range": mpq(10)}
MAX_PRIORS = 20000
MAX_WORK = 10**9  # perspective-sum terms; C8 P_4 at 603 priors is 1.6·10^8 (about 1.5 min here)
UPPER_DIGITS = 18


class Request(Immutable):
    """γ, σ², C, a model (depth H or cut set S), a query (δ or ε) and the numerics; validated here."""

    __slots__ = ("gamma", "sigma2", "budget", "model", "delta", "epsilon", "numerics")

    def __init__(self, gamma, sigma2, budget, depth=None, cuts=None, delta=None, epsilon=None, **numerics):
        if (depth is None) == (cuts is None):
            raise InputError(f"model: give exactly one of {option('depth', 'H')} or {option('cuts', 'S')}")
        if (delta is None) == (epsilon is None):
            raise InputError(f"query: give exactly one of {option('delta', 'δ')} or {option('epsilon', 'ε')}")
        self.gamma = parse_gamma(gamma)
        if self.gamma.is_zero:  # hierarchy/1 is defined for hidden feedback only
            raise InputError(f"gamma: the hierarchy needs hidden feedback, 0 < γ < 1 (γ = 0 is plain "
                             f"composition: {entry('calibrate', gamma=0)} answers ε at δ, {entry('plain')} δ at ε, "
                             f"C <= 1024)")
        self.sigma2 = check_sigma2(sigma2)
        self.budget = int(budget)
        if self.budget < 1:
            raise InputError(f"budget: C must be >= 1, got {self.budget}")
        check_budget(self.budget, self.gamma.B)
        self.model = DepthModel(self.budget, depth) if depth is not None else CutModel(self.budget, cuts)
        self.delta = None if delta is None else mpq(delta)
        self.epsilon = None if epsilon is None else mpq(epsilon)
        if self.delta is not None and not 0 < self.delta < 1:
            raise InputError(f"delta: need 0 < δ < 1, got {self.delta}")
        if self.epsilon is not None and self.epsilon < 0:
            raise InputError(f"epsilon: must be >= 0, got {self.epsilon}")
        if self.epsilon is not None:
            check_threshold_size(self.epsilon, THRESHOLD_GAP)
        self.numerics = MappingProxyType(_numerics(numerics))

    @classmethod
    def from_strings(cls, gamma, sigma2, budget, *, depth=None, cuts=None, delta=None, epsilon=None, priors=None,
                     logit_range=None, radius=None, source_scale=None, scale_bits=None, grid_bits=None):
        """Parse user text exactly; ``cuts`` a list of cut indices or ``"all"``, ``"all-minus:1,3"``,
        ``"all-minus-mod:4:1"``; ``source_scale`` an integer, ``"2^k"`` or ``"1e24"``."""
        budget = parse_integer(budget, "budget")
        gamma = parse_gamma(gamma)
        if cuts is not None and budget >= 1 and not gamma.is_zero:  # (else the constructor refuses)
            check_budget(budget, gamma.B)      # before a list of up to C − 1 cuts
            cuts = parse_cuts(cuts if isinstance(cuts, str) else ",".join(str(c) for c in cuts), budget)

        def optional(value, parse, what):
            return None if value is None else parse(value, what)

        return cls(gamma, parse_rational(sigma2, "sigma2"), budget,
                   depth=optional(depth, parse_integer, "depth"), cuts=cuts,
                   delta=optional(delta, parse_rational, "delta"), epsilon=optional(epsilon, parse_rational, "epsilon"),
                   priors=optional(priors, parse_integer, "priors"),
                   logit_range=optional(logit_range, parse_rational, "logit range"),
                   radius=optional(radius, parse_integer, "radius"),
                   source_scale=None if source_scale is None else parse_scale(source_scale),
                   scale_bits=optional(scale_bits, parse_integer, "scale bits"),
                   grid_bits=optional(grid_bits, parse_integer, "grid bits"))

    def as_json(self):
        n = self.numerics
        query = {"delta": format_rational(self.delta)} if self.delta is not None else \
            {"epsilon": format_rational(self.epsilon)}
        return {
            "gamma": str(self.gamma),
            "sigma2": format_rational(self.sigma2),
            "budget": self.budget,
            "model": self.model.as_json(),
            "query": query,
            "numerics": {"radius": n["radius"], "source_scale": str(int(n["source_scale"])),
                         "scale_bits": n["scale_bits"], "grid_bits": n["grid_bits"], "priors": n["priors"],
                         "logit_range": format_rational(n["logit_range"])},
        }


def _numerics(given):
    """The numerics with their defaults, normalised and checked."""
    unknown = set(given) - set(DEFAULTS)
    if unknown:
        raise InputError(f"numerics: unknown option(s) {sorted(unknown)}")
    n = dict(DEFAULTS)
    n.update({k: v for k, v in given.items() if v is not None})
    n["radius"], n["scale_bits"], n["grid_bits"], n["priors"] = (
        int(n["radius"]), int(n["scale_bits"]), int(n["grid_bits"]), int(n["priors"]))
    n["source_scale"], n["logit_range"] = mpz(n["source_scale"]), mpq(n["logit_range"])
    if not 8 <= n["scale_bits"] <= 256:
        raise InputError(f"scale bits: F must lie in 8..256, got {n['scale_bits']}")
    if not 1 <= n["priors"] <= MAX_PRIORS:
        raise InputError(f"priors: must lie in 1..{MAX_PRIORS}, got {n['priors']}")
    check_logit_range(n["logit_range"])
    return n


def prepare(request, log=lambda message: None):
    """(source, grid, sandwich) of ``request``, every limit checked: what is left is solving the tables."""
    n = request.numerics
    source = DiscreteGaussianSource.from_radius_scale(request.sigma2, n["radius"], n["source_scale"])
    grid = log_odds_grid(n["priors"], n["grid_bits"], float(n["logit_range"]))
    log(f"{request.model} at C = {request.budget}: source L = {source.radius}, tau <= {float(source.tau):.3e}, "
        f"{len(grid)} priors")
    check_auditable_hierarchy(request.model, request.gamma.B, len(source.as_json()["weights"]), len(grid),
                              n["source_scale"], n["scale_bits"], n["grid_bits"])
    sandwich = Sandwich(request.model, source.law, request.gamma, grid, n["grid_bits"], n["scale_bits"], progress=log)
    if sandwich.work() > MAX_WORK:
        raise LimitError(f"work: {sandwich.graph.counts()['branches']} branches × {len(grid)} priors = "
                         f"{sandwich.work():.3e} terms exceed the limit {MAX_WORK:.0e} "
                         "(fewer priors or a smaller model)")
    return source, grid, sandwich


def build(request, progress=None):
    """The hierarchy/1 certificate for ``request`` (each step, with the time so far, to ``progress``)."""
    start = time.monotonic()

    def log(message):
        if progress:
            progress(f"{message} ({time.monotonic() - start:.1f} s)")

    n = request.numerics
    source, grid, sandwich = prepare(request, log)
    table = [int(e) for e in sandwich.solve()]

    def evaluate(epsilon):
        return bound_at(epsilon, table, grid, n["grid_bits"], n["scale_bits"], source.tau, request.budget)

    if request.delta is not None:
        bound = smallest_epsilon(request.delta, evaluate)
    else:
        bound = evaluate(request.epsilon)
    log(f"eps = {significant_outward(bound.epsilon, 7, +1)}: upper {significant_outward(bound.upper, 13, +1)}")
    meets = None if request.delta is None else bool(bound.upper <= request.delta)
    if meets is False:  # smallest_epsilon only returns bounds that meet δ
        raise ArithmeticError("hierarchy: the bound found does not meet δ")
    result = {
        "source": source.as_json(),
        "tau": format_rational(source.tau),
        "grid": {"bits": n["grid_bits"], "numerators": [str(g) for g in grid]},
        "scale_bits": n["scale_bits"],
        "graph": sandwich.graph.counts(),
        "root_excess": [str(e) for e in table],
        "epsilon": format_rational(bound.epsilon),
        "epsilon_display": decimal_outward(bound.epsilon, 6, +1),
        "threshold": {"lower": format_rational(bound.lam_lo), "upper": format_rational(bound.lam_hi)},
        "prior": format_rational(bound.prior),
        "finite_upper": format_rational(bound.finite),
        "transfer": format_rational(bound.transfer),
        "upper": format_rational(bound.upper),
        "upper_display": decimal_outward(bound.upper, UPPER_DIGITS, +1),
        "delta": None if request.delta is None else format_rational(request.delta),
        "meets_delta": meets,
    }
    return make_certificate(KIND, VERSION, request.as_json(), result)


def _model_text(model):
    if model["game"] == "depth":
        return f"commitment hierarchy, depth {model['depth']}"
    cuts = model["cuts"]
    shown = ", ".join(str(c) for c in cuts[:8]) + (", …" if len(cuts) > 8 else "")
    return f"cut game U_S, S = {{{shown}}} ({len(cuts)} cuts)"


def claim(cert):
    inp, res = cert["input"], cert["result"]
    C, query = inp["budget"], inp["query"]
    if "delta" in query and query["delta"] is not None:
        answer = f"ε*_{C}({show(rational(query['delta']))}) ≤ {res['epsilon_display']}"
    else:
        answer = f"Δ*_{C}({show(rational(query['epsilon']))}) ≤ {up(res['upper'])}"
    return f"{answer} for {mechanism_inputs(inp)} ({_model_text(inp['model'])})"


def auditor_cost(cert):
    """The auditor's budget estimate of a hierarchy/1 certificate (producer.hierarchy.auditability)."""
    return certificate_cost(cert)
