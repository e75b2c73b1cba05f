"""The discrete Laplace law L_t(n) = r^{|n|}·(1 − r)/(1 + r), r = e^{−1/t} (t > 0 rational).

Closed-form normaliser (docs/plain-composition.md §2.1): Σ_n r^{|n|} =
1 + 2r/(1 − r) = (1 + r)/(1 − r), so no series is summed.  Every bound comes
from :func:`auditor.enclosures.exponential.exp_bounds` (rational Taylor
bounds) and monotonicity:

- the mass at the centre, c(r) = (1 − r)/(1 + r), decreases in r, so
  c(r⁺) <= L_t(0) <= c(r⁻) for an enclosure r⁻ <= r <= r⁺ (0 < r⁻, r⁺ < 1);
- an atom, L_t(n) = e^{−|n|/t}·c(r), lies in
  [e⁻(−|n|/t)·c(r⁺), e⁺(−|n|/t)·c(r⁻)] with e^{−|n|/t} enclosed directly
  (relative accuracy independent of n, unlike a power of r⁻);
- the tail beyond radius L, 2r^{L+1}/(1 + r): each factor bounded on its own
  (r^{L+1} = e^{−(L+1)/t} enclosed directly, 1/(1 + r) decreasing in r).

Every function returns Fractions (lo, hi) with lo <= true value <= hi.
"""

from fractions import Fraction

from auditor.enclosures.exponential import exp_bounds
from auditor.rationals import floor


def extra_bits(t):
    """Bits lost to cancellation in 1 − r ≈ 1/t (for large t): about log2(t) + 2."""
    t = Fraction(t)
    return max(0, floor(t).bit_length()) + 2


def ratio_bounds(t, bits=128):
    """(r⁻, r⁺) around r = e^{−1/t}, with 0 < r⁻ <= r⁺ < 1 (ArithmeticError if not)."""
    t = Fraction(t)
    if t <= 0:
        raise ValueError(f"the discrete-Laplace scale must be positive, got {t}")
    lo, hi = exp_bounds(-1 / t, bits + extra_bits(t))
    if not 0 < lo <= hi < 1:
        raise ArithmeticError("the ratio enclosure is not inside (0, 1); raise the precision")
    return lo, hi


def centre_bounds(t, bits=128):
    """(lo, hi) around L_t(0) = (1 − r)/(1 + r) (decreasing in r)."""
    r_lo, r_hi = ratio_bounds(t, bits)
    return (1 - r_hi) / (1 + r_hi), (1 - r_lo) / (1 + r_lo)


def atom_bounds(n, t, bits=128, centre=None):
    """(lo, hi) around L_t(n) = e^{−|n|/t}·(1 − r)/(1 + r).

    ``centre`` may pass a precomputed :func:`centre_bounds` at the same precision.
    """
    c_lo, c_hi = centre if centre is not None else centre_bounds(t, bits)
    if n == 0:
        return c_lo, c_hi
    k_lo, k_hi = exp_bounds(Fraction(-abs(n)) / Fraction(t), bits)
    return k_lo * c_lo, k_hi * c_hi


def tail_bounds(L, t, bits=128):
    """(lo, hi) around Σ_{|n|>L} L_t(n) = 2r^{L+1}/(1 + r)."""
    r_lo, r_hi = ratio_bounds(t, bits)
    p_lo, p_hi = exp_bounds(Fraction(-(L + 1)) / Fraction(t), bits)
    return 2 * p_lo / (1 + r_hi), 2 * p_hi / (1 + r_lo)
