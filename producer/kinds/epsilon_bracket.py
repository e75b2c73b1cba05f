"""The ``epsilon-bracket/1`` certificate: ε_lo <= ε*_C(δ) <= ε_hi, found by the route that reaches C.

ε*_C(δ) = inf{ε >= 0 : Δ*_C(ε) <= δ}.  Question (``input``): γ, the noise
(discrete Gaussian σ² or discrete Laplace t), C, δ and, on the product-pair
route, the width asked for.  The route is fixed by γ:

- ``product-pair`` (γ = 0, plain composition, 1 <= C <= 1024): two
  plain-composition/1 certificates at single ε values, ``upper_witness`` at
  ε_hi with δ(ε_hi) <= upper <= δ and ``lower_witness`` at ε_lo with
  δ(ε_lo) >= lower > δ; since δ(ε) is non-increasing, ε_lo <= ε* <= ε_hi.
  ε_hi − ε_lo <= width.  The ε are found by bisection on the grid of the
  largest power of ten h <= width/4 (:func:`producer.plain.inverse.bisect_grid`),
  every step decided by a certified δ-enclosure; the plain certificates use
  the δ-width :func:`plain_width` (10^-15, the plain command's default, unless
  δ·width/1000 is smaller) and are byte for byte what ``producer plain
  --epsilons ε --width W`` writes.  The question may be a list of releases
  instead of one law (``releases``, the releases form of plain-composition/1:
  canonical, and one release of sensitivity 1 is the single-law form, so its
  bracket is the single-law bracket byte for byte); the embedded certificates
  are then in the releases form, with the same releases.  ε_lo = 0 may come without a witness
  (ε* >= 0 always; ``lower_reason`` says so), and status "zero" means
  δ(0) <= δ is certified (ε_hi = 0).
- ``hierarchy-witness`` (0 < γ < 1, discrete Gaussian, any C the hierarchy
  reaches): a hierarchy/1 certificate of the proof hierarchy P_H answering
  the δ query (ε_hi, *Exact Compilation and Resource Laws for Hidden Integer
  Feedback*, §5 and Appendix E) and a calibration-lower/1 target-zero witness
  line (ε_lo, Appendix G.5).  H is the deepest of 4, 3, 2, 1 whose
  perspective-sum work stays within :data:`DEPTH_WORK`; the numerics are the
  hierarchy's defaults and the target-zero line's published program
  (radius 28, S = 2^60, 4001 geometric priors from 10^-10; from 10^-6 beyond
  C = 32).  Where no target-zero line can be built (C > 64, or one of its
  limits), ε_lo is null and
  ``lower_reason`` says why.  The width is what the two constructions give; a width
  asked for is refused (:func:`width_refused`), since the route cannot aim at one.

Limits: those of the embedded kinds, checked before any work, and the
auditor's budget of one file for both witnesses together (the sum of their
estimates, :func:`auditor_cost`): on the hierarchy-witness route the upper
end's estimate is known before its tables are solved and the lower end's
once its line tree is enumerated, before its lines; a lower witness that
would take the file beyond the multiple the producer writes for
(:mod:`producer.audit_budget`) is left out, and ``lower_reason`` says why.
The published program at C = 32 and C = 64 needs ``auditor verify --budget 2``
and ``--budget 4`` (its target-zero line trees of 5,193 and 10,473 nodes),
which the producer states when it writes them.
"""

from gmpy2 import mpq, mpz

from producer.audit_budget import together
from producer.names import entry, option
from producer.plain.inverse import bisect_grid
from producer.certificates.canonical import make_certificate
from producer.display import rational, release_text, show, show_interval, up
from producer.errors import InputError, LimitError
from producer.game.work import MAX_BUDGET as GAME_MAX_BUDGET
from producer.immutable import Immutable
from producer.kinds import calibration_lower, hierarchy, plain_composition
from producer.laws import parse_gamma
from producer.plain.enclose import GAUSSIAN, SingleEpsilon
from producer.plain.releases import parse_releases
from producer.plain.targets import SingleEpsilonReleases
from producer.rationals import decimal_outward, describe_rational, format_rational, parse_integer, parse_rational

