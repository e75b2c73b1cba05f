"""The KL rewards g(k, d, j) = D_KL(K_k ‖ K_{k−d}(· − j)), enclosed by the auditor's own route.

Rows.  With a·k = B·m + ρ (0 <= ρ < B), the hidden draw gives
floor((a·k + u)/B) = m for B − ρ values of u and m + 1 for the other ρ, so

    K_k(y) = A_ρ(y + m)/(B·Z),    A_ρ(n) = (B − ρ)·e_n + ρ·e_{n+1},    e_n = exp(−n²/(2σ²)),

Z = Σ_n e_n.  KL is invariant under a common shift of both laws, so with
a·(k − d) = B·m' + ρ' and δ = m' − m − j,

    g(k, d, j) = Σ_y A_ρ(y)/(B·Z) · ℓ(y),    ℓ(y) = log A_ρ(y) − log A_ρ'(y + δ)

(δ ∈ [−2, 2]: 0 < a < B makes m' − m ∈ {−1, 0} for d = 1 and {0, 1} for d = −1).

Logarithms.  For n >= 0, A_ρ(n) = B·e_n·x_ρ(n) with x_ρ(n) = 1 − (ρ/B)(1 − t_n),
t_n = e_{n+1}/e_n = exp(−(2n + 1)/(2σ²)); for n <= −1 (ρ > 0) the mirror e_n = e_{−n}
gives A_ρ(n) = A_{B−ρ}(−n − 1); A_0(n) = B·e_n for every n.  So log A_ρ(n) =
log B − s²/(2σ²) + λ with (s, λ) = (n, log x_ρ(n)), (n + 1, log x_{B−ρ}(−n − 1)) or
(n, 0): the log B cancel in ℓ, the quadratic parts are exact rationals, and only
λ_ρ(n) = log x_ρ(n), x ∈ (1/B, 1], for n >= 0 is a transcendental (one
:class:`auditor.resource.fixed.FixedLog` value each).

Tail.  For |y| >= Y + 1, with the offsets O = {0, 1, δ, δ + 1} (those of
positive multiplicity), D = diam O, o* = max |o|, m0 = Y + 1 − o* >= 1 and
q = exp(−m0/σ²) (resource-laws.md §2):

    |Σ_{|y|>Y} K(y)·ℓ(y)| <= (2D/σ²)·exp(−m0²/(2σ²))·[(m0 + 2o*)/(1 − q) + q/(1 − q)²],

since every ratio e_{y+o}/e_{y+o'} lies within exp(±D(|y| + o*)/σ²) (so does
the ratio of the two sums of B terms each), K(y) <= exp(−(|y| − o*)²/(2σ²))
(Z >= 1), and m² − m0² >= 2·m0·(m − m0) turns both sides into geometric series.

Everything else is exact integer arithmetic at P fractional bits, rounded
outward (:mod:`auditor.resource.fixed`); the result is an interval [lo, hi]
of Fractions with lo <= g <= hi, clipped to [0, R] (KL >= 0; g <= R = 2/σ² is
the hidden-row shift bound of the paper, docs/trusted-base.md §11).
"""

from fractions import Fraction
from math import isqrt

from auditor.enclosures.exponential import exp_bounds
from auditor.enclosures.gaussian import kernel_tail_upper
from auditor.rationals import ceil_div, floor
from auditor.resource.fixed import FixedLog, ceil_fixed, floor_fixed, progression

__all__ = ["offsets", "reward_key", "tail_length", "RewardEnclosures"]

LN2_UPPER = Fraction(6932, 10000)  # > log 2 = 0.69314...


def reward_key(a, B, k, d, j):
    """(ρ, ρ', δ): the two phases and the relative shift that determine g(k, d, j)."""
    m, rho = divmod(a * k, B)
    m2, rho2 = divmod(a * (k - d), B)
    return rho, rho2, m2 - m - j


def offsets(key):
    """The offsets of positive multiplicity of both rows, relative to the P row: {0, 1?, δ, δ + 1?}."""
    rho, rho2, delta = key
    found = {0, delta}
    if rho:
        found.add(1)
    if rho2:
        found.add(delta + 1)
    return found


def _tail_upper(D, ostar, Y, sigma2, bits):
    """The tail bound above for the sum beyond |y| > Y (a Fraction >= the true tail)."""
    if D == 0:
        return Fraction(0)
    m0 = Y + 1 - ostar
    _, gauss = exp_bounds(Fraction(-m0 * m0) / (2 * sigma2), bits)
    _, q = exp_bounds(Fraction(-m0) / sigma2, bits)
    if q >= 1:
        raise ArithmeticError("tail ratio bound not below one")
    return 2 * D / sigma2 * gauss * ((m0 + 2 * ostar) / (1 - q) + q / (1 - q) ** 2)


