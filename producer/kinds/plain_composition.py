"""The ``plain-composition/1`` certificate: certified δ(ε) of a plain composition.

Question (``input``), two forms: the single-law form (the noise, discrete
Gaussian σ² or discrete Laplace t, and the budget C: C releases of sensitivity
1) or the releases form (``releases``: noise, integer sensitivity s >= 1 and
count of each, canonical as :mod:`producer.plain.releases` says); then the
strictly increasing ε, the absolute width W and the relative width R (each
may be null, not both; ``rel_width`` is written only when R is given).
Result: one point per ε with exact rationals lower <= δ(ε) <= upper meeting
W (upper − lower <= W) or R (upper − lower <= R·lower), and decimal displays
rounded outward (lower down, upper up) at the places of :func:`point_digits`
(for R, when the point meets it: 8 places beyond the first significant place of
R·lower, at least 12; else those of :func:`producer.display.display_digits` for
W, the same rule on W).  With R asked, R comes first and W is a floor for the
points R cannot reach; the default (neither asked, :func:`default_widths`) is
R = 1/1000 with the floor W = 10^-60, so a tiny δ comes back within R and an
astronomically small one (e.g. e^-1800) as [0 or tiny, <= 10^-60].
The maths and the proofs of the enclosures: :mod:`producer.plain`.

Limits (shared with the auditor's documentation): 1 <= C <= 1024 (the total
count in the releases form), sensitivity <= 1000, 1 to 1000 values of ε with
0 <= ε <= 10^4, 10^-60 <= W < 1, 10^-30 <= R < 1, σ² and t in [1/100, 10^6].
The ε are sorted increasingly; a repeated ε is refused (the certificate's
points are one per distinct ε, strictly increasing).  The auditor's estimate
of its check (:mod:`producer.plain.auditability`) is held to the budgets the
producer writes for (:mod:`producer.audit_budget`) before any enclosure
(:func:`check_auditable`) and on the finished certificate.
"""

from gmpy2 import mpq, mpz

from producer import audit_budget
from producer.certificates.canonical import make_certificate
from producer.display import display_digits, rational, show, show_interval
from producer.errors import InputError, LimitError
from producer.immutable import Immutable
from producer.names import option, subject
from producer.plain import MAX_BUDGET, auditability
from producer.plain.enclose import GAUSSIAN, LAPLACE
from producer.plain.releases import Release, canonical_releases, parse_releases
from producer.plain.targets import check_first_round, meets, points
from producer.rationals import (decimal_outward, describe_rational, epsilon_items, format_rational, parse_integer,
                                parse_rational, required)

KIND, VERSION = "plain-composition", 1
DEFAULT_WIDTH = "1/1000000000000000"
MAX_POINTS = 1000
MAX_EPSILON = mpq(10) ** 4
MIN_WIDTH = mpq(1, mpz(10) ** 60)
MIN_REL_WIDTH = mpq(1, mpz(10) ** 30)
DEFAULT_REL_WIDTH = "1/1000"
FLOOR_WIDTH = "1/" + "1" + "0" * 60   # with the default R: the absolute width of a δ too small for R (10^-60)
MIN_PARAMETER = mpq(1, 100)
MAX_PARAMETER = mpq(10) ** 6


def _parameter(value, name):
    """σ² or t: a positive rational within [1/100, 10^6]."""
    value = mpq(value)
    if value <= 0:
        raise InputError(f"{name}: must be positive, got {format_rational(value)}")
    if not MIN_PARAMETER <= value <= MAX_PARAMETER:
        raise LimitError(f"{name}: {describe_rational(value)} is outside the limits [1/100, 10^6]")
    return value


def budget_needed(budget, releases=True):
    """C as given: None (left out) is refused, naming what to give (C, or where ``releases`` answer too, a list
    of releases)."""
    wanted = f"C, the number of releases ({option('budget', 'C')})" + (", or a list of releases" if releases else "")
    return int(required(budget, "budget", wanted))


def check_budget(budget):
    budget = budget_needed(budget)
    if budget < 1:
        raise InputError(f"budget: C must be at least 1, got {mpz(budget)}")
    if budget > MAX_BUDGET:
        raise LimitError(f"budget: C = {mpz(budget)} exceeds the limit C <= {MAX_BUDGET}")
    return budget


def check_epsilons(epsilons):
    """The ε as a strictly increasing tuple of mpq (sorted; a repeated value is refused)."""
    values = [mpq(e) for e in epsilons]
    if not values:
        raise InputError("epsilon: give at least one ε")
    if len(values) > MAX_POINTS:
        raise LimitError(f"epsilon: {len(values)} values exceed the limit of {MAX_POINTS}")
    for e in values:
        if e < 0:
            raise InputError(f"epsilon: must be >= 0, got {describe_rational(e)}")
        if e > MAX_EPSILON:
            raise LimitError(f"epsilon: {describe_rational(e)} exceeds the limit 10^4")
    values.sort()
    for before, after in zip(values, values[1:]):
        if before == after:
            raise InputError(f"epsilon: {describe_rational(after)} is given twice (each ε once)")
    return tuple(values)


