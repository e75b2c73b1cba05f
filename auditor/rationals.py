"""Reading the exact numbers written in certificates.

Certificates write rationals as ``"p/q"`` (reduced, q > 0) or ``"n"``.  The
auditor insists on that canonical form: a non-reduced or otherwise
non-canonical number is a malformed certificate.
"""

import re
from fractions import Fraction

_CANONICAL = re.compile(r"^(-?(0|[1-9][0-9]*))(/([1-9][0-9]*))?$")


class MalformedNumber(ValueError):
    """A certificate number not in canonical ``p/q`` form."""


def read_rational(text, pointer):
    """The Fraction written as ``text`` at JSON ``pointer``; canonical form only."""
    if not isinstance(text, str):
        raise MalformedNumber(f"{pointer}: expected a rational string, got {text!r}")
    m = _CANONICAL.match(text)
    if not m:
        raise MalformedNumber(f"{pointer}: {text!r} is not a rational 'p/q'")
    num = int(m.group(1))
    den = int(m.group(4)) if m.group(4) else 1
    value = Fraction(num, den)
    if m.group(4) and (value.denominator != den or den == 1):
        raise MalformedNumber(f"{pointer}: {text!r} is not reduced")
    return value


def write_rational(value):
    """The canonical string of a Fraction (for reports)."""
    value = Fraction(value)
    if value.denominator == 1:
        return str(value.numerator)
    return f"{value.numerator}/{value.denominator}"
