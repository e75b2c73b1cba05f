"""The finite discrete-Gaussian source ν and its total-variation bound τ.

(*Exact Compilation and Resource Laws for Hidden Integer Feedback*, §4.3.)

The discrete Gaussian is g(n) = f(n)/Z on all integers, with the kernel
f(n) = exp(−n²/(2σ²)) and the normaliser Z = Σ_n f(n).

Source on [−L, L] at scale S: for 0 < |n| <= L,

    w_n = floor(S·ℓ_n)         ℓ_n a certified lower bound of g(n),
    w_0 = S − Σ_{n≠0} w_n,

and w_n is lowered by one more unit when S·ℓ_n lies within 2^-32 above an
integer, so that an independent checker needs only modest precision to
confirm w_n <= S·g(n).  Every nonzero atom is then at most its DG mass, the
removed mass sits at zero, and

    TV(ν, g) = Σ_n (ν(n) − g(n))₊ = ν(0) − g(0) <= w_0/S − 1/Z⁺ =: τ_raw

for any certified Z⁺ >= Z.  τ is τ_raw rounded up to a dyadic with a small
guard.  Z⁺ uses the geometric tail bound (see :func:`kernel_tail_ball`).
docs/discrete-gaussian.md has the proofs.
"""

from flint import arb
from gmpy2 import isqrt, mpq, mpz

from producer.errors import InputError, LimitError
from producer.sources.auditability import check_auditable_source
from producer.laws import MAX_LAW_LENGTH, FiniteLaw
from producer.rationals import format_rational
from producer.sources.enclosures import (arf_to_mpq, round_up, to_arb,
                                         working_precision)

MAX_RADIUS = (MAX_LAW_LENGTH - 1) // 2
MAX_SIGMA2 = mpz(10) ** 6
# σ² below this makes even the first atom exp(−1/(2σ²)) of the discrete Gaussian
# an exact number of more than a million bits (at σ² = 10^-10 the arithmetic
# library aborts); such a law is a point mass at 0 for every allowed scale.
MIN_SIGMA2 = mpq(1, 10**6)
MAX_SCALE_BITS = 4096
ATOM_GUARD = mpq(1, mpz(2) ** 32)   # distance kept from an integer when flooring S·ℓ_n
TAU_GUARD_BITS = 40                 # τ is rounded up at 2^-(bits(S) + 40)


def check_sigma2(sigma2):
    """σ² as an mpq within the limits MIN_SIGMA2 <= σ² <= MAX_SIGMA2 (every kind's discrete Gaussian)."""
    sigma2 = mpq(sigma2)
    if sigma2 <= 0:
        raise InputError(f"sigma2: must be positive, got {sigma2}")
    if sigma2 < MIN_SIGMA2:
        raise LimitError(f"sigma2: {format_rational(sigma2)} is below the limit 1/{MIN_SIGMA2.denominator} "
                         f"(the discrete Gaussian is then a point mass at 0)")
    if sigma2 > MAX_SIGMA2:
        raise LimitError(f"sigma2: {sigma2} exceeds the limit {MAX_SIGMA2} "
                         f"(the normaliser needs about σ·sqrt(bits) kernel terms)")
    return sigma2


def kernel_ball(n, sigma2):
    """arb ball of f(n) = exp(−n²/(2σ²)) at the current precision."""
    return to_arb(mpq(-n * n) / (2 * mpq(sigma2))).exp()


def kernel_tail_ball(first, sigma2):
    """arb upper bound of Σ_{n >= first} f(n), for first >= 1.

    For n >= first, f(n+1)/f(n) = exp(−(2n+1)/(2σ²)) <= r := exp(−(2·first+1)/(2σ²)),
    so the tail is at most the geometric series f(first)/(1 − r).
    """
    r = to_arb(mpq(-(2 * first + 1)) / (2 * mpq(sigma2))).exp()
    return kernel_ball(first, sigma2) / (1 - r)


