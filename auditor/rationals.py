"""The auditor's arithmetic kernel: reading, rounding and showing exact numbers.

This module imports no other auditor module; every other module may import it.

Certificates write rationals as ``"p/q"`` (reduced, q > 1) or ``"n"``.  The
auditor insists on that canonical form, matched against the *whole* string
(``"1/3\\n"`` is refused): an optional ``-`` (never ``"-0"``), no leading zeros,
a denominator only when it is > 1 and coprime to the numerator.  Anything else
is a malformed certificate (:class:`MalformedNumber`, exit status 2).

Limit: at most :data:`MAX_DIGITS` = 10,000 decimal digits in the numerator
and in the denominator.  The length is checked *before* any conversion, and
the conversion goes through gmpy2, so Python's own int/str digit limit
(4,300 by default) never decides anything.

Rounding (the one statement of it in the auditor): for integers a and b > 0,
Python's ``a // b`` is floor(a/b), and ceil(a/b) = −floor(−a/b) since
ceil(t) = −floor(−t) for every real t; :func:`ceil_div`, :func:`ceil` and
:func:`floor` are these, for integers and for rationals p/q (q > 0).  For the
fixed-point code, floor(floor(x)/n) = floor(x/n) and ceil(ceil(x)/n) = ceil(x/n)
for every integer n > 0, so roundings may be nested.

:class:`MalformedInput` is the base of every malformed-input error (exit 2);
it lives here, below :mod:`auditor.outcomes`, which re-exports it, so that the
two modules do not import each other.

:func:`show` turns any number (or a number string) into text of bounded
length for messages and failure reports: integers of more than
:data:`SHOWN_DIGITS` digits are shown by their first and last digits and
their digit count.
"""

import re
from fractions import Fraction
from math import gcd

from gmpy2 import mpq, mpz

MAX_DIGITS = 10_000
"""Most decimal digits accepted in a numerator or a denominator."""

MAX_NUMBER_CHARS = 2 * MAX_DIGITS + 2
"""Longest number string that can be canonical: sign, digits, '/', digits."""

SHOWN_DIGITS = 100
"""Integers with more digits than this are abbreviated in messages."""

_EDGE = 40  # digits kept at each end of an abbreviated integer

# fullmatch only: "$" would also match before a final newline
_CANONICAL = re.compile(r"(-?)(0|[1-9][0-9]*)(?:/([1-9][0-9]*))?")
_LONG_DIGITS = re.compile(r"[0-9]{%d,}" % (SHOWN_DIGITS + 1))


def ceil_div(a, b):
    """ceil(a / b) for integers a and b > 0 (exact: floor division of the negation)."""
    return -((-a) // b)


def ceil(q):
    """ceil(q) for a rational q (Fraction or mpq)."""
    return -((-q.numerator) // q.denominator)


def floor(q):
    """floor(q) for a rational q (Fraction or mpq)."""
    return q.numerator // q.denominator


class MalformedInput(Exception):
    """The input is not a well-formed certificate (exit status 2).

    The message is one line naming the JSON pointer (where there is one) and
    the offending value.  Defined here, below every other auditor module, and
    re-exported by :mod:`auditor.outcomes` with the exit statuses.
    """


class MalformedNumber(MalformedInput, ValueError):
    """A certificate number not in canonical ``p/q`` form, or beyond the digit limit."""


def _clip(text, limit=80):
    return text if len(text) <= limit else text[:limit] + f"... ({len(text)} characters)"


def _integer(digits):
    """The int written by a string of at most MAX_DIGITS ASCII digits (no str-limit)."""
    return int(mpz(digits))


def read_rational(text, pointer):
    """The Fraction written as ``text`` at JSON ``pointer``; canonical form only.

    >>> read_rational("-4/6", "/x")
    Traceback (most recent call last):
    ...
    auditor.rationals.MalformedNumber: /x: '-4/6' is not reduced
    >>> read_rational("1/3", "/x"), read_rational("-7", "/x")
    (Fraction(1, 3), Fraction(-7, 1))
    """
    if not isinstance(text, str):
        raise MalformedNumber(f"{pointer}: expected a rational string, got {show(text)}")
    if len(text) > MAX_NUMBER_CHARS:
        raise MalformedNumber(f"{pointer}: number string of {len(text)} characters exceeds "
                              f"the limit of {MAX_DIGITS} digits per numerator and denominator")
    m = _CANONICAL.fullmatch(text)
    if not m:
        raise MalformedNumber(f"{pointer}: {_clip(text)!r} is not a rational 'p/q'")
    sign, num_digits, den_digits = m.group(1), m.group(2), m.group(3)
    for part in (num_digits, den_digits or ""):
        if len(part) > MAX_DIGITS:
            raise MalformedNumber(f"{pointer}: {len(part)} digits exceed the limit of "
                                  f"{MAX_DIGITS} digits per numerator and denominator")
    if sign and num_digits == "0":
        raise MalformedNumber(f"{pointer}: '-0' is not canonical (write '0')")
    num = _integer(num_digits)
    if sign:
        num = -num
    if den_digits is None:
        return Fraction(num)
    den = _integer(den_digits)
    if den == 1 or gcd(num, den) != 1:
        raise MalformedNumber(f"{pointer}: {_clip(text)!r} is not reduced")
    return Fraction(num, den)


def read_integer(text, pointer):
    """The int written as the canonical string ``text`` (``"n"``) at ``pointer``."""
    value = read_rational(text, pointer)
    if value.denominator != 1:
        raise MalformedNumber(f"{pointer}: {_clip(text)!r} is not an integer")
    return value.numerator


def _digits(n):
    """Decimal text of an int of any size (gmpy2: no str-digit limit)."""
    return mpz(n).digits(10)


def write_rational(value):
    """The exact canonical string of a rational, of any size.

    >>> write_rational(Fraction(-2, 4)), write_rational(10**5000)[:3]
    ('-1/2', '100')
    """
    value = Fraction(value)
    if value.denominator == 1:
        return _digits(value.numerator)
    return f"{_digits(value.numerator)}/{_digits(value.denominator)}"


def _shorten(digits):
    if len(digits) <= SHOWN_DIGITS:
        return digits
    return f"{digits[:_EDGE]}...{digits[-_EDGE:]} ({len(digits)} digits)"


def show(value):
    """Bounded-length text of a number (or of a string that may hold long digit runs).

    Exact when every integer part has at most SHOWN_DIGITS digits.

    >>> show(Fraction(4, 3)), show(7), show(True), show("1/3")
    ('4/3', '7', 'True', '1/3')
    >>> show(10**120 + 1)
    '1000000000000000000000000000000000000000...0000000000000000000000000000000000000001 (121 digits)'
    """
    if isinstance(value, bool) or value is None:
        return repr(value)
    if isinstance(value, (int, Fraction, type(mpz(0)), type(mpq(0)))):
        value = Fraction(value)
        sign = "-" if value < 0 else ""
        text = sign + _shorten(_digits(abs(value.numerator)))
        if value.denominator != 1:
            text += "/" + _shorten(_digits(value.denominator))
        return text
    if isinstance(value, str):
        return _clip(_LONG_DIGITS.sub(lambda m: _shorten(m.group()), value), 400)
    return _clip(_LONG_DIGITS.sub(lambda m: _shorten(m.group()), _safe_repr(value)), 400)


def _safe_repr(value):
    try:
        return repr(value)
    except ValueError:  # e.g. a container holding an int beyond Python's str limit
        return f"<{type(value).__name__}>"
