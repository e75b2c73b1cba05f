"""``rate/1``: the participation rate a* ∈ [lower, upper] and the disclosed rate ρ.

Question (``input``): γ, σ², the period N = B^m of the upper certificate.
Claims (``result``): the common source; reward bounds g_lo <= g <= g_hi; the
period-N Bellman upper (r, h) with a* <= r + tv·max_j span h(·, j); at γ = 1/2
the descent lower (φ, r_lo, …) with a* >= lower; ρ = (1 + 3γ)/(2σ²) and the
disclosure cost ρ − a* ∈ [ρ − upper, ρ − lower].  docs/kinds.md lists every
field and what a checker verifies.

Limits: those of :mod:`producer.kinds.resource_common`; N = B^m with
6BN + 2N <= MAX_COLUMNS (the LP's columns; B = 2 allows N <= 64).
"""

from gmpy2 import mpq

from producer.certificates.canonical import make_certificate
from producer.errors import InputError, LimitError
from producer.kinds.resource_common import check_gamma, check_integer_range, check_sigma2
from producer.names import option
from producer.rationals import format_rational
from producer.resource import auditability, rate
from producer.resource.lp import MAX_PIVOTS, RepairTooLong
from producer.resource.certify import display, display_pair, q, reward_bounds_json, source_json
from producer.resource.constants import Constants
from producer.resource.rewards import RewardTable
from producer.resource.source import default_source

KIND, VERSION = "rate", 1
MAX_COLUMNS = 1000
DEFAULT_PERIOD_CAP = 32
DESCENT_UNAVAILABLE = "the descent lower construction applies at gamma = 1/2 only"


def columns(B, period):
    return 6 * B * period + 2 * period


def default_period(B):
    """The largest N = B^m <= 32 with 6BN + 2N <= MAX_COLUMNS (N = 32 at B = 2)."""
    N = 1
    while N * B <= DEFAULT_PERIOD_CAP and columns(B, N * B) <= MAX_COLUMNS:
        N *= B
    return N


class Request:
    """γ, σ² and the period N (a power of B)."""

    __slots__ = ("gamma", "sigma2", "period")

    def __init__(self, gamma, sigma2, period=None):
        self.gamma, self.sigma2 = check_gamma(gamma), check_sigma2(sigma2)
        B = self.gamma.B
        if columns(B, 1) > MAX_COLUMNS:
            raise LimitError(f"gamma: B = {B} makes the period LP wider than {MAX_COLUMNS} columns even at "
                             f"period 1 (6B + 2 <= {MAX_COLUMNS} is the limit, B <= {(MAX_COLUMNS - 2) // 6})")
        if period is None:
            period = default_period(B)
        period = check_integer_range(period, "period", 1, 10**6)
        n = period
        while n % B == 0:
            n //= B
        if n != 1:
            raise InputError(f"period: N = {period} is not a power of B = {B} (N = B^m, e.g. {B ** 2})")
        if columns(B, period) > MAX_COLUMNS:
            raise LimitError(f"period: N = {period} gives an LP with {columns(B, period)} columns, above the limit "
                             f"{MAX_COLUMNS} (6BN + 2N); use a smaller period")
        self.period = period

    @classmethod
    def from_strings(cls, gamma, sigma2, period=None):
        return cls(gamma, sigma2, period)

    def __setattr__(self, name, value):
        if hasattr(self, name):
            raise AttributeError("a Request is immutable")
        object.__setattr__(self, name, value)

    def as_json(self):
        return {"gamma": str(self.gamma), "sigma2": format_rational(self.sigma2), "period": self.period}


def has_descent(gamma):
    return (gamma.a, gamma.B) == (1, 2)


def check_auditable(request, source, window):
    """The auditor's limits on the rewards and rows (docs/certificates.md), before any work."""
    B = request.gamma.B
    auditability.check_rewards(B, request.sigma2, B, auditability.reward_bits())
    auditability.check_source_radius(source.radius)
    auditability.check_rows(B * request.period + 2 * window + 1, source.radius, "period")


