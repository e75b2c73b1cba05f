"""The ``workload/1`` certificate: an upper bound on δ(ε) of the static-workload matrix program.

Question (``input``): the strategy A = d·I + e·J (n, d, e), the discrete
Gaussian's σ² and the finite source's scale S, ε, the moment order θ, and
the G.6 identity cases to check.  Result: the strategy's column norm and
inverse, the finite source and τ, the Gaussian moment term, the coupling, the
bound δ(ε) <= gaussian_term + coupling, and each identity check.  The
mathematics (*Exact Compilation and Resource Laws for Hidden Integer
Feedback*, §7.4, Appendices G.6 and J.1) is in :mod:`producer.lower.workload`;
docs/lower-certificates.md §4 has the fields.

Limits: the auditor's (n <= 10^9, θ <= 10^4, the identity cases' work, and
the Gaussian term's size in digits and bits), refused before the work.
"""

from gmpy2 import mpq, mpz

from producer.certificates.canonical import make_certificate
from producer.display import rational, show, up
from producer.errors import InputError, LimitError
from producer.immutable import Immutable
from producer.lower.workload import (IdentityCase, column_norm2, gaussian_term_upper, inverse_coefficients,
                                     positive_radius_fast)
from producer.rationals import (decimal_outward, format_rational, parse_integer, parse_rational, parse_switch,
                                parse_whole)
from producer.sources.discrete_gaussian import DiscreteGaussianSource, check_sigma2
from producer.sources.enclosures import check_threshold_size, exp_threshold

KIND, VERSION = "workload", 1
DISPLAY_DIGITS = 18
# The auditor's limits (UNCHECKED beyond them): dimension, moment order, identity work.
AUDITOR_MAX_DIMENSION = 10 ** 9
AUDITOR_MAX_THETA = 10 ** 4
AUDITOR_MAX_IDENTITY_WORK = 2 * 10 ** 6
AUDITOR_MAX_DIGITS = 10_000  # its reader's limit on a numerator or a denominator
AUDITOR_MAX_BITS = 1 << 14   # the auditor's working-precision limit (with its 4x retry)
THRESHOLD_GAP = mpq(1, mpz(2) ** 128)


def check_auditable_gaussian_term(gaussian):
    """LimitError when the auditor would refuse to decide the Gaussian term.

    It decides G >= θ^θ/(θ+1)^{θ+1}·e^x at G's own size plus 48 bits, retried at
    4 times that, and refuses (UNCHECKED) beyond 16,384 bits.
    """
    bits = max(int(gaussian.numerator).bit_length(), int(gaussian.denominator).bit_length()) + 48
    if 4 * bits > AUDITOR_MAX_BITS:
        raise LimitError(f"theta: the Gaussian term has {bits - 48} bits; the auditor decides it at {4 * bits} "
                         f"bits, above its limit {AUDITOR_MAX_BITS} (use a smaller θ)")