def check_rel_width(rel_width):
    """R: a fraction 10^-30 <= R < 1."""
    rel_width, name = mpq(rel_width), subject("rel_width")
    if rel_width <= 0:
        raise InputError(f"{name}: must be positive, got {format_rational(rel_width)}")
    if rel_width >= 1:
        raise InputError(f"{name}: must be below 1, got {describe_rational(rel_width)}")
    if rel_width < MIN_REL_WIDTH:
        raise LimitError(f"{name}: {describe_rational(rel_width)} is below the limit 10^-30")
    return rel_width


def check_width(width):
    width = mpq(width)
    if width <= 0:
        raise InputError(f"width: must be positive, got {format_rational(width)}")
    if width >= 1:
        raise InputError(f"width: must be below 1 (δ lies in [0, 1] anyway), got {describe_rational(width)}")
    if width < MIN_WIDTH:
        raise LimitError(f"width: {describe_rational(width)} is below the limit 10^-60")
    return width


class Request(Immutable):
    """A validated plain-composition request: the releases, the sorted ε, W and R.

    Single-law form (``sigma2=`` or ``laplace=`` with ``budget``): C releases of one
    law, sensitivity 1; ``family``, ``parameter`` and ``budget`` are set.  Releases
    form (``releases=``, see :mod:`producer.plain.releases`): canonicalised (equal
    (noise, sensitivity) merged, sorted); one release of sensitivity 1 becomes the
    single-law form (same question, same certificate).  Otherwise ``family`` and
    ``parameter`` are None and ``budget`` is the total count.  ``releases`` is always
    the canonical tuple of :class:`producer.plain.releases.Release`.
    W (``width``) and R (``rel_width``) may each be None, not both.
    """

    __slots__ = ("family", "parameter", "budget", "epsilons", "width", "rel_width", "releases")

    def __init__(self, budget, epsilons, width, sigma2=None, laplace=None, *, releases=None, rel_width=None):
        if releases is not None:
            if budget is not None or sigma2 is not None or laplace is not None:
                raise InputError("releases: give either releases or one noise law with a budget, not both")
            self.releases = canonical_releases(releases, MAX_BUDGET)
        else:
            if (sigma2 is None) == (laplace is None):
                raise InputError(f"give exactly one noise law: {option('sigma2', 'Q')} (discrete Gaussian) or "
                                 f"{option('laplace', 'T')} (discrete Laplace), "
                                 + ("not both" if sigma2 is not None else "none was given"))
            family, parameter = (GAUSSIAN, sigma2) if sigma2 is not None else (LAPLACE, laplace)
            parameter = _parameter(parameter, "sigma2" if family == GAUSSIAN else "laplace")
            self.releases = (Release(family, parameter, 1, check_budget(budget)),)
        for release in self.releases:
            _parameter(release.parameter, "sigma2" if release.family == GAUSSIAN else "laplace")
        if self.single:
            only = self.releases[0]
            self.family, self.parameter, self.budget = only.family, only.parameter, only.count
        else:
            self.family = self.parameter = None
            self.budget = sum(r.count for r in self.releases)
        self.epsilons = check_epsilons(epsilons)
        if width is None and rel_width is None:
            raise InputError("width: give an absolute width W, a relative width R, or both")
        self.width = None if width is None else check_width(width)
        self.rel_width = None if rel_width is None else check_rel_width(rel_width)

    @property
    def single(self):
        """True for the single-law form: one release of sensitivity 1."""
        return len(self.releases) == 1 and self.releases[0].sensitivity == 1

    @classmethod
    def from_strings(cls, budget, epsilons, width=DEFAULT_WIDTH, *, sigma2=None, laplace=None, releases=None,
                     rel_width=None):
        """Parse user text exactly: ``epsilons`` one value, ``"a,b,c"`` or a sequence; ``releases`` a sequence
        of ``law:scale[:sensitivity]xcount`` texts (or :class:`Release`); ``width``/``rel_width`` may be None."""
        return cls(None if budget is None else parse_integer(budget, "budget"),
                   [parse_rational(e, "epsilon") for e in epsilon_items(epsilons)],
                   None if width is None else parse_rational(width, "width"),
                   sigma2=None if sigma2 is None else parse_rational(sigma2, "sigma2"),
                   laplace=None if laplace is None else parse_rational(laplace, "laplace"),
                   releases=None if releases is None else parse_releases(releases),
                   rel_width=None if rel_width is None else parse_rational(rel_width, subject("rel_width")))

    def with_epsilons(self, epsilons):
        """The same releases, W and R at other ε (validated again)."""
        if self.single:
            key = "sigma2" if self.family == GAUSSIAN else "laplace"
            return type(self)(self.budget, epsilons, self.width, rel_width=self.rel_width, **{key: self.parameter})
        return type(self)(None, epsilons, self.width, releases=self.releases, rel_width=self.rel_width)

    def noise_json(self):
        return noise_json(self.family, self.parameter)

    def as_json(self):
        if self.single:
            head = {"noise": self.noise_json(), "budget": self.budget}
        else:
            head = {"releases": [{"noise": noise_json(r.family, r.parameter), "sensitivity": r.sensitivity,
                                  "count": r.count} for r in self.releases]}
        out = {**head, "epsilons": [format_rational(e) for e in self.epsilons],
               "width": None if self.width is None else format_rational(self.width)}
        if self.rel_width is not None:  # optional key: absent in the absolute form (older certificates)
            out["rel_width"] = format_rational(self.rel_width)
        return out


