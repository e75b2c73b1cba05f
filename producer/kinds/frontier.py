"""``frontier/1``: the hard-resource frontier Φ(τ) enclosed at the requested τ.

Question: γ, σ², the window radius M, the τ values.  Claims: the source; the
reward bounds; e_M; one all-action Bellman upper (u, a, h) with
Φ(τ) <= min(u + τ·a, τ·(u + a)) for every τ > 0; two fixed-policy Poisson
lowers (always +1, and a low-participation Bellman-optimal policy) with
Φ(τ) >= u + τ·b on [τ_min, τ_max]; the values at each τ and the largest gap
of the two affine bounds on [τ_min, τ_max].  docs/kinds.md lists every field.
"""

from gmpy2 import mpq

from producer.certificates.canonical import make_certificate
from producer.errors import InputError, LimitError
from producer.kinds.resource_common import (check_gamma, check_integer_range, check_positive, check_sigma2,
                                            check_window_auditable)
from producer.rationals import as_items, describe_rational, format_rational
from producer.resource import auditability, frontier
from producer.resource.certify import display, q, reward_bounds_json, source_json, state_list
from producer.resource.constants import Constants
from producer.resource.rewards import RewardTable
from producer.resource.source import default_source
from producer.resource.window import WindowModel

KIND, VERSION = "frontier", 1
DEFAULT_RADIUS = 12
MAX_RADIUS = 32
MAX_TAUS = 100
MIN_TAU, MAX_TAU = mpq(1, 1000), mpq(10) ** 6
DEFAULT_TAUS = ("1", "2", "5", "10")
POLICY_NAMES = ("always-plus", "optimal-low-participation")


def check_taus(values):
    taus = sorted(set(check_positive(t, "tau") for t in values))
    if not taus:
        raise InputError("tau: give at least one τ")
    if len(taus) > MAX_TAUS:
        raise LimitError(f"tau: {len(taus)} values exceed the limit of {MAX_TAUS}")
    for t in taus:
        if not MIN_TAU <= t <= MAX_TAU:
            raise LimitError(f"tau: {format_rational(t)} is outside the limits [1/1000, 10^6]")
    return tuple(taus)


class Request:
    """γ, σ², the window radius M and the sorted distinct τ."""

    __slots__ = ("gamma", "sigma2", "radius", "taus")

    def __init__(self, gamma, sigma2, radius=DEFAULT_RADIUS, taus=DEFAULT_TAUS):
        self.gamma, self.sigma2 = check_gamma(gamma), check_sigma2(sigma2)
        self.radius = check_integer_range(DEFAULT_RADIUS if radius is None else radius, "radius", 1, MAX_RADIUS)
        self.taus = check_taus(DEFAULT_TAUS if taus is None else taus)

    @classmethod
    def from_strings(cls, gamma, sigma2, radius=None, taus=None):
        if isinstance(taus, str):
            taus = [t.strip() for t in taus.split(",")]
        elif taus is not None:
            taus = as_items(taus)
        return cls(gamma, sigma2, radius, taus)

    def __setattr__(self, name, value):
        if hasattr(self, name):
            raise AttributeError("a Request is immutable")
        object.__setattr__(self, name, value)

    @property
    def price_tau(self):
        """τ0 = max(1, the lower median of the requested τ): the LP's price there is also right for τ <= 1
        (Φ(τ) = τ·ψ(0) there, and u + a = Φ(1) >= ψ(0) at a price optimal for τ = 1)."""
        return max(mpq(1), self.taus[(len(self.taus) - 1) // 2])

    def as_json(self):
        return {"gamma": str(self.gamma), "sigma2": format_rational(self.sigma2), "radius": self.radius,
                "taus": [format_rational(t) for t in self.taus]}


def build(request, progress=None):
    gamma, sigma2, M = request.gamma, request.sigma2, request.radius
    source = default_source(sigma2)
    tv = source.tau
    check_window_auditable(gamma, sigma2, M, source, auditability.reward_bits())
    model = WindowModel(source.law, gamma, M)
    rewards = RewardTable(gamma, sigma2, residues=range(-M, M + 1))
    constants = Constants(gamma, sigma2)
    u, upper, lowers, _lp = frontier.frontier_certificate(model, rewards, constants, tv, request.price_tau,
                                                          progress)
    layers = auditability.window_layers("upper.h", upper["h"])
    for i, low in enumerate(lowers):
        layers.update(auditability.window_layers(f"lower.policies[{i}].phi", low["phi"]))
        layers.update(auditability.window_layers(f"lower.policies[{i}].psi", low["psi"]))
    auditability.check_denominators(layers, "use a smaller radius")
    tau_min, tau_max = frontier.tau_range(lowers, request.taus[-1])
    b = min(low["b"] for low in lowers)
    gap = max(t * (upper["a"] - b) for t in (tau_min, tau_max))
    values = []
    for t in request.taus:
        lo, hi = frontier.lower_bound(u, lowers, t, tau_max), frontier.upper_bound(upper, t)
        if lo > hi:  # pragma: no cover - both are sound bounds of the same number
            raise ArithmeticError("frontier: lower bound above upper bound")
        values.append({"tau": q(t), "lower": q(lo), "upper": q(hi),
                       "lower_display": display(lo, -1), "upper_display": display(hi, +1)})
    result = {
        "source": source_json(source),
        "rewards": reward_bounds_json(rewards, range(-M, M + 1)),
        "exit_residual": q(upper["exit_residual"]),
        "upper": {"u": q(u), "a_model": q(upper["a_model"]), "h": state_list(model, upper["h"]),
                  "span": q(upper["span"]), "lipschitz": q(upper["lip"]), "a": q(upper["a"])},
        "lower": {"u": q(u), "b": q(b), "tau_min": q(tau_min), "tau_max": q(tau_max),
                  "policies": [_policy_json(model, name, low) for name, low in zip(POLICY_NAMES, lowers)]},
        "values": values,
        "gap": {"value": q(gap), "display": display(gap, +1)},
    }
    return make_certificate(KIND, VERSION, request.as_json(), result)


def _policy_json(model, name, low):
    return {"name": name, "actions": [low["policy"][s] for s in model.states],
            "phi": state_list(model, low["phi"]), "b_model": q(low["b_model"]), "span": q(low["span"]),
            "lipschitz": q(low["lip"]), "b": q(low["b"]),
            "psi": state_list(model, low["psi"]), "f_lo": q(low["f_lo"]), "f_hi": q(low["f_hi"]),
            "participation_span": q(low["participation_span"]),
            "participation_lipschitz": q(low["participation_lip"]),
            "f_lower": q(low["f_lower"]), "f_upper": q(low["f_upper"])}


def claim(cert):
    inp, res = cert["input"], cert["result"]
    parts = [f"Φ({v['tau']}) ∈ [{v['lower_display']}, {v['upper_display']}]" for v in res["values"][:4]]
    if len(res["values"]) > 4:
        parts.append(f"and {len(res['values']) - 4} more")
    low = res["lower"]
    return (f"{'; '.join(parts)}; gap <= {res['gap']['display']} on τ ∈ [{describe_rational(mpq(low['tau_min']))}, "
            f"{describe_rational(mpq(low['tau_max']))}] for γ = {inp['gamma']}, σ² = {inp['sigma2']} "
            f"(hidden integer feedback, hard-resource frontier, window M = {inp['radius']})")


__all__ = ["KIND", "VERSION", "Request", "build", "claim", "DEFAULT_RADIUS", "MAX_RADIUS"]
