"""``minimum-deletion/1``: how many cuts must be removed from S_all before the cut-game model certifies δ at ε.

The cut games U_S (docs/hierarchy.md §2) form a family ordered by inclusion:
U_{S0} <= U_{S1} for S0 ⊆ S1 (*Exact Compilation and Resource Laws for Hidden
Integer Feedback*, (26), App. E.2).  Their comparison capacity with
discrete-Gaussian innovations is D_S(ε) = U^g_S(1, e^ε) − e^ε: a property of
the MODEL (a comparison game that can only over-estimate the mechanism), not of
an attack on the mechanism.  For a set R of removed cuts this certificate holds

- a certified UPPER end D_{S_all∖R}(ε) <= upper < δ (the sampled integer
  recursion of hierarchy/1, docs/hierarchy.md §4, with the transfer of App. E.2);
- for every R' with |R'| = |R| − 1, a proof-function LOWER end
  D_{S_all∖R'}(ε) >= lower > δ (whole feasible event pairs, producer.hierarchy.lines,
  transferred by E.6: D_S(ε) >= δ̲_{ν,S}(λ₊) − (1 + λ₊)·d_C).

Together (and by the ordering) every model with fewer than |R| removed cuts
fails δ and S_all ∖ R meets it: |R| is the minimum number of removed cuts in
this family at this query (the paper's §7.2 and App. E.5: one, at C = 8, ε = 5).

Documented limits (the auditor's too): those of hierarchy/1 for the upper
model; for each lower model the same graph limits, at most 20,000 priors and
(branches × priors) <= 10^8; at most 8 lower models (C(C − 1, |R| − 1)).
"""

from math import comb
from itertools import combinations

from gmpy2 import mpq, mpz

from producer.certificates.canonical import make_certificate
from producer.errors import InputError, LimitError
from producer.hierarchy.auditability import check_auditable_hierarchy, check_budget
from producer.hierarchy.dg_bound import THRESHOLD_GAP, finite_upper
from producer.hierarchy.grid import check_grid, check_logit_range, log_odds_grid
from producer.hierarchy.lines import LineTree
from producer.hierarchy.models import CutModel, all_cuts
from producer.hierarchy.sampled import Sandwich
from producer.laws import Gamma, parse_gamma
from producer.rationals import (decimal_outward, describe_rational, format_rational, list_items, parse_integer,
                                parse_rational, parse_scale, significant_outward)
from producer.sources.discrete_gaussian import DiscreteGaussianSource, check_sigma2
from producer.sources.enclosures import exp_threshold
from producer.sources.transfer import transfer_term

KIND, VERSION = "minimum-deletion", 1
DEFAULTS = {"radius": 24, "source_scale": mpz(2) ** 48, "grid_bits": 64,
            "upper_priors": 6000, "upper_logit_range": mpq(10), "scale_bits": 56,
            "lower_priors": 1500, "lower_logit_range": mpq(12), "line_bits": 64}
MAX_PRIORS, MAX_LOWER_WORK, MAX_LOWER_MODELS, MAX_EPSILON = 20000, 10 ** 8, 8, 64
DISPLAY_DIGITS = 18


