"""The validated plain-composition request and its documented limits.

Limits (shared with the auditor's documentation): 1 <= C <= 1024, 1 to 1000
values of ε with 0 <= ε <= 10^4, 10^-60 <= W < 1, σ² and t in [1/100, 10^6].
The ε are sorted increasingly; a repeated ε is refused (the certificate's
points are one per distinct ε, strictly increasing).
"""

from gmpy2 import mpq, mpz

from producer.errors import InputError, LimitError
from producer.rationals import describe_rational, format_rational

MAX_BUDGET = 1024
MAX_POINTS = 1000
MAX_EPSILON = mpq(10) ** 4
MIN_WIDTH = mpq(1, mpz(10) ** 60)
MIN_PARAMETER = mpq(1, 100)
MAX_PARAMETER = mpq(10) ** 6
GAUSSIAN, LAPLACE = "discrete-gaussian", "discrete-laplace"


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


class PlainRequest:
    """noise family and parameter (σ² or t), budget C, the sorted ε, width W."""

    __slots__ = ("family", "parameter", "budget", "epsilons", "width")

    def __init__(self, budget, epsilons, width, sigma2=None, laplace=None):
        if (sigma2 is None) == (laplace is None):
            raise InputError("give exactly one noise law: sigma2 (discrete Gaussian) or laplace t "
                             "(discrete Laplace)")
        if sigma2 is not None:
            self.family, self.parameter = GAUSSIAN, _parameter(sigma2, "sigma2")
        else:
            self.family, self.parameter = LAPLACE, _parameter(laplace, "laplace")
        self.budget = check_budget(budget)
        self.epsilons = check_epsilons(epsilons)
        self.width = check_width(width)

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
