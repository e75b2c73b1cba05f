"""Parameters of a resource-law certificate: γ = a/B, σ², the constants, the window's state order.

Domain (outside it the certificate is MALFORMED: it asks no question): γ a
reduced a/B with 0 < a < B, σ² > 0.  Limits (UNCHECKED, before any work; the
producer's own limits, docs/resource-laws.md §5): B <= MAX_DENOMINATOR and
σ² in [MIN_SIGMA2, MAX_SIGMA2].

Constants (exact): R = 2/σ², v0 = σ² + 1/4, H = v0/(1 − γ²), L = R/(1 − γ).

Window states (x, d), x ∈ [−M, M], d ∈ {−1, 0, 1}, are listed in state order
(index 3(x + M) + d + 1) and window LP columns (x, d, j) in column order
(index 9(x + M) + 3(d + 1) + j + 1).
"""

from fractions import Fraction

from auditor.lower import inputs
from auditor.outcomes import Unchecked
from auditor.rationals import read_rational

__all__ = ["MAX_DENOMINATOR", "MIN_SIGMA2", "MAX_SIGMA2", "Parameters", "read_parameters", "state", "column",
           "SIGNS"]

MAX_DENOMINATOR = 1000
MIN_SIGMA2 = Fraction(1, 100)
MAX_SIGMA2 = Fraction(10 ** 4)
SIGNS = (-1, 0, 1)


class Parameters:
    """γ = a/B and σ² of one certificate, with the exact constants of the resource laws."""

    __slots__ = ("a", "B", "gamma", "sigma2", "R", "v0", "H", "L")

    def __init__(self, a, B, sigma2):
        self.a, self.B = a, B
        self.gamma = Fraction(a, B)
        self.sigma2 = Fraction(sigma2)
        self.R = 2 / self.sigma2
        self.v0 = self.sigma2 + Fraction(1, 4)
        self.H = self.v0 / (1 - self.gamma ** 2)
        self.L = self.R / (1 - self.gamma)


def read_parameters(inp):
    """The request's γ and σ² (MALFORMED outside the domain, UNCHECKED beyond the limits)."""
    a, B = inputs.gamma(inp["gamma"], "/input/gamma")
    sigma2 = inputs.positive(inp["sigma2"], "/input/sigma2", "sigma2")
    if B > MAX_DENOMINATOR:
        raise Unchecked("/input/gamma", B, MAX_DENOMINATOR, "denominator B of gamma")
    if not MIN_SIGMA2 <= sigma2 <= MAX_SIGMA2:
        raise Unchecked("/input/sigma2", sigma2, f"the range [{MIN_SIGMA2}, {MAX_SIGMA2}]", "sigma2")
    return Parameters(a, B, sigma2)


def state(x, d, M):
    """Index of the window state (x, d)."""
    return 3 * (x + M) + d + 1


def column(x, d, j, M):
    """Index of the window LP column (x, d, j)."""
    return 9 * (x + M) + 3 * (d + 1) + j + 1


def rational(text, pointer):
    return read_rational(text, pointer)
