"""The ``noise/1`` certificate: how much noise ε*_C(δ) <= ε needs, to a relative precision R.

ε*_C(δ) = inf{ε' >= 0 : δ_C(ε') <= δ}; since δ_C is non-increasing and
continuous in ε, ε*_C(δ) <= E holds iff δ_C(E) <= δ, and ε*_C(δ) > E iff
δ_C(E) > δ.  Question (``input``): the family (discrete Gaussian σ² or
discrete Laplace t), γ, C, E, δ and R.  Result: two neighbouring points of
the relative grid of :mod:`producer.noise_level.grid` (below < noise <=
below·(1 + R)) and two complete certificates of δ_C(E):

- route ``product-pair`` (γ = 0): plain-composition/1 in the single-law form
  at the one ε = E; ``meets`` at the noise has points[0].upper <= δ,
  ``misses`` at the noise below has points[0].lower > δ.  Each is byte for
  byte what ``producer plain --epsilon E --width W`` writes, W the largest
  10^-k <= δ/1000, narrowed by 10^-3 while the enclosure straddles δ.
- route ``exact-game`` (0 < γ < 1, C within the exact game's reach):
  dg-interval/1 at (γ, noise, C, E), method null, width the largest
  10^-k <= δ/100, narrowed by 10^-1 while the interval straddles δ; ``meets``
  has interval.upper <= δ, ``misses`` interval.lower > δ.

The releases form (γ = 0 only): ``releases`` (a canonical list of
:mod:`producer.plain.releases`, one release of sensitivity 1 included) in the
place of the family and C, and the answer is one common factor f on every
release's scale (σ² -> f·σ², t -> f·t; :mod:`producer.noise_level.factor`):
``factor``/``factor_below`` on the same grid, ``meets``/``misses`` the
plain-composition/1 certificates of the scaled releases, as above.

The search (:mod:`producer.noise_level.search`) starts at a float estimate
(:mod:`producer.noise_level.hints`) and decides every grid point it keeps by a
certificate.  Limits: those of the embedded kinds (plain: C <= 1024,
ε <= 10^4, noise in [1/100, 10^6], widths >= 10^-60; dg-interval: C <= 6,
ε <= 64, σ² in [10^-6, 10^6], t in [1/1000, 1000], the game's work), and
R >= 10^-12, checked before the search where they depend on the question
only; the game's work at a σ² is checked at that σ².  The auditor's budget of
one file counts both embedded certificates (:func:`auditor_cost`): on the
product pair each probe is checked, before its enclosure, as one of such a
pair (:func:`producer.kinds.plain_composition.check_auditable`); on the exact
game each is within one budget, so the pair within two.
"""

import math

from gmpy2 import mpq, mpz

from producer.audit_budget import together
from producer.certificates.canonical import make_certificate
from producer.display import rational, release_text, show
from producer.errors import InputError, LimitError, ReachError
from producer.immutable import Immutable
from producer.kinds import dg_interval, plain_composition
from producer.kinds.finite_game import check_budget as game_budget
from producer.laws import parse_gamma
from producer.names import entry, option
from producer.noise_level import factor as common_factor
from producer.noise_level import hints
from producer.noise_level.grid import RelativeGrid
from producer.noise_level.search import MEETS, MISSES, NoCrossing, crossing
from producer.plain.enclose import GAUSSIAN, LAPLACE
from producer.plain.releases import canonical_releases, parse_releases
from producer.plain.targets import points
from producer.rationals import describe_rational, format_rational, parse_integer, parse_rational, parse_switch
from producer.sources import discrete_gaussian, discrete_laplace

