"""Brackets of the loss-grid preimages of a mixture of Gaussians against one Gaussian (docs/accounting.md §5).

In standard units z = x/σ the forward pair of a ``mixture_of_gaussians`` stage is P = Σ_k a_k·N(d_k, 1) against
Q = N(0, 1), with d_k = Δ_k/σ >= 0, a_k > 0, Σ a_k = 1 and some d_k > 0 (Poisson sampling adds its 1 − q to the
weight a_0 at d = 0).  Its likelihood ratio and loss are

    S(z) = Σ_k a_k·e^{d_k·z − d_k²/2},      ℓ(z) = log S(z),

with S′(z) = Σ_k a_k·d_k·e^{…} > 0: ℓ is continuous and strictly increasing from log a_0 (−∞ without a weight at
d = 0) to ∞, and convex (a log-sum of exponentials of affine functions).  The preimage of a level y is the z(y) with
S(z(y)) = e^y, and z(y) = −∞ when e^y <= a_0.

1. *Below the range* (:func:`at_or_below`): e^{i/N} <= a_0 is decided by ever finer enclosures of e^{i/N}.  They are
   never equal: a_0 < 1 is rational, e^0 = 1, and e^r is irrational for every rational r ≠ 0.
2. *An approximation* z̃ (trusted for nothing): Newton's method on ℓ, from the previous level's approximation, with
   the lower ends of the auditor's enclosures as values; first at 64 bits, then at the working precision.
3. *The bracket* (the proof): [z̃ − r, z̃ + r] holds z(y) as soon as S(z̃ − r) <= e^y <= S(z̃ + r), which is proved
   with the enclosures: Σ_k a_k·(e^{d_k(z̃ − r) − d_k²/2})⁺ <= (e^y)⁻ and Σ_k a_k·(e^{d_k(z̃ + r) − d_k²/2})⁻ >=
   (e^y)⁺ (ℓ is increasing, so its root lies between).  The precision of the comparison follows the slope
   ℓ′(z̃) (the two sides differ by a factor of about e^{2r·ℓ′}); an unproved bracket is tried again with more bits,
   then wider.  Whatever z̃ is, a proved bracket holds the root.

A mass is then enclosed by the normal CDFs at the bracket's two ends (both increasing in z).
"""

from fractions import Fraction

from auditor.enclosures import exp_bounds, log_bounds
from auditor.outcomes import NotEstablished
from auditor.rationals import ceil, floor

__all__ = ["at_or_below", "brackets", "MAX_SIGN_BITS", "NEWTON_STEPS"]

MAX_SIGN_BITS = 1 << 14
"""Most bits spent deciding e^{i/N} <= a_0 at one level."""
NEWTON_STEPS = 200
"""Most Newton steps per level (each phase); an unconverged approximation only widens the bracket."""
_ATTEMPTS = 4
"""Bracket attempts per level: each with 64 more bits, the last two 2^16 and 2^32 times wider."""


def at_or_below(y, a0, pointer):
    """True when e^y <= a_0 (a rational in (0, 1)), decided with ever finer enclosures of e^y."""
    bits = 64
    while bits <= MAX_SIGN_BITS:
        lo, hi = exp_bounds(y, bits)
        if hi <= a0:
            return True
        if lo > a0:
            return False
        bits *= 2
    raise NotEstablished(pointer, f"undecided at {MAX_SIGN_BITS} bits",
                         f"the recipe's grid level {y} is too close to the loss's infimum log {a0} to place")


def _dyadic(x, F):
    return Fraction(floor(x * (1 << F)), 1 << F)


def _exp(x, bits):
    """(lo, hi) around e^x, relative accuracy about 2^−bits; for x < −0.7·(bits + 64) just [0, 2^−(bits+64)]
    (e^x < 2^{−1.44·0.7·(bits + 64)}, log2 e > 1.44): a term that small decides nothing at ``bits``, and its
    enclosure would cost an exponential of |x|·1.44 bits."""
    if x < -Fraction(7, 10) * (bits + 64):
        return Fraction(0), Fraction(1, 1 << (bits + 64))
    return exp_bounds(x, bits)


def _approximate(terms, a0, z, bits):
    """(S, S′) at z from the lower ends of the enclosures (an approximation)."""
    S, D = a0, Fraction(0)
    for d, a, half in terms:
        e = _exp(d * z - half, bits)[0]
        S += a * e
        D += a * d * e
    return S, D


def _newton(terms, a0, y, z, right, bits, tolerance, F):
    """Newton's method for ℓ(z) = y from ``z``, never beyond ``right`` (a point right of the root, where a step from
    a flat stretch of ℓ would otherwise land far away); (z, ℓ′(z)) after convergence to ``tolerance`` or
    NEWTON_STEPS steps."""
    slope = None
    for _ in range(NEWTON_STEPS):
        S, D = _approximate(terms, a0, z, bits)
        slope = D / S
        step = (log_bounds(S, bits)[0] - y) / slope
        z = min(_dyadic(z - step, F), right)
        if abs(step) < tolerance:
            break
    return z, slope


def _start(terms, y):
    """A point right of z(y): the least of the components' own roots (S is at least each component's term)."""
    return min((y - log_bounds(a, 64)[0] + half) / d for d, a, half in terms)


def _proved(terms, a0, y, z_lo, z_hi, bits):
    e_lo, e_hi = exp_bounds(y, bits)
    left = a0 + sum(a * _exp(d * z_lo - half, bits)[1] for d, a, half in terms)
    if left > e_lo:
        return False
    right = a0 + sum(a * _exp(d * z_hi - half, bits)[0] for d, a, half in terms)
    return right >= e_hi


def brackets(components, N, lo, hi, W, pointer):
    """[(lo, hi) integers over 2^W enclosing z(i/N), or None for z = −∞] for i = lo, ..., hi.

    ``components``: [(d_k, a_k)] Fractions, d_k >= 0 distinct, a_k > 0 summing to 1, some d_k > 0.
    """
    a0 = sum((a for d, a in components if d == 0), Fraction(0))
    terms = [(d, a, d * d / 2) for d, a in components if d > 0]
    F = W + 8
    tolerance = Fraction(1, 1 << (W + 8))
    out, z = [], None
    for i in range(lo, hi + 1):
        y = Fraction(i, N)
        if a0 > 0 and at_or_below(y, a0, pointer):
            out.append(None)
            z = None
            continue
        right = _dyadic(_start(terms, y), F) + Fraction(1, 1 << F)
        z = right if z is None else z
        z, slope = _newton(terms, a0, y, z, right, 64, Fraction(1, 1 << 40), F)
        extra = max(0, slope.denominator.bit_length() - slope.numerator.bit_length())
        bits = W + 32 + extra
        z, slope = _newton(terms, a0, y, z, right, bits, tolerance, F)
        out.append(_bracket(terms, a0, y, z, W, bits, pointer))
    return out


def _bracket(terms, a0, y, z, W, bits, pointer):
    r = Fraction(1, 1 << (W + 2))
    for attempt in range(_ATTEMPTS):
        if attempt >= 2:
            r *= 1 << 16
        z_lo, z_hi = z - r, z + r
        if _proved(terms, a0, y, z_lo, z_hi, bits):
            return floor(z_lo * (1 << W)), ceil(z_hi * (1 << W))
        bits += 64
    raise NotEstablished(pointer, f"no bracket of the preimage of the level {y} proved",
                         "the mixture's loss-grid preimages could not be placed")
