"""The seeded standard-normal generator (the mechanism's randomness).

Uniforms come from ``random.Random(seed).getrandbits(53)`` (Mersenne Twister,
identical on every platform); normals from the Box–Muller transform evaluated
in ``arb`` and rounded to DRAW_BITS bits, so the draws are reproducible
bit for bit.  The draws only approximate a Gaussian law, as any generator
does; the privacy claim depends on the variance and calibration, which are
certified separately, and the realised draws are recorded in the certificate.
"""

import random

from flint import arb
from gmpy2 import mpq, mpz

from producer.brace.enclosures import ends, precision, to_arb

DRAW_BITS = 60


def _nearest(ball, bits):
    lo, hi = ends(ball)
    mid = (lo + hi) / 2 * (mpz(1) << bits)
    return mpq(int(mid.numerator // mid.denominator), mpz(1) << bits)


def standard_normals(seed, count):
    """``count`` standard-normal draws (dyadic rationals) from ``seed``."""
    rng = random.Random(int(seed))
    out = []
    with precision(192):
        two_pi = 2 * arb.pi()
        while len(out) < count:
            u1 = mpq(rng.getrandbits(53) + 1, 2 ** 53)  # in (0, 1]
            u2 = mpq(rng.getrandbits(53), 2 ** 53)
            radius = (-2 * to_arb(u1).log()).sqrt()
            angle = two_pi * to_arb(u2)
            out.append(_nearest(radius * angle.cos(), DRAW_BITS))
            out.append(_nearest(radius * angle.sin(), DRAW_BITS))
    return out[:count]


def normals_by_step(seed, horizon, dimension):
    """Draws ζ_t (t = 1..T), each a d-vector, consumed in step order."""
    flat = standard_normals(seed, horizon * dimension)
    return [tuple(flat[t * dimension:(t + 1) * dimension]) for t in range(horizon)]


NOISE_BITS = 64
NOISE_TOLERANCE = mpq(1, 2 ** 60)  # |ξ_i - σ ζ_i| <= this, checked exactly


def scaled_noise(variance, zeta):
    """ξ = σ ζ with σ = sqrt(variance), each coordinate rounded to 2^-NOISE_BITS
    (error < 2^-64 + arb radius, well inside NOISE_TOLERANCE)."""
    with precision(256):
        sigma = to_arb(variance).sqrt()
        return tuple(_nearest(sigma * to_arb(z), NOISE_BITS) for z in zeta)
