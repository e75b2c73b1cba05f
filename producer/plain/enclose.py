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


def _gaussian_points(request, log):
    sigma2, C, W = request.parameter, request.budget, request.width
    radius = gaussian.truncation_radius(sigma2, C, W / gaussian.TRUNCATION_SHARE)
    length = gaussian.estimated_length(radius, C)
    bits = _start_bits(request, 2 * length.bit_length())
    if length * bits > gaussian.MAX_WORK:
        raise LimitError(f"the sum's law would need about {length} coefficients of {bits} bits "
                         f"(L = {radius}, C = {C}), above the limit of {gaussian.MAX_WORK} coefficient-bits; "
                         f"ask for a larger width or a smaller C·σ²")
    k = grid_bits(W)
    for _ in range(MAX_DOUBLINGS + 1):
        log(f"discrete Gaussian: L = {radius}, about {length} coefficients, {bits} bits")
        balls = gaussian.enclosures(sigma2, C, request.epsilons, W, bits, radius)
        points = [Point(e, lower_end(ball_lower(low), k), upper_end(ball_upper(low) + ball_upper(missing), k))
                  for e, (low, missing) in zip(request.epsilons, balls)]
        if all(p.width <= W for p in points):
            return points
        bits *= 2
    raise _too_wide(request, bits // 2)


def _laplace_points(request, log):
    t, C, W = request.parameter, request.budget, request.width
    k = grid_bits(W)
    bits = _start_bits(request, 2 * C.bit_length())
    for _ in range(MAX_DOUBLINGS + 1):
        log(f"discrete Laplace: closed form at {bits} bits")
        points = []
        for e, ball in zip(request.epsilons, laplace.enclosures(t, C, request.epsilons, bits)):
            points.append(Point(e, 0, 0) if ball is None
                          else Point(e, lower_end(ball_lower(ball), k), upper_end(ball_upper(ball), k)))
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
