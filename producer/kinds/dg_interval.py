"""The ``dg-interval/1`` certificate: an interval for Δ*_C(ε), the hidden integer feedback profile.

Question (``input``): γ, the innovation law (the discrete Gaussian's σ², or
the discrete Laplace's t in ``noise``), C, ε, and either an explicit source
(radius L, scale S) or a target width W.  The certificate carries the whole
finite problem (the source's integer weights, γ, C, λ₋) so that a checker can
re-solve it, plus the proofs' numbers: τ, λ₋ <= e^ε <= λ₊, the exact finite
value G_C(1, λ₋), v = G_C(1, λ₋) − λ₋, b and the interval (*Exact
Compilation and Resource Laws for Hidden Integer Feedback*, §3.2 and §4.3;
docs/discrete-gaussian.md).

Width rule (``width=W``; docs/discrete-gaussian.md): λ₊ − λ₋ <= W/64, then
τ_max = (W − (λ₊ − λ₋))/(4C(1 + λ₊)), L and S from
:func:`producer.sources.discrete_gaussian.choose_radius_scale`, doubling S
until (λ₊ − λ₋) + 2b < W, which bounds the final width before the game is
solved.

Limits: C <= 6 (the game's), 0 <= ε <= :data:`MAX_EPSILON`, σ² within the
discrete Gaussian's limits, an explicit radius whose outermost atom the
auditor can still check (producer/sources/auditability.py), and the auditor's
limits on the source and the game, checked before the game is solved.
"""

import time

from gmpy2 import mpq, mpz

from producer.certificates.canonical import make_certificate
from producer.display import display_digits, law_name, mechanism_inputs, rational, show, show_interval
from producer.errors import InputError, LimitError, ReachError
from producer.game.auditability import check_auditable_game, dg_interval_cost
from producer.game.values import check_method, root_value
from producer.immutable import Immutable
from producer.kinds.finite_game import check_budget
from producer.laws import parse_gamma
from producer.names import entry, option
from producer.rationals import decimal_outward, format_rational, parse_integer, parse_rational
from producer.sources import discrete_gaussian, discrete_laplace
from producer.sources.auditability import check_edge_radius
from producer.sources.discrete_gaussian import check_sigma2
from producer.sources.discrete_laplace import LaplaceNoise
from producer.sources.enclosures import exp_threshold
from producer.sources.transfer import dg_interval, transfer_term, tau_budget, width_bound

KIND, VERSION = "dg-interval", 1
MAX_EPSILON = 64
MAX_SCALE_DOUBLINGS = 24
THRESHOLD_GAP_SHARE = 64  # λ₊ − λ₋ <= W/64 in width mode


def _solve(law, gamma, budget, x, y, method):
    """G_budget(x, y) from the producer's game engine (the tests swap in a reference game here)."""
    return root_value(law, gamma, budget, x, y, method=method)


def check_noise(sigma2, laplace):
    """(σ², noise): the discrete Gaussian (σ², None) or the discrete Laplace (None, LaplaceNoise(t))."""
    if (sigma2 is None) == (laplace is None):
        raise InputError(f"give exactly one innovation law: {option('sigma2', 'Q')} (discrete Gaussian) or "
                         f"{option('laplace', 'T')} (discrete Laplace), "
                         + ("not both" if sigma2 is not None else "none was given"))
    if laplace is None:
        return check_sigma2(sigma2), None
    return None, laplace if isinstance(laplace, LaplaceNoise) else LaplaceNoise(laplace)


def parse_noise(sigma2, laplace):
    """σ² and t read exactly from user text (None stays None)."""
    return (None if sigma2 is None else parse_rational(sigma2, "sigma2"),
            None if laplace is None else parse_rational(laplace, "laplace"))


def source_family(noise):
    """The source module of the innovation law: discrete Gaussian (noise None) or Laplace."""
    return discrete_gaussian if noise is None else discrete_laplace


def law_parameter(request):
    """What the source module is built from: σ² or the LaplaceNoise."""
    return request.sigma2 if request.noise is None else request.noise


