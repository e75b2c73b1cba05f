"""The points of a plain-composition request: the absolute width W, the relative width R, or both.

A point meets W when upper − lower <= W and meets R when upper − lower <= R·lower
(lower = upper = 0 meets R); each point must meet one that was asked for.

The single-law form with W alone keeps its own precision loop
(:func:`producer.plain.enclose.points`, unchanged).  Every other request goes
through rounds at an absolute target w: the law is built so that every point
comes out within about w (truncation, pruning and the 2^-k grid as in
:mod:`producer.plain.enclose`, with w in the place of W), and the points that
meet their rule are kept: R when R was asked (W is then a floor, kept only for
the points R cannot reach), else W.  The first round takes w = W when R is not
asked, else max(W, R²) (R²: enough for every δ >= R/4 at once, and a
too-large request is refused before any work);
a point that fails asks for w = R·lower/8 when it has lower > 0 and R was
asked for, else for w² (so δ = 10^-91 is reached from w = 10^-3 in six rounds).
Below :data:`MIN_TARGET` the request fails with a message naming ``--width``.
"""

from gmpy2 import mpq, mpz

from producer.errors import LimitError
from producer.names import option
from producer.plain import enclose, gaussian, laplace, lattice
from producer.plain.enclose import GAUSSIAN, GUARD_BITS, Point
from producer.plain.outward import ball_lower, ball_upper, grid_bits, lower_end, upper_end
from producer.rationals import describe_rational
from producer.sources.enclosures import floor_log2

MIN_TARGET = mpq(1, mpz(10) ** 400)
MAX_ROUNDS = 12


def meets(point, width, rel_width):
    """The width claim of one point: W met, or R met."""
    return (width is not None and point.width <= width) or (rel_width is not None
                                                             and point.width <= rel_width * point.lower)


def _bits(target, length):
    return -floor_log2(target) + GUARD_BITS + 2 * int(length).bit_length()


def _gaussian_size(request, target):
    """(L, estimated length, bits) of the single-law discrete Gaussian at target w; refuses a too large law."""
    sigma2, C = request.parameter, request.budget
    radius = gaussian.truncation_radius(sigma2, C, target / gaussian.TRUNCATION_SHARE)
    length = gaussian.estimated_length(radius, C)
    bits = _bits(target, length)
    if length * bits > gaussian.MAX_WORK:
        raise LimitError(f"the sum's law would need about {length} coefficients of {bits} bits "
                         f"(L = {radius}, C = {C}), above the limit of {gaussian.MAX_WORK} coefficient-bits; "
                         f"ask for a larger width or a smaller C·σ²")
    return radius, length, bits


def _lattice_size(request, target):
    """(plan, bits) of the releases form's loss lattice at target w; refuses a too large lattice."""
    plan = lattice.LatticePlan(request.releases, target)
    bits = _bits(target, plan.length)
    lattice.check_work(plan, bits, gaussian.MAX_WORK)
    return plan, bits


def check_first_round(request):
    """The producer's own size limits on the first round of :func:`points` (and of the absolute single law's
    enclosure), refused before any enclosure: the same cheap checks the round makes."""
    if request.single and request.rel_width is None:
        if request.family == GAUSSIAN:
            enclose._gaussian_start(request)
        return
    target = request.width if request.rel_width is None else max(request.width or 0, request.rel_width ** 2)
    if not request.single:
        _lattice_size(request, target)
    elif request.family == GAUSSIAN:
        _gaussian_size(request, target)


def _single_law(request, target, log):
    """A point function at target w for the single-law form (the family modules with w for W)."""
    k = grid_bits(target)
    if request.family == GAUSSIAN:
        sigma2, C = request.parameter, request.budget
        radius, length, bits = _gaussian_size(request, target)
        log(f"discrete Gaussian: L = {radius}, about {length} coefficients, {bits} bits")
        balls = gaussian.SumEnclosures(sigma2, C, target, bits, radius)
        return lambda epsilon: enclose._gaussian_point(balls, epsilon, k)
    bits = _bits(target, request.budget)
    log(f"discrete Laplace: closed form at {bits} bits")
    balls = laplace.TailEnclosures(request.parameter, request.budget, bits)
    return lambda epsilon: enclose._laplace_point(balls, epsilon, k)


