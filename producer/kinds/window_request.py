"""``window-request/1``: Φ(τ) to width <= 2^-b by the rational window algorithm (Theorem 11).

Question: γ, σ², τ, b.  Claims: the radius M and the number of dual rows
9(2M + 1); the source (tv = η_p); the rounded rewards g^ with
|g^ − g| <= η_g; e_M; the exact primal z (with the participation slack) and
dual (h, a, u) of the window LP with g^, whose common value is
Φ_M^rat = τ·Σ g^·z = τ·a + u; the interval Φ_M^rat ± τ(L·e_M + η_g + 2ML·η_p)
of width <= 2^-b.  docs/kinds.md lists every field.

Limits: 1 <= b <= MAX_BITS, τ in [1/1000, 1000], and the recipe's radius
<= MAX_RADIUS (checked before the work).
"""

from gmpy2 import mpq, mpz

from producer.certificates.canonical import make_certificate
from producer.errors import LimitError
from producer.kinds.resource_common import (check_gamma, check_integer_range, check_positive, check_sigma2,
                                            check_window_auditable)
from producer.names import entry
from producer.rationals import format_rational
from producer.resource import auditability
from producer.resource import window_request as recipe
from producer.resource.certify import column_list, display, q, reward_values_json, source_json, state_list
from producer.resource.constants import Constants

KIND, VERSION = "window-request", 1
MAX_BITS = 64
MIN_TAU, MAX_TAU = mpq(1, 1000), mpq(1000)
MAX_RADIUS = recipe.MAX_RADIUS


class Request:
    """γ, σ², τ and the precision b (width <= 2^-b); the recipe's radius M is found (and bounded) here."""

    __slots__ = ("gamma", "sigma2", "tau", "bits", "radius")

    def __init__(self, gamma, sigma2, tau, bits):
        self.gamma, self.sigma2 = check_gamma(gamma), check_sigma2(sigma2)
        tau = check_positive(tau, "tau")
        if not MIN_TAU <= tau <= MAX_TAU:
            raise LimitError(f"tau: {format_rational(tau)} is outside the limits [1/1000, 1000]")
        self.tau = tau
        self.bits = check_integer_range(bits, "bits", 1, MAX_BITS)
        radius = recipe.window_radius(Constants(self.gamma, self.sigma2), tau, mpq(1, mpz(2) ** self.bits))
        if radius is None:
            raise LimitError(f"bits: width 2^-{self.bits} at τ = {format_rational(tau)} needs a window radius above "
                             f"the limit {MAX_RADIUS}; ask for fewer bits (or use '{entry('frontier')}')")
        self.radius = radius

    @classmethod
    def from_strings(cls, gamma, sigma2, tau, bits):
        return cls(gamma, sigma2, tau, bits)

    def __setattr__(self, name, value):
        if hasattr(self, name):
            raise AttributeError("a Request is immutable")
        object.__setattr__(self, name, value)

    def as_json(self):
        return {"gamma": str(self.gamma), "sigma2": format_rational(self.sigma2), "tau": format_rational(self.tau),
                "bits": self.bits}


def build(request, progress=None):
    gamma, M = request.gamma, request.radius
    constants = Constants(gamma, request.sigma2)

    def before_work(source, eta_g):
        check_window_auditable(gamma, request.sigma2, M, source, auditability.reward_bits(eta_g))

    r = recipe.solve_request(gamma, request.sigma2, request.tau, request.bits, constants, M, progress, before_work)
    model, lp = r["model"], r["lp"]
    layers = auditability.window_layers("dual.h", lp["h"])
    layers["primal.z"] = list(lp["z"].values())
    auditability.check_denominators(layers, "ask for fewer bits")
    width = r["upper"] - r["lower"]
    if width > r["xi"]:  # pragma: no cover - the recipe's split bounds the width by ξ
        raise ArithmeticError("window request: the width exceeds 2^-b")
    result = {
        "radius": M,
        "dual_rows": 9 * (2 * M + 1),
        "source": source_json(r["source"]),
        "rewards": reward_values_json(r["rewards"], gamma.B, range(-M, M + 1)),
        "reward_error": q(r["eta_g"]),
        "exit_residual": q(r["exit_residual"]),
        "primal": {"z": column_list(model, lp["z"]), "slack": q(lp["slack"])},
        "dual": {"h": state_list(model, lp["h"]), "a": q(lp["a"]), "u": q(lp["u"])},
        "value": q(r["value"]),
        "error": q(r["error"]),
        "phi": {"lower": q(r["lower"]), "upper": q(r["upper"]),
                "lower_display": display(r["lower"], -1), "upper_display": display(r["upper"], +1)},
        "width": q(width),
    }
    return make_certificate(KIND, VERSION, request.as_json(), result)


def claim(cert):
    inp, res = cert["input"], cert["result"]
    phi = res["phi"]
    return (f"Φ({inp['tau']}) ∈ [{phi['lower_display']}, {phi['upper_display']}] (width "
            f"{display(mpq(res['width']), +1)} <= 2^-{inp['bits']}; window M = {res['radius']}, "
            f"{res['dual_rows']} dual rows) for γ = {inp['gamma']}, σ² = {inp['sigma2']} "
            f"(hidden integer feedback, rational window algorithm)")


__all__ = ["KIND", "VERSION", "Request", "build", "claim", "MAX_BITS"]