KIND, VERSION = "epsilon-bracket", 1
PRODUCT_PAIR, HIERARCHY_WITNESS = "product-pair", "hierarchy-witness"
DEFAULT_WIDTH = mpq(1, 10**6)  # as calibration/1
EPSILON_DIGITS = 12             # displays, as calibration/1
PLAIN_WIDTH = mpq(1, 10**15)    # the plain command's default δ-width
DEPTH_WORK = 4 * 10**8          # the hierarchy's perspective-sum terms the default depth may take
DEPTHS = (4, 3, 2, 1)


def plain_width(delta, width):
    """The δ-width of the embedded plain certificates: the largest 10^-k <= min(10^-15, δ·width/1000)."""
    target = min(PLAIN_WIDTH, mpq(delta) * mpq(width) / 1000)
    k = 15
    while mpq(1, mpz(10) ** k) > target:
        k += 1
    return mpq(1, mpz(10) ** k)


def grid_step(width):
    """h = the largest power of ten (at most 1) with h <= width/4: the grid the bisection walks."""
    k = 0
    while mpq(1, mpz(10) ** k) > mpq(width) / 4:
        k += 1
    return mpq(1, mpz(10) ** k)


def width_refused(reason=None):
    """The refusal of a width asked for on the hierarchy-witness route, which cannot aim at one: its width is
    what its two constructions give.  ``reason``: why the request is on the route (the exact game's refusal).
    A certificate never claims a width it does not meet, so the request is refused, not answered wider."""
    why = (f"with hidden feedback beyond the exact game (C > {GAME_MAX_BUDGET})," if reason is None else
           f"the exact game does not reach this request ({reason}), so")
    return InputError(f"width: {why} the route is hierarchy-witness, which cannot aim at a width: its enclosure is "
                      f"what its hierarchy upper end and target-zero lower end give (e.g. 0.034 wide at γ = 1/3, "
                      f"σ² = 9, C = 8, δ = 10^-4; the answer line states it)", f"omit {option('width')}")


