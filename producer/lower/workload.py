"""The ``workload/1`` certificate: the static-workload matrix program (SPEC-lower 7.6).

Matrix mechanism (seed 004 §7.4, J.1): strategy A = d·I + e·J (n × n), one
finite DG draw per strategy coordinate (σ², scale S, every atom with
floor(S·g(n)) >= 1), public reconstruction.  Zeroing one record moves A·x by a
column of A, of squared norm ‖h‖² = (d + e)² + (n − 1)e².  For the ideal DG the
Rényi moment is E_P[(dP/dQ)^θ] = exp(θ(θ+1)‖h‖²/(2σ²)) (θ·h integral), and
(1 − t^{-1})_+ <= θ^θ t^θ/(θ+1)^{θ+1} gives

    δ_g(ε) <= θ^θ/(θ+1)^{θ+1} · exp(−θε + θ(θ+1)‖h‖²/(2σ²)).

The finite source couples each of the n draws with TV <= τ, adding
(1 + e^ε)·n·τ.  The workload matrix W itself is not given in the paper, so
no MSE figure is computed here (docs/lower-certificates.md §4).

G.6 identity: K_t = −γK_{t−1} + M_t with martingale differences of variance
v + E[r_t(1 − r_t)], r_t = {γK_{t−1}}, so for a centred law

    E(Σ_t h_t K_t)² = Σ_j c_j²·(v + E[r_j(1 − r_j)]),  c_j = Σ_{t>=j} h_t(−γ)^{t−j};

:func:`mean_square_by_paths` computes the left side by exact enumeration of
the joint law, :func:`identity_right_side` the right side.
"""

from gmpy2 import mpq, mpz

from producer.certificates.canonical import make_certificate
from producer.errors import InputError, LimitError
from producer.laws import FiniteLaw, Gamma
from producer.rationals import decimal_outward, format_rational
from producer.sources.discrete_gaussian import DiscreteGaussianSource, check_sigma2
from producer.sources.enclosures import exp_enclosure, exp_threshold

KIND, VERSION = "workload", 1
DISPLAY_DIGITS = 18
MAX_IDENTITY_STEPS = 6
MAX_IDENTITY_LAW = 9
# The auditor's limits (UNCHECKED beyond them): dimension, moment order, identity work.
AUDITOR_MAX_DIMENSION = 10 ** 9
AUDITOR_MAX_THETA = 10 ** 4
AUDITOR_MAX_IDENTITY_WORK = 2 * 10 ** 6
AUDITOR_MAX_DIGITS = 10_000  # its reader's limit on a numerator or a denominator


def column_norm2(dimension, diagonal, ones):
    """Squared norm of a column of d·I + e·J: (d + e)² + (n − 1)·e²."""
    return (diagonal + ones) ** 2 + (dimension - 1) * ones ** 2


def inverse_coefficients(dimension, diagonal, ones):
    """(α, β) with (d·I + e·J)^{-1} = α·I + β·J: α = 1/d, β = −e/(d(d + n·e)) (J² = n·J)."""
    diagonal, ones = mpq(diagonal), mpq(ones)
    if diagonal == 0 or diagonal + dimension * ones == 0:
        raise InputError("strategy: d·I + e·J is singular")
    return 1 / diagonal, -ones / (diagonal * (diagonal + dimension * ones))


def positive_radius_fast(sigma2, scale):
    """The largest n with w_n >= 1 (every positive atom): double L until the edge atom is 0, then read it off."""
    L = 8
    while DiscreteGaussianSource.from_radius_scale(sigma2, L, scale).weights[-1] > 0:
        L *= 2
        if L > 2048:
            raise LimitError("source: more than 2048 positive atoms on each side")
    weights = DiscreteGaussianSource.from_radius_scale(sigma2, L, scale).weights
    half = weights[L:]
    return max(n for n, w in enumerate(half) if w > 0)


def gaussian_term_upper(theta, epsilon, norm2, sigma2):
    """A rational >= θ^θ/(θ+1)^{θ+1}·exp(−θε + θ(θ+1)·norm2/(2σ²)) (arb, read upward)."""
    theta = int(theta)
    exponent = -theta * mpq(epsilon) + mpq(theta * (theta + 1) * norm2) / (2 * mpq(sigma2))
    return mpq(theta ** theta, (theta + 1) ** (theta + 1)) * exp_enclosure(exponent, bits=192).hi