def default_widths(width, rel_width):
    """(W, R) as asked; with neither, R = 1/1000 and the floor W = 10^-60 (a δ below R's reach meets W)."""
    if width is None and rel_width is None:
        return FLOOR_WIDTH, DEFAULT_REL_WIDTH
    return width, rel_width


def noise_json(family, parameter):
    key = "sigma2" if family == GAUSSIAN else "t"
    return {"family": family, key: format_rational(parameter)}


def point_json(point, digits):
    return {
        "epsilon": format_rational(point.epsilon),
        "lower": format_rational(point.lower),
        "upper": format_rational(point.upper),
        "lower_display": decimal_outward(point.lower, digits, -1),
        "upper_display": decimal_outward(point.upper, digits, +1),
    }


def check_auditable(request, copies=1):
    """The auditor's estimate of ``copies`` certificates of ``request`` checked in one file (an embedding
    kind's witnesses), before any enclosure: LimitError beyond the auditor's step limits or the budgets
    the producer writes for (after the producer's own size limits, whose refusals are the more specific);
    the :class:`producer.audit_budget.AuditCost` otherwise."""
    check_first_round(request)
    cost = auditability.request_cost(request.as_json())
    cost = audit_budget.together([cost] * copies)
    audit_budget.check(cost, "release" if not request.single else "budget")
    return cost


def build(request, progress=None):
    """The plain-composition certificate (a dict) for ``request``."""
    check_auditable(request)
    return certificate_of(request, points(request, progress or (lambda message: None)))


def auditor_cost(cert):
    """The auditor's budget estimate of a plain-composition certificate (producer.plain.auditability)."""
    return auditability.certificate_cost(cert)


def certificate_of(request, computed):
    """The sealed certificate of ``request`` from its points (:func:`producer.plain.targets.points`)."""
    for point in computed:  # a claim of the certificate: checked here too, so a broken point never ships
        if not meets(point, request.width, request.rel_width):
            raise AssertionError(f"point at ε = {point.epsilon} does not meet its width")
    result = {"points": [point_json(p, point_digits(request, p)) for p in computed]}
    return make_certificate(KIND, VERSION, request.as_json(), result)


def point_digits(request, point):
    """Display places: 8 beyond the first significant place of R·lower when the point meets R (R asked, the
    rounds' first choice), else those of W (W alone, or the floor W of a point R cannot reach)."""
    meets_r = request.rel_width is not None and meets(point, None, request.rel_width)
    if request.width is not None and (not meets_r or request.rel_width is None):
        return display_digits(request.width)
    scale, places = request.rel_width * point.lower, 0
    if scale <= 0:
        return 12
    while mpq(1, mpz(10) ** places) > scale:
        places += 1
    return max(12, places + 8)


def _noise_text(noise):
    if noise["family"] == "discrete-gaussian":
        return f"discrete Gaussian σ² = {show(rational(noise['sigma2']))}"
    return f"discrete Laplace t = {show(rational(noise['t']))}"


def _value_text(point):
    lower, upper = rational(point["lower"]), rational(point["upper"])
    if lower == upper:
        return f"= {format_rational(lower)}"
    return f"∈ {show_interval(lower, upper)}"


def _width_text(inp):
    parts = []
    if inp["width"] is not None:
        parts.append(f"width ≤ {show(rational(inp['width']))}")
    if inp.get("rel_width") is not None:
        parts.append(f"relative width ≤ {show(rational(inp['rel_width']))}")
    return " or ".join(parts)


def _release_text(release):
    s = release["sensitivity"]
    return f"{release['count']} × {_noise_text(release['noise'])}" + ("" if s == 1 else f" (sensitivity {s})")


def claim(cert):
    inp, pts = cert["input"], cert["result"]["points"]
    if "releases" in inp:
        C = sum(r["count"] for r in inp["releases"])
        what = f"plain composition of {', '.join(_release_text(r) for r in inp['releases'])}"
    else:
        C = inp["budget"]
        what = f"{C}-fold plain composition of the {_noise_text(inp['noise'])}, sensitivity 1"
    parts = [f"δ_{C}({show(rational(p['epsilon']))}) {_value_text(p)}" for p in pts]  # every requested ε
    return f"{'; '.join(parts)} for the {what} (product pair; {_width_text(inp)})"