def tail_length(sigma2, bits):
    """Y with the tail bound (D = o* = 3, the largest) at most 2^-(bits + 2); from a formula, then confirmed."""
    sigma2 = Fraction(sigma2)
    need = 2 * sigma2 * LN2_UPPER * (bits + 16)
    m0 = isqrt(floor(need)) + 2
    target = Fraction(1, 1 << (bits + 2))
    while _tail_upper(3, 3, m0 + 2, sigma2, 64) > target:
        m0 += max(1, m0 // 16)
    return m0 + 2


class RewardEnclosures:
    """Enclosures of g(k, d, j) for one (a, B, σ²) at absolute accuracy about 2^-bits.

    ``keys`` are the (k, d, j) to enclose; the tables (e_n, t_n, λ_ρ(n)) are
    built once for all of them.
    """

    __slots__ = ("a", "B", "sigma2", "bits", "Y", "P", "_E", "_lam", "_log", "_Z", "_tails", "_quad")

    def __init__(self, a, B, sigma2, bits, phases):
        self.a, self.B, self.sigma2, self.bits = a, B, Fraction(sigma2), bits
        self.Y = Y = tail_length(self.sigma2, bits)
        R = 2 / self.sigma2
        self.P = P = bits + 2 * (Y + 5).bit_length() + B.bit_length() + (R * (Y + 5)).__ceil__().bit_length() + 12
        s2 = self.sigma2
        t0 = [f(exp_bounds(-1 / (2 * s2), P + 16)[i], P) for i, f in ((0, floor_fixed), (1, ceil_fixed))]
        q = [f(exp_bounds(-1 / s2, P + 16)[i], P) for i, f in ((0, floor_fixed), (1, ceil_fixed))]
        T = progression(t0, q, Y + 4, P)  # t_0 .. t_{Y+3}
        one = 1 << P
        E = [(one, one)]
        for t_lo, t_hi in T:  # e_{n+1} = e_n·t_n
            e_lo, e_hi = E[-1]
            E.append(((e_lo * t_lo) >> P, ceil_div(e_hi * t_hi, one)))
        self._E = E  # e_0 .. e_{Y+4}
        tail_z = kernel_tail_upper(len(E), s2, P + 8)
        z_lo = 1 + 2 * Fraction(sum(e for e, _ in E[1:]), one)
        z_hi = 1 + 2 * (Fraction(sum(e for _, e in E[1:]), one) + tail_z)
        self._Z = (z_lo, z_hi)
        self._log = FixedLog(P)
        self._lam = {}
        for rho in sorted({r for p in phases if p for r in (p, B - p)}):
            self._lam[rho] = [self._lambda(rho, T[n]) for n in range(Y + 3)]
        self._tails = {}
        # 1/(2σ²) = den/(2·num): the quadratic part c/(2σ²) of ℓ, rounded outward
        self._quad = (s2.denominator, 2 * s2.numerator)

    def _lambda(self, rho, t):
        """(lo, hi) of log x_ρ(n) = log((B − ρ + ρ·t_n)/B), as integers over 2^P."""
        B, P = self.B, self.P
        base = (B - rho) << P
        x_lo = (base + rho * t[0]) // B
        x_hi = ceil_div(base + rho * t[1], B)
        return self._log.lower(x_lo), self._log.upper(x_hi)

    def _side(self, rho, n):
        """(s, (λ⁻, λ⁺)) with log A_ρ(n) = log B − s²/(2σ²) + λ."""
        if rho == 0:
            return n, (0, 0)
        if n >= 0:
            return n, self._lam[rho][n]
        return n + 1, self._lam[self.B - rho][-n - 1]

    def _tail(self, key):
        found = offsets(key)
        D, ostar = max(found) - min(found), max(abs(o) for o in found)
        cached = self._tails.get((D, ostar))
        if cached is None:
            cached = self._tails[(D, ostar)] = _tail_upper(D, ostar, self.Y, self.sigma2, self.bits + 8)
        return cached

    def enclose(self, k, d, j):
        """(lo, hi) Fractions with lo <= g(k, d, j) <= hi."""
        if d == 0 and j == 0:
            return Fraction(0), Fraction(0)
        key = reward_key(self.a, self.B, k, d, j)
        rho, rho2, delta = key
        B, P, E, Y = self.B, self.P, self._E, self.Y
        num, den = self._quad
        s_lo = s_hi = 0
        for y in range(-Y, Y + 1):
            e0, e1 = E[abs(y)], E[abs(y + 1)]
            w_lo = (B - rho) * e0[0] + rho * e1[0]
            w_hi = (B - rho) * e0[1] + rho * e1[1]
            sp, (lp_lo, lp_hi) = self._side(rho, y)
            sq, (lq_lo, lq_hi) = self._side(rho2, y + delta)
            c = (sq * sq - sp * sp) * num
            l_lo = ((c << P) // den) + lp_lo - lq_hi
            l_hi = ceil_div(c << P, den) + lp_hi - lq_lo
            s_lo += (w_hi if l_lo < 0 else w_lo) * l_lo
            s_hi += (w_hi if l_hi > 0 else w_lo) * l_hi
        z_lo, z_hi = self._Z
        scale = B << (2 * P)
        lo = Fraction(s_lo, scale) / (z_hi if s_lo >= 0 else z_lo)
        hi = Fraction(s_hi, scale) / (z_lo if s_hi >= 0 else z_hi)
        tail = self._tail(key)
        R = 2 / self.sigma2
        return max(Fraction(0), lo - tail), min(R, hi + tail)