AUDITOR_MAX_BITS = 1 << 14   # the auditor's working-precision limit (with its 4x retry)


def check_auditable_gaussian_term(gaussian):
    """LimitError when the auditor would refuse to decide the Gaussian term.

    It decides G >= θ^θ/(θ+1)^{θ+1}·e^x at G's own size plus 48 bits, retried at
    4 times that, and refuses (UNCHECKED) beyond 16,384 bits.
    """
    bits = max(int(gaussian.numerator).bit_length(), int(gaussian.denominator).bit_length()) + 48
    if 4 * bits > AUDITOR_MAX_BITS:
        raise LimitError(f"theta: the Gaussian term has {bits - 48} bits; the auditor decides it at {4 * bits} "
                         f"bits, above its limit {AUDITOR_MAX_BITS} (use a smaller θ)")


def law_variance(law):
    """v = Σ z² w_z / S for a centred law (raises if Σ z w_z != 0)."""
    first = sum(z * law.weight(z) for z in range(law.low, law.high + 1))
    if first != 0:
        raise InputError(f"identity law {law!r} is not centred (Σ z·w_z = {int(first)})")
    return mpq(sum(z * z * law.weight(z) for z in range(law.low, law.high + 1)), law.total)


def _transition(law, gamma, k):
    """(next state, probability) pairs of K' = η − floor((a·k + U)/B)."""
    out = {}
    for u in range(gamma.B):
        f = (gamma.a * k + u) // gamma.B
        for z in range(law.low, law.high + 1):
            w = law.weight(z)
            if w:
                out[z - f] = out.get(z - f, mpq(0)) + mpq(w, law.total * gamma.B)
    return out


def mean_square_by_paths(law, gamma, h):
    """E(Σ_t h_t K_t)² from K_0 = 0 by exact enumeration of (K_t, partial sum)."""
    dist = {(0, mpq(0)): mpq(1)}
    for weight in h:
        new = {}
        for (k, s), p in dist.items():
            for n, w in _transition(law, gamma, k).items():
                key = (n, s + weight * n)
                new[key] = new.get(key, mpq(0)) + p * w
        dist = new
    return sum((p * s * s for (_, s), p in dist.items()), mpq(0))


def identity_right_side(law, gamma, h):
    """(c, residual variances, v, Σ_j c_j²(v + E[r_j(1 − r_j)]))."""
    g = mpq(gamma.a, gamma.B)
    n = len(h)
    c = [sum((h[t] * (-g) ** (t - j) for t in range(j, n)), mpq(0)) for j in range(n)]
    v = law_variance(law)
    marginal = {0: mpq(1)}
    residual = []
    for _ in range(n):
        residual.append(sum((p * _frac(g * k) * (1 - _frac(g * k)) for k, p in marginal.items()), mpq(0)))
        new = {}
        for k, p in marginal.items():
            for m, w in _transition(law, gamma, k).items():
                new[m] = new.get(m, mpq(0)) + p * w
        marginal = new
    total = sum((cj * cj * (v + rj) for cj, rj in zip(c, residual)), mpq(0))
    return c, residual, v, total


