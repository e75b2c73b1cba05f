"""The discrete-Gaussian kernel, its tail and its normaliser.

Kernel f(n) = exp(−n²/(2σ²)); normaliser Z = Σ_{n∈ℤ} f(n) = 1 + 2·Σ_{n>=1} f(n).

Geometric tail bound: for n >= m >= 1, f(n+1)/f(n) = exp(−(2n+1)/(2σ²)) <=
r_m := exp(−(2m+1)/(2σ²)) < 1, hence Σ_{n>=m} f(n) <= f(m)/(1 − r_m).

Normaliser: summing n = 1..N and bounding the rest by the tail bound gives
    Z⁻ = 1 + 2·Σ_{n<=N} f⁻(n)  <=  Z  <=  1 + 2·(Σ_{n<=N} f⁺(n) + f⁺(N+1)/(1 − r⁺_{N+1})) = Z⁺.
"""

from fractions import Fraction
from math import isqrt

from auditor.enclosures.exponential import exp_bounds
from auditor.rationals import floor


def kernel_bounds(n, sigma2, bits=128):
    """(lo, hi) around f(n) = exp(−n²/(2σ²))."""
    return exp_bounds(Fraction(-n * n) / (2 * Fraction(sigma2)), bits)


def kernel_tail_upper(first, sigma2, bits=128):
    """An upper bound of Σ_{n >= first} f(n), first >= 1 (geometric tail bound)."""
    sigma2 = Fraction(sigma2)
    _, f_hi = kernel_bounds(first, sigma2, bits)
    _, r_hi = exp_bounds(Fraction(-(2 * first + 1)) / (2 * sigma2), bits)
    if r_hi >= 1:
        raise ArithmeticError("tail ratio bound is not below one; raise the precision")
    return f_hi / (1 - r_hi)


def summation_length(sigma2, bits):
    """N with (N+1)²/(2σ²) >= 0.7·(bits + 8 + log2 σ²): the neglected tail is below 2^-bits."""
    sigma2 = Fraction(sigma2)
    need = 2 * sigma2 * Fraction(7, 10) * (bits + 8 + max(1, sigma2.numerator.bit_length()))
    return isqrt(floor(need) + 1) + 1


def normaliser_bounds(sigma2, bits=128):
    """(Z⁻, Z⁺) with Z⁻ <= Z <= Z⁺."""
    sigma2 = Fraction(sigma2)
    N = summation_length(sigma2, bits)
    lo = hi = Fraction(0)
    for n in range(1, N + 1):
        f_lo, f_hi = kernel_bounds(n, sigma2, bits)
        lo += f_lo
        hi += f_hi
    hi += kernel_tail_upper(N + 1, sigma2, bits)
    return 1 + 2 * lo, 1 + 2 * hi
