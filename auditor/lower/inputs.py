"""Reading request fields of lower certificates; values outside the domain are malformed.

A certificate whose request is outside the mathematical domain (γ not a
reduced a/B with 0 < a < B, σ² <= 0, a deadline shorter than the suffix, ...)
claims nothing that could be checked, so it is *malformed* (exit 2).
"""

from math import gcd

from auditor.certificate import Malformed
from auditor.common import refuse_gamma_size
from auditor.rationals import read_rational


def gamma(text, pointer):
    """(a, B) of γ = a/B, reduced with 0 < a < B; UNCHECKED when B has more than
    :data:`auditor.common.MAX_GAMMA_BITS` bits."""
    value = read_rational(text, pointer)
    a, B = value.numerator, value.denominator
    if not (0 < a < B and gcd(a, B) == 1):
        raise Malformed(f"{pointer}: gamma {text!r} is not a/B with 0 < a < B")
    refuse_gamma_size(B, pointer)
    return a, B


def positive(text, pointer, what):
    value = read_rational(text, pointer)
    if value <= 0:
        raise Malformed(f"{pointer}: {what} {text!r} must be positive")
    return value


def nonnegative(text, pointer, what):
    value = read_rational(text, pointer)
    if value < 0:
        raise Malformed(f"{pointer}: {what} {text!r} must be >= 0")
    return value


def integer(text, pointer, what, minimum=None):
    value = read_rational(text, pointer)
    if value.denominator != 1 or (minimum is not None and value < minimum):
        bound = "" if minimum is None else f" >= {minimum}"
        raise Malformed(f"{pointer}: {what} {text!r} must be an integer{bound}")
    return int(value)


def probability(text, pointer, what):
    value = read_rational(text, pointer)
    if not 0 < value < 1:
        raise Malformed(f"{pointer}: {what} {text!r} must lie in (0, 1)")
    return value


def rationals(texts, pointer):
    return [read_rational(t, f"{pointer}/{i}") for i, t in enumerate(texts)]


def require(condition, pointer, message):
    if not condition:
        raise Malformed(f"{pointer}: {message}")