class Request:
    """γ, σ², C, ε, δ, the removed cuts R and the numerics; validated once, immutable."""

    __slots__ = ("gamma", "sigma2", "budget", "epsilon", "delta", "removed", "numerics")

    def __init__(self, gamma, sigma2, budget, epsilon, delta, removed, **numerics):
        gamma = gamma if isinstance(gamma, Gamma) else parse_gamma(gamma)
        if gamma.is_zero:
            raise InputError("gamma: cut games need hidden feedback, 0 < γ < 1")
        sigma2 = check_sigma2(sigma2)
        budget = int(budget)
        if budget < 2:
            raise InputError(f"budget: cut sets need C >= 2, got {budget}")
        check_budget(budget, gamma.B)           # before the cut sets of up to C − 1 cuts
        epsilon, delta = mpq(epsilon), mpq(delta)
        if not 0 <= epsilon <= MAX_EPSILON:
            raise InputError(f"epsilon: must lie in [0, {MAX_EPSILON}], got {describe_rational(epsilon)}")
        if not 0 < delta < 1:
            raise InputError(f"delta: need 0 < δ < 1, got {describe_rational(delta)}")
        removed = tuple(sorted({int(b) for b in removed}))
        if not removed:
            raise InputError("remove: give at least one cut to remove from S_all")
        if removed[0] < 0 or removed[-1] > budget - 2:
            raise InputError(f"remove: cuts must lie in 0..{budget - 2} (C = {budget}), got {list(removed)}")
        lowers = comb(budget - 1, len(removed) - 1)
        if lowers > MAX_LOWER_MODELS:
            raise LimitError(f"remove: {len(removed)} removed cuts need {lowers} lower models (every set with one "
                             f"cut fewer removed), above the limit of {MAX_LOWER_MODELS}")
        n = checked_numerics(numerics)
        for name, value in (("gamma", gamma), ("sigma2", sigma2), ("budget", budget), ("epsilon", epsilon),
                            ("delta", delta), ("removed", removed), ("numerics", n)):
            object.__setattr__(self, name, value)

    def __setattr__(self, name, value):
        raise AttributeError("a Request is immutable")

    @classmethod
    def from_strings(cls, gamma, sigma2, budget, epsilon, delta, remove="1", upper_priors=None, lower_priors=None,
                     radius=None, scale=None):
        removed = [parse_integer(b.strip(), "removed cut") for b in remove.split(",")] if isinstance(remove, str) \
            else [parse_integer(b, "removed cut") for b in list_items(remove, "remove")]
        numerics = parse_numerics(upper_priors, lower_priors, radius, scale)
        return cls(parse_gamma(gamma), parse_rational(sigma2, "sigma2"), parse_integer(budget, "budget"),
                   parse_rational(epsilon, "epsilon"), parse_rational(delta, "delta"), removed, **numerics)

    @property
    def upper_model(self):
        return CutModel(self.budget, [b for b in all_cuts(self.budget) if b not in self.removed])

    def lower_models(self):
        """(R', U_{S_all ∖ R'}) for every R' with |R'| = |R| − 1, in lexicographic order of R'."""
        everything = all_cuts(self.budget)
        return [(rest, CutModel(self.budget, [b for b in everything if b not in rest]))
                for rest in combinations(everything, len(self.removed) - 1)]

    def as_json(self):
        n = self.numerics
        return {"gamma": str(self.gamma), "sigma2": format_rational(self.sigma2), "budget": self.budget,
                "epsilon": format_rational(self.epsilon), "delta": format_rational(self.delta),
                "removed": list(self.removed), "numerics": numerics_json(n)}


def checked_numerics(given):
    """The numerics with defaults filled in, validated (shared with minimum-depth/1)."""
    n = dict(DEFAULTS)
    unknown = set(given) - set(DEFAULTS)
    if unknown:
        raise InputError(f"numerics: unknown option(s) {sorted(unknown)}")
    n.update({k: v for k, v in given.items() if v is not None})
    _check_numerics(n)
    return n


def numerics_json(n):
    return {"radius": n["radius"], "source_scale": str(int(n["source_scale"])),
            "grid_bits": n["grid_bits"], "scale_bits": n["scale_bits"], "line_bits": n["line_bits"],
            "upper_priors": n["upper_priors"], "lower_priors": n["lower_priors"],
            "upper_logit_range": format_rational(n["upper_logit_range"]),
            "lower_logit_range": format_rational(n["lower_logit_range"])}


def parse_numerics(upper_priors=None, lower_priors=None, radius=None, scale=None):
    """Command-line text of the numerics options (None where not given)."""
    return {"upper_priors": None if upper_priors is None else parse_integer(upper_priors, "upper priors"),
            "lower_priors": None if lower_priors is None else parse_integer(lower_priors, "lower priors"),
            "radius": None if radius is None else parse_integer(radius, "radius"),
            "source_scale": None if scale is None else mpz(parse_scale(scale, "scale"))}


def _check_numerics(n):
    for key in ("radius", "grid_bits", "scale_bits", "line_bits", "upper_priors", "lower_priors"):
        n[key] = int(n[key])
    n["source_scale"] = mpz(n["source_scale"])
    n["upper_logit_range"], n["lower_logit_range"] = mpq(n["upper_logit_range"]), mpq(n["lower_logit_range"])
    for key in ("upper_priors", "lower_priors"):
        if not 1 <= n[key] <= MAX_PRIORS:
            raise LimitError(f"{key.replace('_', ' ')}: must lie in 1..{MAX_PRIORS}, got {n[key]}")
    if not 8 <= n["scale_bits"] <= 256 or not 8 <= n["line_bits"] <= 256:
        raise InputError("scale bits / line bits: must lie in 8..256")
    for key in ("upper_logit_range", "lower_logit_range"):
        check_logit_range(n[key], key.replace("_", " "))


