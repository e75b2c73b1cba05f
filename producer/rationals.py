"""Exact reading and writing of rationals.

Rationals are written ``"p/q"`` (reduced, q > 0) or ``"n"`` for integers.
Input may also be a decimal such as ``4.91`` or ``1e-4``; it is read exactly.

Numbers as a training script holds them are read too, and the value certified
is stated: a binary float (Python's, or a numpy scalar) is read as the shortest
decimal that prints as it (``0.1`` is 1/10, what the user typed, not the
binary double 3602879701896397/36028797018963968), a numpy integer as its
integer.  An integer may be written in exponent notation where an integer is
asked for (``1e5`` is 100000; ``1.5e0`` is not an integer), and an integer
(a numerator or a denominator too) as a power ``b^e`` (``2^80``, ``1/2^80``).

Size limits, checked on the text BEFORE any conversion (so no request can make
the producer build a huge number, and nothing relies on Python's own
4,300-digit ``int``/``str`` limit): the numerator and the denominator of a
number each have at most :data:`MAX_DIGITS` decimal digits, a number's text is
at most :data:`MAX_TEXT_LENGTH` characters, and a decimal exponent has at most
:data:`MAX_EXPONENT_CHARS` digits.  ``1e-20000`` is refused because its
denominator 10^20000 would have more than :data:`MAX_DIGITS` digits.
"""

import math
import re
from fractions import Fraction

from gmpy2 import mpq, mpz

from producer.errors import InputError, LimitError

MAX_DIGITS = 10_000  # decimal digits of a numerator or a denominator
MAX_TEXT_LENGTH = 2 * MAX_DIGITS + 64  # characters of one number's text
MAX_EXPONENT_CHARS = 6  # digits of a decimal exponent (|e| < 10^6; the digit limit then applies)

_DIGIT_BOUND = mpz(10) ** MAX_DIGITS  # |n| < 10^MAX_DIGITS  <=>  n has at most MAX_DIGITS digits

# ASCII only: \d would also match other scripts' digits ("٣"), which gmpy2 cannot read.
_INTEGER = re.compile(r"\s*([+-]?)(\d+)\s*", re.ASCII)
_RATIONAL = re.compile(r"\s*([+-]?\d+)\s*/\s*(\d+)\s*", re.ASCII)
_POWER = re.compile(r"\s*([+-]?)(\d+)\s*\^\s*(\d+)\s*", re.ASCII)
_TERM = r"(\d+(?:\s*\^\s*\d+)?)"   # an integer, or a power b^e
_POWER_RATIONAL = re.compile(rf"\s*([+-]?){_TERM}\s*(?:/\s*{_TERM}\s*)?", re.ASCII)
_DECIMAL = re.compile(r"\s*([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?)(\d+))?\s*", re.ASCII)

_MPQ, _MPZ = type(mpq(0)), type(mpz(0))


def _too_many_digits(what, part, count):
    return LimitError(f"{what}: the {part} has {count} digits, more than the limit of {MAX_DIGITS}")


def _check_text(text, what):
    if len(text) > MAX_TEXT_LENGTH:
        raise LimitError(f"{what}: the number is {len(text)} characters long, more than the limit of "
                         f"{MAX_TEXT_LENGTH}")


def _check_integer_digits(value, what, part="value"):
    """Refuse an already-built integer with more than MAX_DIGITS digits."""
    if abs(mpz(value)) >= _DIGIT_BOUND:
        raise LimitError(f"{what}: the {part} has more than {MAX_DIGITS} digits (the limit)")


def _digits(text, what, part):
    """The digit string ``text`` as an mpz, after the digit-count check."""
    stripped = text.lstrip("0") or "0"
    if len(stripped) > MAX_DIGITS:
        raise _too_many_digits(what, part, len(stripped))
    return mpz(stripped)


def is_numpy_number(value):
    """A numpy integer or float scalar (read exactly like Python's)."""
    return _numpy_kind(value) in ("i", "u", "f")


def _numpy_kind(value):
    """numpy's dtype kind of a numpy scalar ('f', 'i', 'u', ...), or None (numpy is never imported here; an
    array of one or more dimensions is not a number: None)."""
    if type(value).__module__ != "numpy" or getattr(value, "ndim", 0) != 0:
        return None
    dtype = getattr(value, "dtype", None)
    return getattr(dtype, "kind", None)


