"""δ(ε) of a Gaussian-only schedule in closed form, enclosed (the ``gaussian`` route).

Every stage has q = 1, so the composed privacy loss of either order is
N(μ²/2, μ²) with μ² = Σ_s T_s/σ_s², and ("Gaussian Differential Privacy",
Dong, Roth, Su 2022, Corollary 2.13)

    δ(ε) = ΦC(a) − e^ε·ΦC(b),    a = (2ε − μ²)/(2μ),  b = (2ε + μ²)/(2μ) = a + μ.

1. μ = √(μ²) by integer square roots; a is decreasing in μ (ε >= 0), b is
   bounded end by end; a² and b² are rational exactly ((2ε ∓ μ²)²/(4μ²)).
2. ΦC(a) from the auditor's table (:class:`auditor.pld.tails.TailTable`),
   absolute error 2^−bits.
3. e^ε·ΦC(b): note e^ε·φ(b) = φ(a), since ε − b²/2 = −a²/2.  For
   b² < 1.4·(bits + 24), e^ε·ΦC(b) from the table at bits + 1.45·ε + 8 bits
   (b >= √(2ε) keeps ε below 0.7·(bits + 24) there); beyond, e^ε·ΦC(b) = φ(a)·M(b) with
   the Mills ratio M = ΦC/φ bracketed by its asymptotic series:
   with I_m(z) = ∫_z^∞ u^{−m}·e^{−u²/2} du, integration by parts of
   u^{−m−1}·(u·e^{−u²/2}) gives I_m = z^{−m−1}·e^{−z²/2} − (m + 1)·I_{m+2},
   and 0 <= I_m <= z^{−m−1}·e^{−z²/2} (u^{−m−1} <= z^{−m−1} on [z, ∞)).  So
       M(z) = e^{z²/2}·I_0(z) = Σ_{k<n} (−1)^k (2k − 1)!!/z^{2k+1} + (−1)^n·(2n − 1)!!·θ/z^{2n+1},
   θ ∈ [0, 1]: partial sums ending with an even number of terms are lower
   bounds, with an odd number upper bounds.  M is decreasing, so the ends of
   b's enclosure give M's.
4. δ(ε) ∈ [ΦC(a)⁻ − (e^ε ΦC(b))⁺, ΦC(a)⁺ − (e^ε ΦC(b))⁻], clamped to [0, 1].
"""

from fractions import Fraction
from math import isqrt

from auditor.enclosures import exp_bounds
from auditor.pld.tails import TailTable, inv_sqrt_2pi
from auditor.rationals import ceil, floor

__all__ = ["delta_bounds", "mills_bounds"]


def mills_bounds(z, terms):
    """(lo, hi) Fractions around M(z) = ΦC(z)/φ(z) for a rational z > 0, from ``terms`` >= 1 terms."""
    z = Fraction(z)
    z2 = z * z
    term = 1 / z
    partial = [Fraction(0)]
    for k in range(terms + 1):
        partial.append(partial[-1] + (term if k % 2 == 0 else -term))
        term = term * (2 * k + 1) / z2
    a, b = partial[terms], partial[terms + 1]   # n = terms and terms + 1: one of each parity
    return min(a, b), max(a, b)


def _mills_terms(z, bits):
    """Terms n (<= z²/2, where the series' terms stop decreasing) for relative accuracy about 2^−bits."""
    z2 = z * z
    term, n = Fraction(1), 0
    while term > Fraction(1, 1 << bits) and 2 * (n + 1) <= z2 and n < 10 * bits:
        term = term * (2 * n + 1) / z2
        n += 1
    return max(n, 1)


def _sqrt_bounds(x, W):
    """(lo, hi) integers with lo <= 2^W·√x <= hi for a Fraction x >= 0."""
    y = x * (1 << (2 * W))
    return isqrt(floor(y)), isqrt(ceil(y)) + 1


def delta_bounds(mu2, epsilon, bits):
    """(lo, hi) Fractions with lo <= δ(ε) <= hi, absolute error about 2^−bits (μ² > 0, ε >= 0)."""
    mu2, epsilon = Fraction(mu2), Fraction(epsilon)
    boost = ceil(epsilon * Fraction(145, 100)) + 8      # e^ε < 2^boost
    W_mu = bits + boost + 96
    m_lo, m_hi = _sqrt_bounds(mu2, W_mu)
    mu_lo, mu_hi = Fraction(m_lo, 1 << W_mu), Fraction(m_hi, 1 << W_mu)
    a_lo, a_hi = epsilon / mu_hi - mu_hi / 2, epsilon / mu_lo - mu_lo / 2
    b_lo, b_hi = epsilon / mu_hi + mu_lo / 2, epsilon / mu_lo + mu_hi / 2
    # beyond √(1.4·(bits + 24)) the asymptotic series reaches relative 2^−(bits+16); below it
    # ε <= b²/2 < 0.7·(bits + 24), so the table needs at most bits + boost bits
    asymptotic = b_lo * b_lo >= Fraction(14, 10) * (bits + 24)
    table = TailTable(bits + 8 if asymptotic else bits + boost)
    W = table.bits
    unit = Fraction(1, 1 << W)
    t1_lo, t1_hi = table.at(floor(a_lo * (1 << W)), ceil(a_hi * (1 << W)))
    first = (t1_lo * unit, t1_hi * unit)
    if asymptotic:
        second = _phi_mills(mu2, epsilon, b_lo, b_hi, bits)
    else:
        t2_lo, t2_hi = table.at(floor(b_lo * (1 << W)), ceil(b_hi * (1 << W)))
        e_lo, e_hi = exp_bounds(epsilon, W + 16)
        second = (e_lo * t2_lo * unit, e_hi * t2_hi * unit)
    lo, hi = first[0] - second[1], first[1] - second[0]
    return max(Fraction(0), lo), min(Fraction(1), hi)


def _phi_mills(mu2, epsilon, b_lo, b_hi, bits):
    """(lo, hi) around e^ε·ΦC(b) = φ(a)·M(b), b in [b_lo, b_hi] beyond the table (b_lo > 0)."""
    half_a2 = (2 * epsilon - mu2) ** 2 / (8 * mu2)     # a²/2
    if half_a2 > Fraction(7, 10) * (bits + 16):          # φ(a) < e^{−a²/2} < 2^{−bits−16}, M(b) < 1/b < 1
        return Fraction(0), Fraction(1, 1 << (bits + 16))
    g_lo, g_hi = exp_bounds(-half_a2, bits + 32)
    c_lo, c_hi = inv_sqrt_2pi(bits + 32)
    scale = Fraction(1, 1 << (bits + 32))
    m_lo = mills_bounds(b_hi, _mills_terms(b_hi, bits + 16))[0]
    m_hi = mills_bounds(b_lo, _mills_terms(b_lo, bits + 16))[1]
    return g_lo * c_lo * scale * m_lo, g_hi * c_hi * scale * m_hi
