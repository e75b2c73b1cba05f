"""The ``plain-composition/1`` certificate: certified δ(ε) of the C-fold plain composition.

Question (``input``): the noise (discrete Gaussian σ² or discrete Laplace t),
the budget C, the strictly increasing ε and the width W.  Result: one point
per ε with exact rationals lower <= δ(ε) <= upper, upper − lower <= W, and
decimal displays rounded outward (lower down, upper up) at the places of
:func:`producer.display.display_digits` (8 places beyond the first
significant place of W, at least 12).  The maths and the proofs of the
enclosures: :mod:`producer.plain`.

Limits (shared with the auditor's documentation): 1 <= C <= 1024, 1 to 1000
values of ε with 0 <= ε <= 10^4, 10^-60 <= W < 1, σ² and t in [1/100, 10^6].
The ε are sorted increasingly; a repeated ε is refused (the certificate's
points are one per distinct ε, strictly increasing).
"""

from gmpy2 import mpq, mpz

from producer.certificates.canonical import make_certificate
from producer.display import display_digits, rational, show, show_interval
from producer.errors import InputError, LimitError
from producer.immutable import Immutable
from producer.plain.enclose import GAUSSIAN, LAPLACE, points
from producer.rationals import decimal_outward, describe_rational, format_rational, parse_integer, parse_rational

KIND, VERSION = "plain-composition", 1
DEFAULT_WIDTH = "1/1000000000000000"
MAX_BUDGET = 1024
MAX_POINTS = 1000
MAX_EPSILON = mpq(10) ** 4
MIN_WIDTH = mpq(1, mpz(10) ** 60)
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


def check_budget(budget):
    budget = int(budget)
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
    """A validated plain-composition request: noise family and parameter (σ² or t), C, the sorted ε, W."""

    __slots__ = ("family", "parameter", "budget", "epsilons", "width")

    def __init__(self, budget, epsilons, width, sigma2=None, laplace=None):
        if (sigma2 is None) == (laplace is None):
            raise InputError("give exactly one noise law: sigma2=Q (discrete Gaussian) or laplace=T "
                             "(discrete Laplace), the other None")
        if sigma2 is not None:
            self.family, self.parameter = GAUSSIAN, _parameter(sigma2, "sigma2")
        else:
            self.family, self.parameter = LAPLACE, _parameter(laplace, "laplace")
        self.budget = check_budget(budget)
        self.epsilons = check_epsilons(epsilons)
        self.width = check_width(width)

    @classmethod
    def from_strings(cls, budget, epsilons, width=DEFAULT_WIDTH, *, sigma2=None, laplace=None):
        """Parse user text exactly: ``epsilons`` one value, ``"a,b,c"`` or a sequence."""
        return cls(parse_integer(budget, "budget"), [parse_rational(e, "epsilon") for e in _items(epsilons)],
                   parse_rational(width, "width"),
                   sigma2=None if sigma2 is None else parse_rational(sigma2, "sigma2"),
                   laplace=None if laplace is None else parse_rational(laplace, "laplace"))

    def with_epsilons(self, epsilons):
        """The same noise, C and W at other ε (validated again)."""
        key = "sigma2" if self.family == GAUSSIAN else "laplace"
        return type(self)(self.budget, epsilons, self.width, **{key: self.parameter})

    def noise_json(self):
        key = "sigma2" if self.family == GAUSSIAN else "t"
        return {"family": self.family, key: format_rational(self.parameter)}

    def as_json(self):
        return {
            "noise": self.noise_json(),
            "budget": self.budget,
            "epsilons": [format_rational(e) for e in self.epsilons],
            "width": format_rational(self.width),
        }


def _items(epsilons):
    """ε values from one number, ``"a,b,c"`` or a sequence."""
    if isinstance(epsilons, str):
        return [part.strip() for part in epsilons.split(",")]
    if isinstance(epsilons, (list, tuple)):
        return list(epsilons)
    return [epsilons]


def point_json(point, digits):
    return {
        "epsilon": format_rational(point.epsilon),
        "lower": format_rational(point.lower),
        "upper": format_rational(point.upper),
        "lower_display": decimal_outward(point.lower, digits, -1),
        "upper_display": decimal_outward(point.upper, digits, +1),
    }


def build(request, progress=None):
    """The plain-composition certificate (a dict) for ``request``."""
    return certificate_of(request, points(request, progress or (lambda message: None)))


def certificate_of(request, computed):
    """The sealed certificate of ``request`` from its points (:func:`producer.plain.enclose.points`)."""
    digits = display_digits(request.width)
    result = {"points": [point_json(p, digits) for p in computed]}
    return make_certificate(KIND, VERSION, request.as_json(), result)


def _noise_text(noise):
    if noise["family"] == "discrete-gaussian":
        return f"discrete Gaussian σ² = {show(rational(noise['sigma2']))}"
    return f"discrete Laplace t = {show(rational(noise['t']))}"


def _value_text(point):
    lower, upper = rational(point["lower"]), rational(point["upper"])
    if lower == upper:
        return f"= {format_rational(lower)}"
    return f"∈ {show_interval(lower, upper)}"


def claim(cert):
    inp, pts = cert["input"], cert["result"]["points"]
    C = inp["budget"]
    parts = [f"δ_{C}({show(rational(p['epsilon']))}) {_value_text(p)}" for p in pts]  # every requested ε
    return (f"{'; '.join(parts)} for the {C}-fold plain composition of the {_noise_text(inp['noise'])}, "
            f"sensitivity 1 (product pair; width ≤ {show(rational(inp['width']))})")