class Request(Immutable):
    """γ, the noise (``sigma2`` or ``laplace`` with C, or ``releases`` at γ = 0), δ and the width
    (product-pair only); validated here.

    The embedded requests are made (and so checked) here too: ``plain`` (the
    one-ε plain-composition template) on the product-pair route; on the
    hierarchy-witness route the hierarchy's checks and ``lower`` (the
    target-zero request) or ``lower_reason``.
    """

    __slots__ = ("gamma", "family", "parameter", "budget", "delta", "width", "route", "plain", "lower", "lower_reason")

    def __init__(self, gamma, budget, delta, width=None, sigma2=None, laplace=None, *, releases=None):
        self.gamma = parse_gamma(gamma)
        if releases is not None:
            self._init_releases(budget, delta, width, sigma2, laplace, releases)
            return
        if (sigma2 is None) == (laplace is None):
            raise InputError(f"give exactly one noise law: {option('sigma2', 'Q')} (discrete Gaussian) or "
                             f"{option('laplace', 'T')} (discrete Laplace), not both")
        self.family = GAUSSIAN if sigma2 is not None else "discrete-laplace"
        self.parameter = mpq(sigma2 if sigma2 is not None else laplace)
        self.delta = mpq(delta)
        if not 0 < self.delta < 1:
            raise InputError(f"delta: need 0 < δ < 1, got {describe_rational(self.delta)}")
        budget = plain_composition.budget_needed(budget, releases=self.gamma.is_zero)
        if self.gamma.is_zero:
            self.route = PRODUCT_PAIR
            self.width = DEFAULT_WIDTH if width is None else mpq(width)
            if self.width <= 0:
                raise InputError(f"width: must be positive, got {describe_rational(self.width)}")
            self._set_plain(budget, sigma2, laplace)
        else:
            self.route = HIERARCHY_WITNESS
            if width is not None:
                raise width_refused()
            if laplace is not None:
                raise InputError(f"laplace: with hidden feedback (γ > 0) beyond the exact game "
                                 f"(C > {GAME_MAX_BUDGET}) only the discrete Gaussian has a route (the hierarchy); "
                                 f"give {option('sigma2', 'Q')}")
            self.width = None
            self._set_hierarchy(budget)

    def _init_releases(self, budget, delta, width, sigma2, laplace, releases):
        """The releases form: γ = 0 only; canonical as plain-composition/1 (one release of sensitivity 1 is
        the single-law form: family, parameter and budget set, the same question and bytes)."""
        if budget is not None or sigma2 is not None or laplace is not None:
            raise InputError("releases: give either releases or one noise law with a budget, not both")
        if not self.gamma.is_zero:
            raise InputError(f"release: a list of releases is a plain composition (γ = 0), got γ = {self.gamma}; "
                             f"with hidden feedback give one law, {option('sigma2', 'Q')} (or "
                             f"{option('laplace', 'T')}), and {option('budget', 'C')}")
        self.delta = mpq(delta)
        if not 0 < self.delta < 1:
            raise InputError(f"delta: need 0 < δ < 1, got {describe_rational(self.delta)}")
        self.route = PRODUCT_PAIR
        self.width = DEFAULT_WIDTH if width is None else mpq(width)
        if self.width <= 0:
            raise InputError(f"width: must be positive, got {describe_rational(self.width)}")
        self._set_plain(None, None, None, releases)
        self.family, self.parameter = self.plain.family, self.plain.parameter

    def _set_plain(self, budget, sigma2, laplace, releases=None):
        pw = plain_width(self.delta, self.width)
        if pw < plain_composition.MIN_WIDTH:
            raise LimitError(f"delta: δ·width = {describe_rational(self.delta * self.width)} needs plain enclosures "
                             f"below the plain-composition width limit 10^-60; ask for a larger {option('width')}")
        try:
            self.plain = plain_composition.Request(budget, [0], pw, sigma2=sigma2, laplace=laplace,
                                                   releases=releases)
        except LimitError as error:
            raise LimitError(f"{error} (route product-pair: the limits of {entry('plain')})") from None
        self.budget = self.plain.budget
        self.lower = self.lower_reason = None

    def _set_hierarchy(self, budget):
        self.plain = None
        self.budget = budget
        hierarchy.Request(self.gamma, self.parameter, budget, depth=DEPTHS[-1], delta=self.delta)  # its checks
        if budget > calibration_lower.MAX_TARGET_BUDGET:
            self.lower = None
            self.lower_reason = (f"no lower construction: the target-zero witness line reaches "
                                 f"C <= {calibration_lower.MAX_TARGET_BUDGET} (calibration-lower/1), here C = {budget}")
            return
        fields = dict(calibration_lower.target_program(budget), gamma=self.gamma, sigma2=self.parameter,
                      delta=self.delta)
        fields.pop("claim")
        self.lower, self.lower_reason = calibration_lower.TargetZeroRequest(**fields), None

    @classmethod
    def from_strings(cls, gamma, budget, delta, *, width=None, sigma2=None, laplace=None, releases=None):
        """Parse user text (or Python numbers) exactly; exactly one of ``sigma2`` and ``laplace`` with
        ``budget``, or ``releases`` (``law:scale[:sensitivity]xcount`` texts) with ``budget`` None."""
        return cls(parse_gamma(gamma), None if budget is None else parse_integer(budget, "budget"),
                   parse_rational(delta, "delta"),
                   width=None if width is None else parse_rational(width, "width"),
                   sigma2=None if sigma2 is None else parse_rational(sigma2, "sigma2"),
                   laplace=None if laplace is None else parse_rational(laplace, "laplace"),
                   releases=None if releases is None else parse_releases(releases))

    def noise_json(self):
        key = "sigma2" if self.family == GAUSSIAN else "t"
        return {"family": self.family, key: format_rational(self.parameter)}

    def as_json(self):
        if self.plain is not None and not self.plain.single:  # the releases form, as the embedded ones
            return {"gamma": str(self.gamma), "releases": self.plain.as_json()["releases"],
                    "delta": format_rational(self.delta), "width": format_rational(self.width)}
        return {"gamma": str(self.gamma), "noise": self.noise_json(), "budget": self.budget,
                "delta": format_rational(self.delta),
                "width": None if self.width is None else format_rational(self.width)}