def upper_side(model, numerics, gamma, delta, source, lam_lo, transfer, say):
    """The hierarchy/1 recursion for ``model`` and its upper end (a dict of the certificate's fields)."""
    n = numerics
    grid = log_odds_grid(n["upper_priors"], n["grid_bits"], float(n["upper_logit_range"]))
    check_auditable_hierarchy(model, gamma.B, len(source.weights), len(grid), n["source_scale"],
                              n["scale_bits"], n["grid_bits"])
    say(f"upper of {model}: {len(grid)} priors")
    sandwich = Sandwich(model, source.law, gamma, grid, n["grid_bits"], n["scale_bits"], progress=say)
    table = [int(e) for e in sandwich.solve()]
    prior, finite = finite_upper(table, grid, n["grid_bits"], n["scale_bits"], lam_lo)
    upper = finite + transfer
    return {"model": model.as_json(), "grid": {"bits": n["grid_bits"], "numerators": [str(g) for g in grid]},
            "scale_bits": n["scale_bits"], "graph": sandwich.graph.counts(), "root_excess": [str(e) for e in table],
            "prior": format_rational(prior), "finite_upper": format_rational(finite),
            "upper": format_rational(upper), "upper_display": decimal_outward(upper, DISPLAY_DIGITS, +1),
            "below_delta": bool(upper < delta)}


def lower_side(model, numerics, gamma, delta, source, lam_hi, transfer, say):
    """The proof-function lower lines of ``model`` and its lower end (a dict of the certificate's fields)."""
    n = numerics
    grid = log_odds_grid(n["lower_priors"], n["grid_bits"], float(n["lower_logit_range"]))
    check_grid(grid, n["grid_bits"])
    check_auditable_hierarchy(model, gamma.B, len(source.weights), len(grid), n["source_scale"],
                              n["line_bits"], n["grid_bits"])
    tree = LineTree(model, source.law, gamma, grid, n["grid_bits"], n["line_bits"], progress=say)
    if tree.work() > MAX_LOWER_WORK:
        raise LimitError(f"{model}: {tree.work()} line terms (branches × priors) exceed the limit {MAX_LOWER_WORK}")
    say(f"proof-function lower of {model}: {len(grid)} priors")
    a, b = tree.solve()
    unit = mpq(1 << n["line_bits"])
    values = [(ai + lam_hi * bi) / unit - lam_hi for ai, bi in zip(a, b)]
    best = max(range(len(values)), key=lambda i: (values[i], -i))
    lower = values[best] - transfer
    return {"model": model.as_json(),
            "grid": {"bits": n["grid_bits"], "numerators": [str(g) for g in grid]},
            "line_bits": n["line_bits"], "graph": tree.graph.counts(),
            "root_lines": {"a": [str(v) for v in a], "b": [str(v) for v in b]},
            "line": {"index": best, "a": str(a[best]), "b": str(b[best])},
            "prior": format_rational(1 / (1 + lam_hi)), "finite_lower": format_rational(values[best]),
            "lower": format_rational(lower), "lower_display": decimal_outward(lower, DISPLAY_DIGITS, -1),
            "above_delta": bool(lower > delta)}


def build(request, progress=None):
    """The sealed minimum-deletion/1 certificate."""
    say = progress or (lambda message: None)
    n = request.numerics
    source = DiscreteGaussianSource.from_radius_scale(request.sigma2, n["radius"], n["source_scale"])
    lam_lo, lam_hi = exp_threshold(request.epsilon, THRESHOLD_GAP)
    transfer = transfer_term(source.tau, request.budget, lam_hi)
    sides = (request.numerics, request.gamma, request.delta, source)
    lowers = [dict(lower_side(model, *sides, lam_hi, transfer, say), removed=list(rest))
              for rest, model in request.lower_models()]
    upper = upper_side(request.upper_model, *sides, lam_lo, transfer, say)
    holds = upper["below_delta"] and all(low["above_delta"] for low in lowers)
    result = {
        "source": source.as_json(),
        "tau": format_rational(source.tau),
        "threshold": {"lower": format_rational(lam_lo), "upper": format_rational(lam_hi)},
        "draws": 2 * request.budget,
        "transfer": format_rational(transfer),
        "lowers": lowers,
        "upper": upper,
        "minimum_removed": len(request.removed) if holds else None,
    }
    return make_certificate(KIND, VERSION, request.as_json(), result)


def _set(cuts):
    return "{" + ",".join(map(str, cuts)) + "}"


def claim(cert):
    inp, res = cert["input"], cert["result"]
    removed, eps = _set(inp["removed"]), describe_rational(mpq(inp["epsilon"]))
    up = res["upper"]
    parts = [f"D_{{S_all∖{_set(low['removed'])}}}({eps}) ≥ {significant_outward(mpq(low['lower']), 8, -1)}"
             for low in res["lowers"]]
    text = (f"{'; '.join(parts)} vs δ = {describe_rational(mpq(inp['delta']))}; "
            f"D_{{S_all∖{removed}}}({eps}) ≤ {significant_outward(mpq(up['upper']), 8, +1)}")
    verdict = (f"minimum removed cuts = {res['minimum_removed']}" if res["minimum_removed"] is not None
               else "minimum not established")
    return (f"{verdict}: {text} (capacities of the cut-game models, not attacks on the mechanism; "
            f"γ = {inp['gamma']}, σ² = {inp['sigma2']}, C = {inp['budget']})")
