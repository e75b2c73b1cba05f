"""Limits of the enclosure claims, refused (UNCHECKED) before the enclosures are computed.

The three-way claims of :mod:`auditor.decide` evaluate e^x, the discrete-Gaussian
kernel f(n) = exp(−n²/(2σ²)) and the normaliser Z = Σ_n f(n) at a precision set by
the sizes of the certificate's rationals, then at RETRY_FACTOR times it.  Their
cost is unbounded in the certificate's numbers (e^x has about 1.44|x| bits; Z sums
about σ·sqrt(bits) terms), so a kind using them first refuses, with the limits of
``dg-interval/1`` (stated here; ``auditor/checks/dg_interval.py`` uses the same):

- every exponent |x| <= MAX_EXP_ARGUMENT: ε of a threshold, L²/(2σ²) at the
  source radius, (N + 1)²/(2σ²) at the end of the normaliser sum;
- working precision, retry included, <= MAX_BITS;
- at most MAX_TERMS normaliser terms; atoms × bits, retry included, <= MAX_SOURCE_WORK;
- σ² with a numerator and a denominator of at most
  :data:`auditor.common.MAX_PARAMETER_BITS` bits: every
  kernel enclosure divides by 2σ², so its digits enter every Taylor term.
"""

from fractions import Fraction

from auditor.common import magnitude, refuse_size
from auditor.decide import RETRY_FACTOR, exp_bits, source_bits
from auditor.enclosures.gaussian import summation_length
from auditor.outcomes import Unchecked
from auditor.rationals import floor

# Largest |x| of an e^x the checks evaluate: e^x then has about 1.44|x| bits.
MAX_EXP_ARGUMENT = 50_000
# Largest working precision (bits) of an enclosure check, retries included.
MAX_BITS = 1 << 14
# Largest atoms x bits (retry included) of the source check: one kernel enclosure per atom.
MAX_SOURCE_WORK = 4_000_000
# Largest number of kernel terms summed for the normaliser enclosure.
MAX_TERMS = 20_000

__all__ = ["refuse_exponent", "refuse_bits", "refuse_dg_source", "refuse_kernels", "refuse_normaliser",
           "refuse_threshold", "refuse_size"]


def refuse_exponent(x, pointer, what):
    """UNCHECKED when |x| > MAX_EXP_ARGUMENT (an e^x of more than about 72,000 bits)."""
    x = abs(Fraction(x))
    if x > MAX_EXP_ARGUMENT:
        raise Unchecked(pointer, magnitude(floor(x)), MAX_EXP_ARGUMENT, f"exponent of {what}")


def refuse_bits(bits, pointer):
    """UNCHECKED when ``bits`` retried at RETRY_FACTOR times exceeds MAX_BITS."""
    if bits * RETRY_FACTOR > MAX_BITS:
        raise Unchecked(pointer, bits * RETRY_FACTOR, MAX_BITS, "working precision in bits")


def refuse_dg_source(sigma2, radius, scale, n_weights, sigma2_pointer, source_pointer):
    """The limits of :func:`auditor.decide.source_states` on a source of radius L and scale S."""
    refuse_size(sigma2, sigma2_pointer)
    bits = source_bits(scale)
    refuse_exponent(Fraction(radius * radius) / (2 * sigma2), source_pointer + "/radius", "the kernel at the radius")
    refuse_bits(bits, source_pointer + "/scale")
    _refuse_work(n_weights, bits, source_pointer + "/weights")
    refuse_normaliser(sigma2, bits, sigma2_pointer)


def refuse_kernels(sigma2, radius, count, bits, sigma2_pointer, pointer):
    """The limits of ``count`` kernel enclosures up to |n| = radius and of the normaliser, at ``bits``
    and its retry (every refusal but the normaliser's at ``pointer``)."""
    refuse_size(sigma2, sigma2_pointer)
    refuse_exponent(Fraction(radius * radius) / (2 * sigma2), pointer, "the kernel at the largest |n|")
    refuse_bits(bits, pointer)
    _refuse_work(count, bits, pointer)
    refuse_normaliser(sigma2, bits, sigma2_pointer)


def refuse_normaliser(sigma2, bits, pointer):
    """At most MAX_TERMS terms of Z at RETRY_FACTOR·bits, and the last kernel's exponent within the limit."""
    refuse_size(sigma2, pointer)
    terms = summation_length(sigma2, bits * RETRY_FACTOR)
    if terms > MAX_TERMS:
        raise Unchecked(pointer, terms, MAX_TERMS, "normaliser terms")
    refuse_exponent(Fraction((terms + 1) ** 2) / (2 * sigma2), pointer, "the kernel at the end of the normaliser sum")


def _refuse_work(count, bits, pointer):
    if count * bits * RETRY_FACTOR > MAX_SOURCE_WORK:
        raise Unchecked(pointer, count * bits * RETRY_FACTOR, MAX_SOURCE_WORK, "kernel enclosure work (atoms x bits)")


def refuse_threshold(epsilon, sides, epsilon_pointer, threshold_pointer):
    """The limits of :func:`auditor.decide.exp_states` on e^ε against the rationals ``sides``."""
    refuse_exponent(epsilon, epsilon_pointer, "e^epsilon")
    refuse_bits(exp_bits(sides), threshold_pointer)