def normaliser_ball(sigma2, bits):
    """arb ball containing Z = 1 + 2·Σ_{n>=1} f(n), to about ``bits`` bits.

    The sum runs to N with (N+1)²/(2σ²) >= 0.7·(bits + 10 + log2 σ²) (so the
    neglected tail is below 2^-bits); the tail itself enters as the interval
    [0, geometric bound], so the ball is certified whatever N is.
    """
    sigma2 = mpq(sigma2)
    need = 2 * sigma2 * mpq(7, 10) * (bits + 10 + int(sigma2.numerator).bit_length())
    N = int(isqrt(int(need.numerator // need.denominator) + 1)) + 1
    total = arb(0)
    for n in range(1, N + 1):
        total += kernel_ball(n, sigma2)
    tail = kernel_tail_ball(N + 1, sigma2).upper()
    total += arb(tail / 2, tail / 2)  # the interval [0, tail]
    return 1 + 2 * total


def tail_mass_upper(sigma2, radius, bits=64):
    """Certified upper bound (mpq) of Σ_{|n| > radius} g(n) = 2·Σ_{n>radius} f(n)/Z."""
    with working_precision(bits + 32):
        z = normaliser_ball(sigma2, bits)
        ball = 2 * kernel_tail_ball(radius + 1, sigma2) / z
        return arf_to_mpq(ball.upper())


class DiscreteGaussianSource:
    """The finite source ν on [−L, L] at scale S with its TV bound τ.

    ``weights`` are w_{−L}, ..., w_L (mpz); ``tau`` is a dyadic upper bound of
    TV(ν, g_σ).  Build with :meth:`from_radius_scale`.
    """

    __slots__ = ("sigma2", "radius", "scale", "weights", "tau")

    def __init__(self, sigma2, radius, scale, weights, tau):
        self.sigma2, self.radius, self.scale = mpq(sigma2), int(radius), mpz(scale)
        self.weights, self.tau = tuple(mpz(w) for w in weights), mpq(tau)

    @classmethod
    def from_radius_scale(cls, sigma2, radius, scale):
        sigma2 = check_sigma2(sigma2)
        radius, scale = _check_radius(radius), _check_scale(scale)
        check_auditable_source(radius, scale, sigma2=sigma2)   # every kind's auditor has these limits
        bits = int(scale.bit_length()) + 96
        with working_precision(bits + 32):
            z = normaliser_ball(sigma2, bits)
            half = [_atom(n, sigma2, z, scale) for n in range(1, radius + 1)]
            inv_z_lower = arf_to_mpq((1 / z).lower())
        weights, tau = symmetric_weights_and_tau(half, scale, inv_z_lower, "discrete Gaussian")
        return cls(sigma2, radius, scale, weights, tau)

    @property
    def offset(self):
        return -self.radius

    @property
    def law(self):
        return FiniteLaw(self.weights, -self.radius)

    def as_json(self):
        from producer.rationals import format_rational
        return {
            "sigma2": format_rational(self.sigma2),
            "radius": self.radius,
            "scale": str(int(self.scale)),
            "weights": [str(int(w)) for w in self.weights],
            "offset": self.offset,
        }

    def __repr__(self):
        return (f"DiscreteGaussianSource(sigma2={self.sigma2}, radius={self.radius}, "
                f"scale={self.scale}, tau={float(self.tau):.3e})")


def symmetric_weights_and_tau(half, scale, centre_mass_lower, law):
    """(w_{−L..L}, τ) from the atoms w_1..w_L of a symmetric source and a lower bound of its mass at 0.

    The removed mass sits at zero: w_0 = S − 2·Σ w_n, and TV(ν, g) = ν(0) − g(0)
    <= w_0/S − (lower bound of g(0)), rounded up to a dyadic with a small guard.
    Shared by every source family.
    """
    w0 = scale - 2 * sum(half, mpz(0))
    if w0 < 0:  # impossible: the atoms are below masses summing to < 1
        raise ArithmeticError(f"{law} source: negative central weight")
    tau_raw = mpq(w0, scale) - centre_mass_lower
    k = int(scale.bit_length()) + TAU_GUARD_BITS
    tau = round_up(tau_raw, k) + mpq(1, mpz(2) ** k)
    return half[::-1] + [w0] + half, tau


def _atom(n, sigma2, z, scale):
    """w_n = floor(S·ℓ_n), one lower when S·ℓ_n is within ATOM_GUARD above an integer."""
    lower = arf_to_mpq((kernel_ball(n, sigma2) / z).lower())
    x = lower * scale
    w = x.numerator // x.denominator
    if w > 0 and x - w < ATOM_GUARD:
        w -= 1
    return mpz(w)


def _check_radius(radius):
    radius = int(radius)
    if radius < 1:
        raise InputError(f"radius: L must be at least 1, got {radius}")
    if radius > MAX_RADIUS:
        raise LimitError(f"radius: L = {radius} exceeds the limit {MAX_RADIUS} (support 2L+1 <= {MAX_LAW_LENGTH})")
    return radius


def _check_scale(scale):
    scale = mpz(scale)
    if scale < 1:
        raise InputError(f"scale: S must be a positive integer, got {scale}")
    if scale.bit_length() > MAX_SCALE_BITS:
        raise LimitError(f"scale: S has {scale.bit_length()} bits, above the limit {MAX_SCALE_BITS}")
    return scale


def choose_radius_scale(sigma2, tau_target):
    """(L, S) whose source is expected to have τ < tau_target (the width rule).

    L is the smallest radius whose certified tail mass is at most 7/8 of the
    target; S is the smallest power of two with 4L/S <= target − tail, so the
    flooring loss (under 2L(1 + 2^-32)/S) takes at most half of what is left.
    The caller confirms the a-posteriori τ and doubles S if needed.
    """
    sigma2 = check_sigma2(sigma2)
    return width_rule(lambda radius: tail_mass_upper(sigma2, radius), tau_target, "discrete-Gaussian")


def width_rule(tail, tau_target, law):
    """(L, S) for a law whose certified tail mass beyond radius L is ``tail(L)``.

    Shared by every source family: the smallest L with tail(L) <= 7/8 of the
    target, then the smallest power of two S with 4L/S <= target − tail(L).
    """
    tau_target = mpq(tau_target)
    if tau_target <= 0:
        raise InputError("width: the requested width leaves no room for the source error")
    radius = _radius_for_tail(tail, tau_target * mpq(7, 8), law)
    room = tau_target - tail(radius)
    scale = mpz(1)
    while mpq(4 * radius, scale) > room:
        scale *= 2
    return radius, _check_scale(scale)


def _radius_for_tail(tail, target, law):
    """Smallest L >= 1 with tail(L) <= target (galloping, then bisection)."""
    lo, hi = 0, 1
    while tail(hi) > target:
        lo, hi = hi, 2 * hi
        if lo > MAX_RADIUS:
            raise LimitError(f"width: the {law} tail needs a radius above {MAX_RADIUS}")
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if tail(mid) <= target:
            hi = mid
        else:
            lo = mid
    return _check_radius(hi)


SOURCE = DiscreteGaussianSource  # the source class of this law (dg_interval dispatches on it)
