"""The ``calibration/1`` certificate: an enclosure of ε*_C(δ), the smallest ε with Δ*_C(ε) <= δ.

ε*_C(δ) = inf{ε >= 0 : Δ*_C(ε) <= δ}.  Question (``input``): γ, the
innovation law (σ², or the discrete Laplace's t), C, δ, the width ζ asked for
and the game method.  The certificate holds

- ``status`` "zero" with ε_lo = ε_hi = 0 and one dg-interval at ε = 0 whose
  upper end is <= δ; or
- ``status`` "enclosed" with ε_lo < ε_hi, ε_hi − ε_lo < ζ, a complete
  dg-interval certificate at ε_lo whose lower end is > δ and one at ε_hi whose
  upper end is <= δ (monotonicity of Δ*_C in ε does the rest);

plus the bound E >= ε* where the search started: the moment envelope
E >= log(1 + (e^{8C/σ²} − 1)/(4δ)) for the discrete Gaussian (*Exact
Compilation and Resource Laws for Hidden Integer Feedback*, §3.2), E = 2C/t
for the discrete Laplace of scale t (the mechanism is then (2C/t)-DP;
docs/plain-composition.md §2.5).

Limits: those of dg-interval/1, 0 < δ < 1, and the auditor's limit on the
envelope's exponent 8C/σ² (:data:`MAX_ENVELOPE_EXPONENT`), refused before the
search starts.  The auditor's budget of one file counts both witnesses'
games together (:func:`auditor_cost`): each is within one budget (its game's
query limit), so the two need at most two (:mod:`producer.audit_budget`).
"""

from gmpy2 import mpq

from producer.audit_budget import together
from producer.certificates.canonical import make_certificate
from producer.display import law_name, mechanism_inputs, rational, show, show_interval
from producer.errors import InputError, LimitError
from producer.game.values import check_method
from producer.immutable import Immutable
from producer.kinds import dg_interval
from producer.kinds.dg_interval import MAX_EPSILON, auditor_cost as witness_cost, certificate_of, check_noise, \
    evaluate, parse_noise
from producer.kinds.finite_game import check_budget
from producer.laws import parse_gamma
from producer.names import entry
from producer.rationals import decimal_outward, format_rational, parse_integer, parse_rational
from producer.sources.calibration import search
from producer.sources.moment import envelope_upper

KIND, VERSION = "calibration", 1
DEFAULT_WIDTH = mpq(1, 10**6)
EPSILON_DIGITS = 12
MAX_ENVELOPE_EXPONENT = 50_000  # the auditor checks E >= log(1 + (e^{8C/σ²} − 1)/(4δ)) only up to 8C/σ² <= this


