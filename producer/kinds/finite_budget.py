"""``finite-budget/1``: ε*_{C,T}(δ) <= epsilon_upper by the window potential bound (H.4), any C.

Question: γ, σ², the budget C, the deadline T, δ and the window radius M.
Claims: the source; the reward upper bounds g_hi; a Bellman certificate
(u, h, a) of the window model with b0 = a + tv·max_j span h(·, j); D_h, B_h,
the offset diameter and L_ℓ, κ(h), p_exit, p = δ − p_exit, an upper bound of
log(1/p), the square root and epsilon_upper.  docs/kinds.md lists every field.

Limits: 1 <= C <= T <= 10^15; δ in (0, 1); p_exit < δ (checked before the work:
a larger radius makes p_exit smaller); radius <= MAX_RADIUS.
"""

from gmpy2 import mpq

from producer.certificates.canonical import make_certificate
from producer.errors import InputError, LimitError
from producer.kinds.resource_common import check_gamma, check_integer_range, check_sigma2, check_window_auditable
from producer.names import option
from producer.rationals import describe_rational, format_rational, parse_rational
from producer.resource import auditability
from producer.resource.certify import display, q, reward_bounds_json, source_json, state_list
from producer.resource.constants import Constants
from producer.resource.finite_budget import finite_budget_bound
from producer.resource.rewards import RewardTable
from producer.resource.source import default_source
from producer.resource.window import WindowModel

KIND, VERSION = "finite-budget", 1
DEFAULT_RADIUS = 12
MAX_RADIUS = 32
MAX_STEPS = 10 ** 15


class Request:
    """γ, σ², C, T, δ and the window radius M."""

    __slots__ = ("gamma", "sigma2", "budget", "deadline", "delta", "radius")

    def __init__(self, gamma, sigma2, budget, deadline, delta, radius=DEFAULT_RADIUS):
        self.gamma, self.sigma2 = check_gamma(gamma), check_sigma2(sigma2)
        self.budget = check_integer_range(budget, "budget", 1, MAX_STEPS)
        self.deadline = check_integer_range(deadline, "deadline", 1, MAX_STEPS)
        if self.budget > self.deadline:
            # T steps hold at most T participations: the bound would be true but loose, its per-participation
            # figure meaningless
            raise InputError(f"budget: C = {self.budget} participations cannot fit in T = {self.deadline} steps "
                             f"(ε*_{{C,T}} = ε*_{{T,T}} when C >= T); give {option('budget', self.deadline)} "
                             f"or less, or a larger {option('deadline')}")
        delta = mpq(parse_rational(delta, "delta"))
        if not 0 < delta < 1:
            raise InputError(f"delta: must lie in (0, 1), got {describe_rational(delta)}")
        self.delta = delta
        self.radius = check_integer_range(DEFAULT_RADIUS if radius is None else radius, "radius", 1, MAX_RADIUS)
        constants = Constants(self.gamma, self.sigma2)
        p_exit = constants.exit_probability(self.radius, self.deadline)
        if p_exit >= delta:
            enough = next((m for m in range(self.radius + 1, MAX_RADIUS + 1)
                           if constants.exit_probability(m, self.deadline) < delta), None)
            advice = (f"use {option('radius', enough)} or more" if enough is not None else
                      f"no radius up to the limit {MAX_RADIUS} does (a smaller T, a larger δ or a smaller σ² may)")
            raise LimitError(f"radius: the window-exit probability bound {float(p_exit):.3g} at M = {self.radius} "
                             f"and T = {self.deadline} is not below δ; {advice}")

    @classmethod
    def from_strings(cls, gamma, sigma2, budget, deadline, delta, radius=None):
        return cls(gamma, sigma2, budget, deadline, delta, radius)

    def __setattr__(self, name, value):
        if hasattr(self, name):
            raise AttributeError("a Request is immutable")
        object.__setattr__(self, name, value)

    def as_json(self):
        return {"gamma": str(self.gamma), "sigma2": format_rational(self.sigma2), "budget": self.budget,
                "deadline": self.deadline, "delta": format_rational(self.delta), "radius": self.radius}


def build(request, progress=None):
    gamma, sigma2, M = request.gamma, request.sigma2, request.radius
    source = default_source(sigma2)
    check_window_auditable(gamma, sigma2, M, source, auditability.reward_bits())
    model = WindowModel(source.law, gamma, M)
    rewards = RewardTable(gamma, sigma2, residues=range(-M, M + 1))
    constants = Constants(gamma, sigma2)
    r = finite_budget_bound(model, rewards, constants, source.tau, request.budget, request.deadline,
                            request.delta, progress)
    auditability.check_denominators(auditability.window_layers("bellman.h", r["h"]), "use a smaller radius")
    result = {
        "source": source_json(source),
        "rewards": reward_bounds_json(rewards, range(-M, M + 1), with_lo=False),
        "bellman": {"u": q(r["u"]), "h": state_list(model, r["h"]), "a": q(r["a"]), "span": q(r["span"]),
                    "b0": q(r["b0"])},
        "lipschitz": q(r["lipschitz"]),
        "offset": q(r["offset"]),
        "diameter": r["diameter"],
        "log_lipschitz": q(r["log_lipschitz"]),
        "kappa": q(r["kappa"]),
        "exit_probability": q(r["exit_probability"]),
        "p": q(r["p"]),
        "log_inverse_p": q(r["log_inverse_p"]),
        "linear": q(r["linear"]),
        "root": q(r["root"]),
        "epsilon_upper": q(r["epsilon_upper"]),
        "epsilon_display": display(r["epsilon_upper"], +1),
    }
    return make_certificate(KIND, VERSION, request.as_json(), result)


def claim(cert):
    inp, res = cert["input"], cert["result"]
    C, T = inp["budget"], inp["deadline"]
    per = display(mpq(res["epsilon_upper"]) / C, +1)
    return (f"ε*_(C,T)(δ) <= {res['epsilon_display']} ({per} per participation) for C = {C}, T = {T}, "
            f"δ = {describe_rational(mpq(inp['delta']))}, γ = {inp['gamma']}, σ² = {inp['sigma2']} "
            f"(hidden integer feedback, window potential bound, M = {inp['radius']})")


__all__ = ["KIND", "VERSION", "Request", "build", "claim"]
