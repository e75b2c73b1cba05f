"""The ``calibration/1`` certificate: an enclosure of ε*_C(δ) for the discrete Gaussian.

ε*_C(δ) = inf{ε >= 0 : Δ*_C(ε) <= δ}.  The certificate holds

- ``status`` "zero" with ε_lo = ε_hi = 0 and one dg-interval at ε = 0 whose
  upper end is <= δ; or
- ``status`` "enclosed" with ε_lo < ε_hi, ε_hi − ε_lo < ζ, a complete
  dg-interval certificate at ε_lo whose lower end is > δ and one at ε_hi whose
  upper end is <= δ (monotonicity of Δ*_C in ε does the rest);

plus the moment-envelope bound E >= log(1 + (e^{8C/σ²} − 1)/(4δ)) where the
search started.
"""

import sys

from gmpy2 import mpq

from producer.certificates.canonical import make_certificate
from producer.certificates.dg_interval import DgRequest, certificate_of, evaluate
from producer.errors import InputError
from producer.game.api import check_method
from producer.laws import Gamma
from producer.rationals import decimal_outward, format_rational
from producer.sources.calibration import search
from producer.sources.discrete_gaussian import check_sigma2
from producer.sources.moment import envelope_upper

KIND, VERSION = "calibration", 1
DEFAULT_WIDTH = mpq(1, 10**6)
EPSILON_DIGITS = 12


class CalibrationRequest:
    __slots__ = ("gamma", "sigma2", "budget", "delta", "width", "method")

    def __init__(self, gamma, sigma2, budget, delta, width=None, method=None):
        self.gamma = gamma if isinstance(gamma, Gamma) else Gamma.from_string(gamma)
        self.sigma2 = check_sigma2(sigma2)
        self.budget = int(budget)
        if self.budget < 0:
            raise InputError(f"budget: C must be >= 0, got {self.budget}")
        self.delta = mpq(delta)
        if not 0 < self.delta < 1:
            raise InputError(f"delta: need 0 < δ < 1, got {self.delta}")
        self.width = DEFAULT_WIDTH if width is None else mpq(width)
        if self.width <= 0:
            raise InputError(f"width: must be positive, got {self.width}")
        check_method(method)
        self.method = method

    def as_json(self):
        return {
            "gamma": str(self.gamma),
            "sigma2": format_rational(self.sigma2),
            "budget": self.budget,
            "delta": format_rational(self.delta),
            "width": format_rational(self.width),
            "method": self.method,
        }

    def dg_request(self, epsilon, width):
        return DgRequest(self.gamma, self.sigma2, self.budget, epsilon, width=width, method=self.method)


def build(request, quiet=True):
    """The calibration certificate for ``request`` (progress on stderr unless quiet)."""
    def log(message):
        if not quiet:
            print(f"calibrate: {message}", file=sys.stderr, flush=True)

    envelope = envelope_upper(request.sigma2, request.budget, request.delta)
    log(f"moment envelope: eps* <= {float(envelope):.6f}")

    def oracle(epsilon, width):
        return evaluate(request.dg_request(epsilon, width))

    bracket = search(oracle, request.delta, request.width, envelope, log)
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