def _result(status, eps_lo, eps_hi, lower, lower_reason, upper):
    return {
        "route": None, "status": status,
        "epsilon_lo": None if eps_lo is None else format_rational(eps_lo),
        "epsilon_lo_display": None if eps_lo is None else decimal_outward(eps_lo, EPSILON_DIGITS, -1),
        "epsilon_hi": format_rational(eps_hi),
        "epsilon_hi_display": decimal_outward(eps_hi, EPSILON_DIGITS, +1),
        "lower_witness": lower, "lower_reason": lower_reason, "upper_witness": upper,
    }


def product_pair(request, log):
    """The product-pair result: bisection over single-ε plain enclosures, one law built for all of them."""
    delta, step = request.delta, grid_step(request.width)
    plain_composition.check_auditable(request.plain, copies=2)  # both witnesses in one file, before any point
    oracle = (SingleEpsilon if request.plain.single else SingleEpsilonReleases)(request.plain, log)
    points = {}

    def point(k):
        if k not in points:
            points[k] = oracle.point(k * step)
        return points[k]

    def side(k):
        p = point(k)
        return +1 if p.lower > delta else -1 if p.upper <= delta else 0

    def witness(k):
        return plain_composition.certificate_of(request.plain.with_epsilons([k * step]), [point(k)])

    limit = int(plain_composition.MAX_EPSILON / step)
    lo, hi = bisect_grid(side, int(request.width / step), int(1 / step), limit, log=log, unit=float(step))
    if hi == 0:
        return _result("zero", mpq(0), mpq(0), None, "status zero: δ(0) ≤ δ is certified, so ε* = 0",
                       witness(0))
    if side(lo) > 0:
        lower, reason = witness(lo), None
    else:  # lo = 0 with δ(0) not certified above δ: the trivial end
        lower, reason = None, "ε_lo = 0 without a witness: ε* ≥ 0 always"
    return _result("enclosed", lo * step, hi * step, lower, reason, witness(hi))


def wide_numerics(budget):
    """The hierarchy's numerics beyond C = 24 (the published defaults up to 24: those certificates stay).

    The prior t₋ = 1/(1 + e^ε) must lie inside the log-odds grid (ε*_32 ≈ 12, ε*_64 ≈ 19), hence the
    logit range 16 (C <= 32) or 24 (C <= 64); the transfer (1 + λ₊)·2C·τ must stay well below δ,
    hence at C > 32 the source L = 26, S = 2^72 (τ ≈ 7·10^-19) and 64 fraction bits, as the E.5
    reference certificates.
    """
    if budget <= 24:
        return {}
    if budget <= 32:
        return {"logit_range": mpq(16)}
    return {"logit_range": mpq(24), "radius": 26, "source_scale": mpz(2) ** 72, "scale_bits": 64}


def wide_cuts(budget):
    """Beyond C = 32 the cut game U_S with S = S_all minus the odd cuts (blocks of at most two digits,
    so P_2 <= U_S; [paper App. E.5]): P_2 itself would exceed DEPTH_WORK there."""
    return [b for b in range(budget - 1) if b % 2 == 0] if budget > 32 else None


def default_depth(request, log):
    """The hierarchy/1 request at the deepest H in 4, 3, 2, 1 whose work (branches × priors) is <= DEPTH_WORK.

    Each candidate's graph is built and checked against the hierarchy's limits
    (:func:`producer.kinds.hierarchy.prepare`, about a second) before any table is solved.
    Beyond C = 32 the cut game of :func:`wide_cuts` instead, with :func:`wide_numerics`.
    """
    numerics = wide_numerics(request.budget)
    cuts = wide_cuts(request.budget)
    if cuts is not None:
        log(f"hierarchy cut game U_S, S = S_all minus the odd cuts ({len(cuts)} cuts)")
        return hierarchy.Request(request.gamma, request.parameter, request.budget, cuts=cuts, delta=request.delta,
                                 **numerics)
    for depth in DEPTHS:
        upper = hierarchy.Request(request.gamma, request.parameter, request.budget, depth=depth, delta=request.delta,
                                  **numerics)
        try:
            work = hierarchy.prepare(upper)[2].work()
        except LimitError:
            if depth == DEPTHS[-1]:
                raise
            continue
        if work <= DEPTH_WORK or depth == DEPTHS[-1]:
            log(f"hierarchy depth H = {depth} ({work:.2e} terms)")
            return upper
    raise AssertionError("unreachable")


