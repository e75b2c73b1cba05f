"""The standard normal upper tail ΦC(z) = P(N(0, 1) >= z), enclosed in integer fixed point.

Numbers are integers V standing for V/2^W (W the table's ``bits``); every
enclosure is a pair (lo, hi) with lo/2^W <= true value <= hi/2^W.  No floats.

1. The constant.  φ(z) = e^{−z²/2}/√(2π).  π comes from Machin's formula
   π = 16·atan(1/5) − 4·atan(1/239), atan(1/m) = Σ_k (−1)^k/((2k+1)m^{2k+1}):
   an alternating series with decreasing terms, so the truncation error is
   below the first omitted term; each term is floored (error < 1 unit).
   Then 1/√(2π) by integer square roots of the two ends (:func:`inv_sqrt_2pi`).

2. Taylor steps.  For a centre z0 and an offset t,
       φ(z0 + s) = φ(z0)·g(s),   g(s) = e^{−z0·s − s²/2} = Σ_n a_n s^n,
       ΦC(z0 + t) = ΦC(z0) − φ(z0)·Σ_n a_n t^{n+1}/(n + 1),
   with a_0 = 1, a_1 = −z0, (n + 1)·a_{n+1} = −(z0·a_n + a_{n−1}) (from
   g′ = −(z0 + s)·g).  For z0 = c·Δ, Δ = 2^−d, the integers
   A_n = a_n·n!·2^{dn} satisfy A_0 = 1, A_1 = −c,
   A_{n+1} = −(c·A_n + n·4^d·A_{n−1}) exactly.
   *Remainder.*  g is entire, so Cauchy's estimate on |s| = R gives
   |a_n| <= max_{|s|=R} |g(s)|/R^n <= e^{z0·R + R²/2}/R^n, and
   φ(z0)·e^{z0·R + R²/2} = e^{R² − (z0 − R)²/2}/√(2π) <= e^{R²}/√(2π).  Hence
   for |t| <= τ < R
       φ(z0)·Σ_{n>N} |a_n|·|t|^{n+1}/(n+1) <= (e^{R²}/√(2π))·τ·(τ/R)^{N+1}/(1 − τ/R);
   the table uses R = 2 and e^4/√(2π) < 22.

3. The table.  Centres c = 0, 1, ..., C (z0 = c/64).  ΦC(0) = 1/2 exactly;
   ΦC at the next centre is the step at t = Δ (the terms b_n·Δ^{n+1},
   b_n = φ(z0)·a_n/(n+1), each rounded outward, plus the remainder);
   φ at the centres by the positive recurrence e^{−(c+1)²Δ²/2} =
   e^{−c²Δ²/2}·w_c, w_c = e^{−Δ²/2}·(e^{−Δ²})^c, rounded outward (each step
   multiplies nonnegative bounds, which is monotone).  The guard bits cover
   the accumulation along the chain (errors add, a few units per centre).

4. Evaluation at a point z (dyadic, z >= 0): the nearest centre, t = z − z0
   with |t| <= τ = Δ/2, and Horner's scheme in fixed point with the centre's
   midpoint coefficients M_n (|M_n − 2^W·b_n| <= e_n).  Every floor in Horner
   errs by less than one unit and is multiplied by |t| <= 1/128 afterwards,
   so the scheme errs by at most 2 units; the coefficients by Σ e_n·τ^{n+1};
   the truncation by the remainder of step 2.  Their sum is the centre's
   radius.  For z < 0, ΦC(z) = 1 − ΦC(−z).  Beyond the last centre,
   0 <= ΦC(z) <= e^{−z²/2}/2 (Chernoff) is below one unit: C is chosen with
   (C/64)² >= 2·ln 2·(W + 1).

5. Intervals.  ΦC is decreasing with |ΦC′| = φ <= 1/√(2π) < 2/5.  An
   argument known as [z⁻, z⁺] is evaluated at its midpoint m and widened by
   (2/5)·(z⁺ − m) when that interval is narrow (then the slack stays below
   2^−(target + 4)), and at both ends otherwise.
"""

from fractions import Fraction
from math import isqrt

from auditor.enclosures import exp_bounds
from auditor.rationals import ceil, ceil_div, floor

__all__ = ["pi_bounds", "inv_sqrt_2pi", "TailTable", "CENTRE_BITS"]

CENTRE_BITS = 6
"""Centres are the multiples of Δ = 2^−CENTRE_BITS."""

_R = 2
_EXP_R2_OVER_SQRT_2PI = 22  # e^4/√(2π) = 21.78... < 22


def _atan_inverse(m, bits):
    """(lo, hi) integers with lo <= 2^bits·atan(1/m) <= hi, m >= 2 an integer."""
    one = 1 << bits
    total, k, count = 0, 0, 0
    power = m  # m^{2k+1}
    while True:
        term = one // ((2 * k + 1) * power)
        if term == 0:
            break
        total += -term if k % 2 else term
        count += 1
        k += 1
        power *= m * m
    # rounding: each floored term errs by < 1 unit; truncation: < first omitted term <= 1 unit
    return total - count - 1, total + count + 1


