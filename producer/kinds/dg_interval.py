"""The ``dg-interval/1`` certificate: an interval for the discrete-Gaussian value Δ*_C(ε).

Request: γ, σ², C, ε, and either an explicit source (radius L, scale S) or a
target width W.  The certificate carries the whole finite problem (the
source's integer weights, γ, C, λ₋) so that a checker can re-solve it, plus
the proofs' numbers: τ, λ₋ <= e^ε <= λ₊, the exact finite value
G_C(1, λ₋), v = G_C(1, λ₋) − λ₋, b and the interval (SPEC 4).

Width rule (``--width W``; docs/discrete-gaussian.md): λ₊ − λ₋ <= W/64, then
τ_max = (W − (λ₊ − λ₋))/(4C(1 + λ₊)), L and S from
:func:`producer.sources.discrete_gaussian.choose_radius_scale`, doubling S
until (λ₊ − λ₋) + 2b < W, which bounds the final width before the game is
solved.
"""

import sys
import time

from gmpy2 import mpq, mpz

from producer.certificates.canonical import make_certificate
from producer.errors import InputError, LimitError
from producer.game.values import check_method
from producer.game.auditability import check_auditable_game
from producer.laws import Gamma
from producer.rationals import decimal_outward, format_rational
from producer.sources import discrete_gaussian, discrete_laplace
from producer.sources.discrete_gaussian import check_sigma2
from producer.sources.discrete_laplace import LaplaceNoise
from producer.sources.enclosures import exp_threshold
from producer.sources.transfer import dg_interval, transfer_term, tau_budget, width_bound

KIND, VERSION = "dg-interval", 1
MAX_EPSILON = 64
MAX_SCALE_DOUBLINGS = 24
THRESHOLD_GAP_SHARE = 64  # λ₊ − λ₋ <= W/64 in width mode


def _solve(law, gamma, budget, x, y, method):
    """G_budget(x, y) from the producer's game engine (imported late: it is large)."""
    from producer.game.values import root_value
    return root_value(law, gamma, budget, x, y, method=method)


def check_noise(sigma2, laplace):
    """(σ², noise): the discrete Gaussian (σ², None) or the discrete Laplace (None, LaplaceNoise(t))."""
    if (sigma2 is None) == (laplace is None):
        raise InputError("give exactly one innovation law: sigma2 (discrete Gaussian) or laplace t "
                         "(discrete Laplace)")
    if laplace is None:
        return check_sigma2(sigma2), None
    return None, laplace if isinstance(laplace, LaplaceNoise) else LaplaceNoise(laplace)


def source_family(noise):
    """The source module of the innovation law: discrete Gaussian (noise None) or Laplace."""
    return discrete_gaussian if noise is None else discrete_laplace


def law_parameter(request):
    """What the source module is built from: σ² or the LaplaceNoise."""
    return request.sigma2 if request.noise is None else request.noise


class DgRequest:
    """A validated dg request; exactly one of (radius, scale) and width is set.

    The innovation law is the discrete Gaussian with σ² (``noise`` None) or the
    discrete Laplace of scale t (``laplace=t``, ``sigma2`` None).
    """

    __slots__ = ("gamma", "sigma2", "noise", "budget", "epsilon", "radius", "scale", "width", "method")

    def __init__(self, gamma, sigma2, budget, epsilon, radius=None, scale=None, width=None, method=None,
                 laplace=None):
        self.gamma = gamma if isinstance(gamma, Gamma) else Gamma.from_string(gamma)
        self.sigma2, self.noise = check_noise(sigma2, laplace)
        self.budget = int(budget)
        if self.budget < 0:
            raise InputError(f"budget: C must be >= 0, got {self.budget}")
        self.epsilon = mpq(epsilon)
        if self.epsilon < 0:
            raise InputError(f"epsilon: must be >= 0, got {self.epsilon}")
        if self.epsilon > MAX_EPSILON:
            raise LimitError(f"epsilon: {self.epsilon} exceeds the limit {MAX_EPSILON}")
        check_method(method)
        self.method = method
        explicit = radius is not None or scale is not None
        if explicit == (width is not None):
            raise InputError("give either --radius L --scale S or --width W (exactly one)")
        if explicit and (radius is None or scale is None):
            raise InputError("--radius and --scale go together")
        self.radius = None if radius is None else int(radius)
        self.scale = None if scale is None else mpz(scale)
        self.width = None if width is None else mpq(width)
        if self.width is not None and self.width <= 0:
            raise InputError(f"width: must be positive, got {self.width}")

    def as_json(self):
        if self.width is None:
            source = {"radius": self.radius, "scale": str(int(self.scale))}
        else:
            source = {"width": format_rational(self.width)}
        data = {
            "gamma": str(self.gamma),
            "sigma2": None if self.sigma2 is None else format_rational(self.sigma2),
            "budget": self.budget,
            "epsilon": format_rational(self.epsilon),
            "source": source,
            "method": self.method,
        }
        if self.noise is not None:  # absent for the discrete Gaussian (unchanged certificates)
            data["noise"] = self.noise.as_json()
        return data


