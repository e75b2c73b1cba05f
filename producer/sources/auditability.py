"""The auditor's documented limits on a dg-interval source, checked before any work.

A certificate nobody can check is worthless, so the producer refuses a source
that the auditor would answer UNCHECKED.  The limits restated here are the ones
docs/certificates.md documents for ``dg-interval/1`` (and so for the
calibrations built from it); a test (tests/producer/test_auditability.py)
checks that certificates at the edge of these limits do verify.

With b = bits(S) + 64 (+ log2 t + 2 for the discrete Laplace) the auditor's
working precision, retried once at 4b:

- 4b <= 16,384 bits;
- atoms × 4b <= 4·10⁶, with 2L + 1 atoms;
- every exponent <= 50,000: the kernel at the radius (L²/(2σ²), or L/t);
- discrete Gaussian: the normaliser sum to N, the least N with
  (N+1)² >= 2σ²·(7/10)·(4b + 8 + bits(num σ²)), has N <= 20,000 terms (its
  last exponent (N+1)²/(2σ²), about 0.7·4b, is then far below 50,000).
"""

from gmpy2 import isqrt, mpq, mpz

from producer.errors import LimitError
from producer.rationals import format_rational

MAX_EXPONENT = 50_000
MAX_BITS = 1 << 14
MAX_SOURCE_WORK = 4_000_000
MAX_TERMS = 20_000
RETRY = 4

__all__ = ["check_auditable_source", "check_edge_radius", "auditor_precision"]


def auditor_precision(scale, t=None):
    """b: the auditor's starting precision for a source at scale S (law scale t if Laplace)."""
    bits = int(mpz(scale).bit_length()) + 64
    if t is not None:
        t = mpq(t)
        bits += int(t.numerator // t.denominator).bit_length() + 2
    return bits


def normaliser_terms(sigma2, bits):
    """N: the number of kernel terms the auditor sums for Z at ``bits`` bits."""
    sigma2 = mpq(sigma2)
    need = 2 * sigma2 * mpq(7, 10) * (bits + 8 + max(1, int(sigma2.numerator).bit_length()))
    return int(isqrt(int(need.numerator // need.denominator) + 1)) + 1


def check_edge_radius(radius, sigma2):
    """An explicit discrete-Gaussian radius L, refused (naming the largest L that works) when the outermost
    atom exp(−L²/(2σ²)) is below e^-MAX_EXPONENT, the auditor's limit on exponents; returns L.

    Such atoms are 0 at every allowed scale anyway; the message is clearer than the source check's.
    """
    sigma2 = mpq(sigma2)
    if sigma2 > 0 and radius > 0 and radius * radius > 2 * sigma2 * MAX_EXPONENT:
        largest = isqrt(int(2 * sigma2 * MAX_EXPONENT))
        raise LimitError(f"radius: L = {mpz(radius)} is too large for σ² = {format_rational(sigma2)}: atoms beyond "
                         f"L = {largest} are below e^-{MAX_EXPONENT}, the auditor's limit on exponents")
    return radius


def check_auditable_source(radius, scale, sigma2=None, t=None):
    """LimitError (one line, naming the value and the limit) if the auditor would refuse the source."""
    bits = RETRY * auditor_precision(scale, t)
    if bits > MAX_BITS:
        raise LimitError(f"scale: S has {int(mpz(scale).bit_length())} bits; the auditor checks a source at "
                         f"{bits} bits of precision, above its limit {MAX_BITS} (use a smaller scale)")
    if (2 * radius + 1) * bits > MAX_SOURCE_WORK:
        raise LimitError(f"radius: {2 * radius + 1} atoms at {bits} bits exceed the auditor's source-check "
                         f"limit {MAX_SOURCE_WORK} (atoms x bits)", "use a smaller radius or scale")
    exponent = mpq(radius) / t if sigma2 is None else mpq(radius * radius) / (2 * mpq(sigma2))
    if exponent > MAX_EXPONENT:
        raise LimitError(f"radius: L = {radius} puts the kernel exponent {int(exponent)} in the source "
                         f"check, above the auditor's limit {MAX_EXPONENT}", "use a smaller radius")
    if sigma2 is not None and normaliser_terms(sigma2, bits) > MAX_TERMS:
        raise LimitError(f"sigma2: σ² = {sigma2} at {bits} bits needs {normaliser_terms(sigma2, bits)} "
                         f"normaliser terms in the auditor, above its limit {MAX_TERMS}; "
                         f"use a smaller σ² or scale")