def float_text(value, what):
    """The shortest decimal that prints as the float ``value`` (a Python or numpy binary float)."""
    if not math.isfinite(float(value)):
        raise InputError(f"{what}: {float(value)!r} is not a finite number")
    if _numpy_kind(value) == "f" and not isinstance(value, float):
        return str(value)  # float32/longdouble: numpy prints the shortest decimal of that precision
    return float.__repr__(float(value))


def _from_number(value, what):
    """An exact rational from a Python, numpy or gmpy2 number (a float as its shortest decimal)."""
    if isinstance(value, bool) or _numpy_kind(value) == "b":
        raise InputError(f"{what}: expected a rational like 3/7, got {value!r}")
    if isinstance(value, float) or _numpy_kind(value) == "f":
        return parse_rational(float_text(value, what), what)
    if _numpy_kind(value) in ("i", "u"):
        value = int(value)
    if isinstance(value, (int, _MPZ)):
        _check_integer_digits(value, what)
        return mpq(value)
    if isinstance(value, (Fraction, _MPQ)):
        _check_integer_digits(value.numerator, what, "numerator")
        _check_integer_digits(value.denominator, what, "denominator")
        return mpq(value.numerator, value.denominator)
    raise InputError(f"{what}: expected a rational like 3/7, got {shown(value)}")


def _from_decimal(m, what):
    sign, whole, frac, exp_sign, exp = m.groups()
    frac = frac or ""
    if not whole and not frac:
        return None
    if exp is not None and len(exp.lstrip("0")) > MAX_EXPONENT_CHARS:
        raise LimitError(f"{what}: the exponent {exp_sign}{exp} has more than {MAX_EXPONENT_CHARS} digits "
                         f"(the limit)")
    mantissa = _digits(whole + frac, what, "significand")
    if mantissa == 0:
        return mpq(0)
    # value = mantissa * 10^shift
    shift = (int(exp) if exp is not None else 0) * (-1 if exp_sign == "-" else 1) - len(frac)
    if shift >= 0:
        count = len(str(mantissa)) + shift
        if count > MAX_DIGITS:
            raise _too_many_digits(what, "numerator", count)
        value = mpq(mantissa * mpz(10) ** shift)
    else:
        if -shift > MAX_DIGITS:
            raise _too_many_digits(what, "denominator", -shift + 1)
        value = mpq(mantissa, mpz(10) ** -shift)
    return -value if sign == "-" else value


def is_sequence(value):
    """A list, tuple or range, or a one-dimensional numpy array: what a list parameter takes as its items."""
    return isinstance(value, (list, tuple, range)) or (type(value).__module__ == "numpy"
                                                       and getattr(value, "ndim", 0) == 1)


def as_items(value):
    """The items of a list parameter given other than as text: a sequence's items, or one value alone."""
    return list(value) if is_sequence(value) else [value]


# ---- the API's parameters that are not one number: left out, switches, lists -----------------------------

EPSILONS_EXAMPLE = "1/2,1,2"


def required(value, what, wanted):
    """``value``, or the one-line refusal of a parameter left out (None) where the request needs it:
    ``"{what}: give {wanted}"``."""
    if value is None:
        raise InputError(f"{what}: give {wanted}")
    return value


def parse_switch(value, what):
    """A switch: True or False only (a text such as ``"false"`` or ``"no"`` would be true, so it is refused)."""
    if not isinstance(value, bool):
        raise InputError(f"{what}: expected True or False, got {shown(value)}")
    return value


def split_items(text, what=None, item="value", example=None):
    """The items of the comma-separated ``text``, each stripped; an empty item (``"1,,2"``, ``"1,2,"``) is
    refused in one line (led by ``what:`` when given), never dropped."""
    items = [part.strip() for part in text.split(",")]
    if not all(items):
        reason = f"an empty {item} in {text!r}: give numbers separated by commas" + \
            (f", e.g. {example}" if example else "")
        raise InputError(reason if what is None else f"{what}: {reason}")
    return items


def list_items(value, what, item="value", example=None):
    """The items of a list parameter: ``"a,b,c"`` (:func:`split_items`), a sequence's items, or one value alone;
    None (the parameter left out) is refused."""
    required(value, what, "one value, a comma-separated text or a list")
    return split_items(value, what, item, example) if isinstance(value, str) else as_items(value)


def epsilon_items(value, what="epsilons"):
    """The ε of a list parameter (:func:`list_items`): ``"1/2,1,2"``, a sequence or one value."""
    return list_items(value, what, "ε", EPSILONS_EXAMPLE)