class Request(Immutable):
    """A validated dg-interval request; exactly one of (radius, scale) and width is set.

    The innovation law is the discrete Gaussian with σ² (``noise`` None) or the
    discrete Laplace of scale t (``laplace=t``, ``sigma2`` None).
    """

    __slots__ = ("gamma", "sigma2", "noise", "budget", "epsilon", "radius", "scale", "width", "method")

    def __init__(self, gamma, sigma2, budget, epsilon, radius=None, scale=None, width=None, method=None,
                 laplace=None):
        explicit = radius is not None or scale is not None
        if explicit == (width is not None) or explicit and (radius is None or scale is None):
            raise InputError(f"give {option('width', 'W')}, or {option('radius', 'L')} together with "
                             f"{option('scale', 'S')} (exactly one of the two)")
        self.gamma = parse_gamma(gamma)
        self.sigma2, self.noise = check_noise(sigma2, laplace)
        beyond = (f"{entry('plain')} encloses it at γ = 0 (C <= 1024)" if self.gamma.is_zero else
                  f"{entry('hierarchy')} bounds it from above")
        self.budget = check_budget(budget, beyond=beyond)
        self.epsilon = mpq(epsilon)
        if self.epsilon < 0:
            raise InputError(f"epsilon: must be >= 0, got {self.epsilon}")
        if self.epsilon > MAX_EPSILON:
            raise LimitError(f"epsilon: {self.epsilon} exceeds the limit {MAX_EPSILON}")
        self.radius = None if radius is None else int(radius)
        if self.radius is not None and self.sigma2 is not None:
            check_edge_radius(self.radius, self.sigma2)
        self.scale = None if scale is None else mpz(scale)
        self.width = None if width is None else mpq(width)
        if self.width is not None and self.width <= 0:
            raise InputError(f"width: must be positive, got {self.width}")
        check_method(method)
        self.method = method

    @classmethod
    def from_strings(cls, gamma, sigma2, budget, epsilon, *, width=None, radius=None, scale=None, method=None,
                     laplace=None):
        """Parse user text (or Python numbers) exactly; ``sigma2=None, laplace=t`` for the discrete Laplace."""
        sigma2, laplace = parse_noise(sigma2, laplace)
        return cls(parse_gamma(gamma), sigma2, parse_integer(budget, "budget"), parse_rational(epsilon, "epsilon"),
                   radius=None if radius is None else parse_integer(radius, "radius"),
                   scale=None if scale is None else parse_integer(scale, "scale"),
                   width=None if width is None else parse_rational(width, "width"), method=method,
                   laplace=laplace)

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


def choose_source_and_threshold(request, progress=None):
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
        if progress:
            progress(f"width rule: trying L = {radius}, S = 2^{int(scale.bit_length()) - 1}")
        source = build_source(parameter, radius, scale)
        if width_bound(source.tau, request.budget, lam_lo, lam_hi) < W:
            return source, lam_lo, lam_hi
        scale *= 2
    raise LimitError(f"width: could not meet width {W} with L = {radius} after "
                     f"{MAX_SCALE_DOUBLINGS} doublings of S")


def evaluate(request, progress=None):
    """Solve the request: build the source, enclose e^ε, solve the game, transfer."""
    try:
        return _evaluate(request, progress)
    except ReachError as error:
        raise _beyond_the_game(request, error) from None


def _beyond_the_game(request, error):
    """The game's size refusal, naming the hierarchy's upper bound where it answers (discrete Gaussian, γ > 0).

    ``producer calibrate`` repeats only the reason (its own route answers), so the advice is free to name it."""
    if request.sigma2 is None or request.gamma.is_zero:
        return error
    hierarchy = entry("hierarchy", gamma=str(request.gamma), sigma2=format_rational(request.sigma2),
                      budget=request.budget, depth=2, epsilon=format_rational(request.epsilon))
    advice = f"{hierarchy} bounds Δ*_C(ε) from above beyond the exact game's reach (an upper end only)"
    return ReachError(error.reason, advice if error.advice is None else f"{error.advice}; {advice}")


def _evaluate(request, progress):
    start = time.monotonic()
    report = progress or (lambda message: None)
    source, lam_lo, lam_hi = choose_source_and_threshold(request, progress)
    check_auditable_game(source.law, request.gamma, request.budget, 1)  # the auditor re-solves this one query
    report(f"source L = {source.radius}, S has {int(source.scale.bit_length())} bits, "
           f"tau <= {float(source.tau):.3e}; solving G_{request.budget}(1, lambda-)")
    finite = _solve(source.law, request.gamma, request.budget, mpq(1), lam_lo, request.method)
    v = mpq(finite.value) - lam_lo
    b = transfer_term(source.tau, request.budget, lam_hi)
    lower, upper = dg_interval(v, lam_lo, lam_hi, b)
    report(f"interval [{float(lower):.12e}, {float(upper):.12e}] in {time.monotonic() - start:.1f} s")
    return DgResult(request, source, lam_lo, lam_hi, finite, v, b, lower, upper)


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


def build(request, progress=None):
    """The dg-interval certificate for ``request``."""
    return certificate_of(evaluate(request, progress))


def claim(cert):
    inp, res = cert["input"], cert["result"]
    interval = res["interval"]
    return (f"Δ*_{inp['budget']}({show(rational(inp['epsilon']))}) "
            f"∈ {show_interval(rational(interval['lower']), rational(interval['upper']))} "
            f"for {mechanism_inputs(inp)} ({law_name(inp)})")


def auditor_cost(cert):
    """The auditor's budget estimate of a dg-interval certificate (producer.game.auditability)."""
    return dg_interval_cost(cert)