class Request(Immutable):
    """A validated workload request: the strategy (n, d, e), σ², S, ε, θ and the identity cases."""

    __slots__ = ("dimension", "diagonal", "ones", "sigma2", "scale", "epsilon", "theta", "identity_cases", "radius")

    def __init__(self, dimension, diagonal, ones, sigma2, scale, epsilon, theta, identity_cases=()):
        self.dimension, self.diagonal, self.ones = int(dimension), int(diagonal), int(ones)
        if self.dimension < 1 or self.diagonal < 1 or self.ones < 0:
            raise InputError(f"strategy: need dimension >= 1, diagonal >= 1, ones >= 0, got "
                             f"{self.dimension}, {self.diagonal}, {self.ones}")
        self.sigma2, self.scale = check_sigma2(sigma2), mpz(scale)
        self.epsilon, self.theta = mpq(epsilon), int(theta)
        if self.epsilon < 0 or self.theta < 1:
            raise InputError(f"need epsilon >= 0 and theta >= 1, got {self.epsilon}, {self.theta}")
        self.identity_cases = tuple(c if isinstance(c, IdentityCase) else IdentityCase(**c) for c in identity_cases)
        self._check_auditable()

    def _check_auditable(self):
        """Refuse, before any work, a request the auditor would answer UNCHECKED (docs/certificates.md)."""
        check_threshold_size(self.epsilon, THRESHOLD_GAP)
        if self.dimension > AUDITOR_MAX_DIMENSION:
            raise LimitError(f"dimension: n = {self.dimension} exceeds the auditor's limit {AUDITOR_MAX_DIMENSION}")
        if self.theta > AUDITOR_MAX_THETA:
            raise LimitError(f"theta: θ = {self.theta} exceeds the auditor's limit {AUDITOR_MAX_THETA}")
        self._check_gaussian_term_size()
        self._check_source()
        work = sum(len(c.h) ** 2 * (len(c.law.weights) + 1) ** 2 for c in self.identity_cases)
        if work > AUDITOR_MAX_IDENTITY_WORK:
            raise LimitError(f"identity: Σ steps²·(weights + 1)² = {work} over the cases exceeds the auditor's "
                             f"limit {AUDITOR_MAX_IDENTITY_WORK}; use fewer or smaller identity cases")

    def _check_source(self):
        """The source's radius (every atom >= 1), or a refusal naming the scale: the radius follows from σ² and S."""
        try:
            self.radius = positive_radius_fast(self.sigma2, self.scale)
        except LimitError as error:
            subject, _, detail = error.reason.partition(": ")
            if subject not in ("radius", "source"):
                raise
            raise LimitError(f"scale: at S of {int(self.scale).bit_length()} bits the source (every atom >= 1 "
                             f"of σ² = {format_rational(self.sigma2)}) is beyond the auditor's limits: {detail}",
                             "use a smaller scale") from None

    def _check_gaussian_term_size(self):
        """Refuse when the exact Gaussian term G = θ^θ/(θ+1)^{θ+1}·u, u >= e^x (a 192-bit enclosure),
        surely has more digits than the auditor reads (10,000 in a numerator or denominator).

        Two sufficient conditions: x − 1 − ln(θ+1) >= 10,000·ln 10 (then G >= e^x/(e(θ+1)) >= 10^10000,
        so its numerator has more digits); or the odd part of (θ+1)^{θ+1}, which only the 192-bit mantissa
        of u (under 100 digits) can cancel, has more than 10,100 digits (it stays in the denominator).
        """
        theta = self.theta
        x = -theta * self.epsilon + mpq(theta * (theta + 1) * column_norm2(self.dimension, self.diagonal, self.ones),
                                        2 * mpq(self.sigma2))
        if x - 1 - mpq(int(theta + 1).bit_length()) >= AUDITOR_MAX_DIGITS * mpq(2303, 1000):
            raise LimitError(f"theta: the Gaussian term's exponent θ(θ+1)·‖A‖²/(2σ²) − θε = {int(x)} makes its exact "
                             f"value longer than the auditor's limit of {AUDITOR_MAX_DIGITS} digits (use a smaller "
                             f"dimension or θ, or a larger σ²)")
        odd = theta + 1
        while odd % 2 == 0:
            odd //= 2
        if (theta + 1) * (len(str(odd)) - 1) > AUDITOR_MAX_DIGITS + 100:  # odd^(θ+1) >= 10^((θ+1)(len − 1))
            raise LimitError(f"theta: θ = {theta} puts (θ+1)^(θ+1) in the Gaussian term's denominator, longer than "
                             f"the auditor's limit of {AUDITOR_MAX_DIGITS} digits (use a smaller θ)")

    @classmethod
    def from_strings(cls, dimension=100, diagonal=15, ones=1, sigma2=1444, scale=2**33, epsilon=2, theta=6,
                     identity=True):
        """Parse user text exactly (the defaults are the published static workload); ``identity=True`` adds
        the published checks of the G.6 identity."""
        return cls(parse_integer(dimension, "dimension"), parse_integer(diagonal, "diagonal"),
                   parse_integer(ones, "ones"), parse_rational(sigma2, "sigma2"), parse_whole(scale, "scale"),
                   parse_rational(epsilon, "epsilon"), parse_integer(theta, "theta"),
                   PUBLISHED_IDENTITY_CASES if parse_switch(identity, "identity") else [])

    def as_json(self):
        return {"dimension": self.dimension, "diagonal": str(self.diagonal), "ones": str(self.ones),
                "sigma2": format_rational(self.sigma2), "scale": str(int(self.scale)),
                "epsilon": format_rational(self.epsilon), "theta": self.theta,
                "identity_cases": [c.as_json() for c in self.identity_cases]}