def parse_rational(text, what="value"):
    """Return the exact rational written in ``text`` as an ``mpq``.

    Accepts ``p/q``, integers and decimals (read exactly, never via float),
    integers written as powers b^e (``2^80``, ``1/2^80``), and the Python
    values int, Fraction (and gmpy2's mpz, mpq, numpy's integers); a float
    (Python's or numpy's) is read as its shortest decimal.
    """
    if not isinstance(text, str):
        return _from_number(text, what)
    _check_text(text, what)
    m = _RATIONAL.fullmatch(text)
    if m:
        num_text, den_text = m.group(1), m.group(2)
        negative = num_text.startswith("-")
        num = _digits(num_text.lstrip("+-"), what, "numerator")
        den = _digits(den_text, what, "denominator")
        if den == 0:
            raise InputError(f"{what}: zero denominator in {text!r}")
        return mpq(-num if negative else num, den)
    m = _DECIMAL.fullmatch(text)
    if m:
        value = _from_decimal(m, what)
        if value is not None:
            return value
    m = _POWER_RATIONAL.fullmatch(text) if "^" in text else None
    if m:
        num = _term(m.group(2), what, "numerator")
        den = _term(m.group(3), what, "denominator") if m.group(3) else mpz(1)
        if den == 0:
            raise InputError(f"{what}: zero denominator in {shown(text)}")
        return mpq(-num if m.group(1) == "-" else num, den)
    raise InputError(f"{what}: {shown(text)} is not a rational (write it like 3/7, 2 or 0.25)")


def _term(text, what, part):
    """The integer ``text`` of a :data:`_POWER_RATIONAL` match: digits, or a power b^e."""
    m = _POWER.fullmatch(text)
    return _power(m, what) if m else _digits(text, what, part)


def parse_integer(text, what="value"):
    """Return the integer written in ``text``, as an int.

    An int (Python's, gmpy2's, numpy's), its decimal text, an exact decimal
    of integer value (``1e5``, ``2.0``; a float when it is integral), or a
    power ``b^e`` of integers (``2^80``); ``1.5e0`` is not an integer.
    """
    given = text
    if _numpy_kind(text) in ("i", "u"):
        text = int(text)
    elif isinstance(text, float) or _numpy_kind(text) == "f":
        text = float_text(text, what)
    if isinstance(text, bool) or not isinstance(text, (str, int, _MPZ)):
        raise InputError(f"{what}: {shown(given)} is not an integer")
    if not isinstance(text, str):
        _check_integer_digits(text, what)
        return int(text)
    _check_text(text, what)
    m = _INTEGER.fullmatch(text)
    if m:
        value = _digits(m.group(2), what, "integer")
        return int(-value if m.group(1) == "-" else value)
    m = _POWER.fullmatch(text)
    if m:
        value = _power(m, what)
        return int(-value if m.group(1) == "-" else value)
    m = _DECIMAL.fullmatch(text)
    value = _from_decimal(m, what) if m else None
    if value is None or value.denominator != 1:
        raise InputError(f"{what}: {shown(given)} is not an integer")
    return int(value.numerator)


def _power(match, what):
    """b^e of a :data:`_POWER` match, refused before it is built when it would have
    more than MAX_DIGITS digits: b^e >= 2^((bits(b) − 1)·e) and 10^MAX_DIGITS < 2^(4·MAX_DIGITS)."""
    base = _digits(match.group(2), what, "base")
    exponent_text = match.group(3).lstrip("0") or "0"
    if len(exponent_text) > MAX_EXPONENT_CHARS or (base.bit_length() - 1) * int(exponent_text) > 4 * MAX_DIGITS:
        raise LimitError(f"{what}: {shown(match.group(0).strip())} has more than {MAX_DIGITS} digits (the limit)")
    value = base ** int(exponent_text)
    _check_integer_digits(value, what)
    return value


def parse_whole(value, what, minimum=1):
    """An integer >= ``minimum`` written as an integer or an exact decimal (``1e24``)."""
    number = parse_rational(value, what)
    if number.denominator != 1:
        raise InputError(f"{what}: {value!r} is not an integer")
    if number < minimum:
        raise InputError(f"{what}: must be >= {minimum}, got {number}")
    return int(number.numerator)


MAX_POWER_EXPONENT = 4096  # a scale written 2^k


def parse_scale(value, what="source scale"):
    """A positive integer scale S written as an integer, ``"2^k"`` (0 <= k <= 4096) or ``"1e24"``."""
    if isinstance(value, str) and value.strip().startswith("2^"):
        bits = parse_integer(value.strip()[2:], f"{what} exponent")
        if not 0 <= bits <= MAX_POWER_EXPONENT:
            raise LimitError(f"{what}: 2^{bits} is outside 2^0..2^{MAX_POWER_EXPONENT}")
        return 2 ** bits
    return parse_whole(value, what)


