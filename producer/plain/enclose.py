"""The points of a plain-composition certificate: enclosures narrower than W, as short rationals.

For each ε the family module gives a ball ``lower`` and (discrete Gaussian)
a ball ``missing`` >= the mass outside the enumerated set, with

    δ(ε) ∈ [lower.lower(), lower.upper() + missing.upper()];

the discrete Laplace has no missing mass, and an exact zero for ε >= C/t.
The ends are rounded outward to the 2^-k grid (:mod:`producer.plain.outward`).
The precision starts from log2(1/W) and doubles until every point has
upper − lower <= W, checked exactly on the rationals; after
:data:`MAX_DOUBLINGS` doublings the request fails with a clear message.
"""

from gmpy2 import mpq

from producer.errors import LimitError
from producer.plain import gaussian, laplace
from producer.plain.outward import ball_lower, ball_upper, grid_bits, lower_end, upper_end
from producer.rationals import describe_rational
from producer.sources.enclosures import floor_log2

MAX_DOUBLINGS = 5
GUARD_BITS = 40
GAUSSIAN, LAPLACE = "discrete-gaussian", "discrete-laplace"  # the noise families (request.family)


class Point:
    """One certified point: lower <= δ(ε) <= upper (exact rationals)."""

    __slots__ = ("epsilon", "lower", "upper")

    def __init__(self, epsilon, lower, upper):
        self.epsilon, self.lower, self.upper = mpq(epsilon), mpq(lower), mpq(upper)

    @property
    def width(self):
        return self.upper - self.lower


def _start_bits(request, extra):
    return -floor_log2(request.width) + GUARD_BITS + extra


def _gaussian_start(request):
    """(L, estimated length, starting bits) of a discrete-Gaussian request; refuses a too large sum's law."""
    sigma2, C, W = request.parameter, request.budget, request.width
    radius = gaussian.truncation_radius(sigma2, C, W / gaussian.TRUNCATION_SHARE)
    length = gaussian.estimated_length(radius, C)
    bits = _start_bits(request, 2 * length.bit_length())
    if length * bits > gaussian.MAX_WORK:
        raise LimitError(f"the sum's law would need about {length} coefficients of {bits} bits "
                         f"(L = {radius}, C = {C}), above the limit of {gaussian.MAX_WORK} coefficient-bits; "
                         f"ask for a larger width or a smaller C·σ²")
    return radius, length, bits


def _laplace_start(request):
    return _start_bits(request, 2 * request.budget.bit_length())


def _gaussian_point(balls, epsilon, k):
    low, missing = balls.at(epsilon)
    return Point(epsilon, lower_end(ball_lower(low), k), upper_end(ball_upper(low) + ball_upper(missing), k))


def _laplace_point(balls, epsilon, k):
    ball = balls.at(epsilon)
    return Point(epsilon, 0, 0) if ball is None else \
        Point(epsilon, lower_end(ball_lower(ball), k), upper_end(ball_upper(ball), k))


def _gaussian_points(request, log):
    sigma2, C, W = request.parameter, request.budget, request.width
    radius, length, bits = _gaussian_start(request)
    k = grid_bits(W)
    for _ in range(MAX_DOUBLINGS + 1):
        log(f"discrete Gaussian: L = {radius}, about {length} coefficients, {bits} bits")
        balls = gaussian.SumEnclosures(sigma2, C, W, bits, radius)
        points = [_gaussian_point(balls, e, k) for e in request.epsilons]
        if all(p.width <= W for p in points):
            return points
        bits *= 2
    raise _too_wide(request, bits // 2)


def _laplace_points(request, log):
    t, C, W = request.parameter, request.budget, request.width
    k = grid_bits(W)
    bits = _laplace_start(request)
    for _ in range(MAX_DOUBLINGS + 1):
        log(f"discrete Laplace: closed form at {bits} bits")
        balls = laplace.TailEnclosures(t, C, bits)
        points = [_laplace_point(balls, e, k) for e in request.epsilons]
        if all(p.width <= W for p in points):
            return points
        bits *= 2
    raise _too_wide(request, bits // 2)


def _too_wide(request, bits):
    return LimitError(f"could not narrow every enclosure below width {describe_rational(request.width)} "
                      f"at {bits} bits of precision")


def points(request, log=lambda message: None):
    """The certified :class:`Point` of every ε of ``request`` (a :class:`producer.kinds.plain_composition.Request`)."""
    if request.family == GAUSSIAN:
        return _gaussian_points(request, log)
    return _laplace_points(request, log)


class SingleEpsilon:
    """The point that :func:`points` gives for the one-ε request ``request.with_epsilons([ε])``, for any ε.

    The law (the sum's, or the Laplace suffix sums) is built once, at the
    starting precision; an ε whose point is already narrower than W there is
    answered from it (the first round of :func:`points` computes exactly that
    point), any other ε by :func:`points` itself.  Limits are checked when
    this is made, before any law is built.
    """

    def __init__(self, request, log=lambda message: None):
        self.request, self.log, self.k = request, log, grid_bits(request.width)
        if request.family == GAUSSIAN:
            self._start = _gaussian_start(request)
        else:
            self._start = _laplace_start(request)
        self._balls = None

    def _law(self):
        if self._balls is None:
            r = self.request
            if r.family == GAUSSIAN:
                radius, length, bits = self._start
                self.log(f"discrete Gaussian: L = {radius}, about {length} coefficients, {bits} bits")
                self._balls = gaussian.SumEnclosures(r.parameter, r.budget, r.width, bits, radius)
            else:
                self.log(f"discrete Laplace: closed form at {self._start} bits")
                self._balls = laplace.TailEnclosures(r.parameter, r.budget, self._start)
        return self._balls

    def point(self, epsilon):
        """The certified :class:`Point` at ε (exactly what a single-ε plain request gives)."""
        make = _gaussian_point if self.request.family == GAUSSIAN else _laplace_point
        point = make(self._law(), mpq(epsilon), self.k)
        if point.width <= self.request.width:
            return point
        return points(self.request.with_epsilons([epsilon]), self.log)[0]