def _frac(q):
    return q - (q.numerator // q.denominator)


class IdentityCase:
    """One G.6 check: γ, a centred finite law, weights h."""

    def __init__(self, gamma, weights, offset, h):
        self.gamma = gamma if isinstance(gamma, Gamma) else Gamma.from_string(gamma)
        self.law = FiniteLaw(weights, offset)
        self.h = [mpq(x) for x in h]
        if not 1 <= len(self.h) <= MAX_IDENTITY_STEPS:
            raise LimitError(f"identity: 1..{MAX_IDENTITY_STEPS} steps, got {len(self.h)}")
        if len(self.law.weights) > MAX_IDENTITY_LAW:
            raise LimitError(f"identity: at most {MAX_IDENTITY_LAW} weights, got {len(self.law.weights)}")
        law_variance(self.law)

    def as_json(self):
        return {"gamma": str(self.gamma), "law": self.law.as_json(),
                "h": [format_rational(x) for x in self.h]}

    def result_json(self):
        c, residual, v, total = identity_right_side(self.law, self.gamma, self.h)
        lhs = mean_square_by_paths(self.law, self.gamma, self.h)
        if lhs != total:
            raise ArithmeticError(f"G.6 identity fails on {self.law!r}: {lhs} != {total}")
        return {"gamma": str(self.gamma), "law": self.law.as_json(), "steps": len(self.h),
                "h": [format_rational(x) for x in self.h], "c": [format_rational(x) for x in c],
                "residual_variance": [format_rational(x) for x in residual],
                "variance": format_rational(v), "mean_square": format_rational(lhs)}


class WorkloadRequest:
    """A validated workload request."""

    def __init__(self, dimension, diagonal, ones, sigma2, scale, epsilon, theta, identity_cases=()):
        self.dimension, self.diagonal, self.ones = int(dimension), int(diagonal), int(ones)
        if self.dimension < 1 or self.diagonal < 1 or self.ones < 0:
            raise InputError(f"strategy: need dimension >= 1, diagonal >= 1, ones >= 0, got "
                             f"{self.dimension}, {self.diagonal}, {self.ones}")
        self.sigma2, self.scale = check_sigma2(sigma2), mpz(scale)
        self.epsilon, self.theta = mpq(epsilon), int(theta)
        if self.epsilon < 0 or self.theta < 1:
            raise InputError(f"need epsilon >= 0 and theta >= 1, got {self.epsilon}, {self.theta}")
        self.identity_cases = [c if isinstance(c, IdentityCase) else IdentityCase(**c) for c in identity_cases]
        self._check_auditable()

    def _check_auditable(self):
        """Refuse, before any work, a request the auditor would answer UNCHECKED (docs/certificates.md)."""
        if self.dimension > AUDITOR_MAX_DIMENSION:
            raise LimitError(f"dimension: n = {self.dimension} exceeds the auditor's limit {AUDITOR_MAX_DIMENSION}")
        if self.theta > AUDITOR_MAX_THETA:
            raise LimitError(f"theta: θ = {self.theta} exceeds the auditor's limit {AUDITOR_MAX_THETA}")
        self._check_gaussian_term_size()
        work = sum(len(c.h) ** 2 * (len(c.law.weights) + 1) ** 2 for c in self.identity_cases)
        if work > AUDITOR_MAX_IDENTITY_WORK:
            raise LimitError(f"identity: Σ steps²·(weights + 1)² = {work} over the cases exceeds the auditor's "
                             f"limit {AUDITOR_MAX_IDENTITY_WORK}; use fewer or smaller identity cases")

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

    def as_json(self):
        return {"dimension": self.dimension, "diagonal": str(self.diagonal), "ones": str(self.ones),
                "sigma2": format_rational(self.sigma2), "scale": str(int(self.scale)),
                "epsilon": format_rational(self.epsilon), "theta": self.theta,
                "identity_cases": [c.as_json() for c in self.identity_cases]}


def result_json(request):
    norm2 = column_norm2(request.dimension, request.diagonal, request.ones)
    alpha, beta = inverse_coefficients(request.dimension, request.diagonal, request.ones)
    radius = positive_radius_fast(request.sigma2, request.scale)
    source = DiscreteGaussianSource.from_radius_scale(request.sigma2, radius, request.scale)
    law = source.law
    variance = mpq(sum(z * z * law.weight(z) for z in range(law.low, law.high + 1)), law.total)
    _, lam_hi = exp_threshold(request.epsilon, mpq(1, mpz(2) ** 128))
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


def build(request):
    return make_certificate(KIND, VERSION, request.as_json(), result_json(request))


# The published static workload (seed 004 §7.4, J.1) with G.6 checks on three
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
    return build(WorkloadRequest(**fields))


def analytic_gaussian_delta(s, epsilon, bits=192):
    """Enclosure of d_s(ε) = N(1/(2s) − εs) − e^ε·N(−1/(2s) − εs) (seed 004 J.2; N the normal CDF).

    N(t) = erfc(−t/√2)/2, evaluated with arb balls.
    """
    from flint import arb
    from producer.sources.enclosures import enclosure_of, to_arb, working_precision
    s, epsilon = mpq(s), mpq(epsilon)
    with working_precision(bits):
        S, E = to_arb(s), to_arb(epsilon)
        root2 = arb(2).sqrt()

        def normal_cdf(t):
            return (-t / root2).erfc() / 2

        return enclosure_of(normal_cdf(1 / (2 * S) - E * S) - E.exp() * normal_cdf(-1 / (2 * S) - E * S))