def result_json(request):
    norm2 = column_norm2(request.dimension, request.diagonal, request.ones)
    alpha, beta = inverse_coefficients(request.dimension, request.diagonal, request.ones)
    source = DiscreteGaussianSource.from_radius_scale(request.sigma2, request.radius, request.scale)
    law = source.law
    variance = mpq(sum(z * z * law.weight(z) for z in range(law.low, law.high + 1)), law.total)
    _, lam_hi = exp_threshold(request.epsilon, THRESHOLD_GAP)
    gaussian = gaussian_term_upper(request.theta, request.epsilon, norm2, request.sigma2)
    check_auditable_gaussian_term(gaussian)
    coupling = (1 + lam_hi) * request.dimension * source.tau
    delta = gaussian + coupling
    source_json = source.as_json()
    source_json["tau"] = format_rational(source.tau)
    return {
        "strategy": {"dimension": request.dimension, "diagonal": str(request.diagonal),
                     "ones": str(request.ones), "column_norm2": str(norm2),
                     "inverse": {"diagonal": format_rational(alpha), "ones": format_rational(beta)}},
        "source": source_json,
        "variance": format_rational(variance),
        "theta": request.theta,
        "threshold_upper": format_rational(lam_hi),
        "gaussian_term": format_rational(gaussian),
        "coupling": format_rational(coupling),
        "delta_upper": format_rational(delta),
        "delta_upper_display": decimal_outward(delta, DISPLAY_DIGITS, +1),
        "identity_checks": [c.result_json() for c in request.identity_cases],
    }


def build(request, progress=None):
    """The workload certificate for ``request`` (quick: no progress lines)."""
    return make_certificate(KIND, VERSION, request.as_json(), result_json(request))


# The published static workload (the paper's §7.4 and Appendix J.1) with G.6 checks on three
# small centred laws (one non-constant h).
PUBLISHED_IDENTITY_CASES = [
    dict(gamma="1/2", weights=[1, 2, 1], offset=-1, h=["1/3", "1/3", "1/3"]),
    dict(gamma="1/3", weights=[1, 1, 1], offset=-1, h=["1/4", "1/4", "1/4", "1/4"]),
    dict(gamma="2/5", weights=[1, 0, 3, 0, 1], offset=-2, h=["1", "-2", "1/2"]),
]
PUBLISHED = dict(dimension=100, diagonal=15, ones=1, sigma2=1444, scale=mpz(2) ** 33, epsilon=2, theta=6,
                 identity_cases=PUBLISHED_IDENTITY_CASES)
REFERENCES = [("workload-published-static.json", PUBLISHED)]


def build_reference(fields):
    return build(Request(**fields))


def claim(cert):
    inp, res = cert["input"], cert["result"]
    checks = len(res["identity_checks"])
    identity = f"; G.6 identity checked in {checks} cases" if checks else ""
    return (f"δ({show(rational(inp['epsilon']))}) ≤ {up(res['delta_upper'])} for A = {inp['diagonal']}·I + "
            f"{inp['ones']}·J, n = {inp['dimension']}, σ² = {show(rational(inp['sigma2']))}, θ = {inp['theta']} "
            f"(static workload, finite discrete-Gaussian draws{identity})")
