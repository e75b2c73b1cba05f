"""Decimal displays of the resource-law certificates (kinds.md S6), possibly in scientific notation.

A display ``d.ddd`` or ``d.ddde±x`` has a unit u = 10^(x − places) (x = 0
without an exponent); it must equal the exact value beside it rounded to a
multiple of u, down for a lower end and up for an upper end.  Displays never
decide anything else.
"""

import re
from fractions import Fraction

from auditor.certificate import Malformed
from auditor.rationals import ceil, floor

__all__ = ["DOWN", "UP", "check_display"]

DOWN, UP = -1, +1
MAX_EXPONENT = 10_000
MAX_CHARACTERS = 4_000

_DISPLAY = re.compile(r"(-?)([0-9]+)(?:\.([0-9]+))?(?:e([-+][0-9]+))?")


def _read(text, pointer):
    """(exact value, unit) of a display."""
    m = _DISPLAY.fullmatch(text) if isinstance(text, str) and len(text) <= MAX_CHARACTERS else None
    if m is None:
        raise Malformed(f"{pointer}: {text!r:.80} is not a decimal display")
    sign, whole, frac, exp = m.groups()
    frac = frac or ""
    exponent = int(exp) if exp else 0
    if abs(exponent) > MAX_EXPONENT:
        raise Malformed(f"{pointer}: display exponent {exponent} beyond {MAX_EXPONENT}")
    unit = Fraction(10) ** (exponent - len(frac))
    value = int(whole + frac) * unit
    return (-value if sign else value), unit


def check_display(text, value, direction, pointer, report):
    """``text`` must be ``value`` rounded down (−1) or up (+1) at the display's own unit."""
    shown, unit = _read(text, pointer)
    scaled = Fraction(value) / unit
    n = floor(scaled) if direction < 0 else ceil(scaled)
    expected = n * unit
    return report.check(shown == expected, pointer, text, expected,
                        "display is not the exact value rounded " + ("down" if direction < 0 else "up"))
