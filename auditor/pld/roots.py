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

*The polynomial route* (:func:`brackets` tries it first).  With m the least common denominator of the d_k and
n_k = m·d_k (integers), w = e^{z/m} turns S into a polynomial with positive coefficients,

    S = a_0 + Σ_k b_k·w^{n_k},     b_k = a_k·e^{−d_k²/2},

increasing and convex in w > 0, so the bracket is proved on w with no exponential at all: with W̃ the
approximation (Newton's method in fixed point, from the previous level's root; trusted for nothing) and R a
radius, S((W̃ − R)/2^P) <= (e^y)⁻ and S((W̃ + R)/2^P) >= (e^y)⁺ are decided in integers over 2^P, every power
w^n by squarings and every product rounded down for the left end and up for the right end (products of
nonnegative numbers are increasing in each factor), b_k enclosed once per precision (:func:`exp_bounds`) over
2^{P + g_k}, g_k the bits its smallness would otherwise cost.  e^y comes from the grid of e^{j/N}
(:func:`auditor.pld.preimages.exp_grid`), whose enclosure also decides e^y <= a_0 (step 1) unless it
straddles a_0, when :func:`at_or_below` does.  Then z = m·log w is increasing in w, so z(y) lies in
[m·log w⁻, m·log w⁺], enclosed by :class:`auditor.pld.logs.LogTable`.  A level whose approximation is too
small or too flat for the precision gets more bits; one whose bracket is not proved after two more attempts
goes the route above.  The route is taken when the exponents and the coefficients' scales are small
(:data:`MAX_POWER`, :data:`MAX_SCALE_BITS`), else every level goes the route above.
"""

from fractions import Fraction
from math import lcm

from auditor.enclosures import exp_bounds, log_bounds
from auditor.outcomes import NotEstablished
from auditor.pld.logs import LogTable
from auditor.pld.preimages import exp_fixed, exp_grid
from auditor.rationals import ceil, floor

__all__ = ["at_or_below", "brackets", "polynomial_route", "MAX_SIGN_BITS", "NEWTON_STEPS", "MAX_POWER",
           "MAX_SCALE_BITS"]

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
    if not polynomial_route(components):
        return _newton_brackets(components, N, lo, hi, W, pointer)
    return _Polynomial.of(components, W).brackets(N, lo, hi, pointer)


def _newton_brackets(components, N, lo, hi, W, pointer):
    """:func:`brackets` by Newton's method on ℓ and proofs with the exponential's enclosures (steps 1–3)."""
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


# ---- the polynomial route --------------------------------------------------------------------------------------

MAX_POWER = 1 << 10
"""Largest exponent n_k = m·d_k of the polynomial route (the squarings of a power, and its rounding, grow with
log2 n_k)."""
MAX_SCALE_BITS = 1 << 11
"""Largest scale g_k of a coefficient b_k = a_k·e^{−d_k²/2} of the polynomial route (the bits added to its fixed
point, about (3/4)·d_k² + log2(1/a_k))."""
_GUARD = 24
"""Bits of the bracket's radius in w, and beyond the rounding in the proof's margin."""


def _power(X, n, P, direction):
    """2^P·w^n rounded down (direction −1) or up (+1) for w = X/2^P >= 0: squarings, each product rounded the same
    way (increasing in both nonnegative factors)."""
    one = 1 << P
    result, base = None, X
    while True:
        if n & 1:
            if result is None:
                result = base
            else:
                product = result * base
                result = product >> P if direction < 0 else -((-product) // one)
        n >>= 1
        if not n:
            return result
        product = base * base
        base = product >> P if direction < 0 else -((-product) // one)


def _exponents(components):
    """(m, [(n_k, d_k, a_k, g_k)]) for the positive d_k: m their least common denominator, n_k = m·d_k, and
    g_k = ⌈(3/4)·d_k²⌉ + bits(⌊1/a_k⌋) + 8, so that 2^{g_k}·b_k >= 2^8 (log2 e/2 < 3/4, 1/a_k < 2^{bits(⌊1/a_k⌋)})."""
    positive = [(d, a) for d, a in components if d > 0]
    m = lcm(*(d.denominator for d, _ in positive))
    return m, [(d.numerator * (m // d.denominator), d, a, ceil(d * d * Fraction(3, 4))
                + (a.denominator // a.numerator).bit_length() + 8) for d, a in positive]


def polynomial_route(components):
    """True when :func:`brackets` takes the polynomial route: every n_k <= MAX_POWER and every g_k <=
    MAX_SCALE_BITS (:func:`_exponents`)."""
    _, terms = _exponents(components)
    return all(n <= MAX_POWER and g <= MAX_SCALE_BITS for n, _, _, g in terms)


class _Polynomial:
    """S = a_0 + Σ_k b_k·w^{n_k}, w = e^{z/m}: the polynomial route of :func:`brackets` (module docstring)."""

    __slots__ = ("a0", "terms", "m", "W", "margin", "logs", "_coefficients")

    def __init__(self, a0, terms, m, W):
        self.a0, self.terms, self.m, self.W = a0, terms, m, W
        n_max = max(n for n, _, _, _ in terms)
        # the proof's margin D·R/W̃ >= D·2^{−(W + bits(m) + 2)} must pass the rounding, about
        # n_max·(S + 1)·(number of terms + 1) units, by 2^_GUARD
        self.margin = W + m.bit_length() + 2 + _GUARD + n_max.bit_length() + (len(terms) + 1).bit_length()
        self.logs = LogTable(W + m.bit_length() + 2)
        self._coefficients = {}

    @classmethod
    def of(cls, components, W):
        """The route for ``components`` (within :func:`polynomial_route`'s limits)."""
        m, terms = _exponents(components)
        return cls(sum((a for d, a in components if d == 0), Fraction(0)), terms, m, W)

    def coefficients(self, P):
        """(A0⁻, A0⁺, [(n_k, B_k⁻, B_k⁺, P + g_k)]): a_0 over 2^P and b_k over 2^{P + g_k}, rounded outward."""
        c = self._coefficients.get(P)
        if c is None:
            one = 1 << P
            terms = []
            for n, d, a, g in self.terms:
                e_lo, e_hi = exp_bounds(-d * d / 2, P + g + 16)
                scale = a * (1 << (P + g))
                terms.append((n, floor(e_lo * scale), ceil(e_hi * scale), P + g))
            c = self._coefficients[P] = (floor(self.a0 * one), ceil(self.a0 * one), terms)
        return c

    @staticmethod
    def value(X, P, coefficients, direction):
        """(S, D) over 2^P at w = X/2^P: S rounded down (direction −1) or up (+1), D = Σ_k n_k·b_k·w^{n_k}
        (= dS/d log w) from the same terms."""
        A0_lo, A0_hi, terms = coefficients
        S, D = (A0_lo if direction < 0 else A0_hi), 0
        for n, B_lo, B_hi, shift in terms:
            Y = _power(X, n, P, direction)
            T = (B_lo * Y) >> shift if direction < 0 else -((-B_hi * Y) >> shift)
            S += T
            D += n * T
        return S, D

    def approximate(self, X, E, P, coefficients):
        """(W̃, S, D): Newton's method for S(w) = E/2^P from w = X/2^P (an approximation, trusted for nothing).

        Far from the root (S and E apart by 4 bits or more) a step is Newton's on log S against u = log w (convex
        there), with the gap g = bits(S) − bits(E) ∓ 1, a bound of log2(S/E) towards zero: u moves by
        g·ln 2·S/D, w by 2^{g·S/D} (whole bits) or by the factor 1 ∓ (2/3)·g·S/D, at most 2^64 up;
        near it, Newton's method on S in w (convex: from the left it lands right, from the right it descends).
        """
        stop = self.W + self.m.bit_length() + 8
        S = D = 0
        for _ in range(NEWTON_STEPS):
            S, D = self.value(X, P, coefficients, -1)
            if D <= 0:
                X = (X << 1) or 1
                continue
            gap = S.bit_length() - E.bit_length()
            if gap >= 4:
                gap -= 1
                s = (gap * S) // D
                X = X >> s if s else X - (2 * gap * S * X) // (3 * D)
                continue
            if gap <= -4:
                gap = -gap - 1
                s = (gap * S) // D
                X = X << min(64, s) if s else X + (2 * gap * S * X) // (3 * D)
                continue
            step = ((S - E) * X) // D
            X -= step
            if X <= 0:
                X = 1
            elif abs(step) <= X >> stop:
                return X, S, D
        return X, S, D

    def start(self, E, P, coefficients):
        """A point right of the root: the least of the components' own roots rounded up to a power of two
        (S >= a_0 + b_k·w^{n_k} for each k)."""
        A0_lo, _, terms = coefficients
        exponents = []
        for n, B_lo, _, shift in terms:
            V = ((max(E - A0_lo, 1)) << shift) // max(B_lo, 1)       # about 2^P·(e^y − a_0)/b_k
            exponents.append(-((P - V.bit_length()) // n))            # ⌈(bits(V) − P)/n⌉
        return 1 << max(0, P + min(exponents))

    def short(self, X, S, D, P):
        """The bits the precision P lacks at the approximation (0 when none)."""
        need_x = self.W + self.m.bit_length() + 2 + _GUARD - X.bit_length()
        need_d = self.margin + max(0, S.bit_length() - P) - D.bit_length()
        return max(0, need_x, need_d)

    def proved(self, X, R, E_lo, E_hi, P, coefficients):
        """True when S((X − R)/2^P) <= E_lo/2^P and S((X + R)/2^P) >= E_hi/2^P (both rounded against the claim)."""
        if X - R <= 0 or self.value(X - R, P, coefficients, +1)[0] > E_lo:
            return False
        return self.value(X + R, P, coefficients, -1)[0] >= E_hi

    def level(self, y, E, X, P):
        """(X̃, P′, R) with a proved bracket [X̃ − R, X̃ + R] over 2^{P′} of the root at level y, or None.

        E: (lo, hi) of 2^P·e^y.  A level short of bits (:meth:`short`) is redone with the shortfall and 16 more,
        its e^y enclosed directly; an unproved bracket is tried with 64 more bits, then 2^16 times wider.
        """
        widen = failures = 0
        for _ in range(8):
            coefficients = self.coefficients(P)
            X, S, D = self.approximate(X, (E[0] + E[1]) >> 1, P, coefficients)
            more = self.short(X, S, D, P)
            if more:
                more += 16
            else:
                R = (X >> (self.W + self.m.bit_length() + 2)) << widen
                if self.proved(X, R, E[0], E[1], P, coefficients):
                    return X, P, R
                failures += 1
                if failures == 3:
                    return None
                more, widen = (64, 0) if failures == 1 else (0, 16)
            if more:
                P += more
                X <<= more
                E = exp_fixed(y, P)
        return None

    def brackets(self, N, lo, hi, pointer):
        """:func:`brackets` by the polynomial route."""
        W, m = self.W, self.m
        P = self.margin + 8 + ceil(Fraction(3, 2) * max(0, Fraction(-lo, N)))
        grid = exp_grid(N, lo, hi, P)
        A0_lo, A0_hi, _ = self.coefficients(P)
        Q = self.logs.bits
        out, previous = [], []
        for i, E in zip(range(lo, hi + 1), grid):
            y = Fraction(i, N)
            if self.a0 > 0 and (E[1] <= A0_lo or (E[0] <= A0_hi and at_or_below(y, self.a0, pointer))):
                out.append(None)
                previous = []
                continue
            if len(previous) >= 2:
                X = max(1, previous[-1] * previous[-1] // previous[-2])
            elif previous:
                X = previous[-1]
            else:
                X = self.start(E[1], P, self.coefficients(P))
            found = self.level(y, E, X, P)
            if found is None:
                out.append(_newton_brackets(self.components(), N, i, i, W, pointer)[0])
                previous = []
                continue
            X, P_level, R = found
            L_lo, L_hi = self.logs.log(X - R, X + R, P_level)
            out.append(((m * L_lo) >> (Q - W), -((-m * L_hi) >> (Q - W))))
            previous = (previous + [X >> (P_level - P)])[-2:]
        return out

    def components(self):
        """[(d_k, a_k)] again, with d = 0 for a_0 (for the route of steps 1–3)."""
        zero = [(Fraction(0), self.a0)] if self.a0 > 0 else []
        return zero + [(d, a) for _, d, a, _ in self.terms]