KIND, VERSION = "noise", 1
PRODUCT_PAIR, EXACT_GAME = "product-pair", "exact-game"
DEFAULT_PRECISION = mpq(1, 1000)
MIN_PRECISION = mpq(1, 10**12)
# route -> (first width as a share of δ, narrowing factor, narrowings)
WIDTHS = {PRODUCT_PAIR: (mpq(1, 1000), mpq(1, 1000), 4), EXACT_GAME: (mpq(1, 100), mpq(1, 10), 3)}
RANGES = {  # (route, family) -> the noise range the embedded kind takes
    (PRODUCT_PAIR, GAUSSIAN): (plain_composition.MIN_PARAMETER, plain_composition.MAX_PARAMETER),
    (PRODUCT_PAIR, LAPLACE): (plain_composition.MIN_PARAMETER, plain_composition.MAX_PARAMETER),
    (EXACT_GAME, GAUSSIAN): (discrete_gaussian.MIN_SIGMA2, mpq(discrete_gaussian.MAX_SIGMA2)),
    (EXACT_GAME, LAPLACE): (discrete_laplace.MIN_T, discrete_laplace.MAX_T),
}
NAMES = {GAUSSIAN: ("σ²", "sigma2"), LAPLACE: ("t", "laplace"), None: ("factor", "factor")}  # None: releases


def first_width(delta, share):
    """The largest 10^-k (k >= 1) with 10^-k <= δ·share."""
    k = 1
    while mpq(1, mpz(10) ** k) > delta * share:
        k += 1
    return mpq(1, mpz(10) ** k)


