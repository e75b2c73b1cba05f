"""Exact reading and writing of rationals.

Rationals are written ``"p/q"`` (reduced, q > 0) or ``"n"`` for integers.
Input may also be a decimal such as ``4.91`` or ``1e-4``; it is read exactly.
"""

import re
from fractions import Fraction

from gmpy2 import mpq, mpz

from producer.errors import InputError

_RATIONAL = re.compile(r"^\s*([+-]?\d+)\s*/\s*(\d+)\s*$")
_DECIMAL = re.compile(r"^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$")


def parse_rational(text, what="value"):
    """Return the exact rational written in ``text`` as an ``mpq``.

    Accepts ``p/q``, integers and decimals (read exactly, never via float).
    """
    if isinstance(text, (int, type(mpz(0)))):
        return mpq(text)
    if not isinstance(text, str):
        raise InputError(f"{what}: expected a rational like 3/7, got {text!r}")
    m = _RATIONAL.match(text)
    if m:
        num, den = int(m.group(1)), int(m.group(2))
        if den == 0:
            raise InputError(f"{what}: zero denominator in {text!r}")
        return mpq(num, den)
    if _DECIMAL.match(text):
        f = Fraction(text.strip())
        return mpq(f.numerator, f.denominator)
    raise InputError(f"{what}: {text!r} is not a rational (write it like 3/7, 2 or 0.25)")


def parse_integer(text, what="value"):
    """Return the integer written in ``text`` (no fractions, no decimals)."""
    if isinstance(text, int):
        return text
    if not isinstance(text, str) or not re.match(r"^\s*[+-]?\d+\s*$", text):
        raise InputError(f"{what}: {text!r} is not an integer")
    return int(text)


def format_rational(value):
    """The canonical string of an exact rational: ``"p/q"`` reduced, or ``"n"``."""
    q = mpq(value)
    if q.denominator == 1:
        return str(int(q.numerator))
    return f"{int(q.numerator)}/{int(q.denominator)}"


def decimal_outward(value, digits, direction):
    """A decimal string with ``digits`` places, rounded down (direction -1) or up (+1).

    Used for display only; the exact rational is always stored beside it.
    """
    q = mpq(value)
    scaled = q * mpz(10) ** digits
    num, den = int(scaled.numerator), int(scaled.denominator)
    # exact integer rounding: gmpy2.floor/ceil of an mpq go through a float
    n = num // den if direction < 0 else -((-num) // den)
    scale = 10 ** digits
    sign = "-" if n < 0 else ""
    n = abs(n)
    whole, frac = divmod(n, int(scale))
    return f"{sign}{whole}.{frac:0{digits}d}" if digits else f"{sign}{whole}"
