"""``minimum-depth/1``: the smallest proof depth H whose model P_H certifies δ at ε (the Table S1 diagnosis).

The proof hierarchies decrease with depth, G_C <= P_{H+1} <= P_H (*Exact
Compilation and Resource Laws for Hidden Integer Feedback*, (28), App. G.1).
With discrete-Gaussian innovations a model's comparison capacity is
D_{P_H}(ε) = P^g_H(1, e^ε) − e^ε — a property of the MODEL, not an attack on
the mechanism.  This certificate holds

- a proof-function LOWER end D_{P_{H−1}}(ε) >= lower > δ: whole feasible event
  pairs, with the tangents of Cvx(min over groups) at the nodes that allow
  several block lengths (producer.hierarchy.lines; App. G.4): depth H − 1 (and
  so every smaller depth) cannot certify δ, however finely it is computed — a
  structural failure, not a numerical one;
- a certified UPPER end D_{P_H}(ε) <= upper < δ (the hierarchy/1 recursion);

so H is the minimum depth at this query.  Both sides transfer from the finite
source with (1 + λ₊)·2C·τ (App. G.2: the hierarchy value moves by at most
2C·τ under a TV-τ change of the law, minima and Cvx included).  The paper's
§7.2 and Table S1 at C = 8, γ = 1/3, σ = 3, δ = 10^-4: H = 3 at ε = 4.91 and
H = 2 at ε = 4.94 (where a coarse depth-two upper fails and a refined one
certifies).

Documented limits: those of minimum-deletion/1 (producer.kinds.minimum_deletion)
for one lower and one upper model; 2 <= H <= C.
"""

from gmpy2 import mpq

from producer.certificates.canonical import make_certificate
from producer.errors import InputError
from producer.hierarchy.dg_bound import THRESHOLD_GAP
from producer.hierarchy.models import DepthModel
from producer.kinds.minimum_deletion import (MAX_EPSILON, checked_numerics, lower_side, numerics_json,
                                             parse_numerics, upper_side)
from producer.laws import Gamma, parse_gamma
from producer.rationals import describe_rational, format_rational, parse_integer, parse_rational, significant_outward
from producer.sources.discrete_gaussian import DiscreteGaussianSource, check_sigma2
from producer.sources.enclosures import exp_threshold

KIND, VERSION = "minimum-depth", 1


class Request:
    """γ, σ², C, ε, δ, the depth H and the numerics; validated once, immutable."""

    __slots__ = ("gamma", "sigma2", "budget", "epsilon", "delta", "depth", "numerics")

    def __init__(self, gamma, sigma2, budget, epsilon, delta, depth, **numerics):
        gamma = gamma if isinstance(gamma, Gamma) else parse_gamma(gamma)
        if gamma.is_zero:
            raise InputError("gamma: proof hierarchies need hidden feedback, 0 < γ < 1")
        sigma2 = check_sigma2(sigma2)
        budget, depth = int(budget), int(depth)
        if not 2 <= depth <= budget:
            raise InputError(f"depth: need 2 <= H <= C = {budget}, got {depth}")
        epsilon, delta = mpq(epsilon), mpq(delta)
        if not 0 <= epsilon <= MAX_EPSILON:
            raise InputError(f"epsilon: must lie in [0, {MAX_EPSILON}], got {describe_rational(epsilon)}")
        if not 0 < delta < 1:
            raise InputError(f"delta: need 0 < δ < 1, got {describe_rational(delta)}")
        n = checked_numerics(numerics)
        for name, value in (("gamma", gamma), ("sigma2", sigma2), ("budget", budget), ("epsilon", epsilon),
                            ("delta", delta), ("depth", depth), ("numerics", n)):
            object.__setattr__(self, name, value)

    def __setattr__(self, name, value):
        raise AttributeError("a Request is immutable")

    @classmethod
    def from_strings(cls, gamma, sigma2, budget, epsilon, delta, depth, upper_priors=None, lower_priors=None,
                     radius=None, scale=None):
        return cls(parse_gamma(gamma), parse_rational(sigma2, "sigma2"), parse_integer(budget, "budget"),
                   parse_rational(epsilon, "epsilon"), parse_rational(delta, "delta"), parse_integer(depth, "depth"),
                   **parse_numerics(upper_priors, lower_priors, radius, scale))

    def as_json(self):
        return {"gamma": str(self.gamma), "sigma2": format_rational(self.sigma2), "budget": self.budget,
                "epsilon": format_rational(self.epsilon), "delta": format_rational(self.delta),
                "depth": self.depth, "numerics": numerics_json(self.numerics)}


def build(request, progress=None):
    """The sealed minimum-depth/1 certificate."""
    say = progress or (lambda message: None)
    n, C = request.numerics, request.budget
    source = DiscreteGaussianSource.from_radius_scale(request.sigma2, n["radius"], n["source_scale"])
    lam_lo, lam_hi = exp_threshold(request.epsilon, THRESHOLD_GAP)
    transfer = (1 + lam_hi) * 2 * C * source.tau
    sides = (n, request.gamma, request.delta, source)
    lower = lower_side(DepthModel(C, request.depth - 1), *sides, lam_hi, transfer, say)
    upper = upper_side(DepthModel(C, request.depth), *sides, lam_lo, transfer, say)
    holds = upper["below_delta"] and lower["above_delta"]
    result = {
        "source": source.as_json(),
        "tau": format_rational(source.tau),
        "threshold": {"lower": format_rational(lam_lo), "upper": format_rational(lam_hi)},
        "transfer": format_rational(transfer),
        "lower": lower,
        "upper": upper,
        "minimum_depth": request.depth if holds else None,
    }
    return make_certificate(KIND, VERSION, request.as_json(), result)


def claim(cert):
    inp, res = cert["input"], cert["result"]
    H, eps = inp["depth"], describe_rational(mpq(inp["epsilon"]))
    verdict = f"minimum depth = {H}" if res["minimum_depth"] is not None else "minimum depth not established"
    return (f"{verdict}: D_{{P_{H - 1}}}({eps}) ≥ {significant_outward(mpq(res['lower']['lower']), 8, -1)} vs "
            f"δ = {describe_rational(mpq(inp['delta']))}; D_{{P_{H}}}({eps}) ≤ "
            f"{significant_outward(mpq(res['upper']['upper']), 8, +1)} (capacities of the proof-hierarchy models, "
            f"not attacks on the mechanism; γ = {inp['gamma']}, σ² = {inp['sigma2']}, C = {inp['budget']})")