def pi_bounds(bits):
    """(lo, hi) integers with lo <= 2^bits·π <= hi (Machin's formula)."""
    extra = bits + 8
    a_lo, a_hi = _atan_inverse(5, extra)
    b_lo, b_hi = _atan_inverse(239, extra)
    lo, hi = 16 * a_lo - 4 * b_hi, 16 * a_hi - 4 * b_lo
    return lo >> 8, ceil_div(hi, 1 << 8)


def inv_sqrt_2pi(bits):
    """(lo, hi) integers with lo <= 2^bits/√(2π) <= hi.

    (2^bits/√(2π))² = 2^{2·bits}/(2π) lies between 2^{3·bits}/(2·Π⁺) and
    2^{3·bits}/(2·Π⁻) for Π⁻ <= 2^bits·π <= Π⁺; isqrt is the floor of the root.
    """
    p_lo, p_hi = pi_bounds(bits)
    big = 1 << (3 * bits)
    lo = isqrt(big // (2 * p_hi))
    hi = isqrt(ceil_div(big, 2 * p_lo)) + 1
    return lo, hi


def _fixed(x, bits, direction):
    """floor (−1) or ceil (+1) of x·2^bits for a Fraction x."""
    y = Fraction(x) * (1 << bits)
    return floor(y) if direction < 0 else ceil(y)


def _terms_for(bits, tau):
    """(N, remainder units): the least N with (e^{R²}/√(2π))·τ·(τ/R)^{N+1}/(1 − τ/R)·2^bits <= 1."""
    ratio = tau / _R
    scale = _EXP_R2_OVER_SQRT_2PI * tau / (1 - ratio) * (1 << bits)
    n, power = 0, ratio
    while scale * power > 1:
        n += 1
        power *= ratio
    return n, 1


def _last_centre(bits):
    """The least C with (C/64)² >= 1.4·(bits + 1) > 2·ln 2·(bits + 1): beyond C/64, ΦC < 2^−(bits+1)."""
    need = Fraction(14, 10) * (bits + 1)
    return isqrt(ceil_div(need.numerator << (2 * CENTRE_BITS), need.denominator)) + 1


class _Centre:
    """One centre: ΦC(z0) enclosure, midpoint coefficients for Horner, and the evaluation radius."""

    __slots__ = ("tail_lo", "tail_hi", "coefficients", "radius")

    def __init__(self, tail_lo, tail_hi, coefficients, radius):
        self.tail_lo, self.tail_hi = tail_lo, tail_hi
        self.coefficients, self.radius = coefficients, radius


class TailTable:
    """ΦC(z) with absolute error about 2^−``target``: centres built on demand, in fixed point of ``bits``.

    ``bits`` (>= target) is the table's own precision; every integer it takes
    or returns stands for that many fractional bits.
    """

    __slots__ = ("target", "bits", "last", "wide", "_centres", "_phi", "_w", "_omega", "_factor", "_next",
                 "_eval_terms", "_chain_terms", "_denominators", "_eval_rem", "_chain_rem")

    def __init__(self, target):
        self.target = target
        d = CENTRE_BITS
        guard = 2 * _last_centre(target + 64).bit_length() + 16
        self.bits = W = target + guard
        self.last = _last_centre(W)
        # an argument interval wider than this (units) is evaluated at both ends; a narrower one
        # at its midpoint, whose slope slack (2/5)·width stays 2^−(target + 4) or below
        self.wide = 1 << (guard - 4)
        self._eval_terms, self._eval_rem = _terms_for(W, Fraction(1, 1 << (d + 1)))
        self._chain_terms, self._chain_rem = _terms_for(W, Fraction(1, 1 << d))
        terms = max(self._eval_terms, self._chain_terms) + 1
        self._denominators = [1]  # (n+1)!·2^{dn}
        for n in range(1, terms + 1):
            self._denominators.append(self._denominators[-1] * (n + 1) << d)
        g = 1 << W  # e^{-c²Δ²/2} at c = 0
        rho = exp_bounds(Fraction(-1, 2 << (2 * d)), W + 16)
        omega = exp_bounds(Fraction(-1, 1 << (2 * d)), W + 16)
        self._omega = (_fixed(omega[0], W, -1), _fixed(omega[1], W, +1))
        self._w = [_fixed(rho[0], W, -1), _fixed(rho[1], W, +1)]
        self._phi = [g, g]
        self._factor = inv_sqrt_2pi(W)
        self._centres = []
        half = 1 << (W - 1)
        self._centres.append(self._make(0, half, half))

    # ---- building ----------------------------------------------------------------------

    def _phi_now(self):
        """(lo, hi) of 2^W·φ(z0) at the newest centre."""
        W = self.bits
        f_lo, f_hi = self._factor
        return (self._phi[0] * f_lo) >> W, ceil_div(self._phi[1] * f_hi, 1 << W)

    def _make(self, c, tail_lo, tail_hi):
        W, d = self.bits, CENTRE_BITS
        phi_lo, phi_hi = self._phi_now()
        terms = len(self._denominators)
        A = [1, -c]
        four_d = 1 << (2 * d)
        for n in range(1, terms - 1):
            A.append(-(c * A[n] + n * four_d * A[n - 1]))
        mids, errors, lows, highs = [], [], [], []
        s, w = phi_lo + phi_hi, phi_hi - phi_lo
        for n, a in enumerate(A):
            den = self._denominators[n]
            lo, hi = (phi_lo * a, phi_hi * a) if a >= 0 else (phi_hi * a, phi_lo * a)
            lows.append(lo // den)
            highs.append(ceil_div(hi, den))
            mids.append((s * a) // (2 * den))
            errors.append(ceil_div(w * abs(a), 2 * den) + 1)
        # trailing coefficients too small to matter at |t| <= τ are dropped into the radius
        e = self._eval_terms
        radius = 2 + self._eval_rem
        for n in range(e + 1):
            radius += (errors[n] >> ((d + 1) * (n + 1))) + 1
        keep = e + 1
        while keep > 1 and (abs(mids[keep - 1]) + errors[keep - 1]) >> ((d + 1) * keep) == 0:
            keep -= 1
            radius += 1
        centre = _Centre(tail_lo, tail_hi, mids[:keep][::-1], radius)
        # the step to the next centre, t = Δ: Σ b_n Δ^{n+1} rounded outward
        k = self._chain_terms
        step_lo = sum(lows[n] >> (d * (n + 1)) for n in range(k + 1)) - self._chain_rem
        step_hi = sum(-((-highs[n]) >> (d * (n + 1))) for n in range(k + 1)) + self._chain_rem
        centre_next = (tail_lo - step_hi, tail_hi - step_lo)
        # φ at the next centre
        o_lo, o_hi = self._omega
        self._phi = [(self._phi[0] * self._w[0]) >> W, ceil_div(self._phi[1] * self._w[1], 1 << W)]
        self._w = [(self._w[0] * o_lo) >> W, ceil_div(self._w[1] * o_hi, 1 << W)]
        self._next = centre_next
        return centre

    def _centre(self, c):
        centres = self._centres
        while len(centres) <= c:
            lo, hi = self._next
            centres.append(self._make(len(centres), max(lo, 0), hi))
        return centres[c]

    # ---- evaluation ----------------------------------------------------------------------

    def _nonnegative(self, Z):
        """(lo, hi) of 2^W·ΦC(Z/2^W) for an integer Z >= 0."""
        W, d = self.bits, CENTRE_BITS
        shift = W - d
        c = (Z + (1 << (shift - 1))) >> shift
        if c > self.last:
            return 0, 1
        centre = self._centre(c)
        t = Z - (c << shift)
        h = 0
        for m in centre.coefficients:
            h = m + ((h * t) >> W)
        v = (h * t) >> W
        return max(0, centre.tail_lo - v - centre.radius), min(1 << W, centre.tail_hi - v + centre.radius)

    def at_point(self, Z):
        """(lo, hi) of 2^W·ΦC(Z/2^W) for an integer Z."""
        if Z >= 0:
            return self._nonnegative(Z)
        lo, hi = self._nonnegative(-Z)
        one = 1 << self.bits
        return one - hi, one - lo

    def at(self, Z_lo, Z_hi):
        """(lo, hi) of 2^W·ΦC(z) for every z in [Z_lo, Z_hi]/2^W (a decreasing function)."""
        return self.many([(Z_lo, Z_hi)])[0]

    def many(self, intervals):
        """[(lo, hi)] of 2^W·ΦC over each argument interval [Z_lo, Z_hi] (integers over 2^W).

        The loop of :meth:`at_point`, inlined for speed: midpoint and slope
        slack (2/5)·(Z_hi − m) for a narrow interval, both ends for a wide one.
        """
        W, shift = self.bits, self.bits - CENTRE_BITS
        half, one, last, wide = 1 << (shift - 1), 1 << W, self.last, self.wide
        centres, get = self._centres, self._centre
        out = []
        for Z_lo, Z_hi in intervals:
            if Z_hi - Z_lo > wide:
                out.append((self.at_point(Z_hi)[0], self.at_point(Z_lo)[1]))
                continue
            m = (Z_lo + Z_hi) >> 1
            slack = (2 * (Z_hi - m) + 4) // 5 + 1
            Z = m if m >= 0 else -m
            c = (Z + half) >> shift
            if c > last:
                lo, hi = 0, 1
            else:
                centre = centres[c] if c < len(centres) else get(c)
                t = Z - (c << shift)
                h = 0
                for coefficient in centre.coefficients:
                    h = coefficient + ((h * t) >> W)
                v = (h * t) >> W
                lo, hi = centre.tail_lo - v - centre.radius, centre.tail_hi - v + centre.radius
            if m < 0:
                lo, hi = one - hi, one - lo
            lo -= slack
            hi += slack
            out.append((lo if lo > 0 else 0, hi if hi < one else one))
        return out