def _releases_law(request, target, log):
    """A point function at target w for the releases form (:mod:`producer.plain.lattice`)."""
    k = grid_bits(target)
    plan, bits = _lattice_size(request, target)
    log(f"{len(request.releases)} releases: loss lattice step {plan.step}, about {plan.length} points, {bits} bits")
    law = lattice.LossLaw(plan, bits)

    def point(epsilon):
        lower, missing = law.at(epsilon)
        if lower is None and missing is None:
            return Point(epsilon, 0, 0)
        low = mpq(0) if lower is None else ball_lower(lower)
        high = (mpq(0) if lower is None else ball_upper(lower)) + (mpq(0) if missing is None else ball_upper(missing))
        return Point(epsilon, lower_end(low, k), upper_end(high, k))
    return point


def _wanted(point, target, rel_width):
    if rel_width is not None and point.lower > 0:
        return min(rel_width * point.lower / 8, target / 2)
    return target * target


def _accepted(point, width, rel_width):
    """A round keeps a point meeting R when R was asked (W is then the floor, see :func:`points`), else W."""
    return meets(point, None, rel_width) if rel_width is not None else meets(point, width, None)


def points(request, log=lambda message: None):
    """The certified :class:`Point` of every ε of ``request``, each meeting W or R.

    With R asked, R is sought first (rounds from w = max(W, R²)) and W is the floor: a point that
    cannot be brought within R (the rounds reach 10^-400, or the work limit) is kept if it meets W.
    """
    if request.single and request.rel_width is None:
        return enclose.points(request, log)
    W, R = request.width, request.rel_width
    make = _single_law if request.single else _releases_law
    target = W if R is None else max(W or 0, R * R)
    done, failed = {}, [Point(e, 0, 1) for e in request.epsilons]
    for _ in range(MAX_ROUNDS):
        try:
            point_at = make(request, target, log)
        except LimitError:
            if R is None or W is None or not all(meets(p, W, None) for p in failed):
                raise
            break  # the floor W holds for every point left
        points_now = [point_at(p.epsilon) for p in failed]
        failed = [p for p in points_now if not _accepted(p, W, R)]
        done.update((p.epsilon, p) for p in points_now if _accepted(p, W, R))
        if not failed:
            break
        target = min(_wanted(p, target, R) for p in failed)
        if target < MIN_TARGET:
            break
    kept = [p for p in failed if R is not None and W is not None and meets(p, W, None)]
    done.update((p.epsilon, p) for p in kept)
    if len(done) == len(request.epsilons):
        return [done[e] for e in request.epsilons]
    worst = next(p for p in failed if p.epsilon not in done)
    rule = "the width" if R is None else "the relative width (δ is too small)"
    raise LimitError(f"δ(ε) at ε = {describe_rational(worst.epsilon)} lies in [{describe_rational(worst.lower)}, "
                     f"{describe_rational(worst.upper)}]: could not enclose it within {rule} at an absolute "
                     f"precision down to 10^-400", f"ask for an absolute width ({option('width', 'W')})")


class SingleEpsilonReleases:
    """The point that :func:`points` gives for ``request.with_epsilons([ε])`` (releases form, W only), for any ε.

    The loss law is built once at target W, lazily (the first round of
    :func:`points` for a one-ε request builds exactly that law); an ε whose
    point meets W there is answered from it, any other by :func:`points` itself.
    """

    def __init__(self, request, log=lambda message: None):
        if request.single or request.width is None or request.rel_width is not None:
            raise ValueError("SingleEpsilonReleases: the releases form with an absolute width only")
        self.request, self.log, self._point_at = request, log, None

    def point(self, epsilon):
        """The certified :class:`Point` at ε (exactly what a single-ε plain request gives)."""
        if self._point_at is None:
            self._point_at = _releases_law(self.request, self.request.width, self.log)
        point = self._point_at(mpq(epsilon))
        if meets(point, self.request.width, None):
            return point
        return points(self.request.with_epsilons([epsilon]), self.log)[0]
