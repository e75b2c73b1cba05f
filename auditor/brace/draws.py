"""Re-deriving the standard-normal draws from the seed.

The producer's generator (documented in docs/brace.md): uniforms
u1 = (getrandbits(53) + 1) / 2^53, u2 = getrandbits(53) / 2^53 from
``random.Random(seed)`` (Mersenne Twister, integer output), then Box–Muller
sqrt(-2 log u1) (cos 2πu2, sin 2πu2), each rounded to within 2^-60.  The
auditor encloses the exact Box–Muller values with its own series and accepts a
recorded draw within 2^-59 of the enclosure.

π = 16 atan(1/5) - 4 atan(1/239) (Machin); atan x = Σ (-1)^i x^(2i+1)/(2i+1),
an alternating series with decreasing terms, so the error is below the first
omitted term.  cos and sin at a rational θ by Taylor series with remainder
|θ|^(N+1)/(N+1)!, widened by the width of the θ enclosure (both are
1-Lipschitz).
"""

import random
from fractions import Fraction
from functools import lru_cache

from auditor.brace.enclosures import log_bounds, outward, sqrt_bounds

TOLERANCE = Fraction(1, 2 ** 59)


def _atan_small(x, w):
    """(lo, hi) of atan(x) for 0 < x <= 1/5."""
    s, term, i = Fraction(0), x, 0
    eps = Fraction(1, 2 ** (w + 4))
    while True:
        k = term / (2 * i + 1)
        s += k if i % 2 == 0 else -k
        term *= x * x
        i += 1
        nxt = term / (2 * i + 1)
        if nxt < eps:
            return outward(s - nxt, s + nxt, w + 2)


@lru_cache(maxsize=8)
def pi_bounds(w):
    a = _atan_small(Fraction(1, 5), w + 8)
    b = _atan_small(Fraction(1, 239), w + 8)
    return 16 * a[0] - 4 * b[1], 16 * a[1] - 4 * b[0]


def _cos_sin_at(theta, w):
    """((cos lo, cos hi), (sin lo, sin hi)) at a rational theta, |theta| <= 7."""
    c, s = Fraction(0), Fraction(0)
    term = Fraction(1)  # theta^k / k!
    k = 0
    eps = Fraction(1, 2 ** (w + 4))
    while True:
        if k % 4 == 0:
            c += term
        elif k % 4 == 1:
            s += term
        elif k % 4 == 2:
            c -= term
        else:
            s -= term
        k += 1
        term = term * theta / k
        # the sums hold indices < k; once (k+1) >= 2|theta| every later term is at
        # most half the previous one, so the tail is at most 2 |theta^k / k!|
        if k + 1 >= 2 * abs(theta) and abs(term) < eps:
            e = abs(term) * 2
            return outward(c - e, c + e, w + 2), outward(s - e, s + e, w + 2)


def _times(a, b):
    prods = [x * y for x in a for y in b]
    return min(prods), max(prods)


def normal_pair_bounds(u1, u2, w=120):
    """Enclosures of the two Box–Muller normals for uniforms u1 in (0, 1], u2 in [0, 1)."""
    llo, lhi = log_bounds(u1, w)
    rad = (sqrt_bounds(max(Fraction(0), -2 * lhi), w)[0], sqrt_bounds(-2 * llo, w)[1])
    plo, phi_ = pi_bounds(w)
    th_lo, th_hi = 2 * plo * u2, 2 * phi_ * u2
    th_lo, th_hi = outward(th_lo, th_hi, w)
    (clo, chi), (slo, shi) = _cos_sin_at(th_lo, w)
    width = th_hi - th_lo
    cos_b, sin_b = (clo - width, chi + width), (slo - width, shi + width)
    return _times(rad, cos_b), _times(rad, sin_b)


def normal_bounds(seed, count):
    """Enclosures of the first ``count`` draws of the documented generator."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        u1 = Fraction(rng.getrandbits(53) + 1, 2 ** 53)
        u2 = Fraction(rng.getrandbits(53), 2 ** 53)
        a, b = normal_pair_bounds(u1, u2)
        out.extend([a, b])
    return out[:count]


def draws_match(seed, zetas):
    """Whether every recorded draw is within TOLERANCE of the seeded value."""
    flat = [z for step in zetas for z in step]
    for z, (lo, hi) in zip(flat, normal_bounds(seed, len(flat))):
        if not lo - TOLERANCE <= z <= hi + TOLERANCE:
            return False
    return True