class Request(Immutable):
    """A validated noise request: family, γ, C, E, δ, R (and the route, grid and range they fix).

    The releases form (``releases=``, ``budget`` None, γ = 0): ``family`` is None, ``releases`` the
    canonical tuple and ``budget`` its total count; the noise searched is the common factor.
    """

    __slots__ = ("family", "gamma", "budget", "epsilon", "delta", "precision", "route", "grid", "bottom", "top",
                 "releases")

    def __init__(self, budget, epsilon, delta, gamma=0, precision=DEFAULT_PRECISION, laplace=False, *,
                 releases=None):
        self.gamma = parse_gamma(gamma)
        if releases is None:
            self.family, self.releases = LAPLACE if laplace else GAUSSIAN, None
        else:
            self._init_releases(budget, laplace, releases)
        self.route = PRODUCT_PAIR if self.gamma.is_zero else EXACT_GAME
        self.epsilon, self.delta, self.precision = mpq(epsilon), mpq(delta), mpq(precision)
        if self.epsilon < 0:
            raise InputError(f"epsilon: must be >= 0, got {describe_rational(self.epsilon)}")
        if not 0 < self.delta < 1:
            raise InputError(f"delta: need 0 < δ < 1, got {describe_rational(self.delta)}")
        if not 0 < self.precision < 1:
            raise InputError(f"precision: need 0 < R < 1, got {describe_rational(self.precision)}")
        if self.precision < MIN_PRECISION:
            raise LimitError(f"precision: R = {describe_rational(self.precision)} is below the limit 10^-12")
        if self.releases is None:
            budget = plain_composition.budget_needed(budget, releases=self.gamma.is_zero)
            if budget < 1:
                raise InputError(f"budget: C must be at least 1, got {budget}")
        if self.route == PRODUCT_PAIR:
            self._check_plain(budget)
        else:
            self._check_game(budget)
        self.grid = RelativeGrid(self.precision)
        if self.releases is not None:
            self._set_factor_range()
            return
        low, high = RANGES[self.route, self.family]
        self.bottom, self.top = self.grid.index_above(low), self.grid.index_below(high)

    def _init_releases(self, budget, laplace, releases):
        if budget is not None or laplace:
            raise InputError(f"release: give either releases or one law ({option('budget', 'C')}, with "
                             f"{option('laplace', True)} for t), not both")
        if not self.gamma.is_zero:
            raise InputError(f"release: a list of releases is a plain composition (γ = 0), got γ = {self.gamma}; "
                             f"with hidden feedback give one law and {option('budget', 'C')} (C <= 6)")
        self.family, self.releases = None, canonical_releases(releases, plain_composition.MAX_BUDGET)
        for release in self.releases:
            if release.parameter <= 0:
                raise InputError(f"release {release.text()}: the scale must be positive")

    def _set_factor_range(self):
        low, high = RANGES[PRODUCT_PAIR, GAUSSIAN]
        try:
            self.bottom, self.top = common_factor.index_range(self.grid, self.releases, low, high)
        except ValueError:
            raise LimitError(f"release: no common factor puts every release's scale within the limits of "
                             f"{entry('plain')} ([1/100, 10^6] for σ² and t): the scales of "
                             f"{', '.join(r.text() for r in self.releases)} lie too far apart") from None

    @property
    def symbol(self):
        """What is searched, as the messages name it: σ², t or the factor."""
        return NAMES[self.family][0]

    def _check_plain(self, budget):
        if self.releases is None:
            self.budget = plain_composition.check_budget(budget)
        else:
            self.budget = sum(r.count for r in self.releases)
        if self.epsilon > plain_composition.MAX_EPSILON:
            raise LimitError(f"epsilon: {describe_rational(self.epsilon)} exceeds the limit 10^4 "
                             f"(route product-pair: the limits of {entry('plain')})")
        share, factor, narrowings = WIDTHS[PRODUCT_PAIR]
        if first_width(self.delta, share) * factor ** narrowings < plain_composition.MIN_WIDTH:
            raise LimitError(f"delta: δ = {describe_rational(self.delta)} needs plain enclosures narrower than the "
                             f"plain-composition width limit 10^-60 (route product-pair: δ >= 10^-45)")

    def _check_game(self, budget):
        try:
            self.budget = game_budget(budget)
        except ReachError as error:
            raise ReachError(f"{error} (route exact-game, γ > 0); beyond it no noise calibration is certified: "
                             f"`{entry('calibrate')}` answers ε*_C(δ) at a given σ² (hierarchy route)") from None
        if self.epsilon > dg_interval.MAX_EPSILON:
            raise LimitError(f"epsilon: {describe_rational(self.epsilon)} exceeds the limit "
                             f"{dg_interval.MAX_EPSILON} of dg-interval (route exact-game)")

    @classmethod
    def from_strings(cls, budget, epsilon, delta, *, gamma="0", precision=None, laplace=False, releases=None):
        """Parse user text (or Python numbers) exactly; ``laplace=True`` for the discrete Laplace;
        ``releases`` (``law:scale[:sensitivity]xcount`` texts) with ``budget`` None for the releases form."""
        return cls(None if budget is None else parse_integer(budget, "budget"), parse_rational(epsilon, "epsilon"),
                   parse_rational(delta, "delta"), gamma=parse_gamma(gamma),
                   precision=DEFAULT_PRECISION if precision is None else parse_rational(precision, "precision"),
                   laplace=parse_switch(laplace, "laplace"),
                   releases=None if releases is None else parse_releases(releases))

    def as_json(self):
        tail = {"epsilon": format_rational(self.epsilon), "delta": format_rational(self.delta),
                "precision": format_rational(self.precision)}
        if self.releases is not None:
            return {"gamma": "0", "releases": [{"noise": plain_composition.noise_json(r.family, r.parameter),
                                                "sensitivity": r.sensitivity, "count": r.count}
                                               for r in self.releases], **tail}
        return {"family": self.family, "gamma": str(self.gamma), "budget": self.budget, **tail}

    def probe(self, noise, width):
        """(certificate, lower, upper) of δ_C(E) at the noise, enclosed to ``width`` by the route's kind."""
        if self.route == PRODUCT_PAIR:
            plain = self._plain_request(noise, width)
            # the answer holds two such certificates, neighbours on the grid: a probe whose pair the auditor
            # could not check within the budgets the producer writes for is beyond reach, before its work
            plain_composition.check_auditable(plain, copies=2)
            point = points(plain)[0]
            return plain_composition.certificate_of(plain, [point]), point.lower, point.upper
        laplace = noise if self.family == LAPLACE else None
        sigma2 = noise if self.family == GAUSSIAN else None
        game = dg_interval.Request(self.gamma, sigma2, self.budget, self.epsilon, width=width, laplace=laplace)
        result = dg_interval.evaluate(game)
        return dg_interval.certificate_of(result), result.lower, result.upper

    def _plain_request(self, noise, width):
        """The one-ε plain-composition request at the noise: the law at that scale, or the releases scaled."""
        if self.releases is not None:
            scaled = common_factor.scaled(self.releases, noise)
            return plain_composition.Request(None, [self.epsilon], width, releases=scaled)
        key = NAMES[self.family][1]
        return plain_composition.Request(self.budget, [self.epsilon], width, **{key: noise})

    def hint(self):
        """The float estimate of the noise (the plain composition's, also for γ > 0: feedback only adds)."""
        E, C, D = float(self.epsilon), self.budget, float(self.delta)
        if self.releases is not None:
            low, high = float(self.grid.value(self.bottom)), float(self.grid.value(self.top))
            return hints.solve(lambda m: common_factor.delta_hint(self.releases, m, E), D, low, high)
        low, high = (float(v) for v in RANGES[self.route, self.family])
        estimate = hints.gaussian_delta if self.family == GAUSSIAN else hints.laplace_delta
        return hints.solve(lambda x: estimate(x, C, E), D, low, high)