class Request(Immutable):
    """A validated calibration request: γ, σ² (or the Laplace t), C, δ, the width ζ and the method."""

    __slots__ = ("gamma", "sigma2", "noise", "budget", "delta", "width", "method")

    def __init__(self, gamma, sigma2, budget, delta, width=None, method=None, laplace=None):
        self.gamma = parse_gamma(gamma)
        self.sigma2, self.noise = check_noise(sigma2, laplace)
        route = "product-pair, C <= 1024" if self.gamma.is_zero else "hierarchy-witness"
        self.budget = check_budget(budget, beyond=f"{entry('calibrate')} answers it (route {route})")
        self.delta = mpq(delta)
        if not 0 < self.delta < 1:
            raise InputError(f"delta: need 0 < δ < 1, got {self.delta}")
        self.width = DEFAULT_WIDTH if width is None else mpq(width)
        if self.width <= 0:
            raise InputError(f"width: must be positive, got {self.width}")
        check_method(method)
        self.method = method

    @classmethod
    def from_strings(cls, gamma, sigma2, budget, delta, *, width=None, method=None, laplace=None):
        """Parse user text (or Python numbers) exactly; ``sigma2=None, laplace=t`` for the discrete Laplace."""
        sigma2, laplace = parse_noise(sigma2, laplace)
        return cls(parse_gamma(gamma), sigma2, parse_integer(budget, "budget"), parse_rational(delta, "delta"),
                   width=None if width is None else parse_rational(width, "width"), method=method,
                   laplace=laplace)

    def as_json(self):
        data = {
            "gamma": str(self.gamma),
            "sigma2": None if self.sigma2 is None else format_rational(self.sigma2),
            "budget": self.budget,
            "delta": format_rational(self.delta),
            "width": format_rational(self.width),
            "method": self.method,
        }
        if self.noise is not None:  # absent for the discrete Gaussian (unchanged certificates)
            data["noise"] = self.noise.as_json()
        return data

    def dg_request(self, epsilon, width):
        return dg_interval.Request(self.gamma, self.sigma2, self.budget, epsilon, width=width, method=self.method,
                                   laplace=self.noise)

    def envelope(self):
        """A rational E >= ε*_C(δ) where the search starts."""
        if self.noise is None:
            exponent = mpq(8 * self.budget) / self.sigma2
            if exponent > MAX_ENVELOPE_EXPONENT:  # the auditor's limit (docs/certificates.md, calibration/1)
                raise LimitError(f"sigma2: the moment envelope's exponent 8C/σ² = {format_rational(exponent)} "
                                 f"exceeds the auditor's limit {MAX_ENVELOPE_EXPONENT}; use a larger σ² or a "
                                 f"smaller C")
            return envelope_upper(self.sigma2, self.budget, self.delta)
        envelope = laplace_envelope(self.noise.t, self.budget)
        if envelope > MAX_EPSILON:
            raise LimitError("laplace: the search would start at the pure-DP bound "
                             f"2C/t = {format_rational(envelope)}, "
                             f"above the ε limit {MAX_EPSILON} of dg-interval (t is too small for C = {self.budget})")
        return envelope


def laplace_envelope(t, budget):
    """E = 2C/t: with discrete-Laplace innovations the mechanism is (2C/t)-DP, so Δ*_C(2C/t) = 0."""
    return mpq(2 * int(budget)) / mpq(t)


def build(request, progress=None):
    """The calibration certificate for ``request`` (each step reported to ``progress``)."""
    log = progress or (lambda message: None)
    envelope = request.envelope()
    log(f"{'moment envelope' if request.noise is None else 'pure-DP envelope 2C/t'}: eps* <= {float(envelope):.6f}")

    def oracle(epsilon, width):
        return evaluate(request.dg_request(epsilon, width))

    bracket = search(oracle, request.delta, request.width, envelope, log, limit=MAX_EPSILON)
    log(f"done after {bracket.probes} queries: eps* in [{float(bracket.eps_lo):.9f}, {float(bracket.eps_hi):.9f}]")
    result = {
        "status": "zero" if bracket.is_zero else "enclosed",
        "epsilon_lo": format_rational(bracket.eps_lo),
        "epsilon_hi": format_rational(bracket.eps_hi),
        "epsilon_lo_display": decimal_outward(bracket.eps_lo, EPSILON_DIGITS, -1),
        "epsilon_hi_display": decimal_outward(bracket.eps_hi, EPSILON_DIGITS, +1),
        "envelope": format_rational(envelope),
        "lower_witness": None if bracket.is_zero else certificate_of(bracket.lower_result),
        "upper_witness": certificate_of(bracket.upper_result),
    }
    return make_certificate(KIND, VERSION, request.as_json(), result)


def claim(cert):
    inp, res = cert["input"], cert["result"]
    C, delta = inp["budget"], show(rational(inp["delta"]))
    if res["status"] == "zero":
        answer = f"ε*_{C}({delta}) = 0 (already Δ*_{C}(0) ≤ δ)"
    else:
        answer = f"ε*_{C}({delta}) ∈ {show_interval(rational(res['epsilon_lo']), rational(res['epsilon_hi']))}"
    return (f"{answer} for {mechanism_inputs(inp)}, δ = {delta}: the smallest ε with Δ*_{C}(ε) ≤ δ "
            f"({law_name(inp)}; route exact game)")


def auditor_cost(cert):
    """The auditor's budget estimate: both witnesses' games together (docs/certificates.md, calibration/1)."""
    res = cert["result"]
    return together([witness_cost(w) for w in (res["lower_witness"], res["upper_witness"]) if w is not None],
                    advice="a smaller C or width")
