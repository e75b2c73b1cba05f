"""The finite discrete-Laplace source ν and its total-variation bound τ.

The discrete Laplace law of scale t > 0 is, with r = e^{−1/t},

    L_t(n) = r^{|n|}·(1 − r)/(1 + r)       on all integers n,

since Σ_n r^{|n|} = (1 + r)/(1 − r) in closed form.  Its tail beyond radius L
is exactly Σ_{|n|>L} L_t(n) = 2·r^{L+1}/(1 + r).

The source on [−L, L] at scale S is built exactly like the discrete-Gaussian
one (producer.sources.discrete_gaussian): w_n = floor(S·ℓ_n) for 0 < |n| <= L
with ℓ_n <= L_t(n) certified (one unit lower within 2^-32 above an integer),
w_0 = S − Σ_{n≠0} w_n, and

    TV(ν, L_t) = ν(0) − L_t(0) <= w_0/S − lower(L_t(0)) =: τ_raw,

rounded up to a dyadic with a guard.  docs/plain-composition.md §2 has the
proofs and the checker's side.
"""

from gmpy2 import mpq, mpz

from producer.errors import InputError, LimitError
from producer.laws import FiniteLaw
from producer.rationals import format_rational
from producer.sources.auditability import check_auditable_source
from producer.sources.discrete_gaussian import (ATOM_GUARD, _check_radius, _check_scale,
                                                symmetric_weights_and_tau, width_rule)
from producer.sources.enclosures import arf_to_mpq, to_arb, working_precision

FAMILY = "discrete-laplace"
MIN_T = mpq(1, 1000)
MAX_T = mpq(1000)


class LaplaceNoise:
    """The discrete Laplace law's parameter: the scale t (a positive rational)."""

    __slots__ = ("t",)

    def __init__(self, t):
        self.t = check_t(t)

    def as_json(self):
        return {"family": FAMILY, "t": format_rational(self.t)}

    def __eq__(self, other):
        return isinstance(other, LaplaceNoise) and self.t == other.t

    def __hash__(self):
        return hash(self.t)

    def __repr__(self):
        return f"LaplaceNoise(t={self.t})"


def check_t(t):
    """t as an mpq within the documented limits 1/1000 <= t <= 1000."""
    t = mpq(t)
    if t <= 0:
        raise InputError(f"laplace: the scale t must be positive, got {format_rational(t)}")
    if not MIN_T <= t <= MAX_T:
        raise LimitError(f"laplace: t = {format_rational(t)} is outside the limits "
                         f"[{format_rational(MIN_T)}, {format_rational(MAX_T)}]")
    return t


def ratio_ball(t):
    """arb ball of r = e^{−1/t} at the current precision."""
    return to_arb(-1 / mpq(t)).exp()


def mass_ball(n, t):
    """arb ball of L_t(n) = e^{−|n|/t}·(1 − r)/(1 + r)."""
    r = ratio_ball(t)
    return to_arb(-abs(n) / mpq(t)).exp() * (1 - r) / (1 + r)


def tail_mass_upper(t, radius, bits=64):
    """Certified upper bound (mpq) of Σ_{|n| > L} L_t(n) = 2·r^{L+1}/(1 + r)."""
    with working_precision(bits + 32):
        r = ratio_ball(t)
        ball = 2 * to_arb(-(radius + 1) / mpq(t)).exp() / (1 + r)
        return arf_to_mpq(ball.upper())


class DiscreteLaplaceSource:
    """The finite source ν on [−L, L] at scale S with τ >= TV(ν, L_t).

    Same interface as :class:`producer.sources.discrete_gaussian.DiscreteGaussianSource`
    (``radius``, ``scale``, ``weights``, ``tau``, ``law``, ``as_json``).
    """

    __slots__ = ("noise", "radius", "scale", "weights", "tau")

    def __init__(self, noise, radius, scale, weights, tau):
        self.noise, self.radius, self.scale = noise, int(radius), mpz(scale)
        self.weights, self.tau = tuple(mpz(w) for w in weights), mpq(tau)

    @classmethod
    def from_radius_scale(cls, t, radius, scale):
        noise = t if isinstance(t, LaplaceNoise) else LaplaceNoise(t)
        radius, scale = _check_radius(radius), _check_scale(scale)
        check_auditable_source(radius, scale, t=noise.t)   # the auditor's documented source limits
        bits = int(scale.bit_length()) + 96
        with working_precision(bits + 32 + int(radius / noise.t).bit_length()):
            half = [_atom(n, noise.t, scale) for n in range(1, radius + 1)]
            centre_lower = arf_to_mpq(mass_ball(0, noise.t).lower())
        weights, tau = symmetric_weights_and_tau(half, scale, centre_lower, "discrete Laplace")
        return cls(noise, radius, scale, weights, tau)

    @property
    def offset(self):
        return -self.radius

    @property
    def law(self):
        return FiniteLaw(self.weights, -self.radius)

    def as_json(self):
        return {
            "sigma2": None,
            "noise": self.noise.as_json(),
            "radius": self.radius,
            "scale": str(int(self.scale)),
            "weights": [str(int(w)) for w in self.weights],
            "offset": self.offset,
        }

    def __repr__(self):
        return (f"DiscreteLaplaceSource(t={self.noise.t}, radius={self.radius}, "
                f"scale={self.scale}, tau={float(self.tau):.3e})")


def _atom(n, t, scale):
    """w_n = floor(S·ℓ_n), one lower when S·ℓ_n is within ATOM_GUARD above an integer."""
    x = arf_to_mpq(mass_ball(n, t).lower()) * scale
    w = x.numerator // x.denominator
    if w > 0 and x - w < ATOM_GUARD:
        w -= 1
    return mpz(w)


def choose_radius_scale(t, tau_target):
    """(L, S) whose source is expected to have τ < tau_target (the Gaussian's width rule).

    L is the smallest radius whose certified tail is at most 7/8 of the target;
    S the smallest power of two with 4L/S <= target − tail.
    """
    noise = t if isinstance(t, LaplaceNoise) else LaplaceNoise(t)
    return width_rule(lambda radius: tail_mass_upper(noise.t, radius), tau_target, "discrete-Laplace")


SOURCE = DiscreteLaplaceSource  # the source class of this law (dg_interval dispatches on it)