def hierarchy_witness(request, log):
    """The hierarchy-witness result: P_H upper for the δ query, target-zero line lower."""
    upper = hierarchy.build(default_depth(request, log), lambda message: log(f"upper: {message}"))
    eps_hi = rational(upper["result"]["epsilon"])
    lower, reason, eps_lo = None, request.lower_reason, None
    if request.lower is not None:
        try:  # the file's budget holds both: the upper end's estimate is spent before the lower's work
            lower = calibration_lower.build(request.lower, lambda message: log(f"lower: {message}"),
                                            spent=hierarchy.auditor_cost(upper))
        except (InputError, LimitError) as error:  # no witness line within its limits
            reason = f"no lower construction: the target-zero witness line: {error}"
        else:
            eps_lo = rational(lower["result"]["epsilon_lower"])
    if eps_lo is not None and eps_lo > eps_hi:
        raise ArithmeticError(f"epsilon-bracket: ε_lo = {eps_lo} exceeds ε_hi = {eps_hi}")
    return _result("enclosed", eps_lo, eps_hi, lower, reason, upper)


def build(request, progress=None):
    """The epsilon-bracket certificate for ``request`` (progress lines to ``progress``)."""
    log = progress or (lambda message: None)
    log(f"route {request.route}")
    result = product_pair(request, log) if request.route == PRODUCT_PAIR else hierarchy_witness(request, log)
    result["route"] = request.route
    return make_certificate(KIND, VERSION, request.as_json(), result)


def auditor_cost(cert):
    """The auditor's budget estimate: both witnesses together (docs/certificates.md, epsilon-bracket/1)."""
    res = cert["result"]
    upper, lower = ((plain_composition, plain_composition) if res["route"] == PRODUCT_PAIR
                    else (hierarchy, calibration_lower))
    parts = [upper.auditor_cost(res["upper_witness"])]
    if res["lower_witness"] is not None:
        parts.append(lower.auditor_cost(res["lower_witness"]))
    return together(parts)


def _noise_text(inp):
    if "releases" in inp:
        return ", ".join(release_text(r) for r in inp["releases"])
    noise = inp["noise"]
    if noise["family"] == GAUSSIAN:
        return f"σ² = {show(rational(noise['sigma2']))}"
    return f"discrete Laplace t = {show(rational(noise['t']))}"


def _route_text(res):
    if res["route"] == PRODUCT_PAIR:
        return "route product-pair"
    model = res["upper_witness"]["input"]["model"]
    upper = f"hierarchy P_{model['depth']}" if model["game"] == "depth" else "hierarchy cut game U_S"
    lower = "target-zero witness lower" if res["lower_witness"] is not None else "no lower witness"
    return f"route {HIERARCHY_WITNESS}: {upper} upper, {lower}"


def claim(cert):
    inp, res = cert["input"], cert["result"]
    C = inp["budget"] if "releases" not in inp else sum(r["count"] for r in inp["releases"])
    delta = show(rational(inp["delta"]))
    head = f"ε*_{C}({delta})"
    if res["status"] == "zero":
        answer = f"{head} = 0 (δ(0) ≤ δ already)"
    elif res["epsilon_lo"] is None:
        answer = f"{head} ≤ {up(res['epsilon_hi'])} (lower end: {res['lower_reason']})"
    else:
        answer = f"{head} ∈ {show_interval(rational(res['epsilon_lo']), rational(res['epsilon_hi']))}"
    law = f"plain composition, {_noise_text(inp)}" if inp["gamma"] == "0" else \
        f"γ = {inp['gamma']}, {_noise_text(inp)}"
    return f"{answer} ({law}; {_route_text(res)})"