MAX_SEED_BITS = 256


def parse_seed(value):
    """A seed: an integer with |seed| < 2^256 (it is recorded as a JSON integer)."""
    seed = parse_integer(value, "seed")
    if abs(seed).bit_length() > MAX_SEED_BITS:
        raise LimitError(f"seed: more than {MAX_SEED_BITS} bits (the limit)")
    return seed


def shown(value, limit=60):
    """``repr(value)``, shortened so that an error message stays one readable line."""
    text = repr(value) if not isinstance(value, (int, _MPZ)) or isinstance(value, bool) else "an integer"
    return text if len(text) <= limit else f"{text[:limit - 5]}...{text[-4:]}"


def format_rational(value):
    """The canonical string of an exact rational: ``"p/q"`` reduced, or ``"n"``.

    Uses gmpy2's string conversion, which has no digit limit.
    """
    q = mpq(value)
    if q.denominator == 1:
        return str(q.numerator)
    return f"{q.numerator}/{q.denominator}"


def float_up(value):
    """The smallest binary float >= the rational ``value``: an upper end handed out as a float stays one.

    gmpy2's ``float(mpq)`` may round either way; the exact comparison decides, and one step up is then the
    nearest float above (``value`` within the float range; the producer's answers are).
    """
    q = mpq(value)
    f = float(q)
    return f if mpq(f) >= q else math.nextafter(f, math.inf)


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


def _decimal_exponent(q):
    """The integer e with 10^e <= |q| < 10^(e+1), for q != 0 (exact)."""
    num, den = abs(q.numerator), q.denominator
    e = num.num_digits(10) - den.num_digits(10)  # within one of the answer
    while e >= 0 and num < den * mpz(10) ** e or e < 0 and num * mpz(10) ** -e < den:
        e -= 1
    while e + 1 >= 0 and num >= den * mpz(10) ** (e + 1) or e + 1 < 0 and num * mpz(10) ** -(e + 1) >= den:
        e += 1
    return e


def significant_outward(value, significant, direction):
    """``value`` with ``significant`` significant digits, rounded down (-1) or up (+1).

    Written plainly (``2.6543273926``) when 10^-4 <= |value| < 10^6, otherwise
    in scientific form (``8.4311988514e-05``).  Rounding is exact and outward:
    the shown number is <= value for direction -1 and >= value for +1.
    Display only; never used in a decision.
    """
    q = mpq(value)
    if q == 0:
        return "0"
    e = _decimal_exponent(q)
    places = significant - 1 - e  # decimal places that keep `significant` digits
    scaled = q * mpz(10) ** places if places >= 0 else q / mpz(10) ** -places
    num, den = scaled.numerator, scaled.denominator
    n = num // den if direction < 0 else -((-num) // den)
    if abs(n) >= mpz(10) ** significant:  # rounding up carried into a new digit
        e, places = e + 1, places - 1
        n = n // 10 if direction < 0 else -((-n) // 10)
    sign, digits = ("-" if n < 0 else ""), str(abs(n)).rjust(significant, "0")
    if -4 <= e < 6:
        if places <= 0:
            return f"{sign}{digits}{'0' * -places}"
        digits = digits.rjust(places + 1, "0")
        return f"{sign}{digits[:-places]}.{digits[-places:]}"
    mantissa = digits[0] + ("." + digits[1:] if significant > 1 else "")
    return f"{sign}{mantissa}e{'-' if e < 0 else '+'}{abs(e):02d}"


def describe_rational(value, max_length=24):
    """A short exact rendering of an input rational, for human messages.

    Integers and short decimals are written as decimals (``4.91``, ``0.000001``
    becomes ``1e-06``), other short rationals as ``p/q``; a long one is shown
    as ``≈`` a 6-significant-digit decimal, marked as approximate.
    """
    q = mpq(value)
    exact = format_rational(q)
    if q.denominator == 1 and len(exact) <= max_length:
        return exact
    den, twos, fives = q.denominator, 0, 0
    while den % 2 == 0:
        den, twos = den // 2, twos + 1
    while den % 5 == 0:
        den, fives = den // 5, fives + 1
    if den == 1:  # a finite decimal: try a short plain or scientific form
        for significant in range(1, 13):
            lo = significant_outward(q, significant, -1)
            if parse_rational(lo) == q:
                return lo
    if len(exact) <= max_length:
        return exact
    return "≈" + significant_outward(q, 6, -1 if q > 0 else +1)
