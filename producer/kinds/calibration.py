"""The ``calibration/1`` certificate: an enclosure of ε*_C(δ) for the discrete Gaussian.

ε*_C(δ) = inf{ε >= 0 : Δ*_C(ε) <= δ}.  The certificate holds

- ``status`` "zero" with ε_lo = ε_hi = 0 and one dg-interval at ε = 0 whose
  upper end is <= δ; or
- ``status`` "enclosed" with ε_lo < ε_hi, ε_hi − ε_lo < ζ, a complete
  dg-interval certificate at ε_lo whose lower end is > δ and one at ε_hi whose
  upper end is <= δ (monotonicity of Δ*_C in ε does the rest);

plus the bound E >= ε* where the search started: the moment envelope
E >= log(1 + (e^{8C/σ²} − 1)/(4δ)) for the discrete Gaussian, E = 2C/t for the
discrete Laplace of scale t (the mechanism is then (2C/t)-DP;
docs/plain-composition.md §2.5).
"""

import sys

from gmpy2 import mpq

from producer.certificates.canonical import make_certificate
from producer.kinds.dg_interval import MAX_EPSILON, DgRequest, certificate_of, check_noise, evaluate
from producer.errors import InputError, LimitError
from producer.game.values import check_method
from producer.laws import Gamma
from producer.rationals import decimal_outward, format_rational
from producer.sources.calibration import search
from producer.sources.moment import envelope_upper

KIND, VERSION = "calibration", 1
DEFAULT_WIDTH = mpq(1, 10**6)
EPSILON_DIGITS = 12
MAX_ENVELOPE_EXPONENT = 50_000  # the auditor checks E >= log(1 + (e^{8C/σ²} − 1)/(4δ)) only up to 8C/σ² <= this


class CalibrationRequest:
    __slots__ = ("gamma", "sigma2", "noise", "budget", "delta", "width", "method")

    def __init__(self, gamma, sigma2, budget, delta, width=None, method=None, laplace=None):
        self.gamma = gamma if isinstance(gamma, Gamma) else Gamma.from_string(gamma)
        self.sigma2, self.noise = check_noise(sigma2, laplace)
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
        return DgRequest(self.gamma, self.sigma2, self.budget, epsilon, width=width, method=self.method,
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


def build(request, quiet=True):
    """The calibration certificate for ``request`` (progress on stderr unless quiet)."""
    def log(message):
        if not quiet:
            print(f"calibrate: {message}", file=sys.stderr, flush=True)

    envelope = request.envelope()
    log(f"{'moment envelope' if request.noise is None else 'pure-DP envelope 2C/t'}: eps* <= {float(envelope):.6f}")

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