class Decisions:
    """Each grid point decided once, by a certificate; the certificates kept for the answer.

    ``guide(n)`` is the float log(midpoint/δ) of a decided point's enclosure: it
    only steers the search (:mod:`producer.noise_level.search`).
    """

    def __init__(self, request, log):
        self.request, self.log = request, log
        self.found = {}  # index -> (side, certificate, float log(midpoint/δ) or None)

    def __call__(self, index):
        if index not in self.found:
            self.found[index] = self._decide(index)
        return self.found[index][0]

    def guide(self, index):
        return self.found[index][2] if index in self.found else None

    def _decide(self, index):
        r = self.request
        noise, symbol = r.grid.value(index), r.symbol
        share, factor, narrowings = WIDTHS[r.route]
        width = first_width(r.delta, share)
        for _ in range(narrowings + 1):
            try:
                cert, lower, upper = r.probe(noise, width)
            except LimitError as error:  # the embedded kind's reach at this noise (ReachError stays one)
                raise type(error)(f"at {symbol} = {show(noise)}: {error.reason}", error.advice) from None
            side = MEETS if upper <= r.delta else MISSES if lower > r.delta else None
            self.log(f"{symbol} = {show(noise)}: delta in [{float(lower):.6e}, {float(upper):.6e}] "
                     f"(width {float(width):.0e}) -> {('straddles delta', 'meets', 'misses')[side or 0]}")
            if side is not None:
                middle = (lower + upper) / 2
                return side, cert, math.log(middle / r.delta) if middle > 0 else None
            width *= factor
        raise LimitError(f"noise: at {symbol} = {show(noise)} δ_{r.budget}({show(r.epsilon)}) cannot be separated "
                         f"from δ = {show(r.delta)} (it lies within {describe_rational(width / factor)} of it); "
                         f"ask for another {option('precision')}")

    def certificate(self, index):
        return self.found[index][1]


def _at_zero(request):
    """Why ε = 0 needs so much noise (said beside a refusal)."""
    if request.epsilon != 0:
        return ""
    scale = {GAUSSIAN: "σ", LAPLACE: "t", None: "the factor"}[request.family]
    return f" (at ε = 0, δ_C(0) is the total variation distance, which falls only like 1/{scale})"