class DgResult:
    """The numbers of one dg-interval: source, threshold, finite value, transfer, interval."""

    __slots__ = ("request", "source", "lam_lo", "lam_hi", "finite", "v", "b", "lower", "upper")

    def __init__(self, request, source, lam_lo, lam_hi, finite, v, b, lower, upper):
        self.request, self.source = request, source
        self.lam_lo, self.lam_hi = lam_lo, lam_hi
        self.finite, self.v, self.b = finite, v, b
        self.lower, self.upper = lower, upper

    @property
    def width(self):
        return self.upper - self.lower


def _progress(message, quiet):
    if not quiet:
        print(f"dg: {message}", file=sys.stderr, flush=True)


def choose_source_and_threshold(request, quiet=True):
    """(source, λ₋, λ₊) for the request (explicit source, or the width rule)."""
    family, parameter = source_family(request.noise), law_parameter(request)
    build_source = family.SOURCE.from_radius_scale   # refuses what the auditor could not check
    if request.width is None:
        source = build_source(parameter, request.radius, request.scale)
        # The threshold gap is made negligible next to the transfer term.
        gap = max(source.tau / mpz(2) ** 20, mpq(1, mpz(2) ** 256))
        lam_lo, lam_hi = exp_threshold(request.epsilon, gap)
        return source, lam_lo, lam_hi
    W = request.width
    lam_lo, lam_hi = exp_threshold(request.epsilon, W / THRESHOLD_GAP_SHARE)
    target = tau_budget(W, request.budget, lam_lo, lam_hi)
    radius, scale = family.choose_radius_scale(parameter, target)
    for _ in range(MAX_SCALE_DOUBLINGS):
        _progress(f"width rule: trying L = {radius}, S = 2^{int(scale.bit_length()) - 1}", quiet)
        source = build_source(parameter, radius, scale)
        if width_bound(source.tau, request.budget, lam_lo, lam_hi) < W:
            return source, lam_lo, lam_hi
        scale *= 2
    raise LimitError(f"width: could not meet width {W} with L = {radius} after "
                     f"{MAX_SCALE_DOUBLINGS} doublings of S")


def evaluate(request, quiet=True):
    """Solve the request: build the source, enclose e^ε, solve the game, transfer."""
    start = time.monotonic()
    source, lam_lo, lam_hi = choose_source_and_threshold(request, quiet)
    check_auditable_game(source.law, request.gamma, request.budget, 1)  # the auditor re-solves this one query
    _progress(f"source L = {source.radius}, S has {int(source.scale.bit_length())} bits, "
              f"tau <= {float(source.tau):.3e}; solving G_{request.budget}(1, lambda-)", quiet)
    finite = _solve(source.law, request.gamma, request.budget, mpq(1), lam_lo, request.method)
    v = mpq(finite.value) - lam_lo
    b = transfer_term(source.tau, request.budget, lam_hi)
    lower, upper = dg_interval(v, lam_lo, lam_hi, b)
    _progress(f"interval [{float(lower):.12e}, {float(upper):.12e}] in "
              f"{time.monotonic() - start:.1f} s", quiet)
    return DgResult(request, source, lam_lo, lam_hi, finite, v, b, lower, upper)


def display_digits(width):
    """Decimal places for displays: 8 more than the first significant place of the width."""
    width = mpq(width)
    if width <= 0:
        return 30
    d = 0
    while mpq(1, mpz(10) ** d) > width and d < 52:
        d += 1
    return max(12, d + 8)


def result_json(result):
    """The ``result`` object of a dg-interval certificate."""
    digits = display_digits(result.width)
    return {
        "source": result.source.as_json(),
        "tau": format_rational(result.source.tau),
        "threshold": {"lower": format_rational(result.lam_lo), "upper": format_rational(result.lam_hi)},
        "finite": {
            "x": "1",
            "y": format_rational(result.lam_lo),
            "value": format_rational(result.finite.value),
            "hockey_stick": format_rational(result.v),
            "method": result.finite.method,
            "witness": result.finite.witness,
        },
        "transfer": format_rational(result.b),
        "interval": {
            "lower": format_rational(result.lower),
            "upper": format_rational(result.upper),
            "width": format_rational(result.width),
            "lower_display": decimal_outward(result.lower, digits, -1),
            "upper_display": decimal_outward(result.upper, digits, +1),
        },
    }


def certificate_of(result):
    return make_certificate(KIND, VERSION, result.request.as_json(), result_json(result))


def build(request, quiet=True):
    """The dg-interval certificate for ``request``."""
    return certificate_of(evaluate(request, quiet))