def build(request, progress=None):
    gamma, sigma2, period = request.gamma, request.sigma2, request.period
    source = default_source(sigma2)
    tv = source.tau
    constants = Constants(gamma, sigma2)
    window = rate.descent_window(constants) if has_descent(gamma) else 0
    check_auditable(request, source, window)
    rewards = RewardTable(gamma, sigma2)
    if progress:
        progress(f"source L = {source.radius}, S = 2^{source.scale.bit_length() - 1}; rewards enclosed")
    try:
        r, h, _solution = rate.period_upper(source.law, gamma, period, rewards, progress)
    except RepairTooLong:
        smaller = f"use {option('period', period // gamma.B)}" if period > 1 else "no smaller period exists"
        raise LimitError(f"period: the exact LP repair at N = {period} exceeded {MAX_PIVOTS} pivots (the "
                         f"limit); {smaller}") from None
    worst, echo = rate.period_rows(source.law, gamma, period, rewards, r, h)
    if worst > 0 or echo < 0:  # pragma: no cover - an exactly optimal dual satisfies every row
        raise ArithmeticError("rate: the LP dual violates a row")
    span = rate.potential_span(h)
    upper = r + tv * span
    descent = None
    if has_descent(gamma):
        descent = rate.descent_lower(source.law, gamma, rewards, tv, constants, window)
    layers = {f"upper.h.{name}": [h[(t, e)] for t in range(period)] for name, e in (("minus", -1), ("plus", 1))}
    if descent is not None:
        layers["descent.phi"] = list(descent["phi"].values())
    auditability.check_denominators(layers, "use a smaller period")
    lower = None if descent is None else descent["lower"]
    rho = rate.disclosed_rate(gamma, sigma2)
    a_star = {"lower": None if lower is None else q(lower), "upper": q(upper),
              "lower_display": None if lower is None else display(lower, -1), "upper_display": display(upper, +1)}
    cost = {"lower": q(rho - upper), "upper": None if lower is None else q(rho - lower),
            "lower_display": display(rho - upper, -1),
            "upper_display": None if lower is None else display(rho - lower, +1)}
    result = {
        "source": source_json(source),
        "rewards": reward_bounds_json(rewards, range(gamma.B)),
        "upper": {"r": q(r),
                  "h": {"minus": [q(h[(t, -1)]) for t in range(period)],
                        "plus": [q(h[(t, 1)]) for t in range(period)]},
                  "span": q(span), "value": q(upper)},
        "descent": None if descent is None else _descent_json(descent),
        "lower_reason": DESCENT_UNAVAILABLE if descent is None else None,
        "a_star": a_star,
        "disclosed_rate": q(rho),
        "disclosure_cost": cost,
    }
    return make_certificate(KIND, VERSION, request.as_json(), result)


def _descent_json(d):
    W = d["window"]
    return {"window": W, "phi": [q(d["phi"][e]) for e in range(-W, W + 1)], "r_lo": q(d["r_lo"]),
            "span": q(d["span"]), "m_out": q(d["m_out"]), "r_prime": q(d["r_prime"]),
            "p_out": q(d["p_out"]), "value": q(d["lower"])}


def claim(cert):
    inp, res = cert["input"], cert["result"]
    a = res["a_star"]
    lo = a["lower_display"] if a["lower"] is not None else "?"
    cost = res["disclosure_cost"]
    cost_text = (f"[{cost['lower_display']}, {cost['upper_display']}]" if cost["upper"] is not None
                 else f">= {cost['lower_display']}")
    how = "period-{} upper".format(inp["period"]) + (", descent lower" if a["lower"] is not None else
                                                      ", no lower (γ ≠ 1/2)")
    return (f"a* ∈ [{lo}, {a['upper_display']}] ({how}); disclosed rate ρ = {res['disclosed_rate']}, "
            f"ρ − a* ∈ {cost_text} for γ = {inp['gamma']}, σ² = {inp['sigma2']} (hidden integer feedback, "
            f"participation rate)")


__all__ = ["KIND", "VERSION", "MAX_COLUMNS", "Request", "build", "claim", "default_period", "display_pair", "mpq"]