def _no_crossing(request, error):
    symbol = request.symbol
    at = show(request.grid.value(error.index))
    head = f"ε*_{request.budget}({show(request.delta)}) ≤ {show(request.epsilon)}"
    if error.meets:
        return LimitError(f"noise: {symbol} = {at}, the smallest the route {request.route} takes, already "
                          f"certifies {head}; no smaller grid point can be certified to miss it")
    zero = _at_zero(request)
    return LimitError(f"noise: no {symbol} up to {at} (the largest the route {request.route} takes) meets "
                      f"{head}{zero}: at {symbol} = {at} δ_C(ε) > δ is certified")


def _beyond_reach(request, error):
    symbol = request.symbol
    where = f"the exact game (`{entry('calibrate')}` answers ε*_C(δ) at a given noise, by the hierarchy beyond " \
        f"it)" if request.route == EXACT_GAME else entry("plain")
    reason = error.reason  # without its advice, which concerns the embedded kind's options
    zero = _at_zero(request)
    return LimitError(f"noise: the search for the {symbol} that meets ε*_{request.budget}({show(request.delta)}) "
                      f"≤ {show(request.epsilon)}{zero} went beyond the reach of {where}: {reason}")


def build(request, progress=None):
    """The noise certificate for ``request`` (each decided grid point reported to ``progress``)."""
    log = progress or (lambda message: None)
    hint = request.hint()
    log(f"route {request.route}; float estimate {request.symbol} ~ {hint:.6g}")
    decide = Decisions(request, log)
    start = request.grid.index_above(mpq(hint))
    try:
        below, noise = crossing(decide, start, request.bottom, request.top, decide.guide)
    except NoCrossing as error:
        raise _no_crossing(request, error) from None
    except ReachError as error:
        raise _beyond_reach(request, error) from None
    except LimitError as error:
        if str(error).startswith("noise:"):
            raise
        raise _beyond_reach(request, error) from None
    key = NAMES[request.family][1]
    result = {"route": request.route,
              key: format_rational(request.grid.value(noise)),
              f"{key}_below": format_rational(request.grid.value(below)),
              "meets": decide.certificate(noise), "misses": decide.certificate(below)}
    return make_certificate(KIND, VERSION, request.as_json(), result)


def auditor_cost(cert):
    """The auditor's budget estimate: both embedded certificates together (docs/certificates.md, noise/1)."""
    res = cert["result"]
    kind = plain_composition if res["route"] == PRODUCT_PAIR else dg_interval
    return together([kind.auditor_cost(res["meets"]), kind.auditor_cost(res["misses"])])


def _releases_claim(inp, res):
    C = sum(r["count"] for r in inp["releases"])
    releases = ", ".join(release_text(r) for r in inp["releases"])
    return (f"factor f = {show(rational(res['factor']))} on every release's scale suffices for "
            f"ε*_{C}({show(rational(inp['delta']))}) ≤ {show(rational(inp['epsilon']))} "
            f"(the grid point below, f = {show(rational(res['factor_below']))}, does not; "
            f"precision {show(rational(inp['precision']))}): "
            f"plain composition of {releases}, each σ² and t times f; route {res['route']}")


def claim(cert):
    inp, res = cert["input"], cert["result"]
    if "releases" in inp:
        return _releases_claim(inp, res)
    key = "sigma2" if inp["family"] == GAUSSIAN else "laplace"
    symbol = "σ²" if key == "sigma2" else "discrete Laplace t"
    short = "σ²" if key == "sigma2" else "t"
    gamma = "" if inp["gamma"] == "0" else f" at γ = {inp['gamma']}"
    return (f"{symbol} = {show(rational(res[key]))} suffices for "
            f"ε*_{inp['budget']}({show(rational(inp['delta']))}) ≤ {show(rational(inp['epsilon']))}{gamma} "
            f"(the grid point below, {short} = {show(rational(res[key + '_below']))}, does not; precision "
            f"{show(rational(inp['precision']))}); route {res['route']}")
