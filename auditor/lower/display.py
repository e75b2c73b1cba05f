"""Decimal displays, rounded outward around the exact value they display.

A display never decides anything; it must still be the exact value rounded
in its stated direction at its documented number of places.
"""

from fractions import Fraction

from gmpy2 import mpz

from auditor.rationals import ceil, ceil_div, floor

DOWN, UP = -1, +1


def outward_decimal(value, places, direction):
    """``value`` written with ``places`` decimals, rounded down (−1) or up (+1)."""
    scaled = Fraction(value) * 10 ** places
    if direction < 0:
        n = floor(scaled)
    else:
        n = ceil(scaled)
    sign = "-" if n < 0 else ""
    digits = mpz(abs(n)).digits(10).zfill(places + 1)  # gmpy2: no int <-> str digit limit
    if not places:
        return sign + digits
    return f"{sign}{digits[:-places]}.{digits[-places:]}"


def check_display(text, value, direction, places, pointer, report):
    """``text`` must be ``value`` rounded in ``direction``; ``places`` None accepts any length."""
    if places is None:
        places = len(text.split(".")[1]) if "." in text else 0
    expected = outward_decimal(value, places, direction)
    word = "down" if direction < 0 else "up"
    return report.check(text == expected, pointer, text, expected,
                        f"display is not the exact value rounded {word} to {places} places")


def dyadic_down(value, bits):
    """The largest m/2^bits <= value (a coarser lower bound with a short denominator)."""
    value = Fraction(value)
    return Fraction((value.numerator << bits) // value.denominator, 1 << bits)


def dyadic_up(value, bits):
    """The smallest m/2^bits >= value."""
    value = Fraction(value)
    return Fraction(ceil_div(value.numerator << bits, value.denominator), 1 << bits)
