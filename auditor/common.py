"""Helpers shared by the checks of every kind: strict field readers, displays, labels.

* Structural integers (budgets, radii, offsets, counts) must be JSON integers
  (``int``, not ``bool``, not ``2.0``); anything else is *malformed*.
* γ = a/B must be written reduced with 0 < a < B, or be exactly ``"0"`` (plain
  composition, read as a = 0, B = 1; docs/plain-composition.md §1); otherwise
  the certificate is *malformed* (exit 2) in every kind: there is no game it
  could describe.  A denominator B of more than :data:`MAX_GAMMA_BITS` bits is
  refused as UNCHECKED (exit 3) in every kind before any work: every row of
  the game is a count over B hidden draws with numbers over D = B·S, so the
  cost of every exact step grows with the size of B, which no count-based
  work estimate sees.
* A decimal display ``"-?d+(.d+)?"`` beside an exact value must be that value
  rounded at the display's own number of places: down for a lower end, up for
  an upper end.  A display is therefore checked, never trusted.
* Root-search method labels (finite-game, dg-interval, calibration) name how
  the producer searched the root preparations:

  - ``enumerate``: all B^C pure roots (*Hidden Integer Feedback* §3–4, pure roots) - proved for any law;
  - ``compiled``: the closed carry-cell cover (*Hidden Integer Feedback* §4, App. A, C) - proved for any law;
  - ``reduced``: the C2 support reduction (*Hidden Integer Feedback* §4, App. A, C) - proved only for a law
    symmetric around 0 (w_z = w_{-z}) and budget C <= 2.

  A name outside these three is malformed; ``reduced`` outside its domain is a
  false claim (the value was obtained by a method that does not apply).
"""

import re
from fractions import Fraction

from gmpy2 import mpz

from auditor.certificate import Malformed
from auditor.outcomes import Unchecked
from auditor.rationals import MalformedNumber, ceil, floor, read_rational, show

METHODS = ("enumerate", "reduced", "compiled")

# Largest denominator B of γ = a/B, in bits (about 77 digits), of every kind.
MAX_GAMMA_BITS = 256
# Largest numerator or denominator of σ² (and of the discrete-Laplace scale t), in bits, of every kind.
MAX_PARAMETER_BITS = 256

# A display longer than this is refused as malformed before it is converted.
MAX_DISPLAY_DIGITS = 4000

_DECIMAL = re.compile(r"-?[0-9]+(\.[0-9]+)?")


def integer(value, pointer, minimum=None):
    """A JSON integer (not a bool, not a float) at ``pointer``, at least ``minimum``."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise Malformed(f"{pointer}: expected a JSON integer, got {_short(value)}")
    if minimum is not None and value < minimum:
        raise Malformed(f"{pointer}: {value} is below the minimum {minimum}")
    return value


def boolean(value, pointer):
    if not isinstance(value, bool):
        raise Malformed(f"{pointer}: expected true or false, got {_short(value)}")
    return value


def gamma(text, pointer):
    """(a, B) of γ = a/B written reduced with 0 < a < B, or (0, 1) for exactly ``"0"``.

    γ = 0 (no hidden feedback, K_t = η_t) has the single canonical form
    ``"0"``; ``"0/1"`` and ``"-0"`` are refused like any non-canonical number.
    """
    g = read_rational(text, pointer)  # non-reduced forms ("0/1", "-0") are refused here
    if text == "0":
        return 0, 1
    if not 0 < g < 1 or "/" not in text:
        raise Malformed(f"{pointer}: {_short(text)} is neither \"0\" nor a reduced a/B with 0 < a < B")
    refuse_gamma_size(g.denominator, pointer)
    return g.numerator, g.denominator


def refuse_size(value, pointer, what="sigma2", limit=MAX_PARAMETER_BITS):
    """UNCHECKED when the numerator or the denominator of the rational ``value`` has more than ``limit``
    bits (σ², t: every kernel enclosure divides by them, so their digits enter every Taylor term)."""
    value = Fraction(value)
    size = max(value.numerator.bit_length(), value.denominator.bit_length())
    if size > limit:
        raise Unchecked(pointer, size, limit, f"bits of the numerator or denominator of {what}")


def refuse_gamma_size(B, pointer):
    """UNCHECKED when the denominator B of γ has more than MAX_GAMMA_BITS bits."""
    if B.bit_length() > MAX_GAMMA_BITS:
        raise Unchecked(pointer, B.bit_length(), MAX_GAMMA_BITS, "bits of the denominator B of gamma")


def method(label, pointer):
    """A known root-search method label; malformed otherwise."""
    if label not in METHODS:
        raise Malformed(f"{pointer}: unknown method {_short(label)} (known: {', '.join(METHODS)})")
    return label


def symmetric(weights, offset):
    """Whether the law w_z (z = offset + i) satisfies w_z = w_{-z} for every z."""
    table = {offset + i: w for i, w in enumerate(weights) if w}
    return all(table.get(-z, 0) == w for z, w in table.items())


def check_method(label, weights, offset, budget, pointer, report):
    """``reduced`` is legal only for a symmetric law and C <= 2 (others for any law)."""
    method(label, pointer)
    if label != "reduced":
        report.check(True, pointer, label, label, "")
        return True
    legal = budget <= 2 and symmetric(weights, offset)
    return report.check(legal, pointer, label, "enumerate or compiled",
                        "the support reduction is proved only for a law symmetric around 0 and C <= 2")


def decimal_value(text, pointer):
    """The exact value of a decimal display (full match, bounded length)."""
    if not isinstance(text, str) or len(text) > MAX_DISPLAY_DIGITS or not _DECIMAL.fullmatch(text):
        raise MalformedNumber(f"{pointer}: {_short(text)} is not a decimal display")
    whole, _, frac = text.lstrip("-").partition(".")
    value = Fraction(int(whole + frac), 10 ** len(frac))
    return -value if text.startswith("-") else value


def outward_decimal(value, digits, direction):
    """The decimal of ``value`` with ``digits`` places, rounded down (−1) or up (+1).

    The digits are written by gmpy2, so Python's int/str digit limit never
    decides (a display may stand beside a value of thousands of digits).
    """
    scaled = Fraction(value) * 10 ** digits
    n = floor(scaled) if direction < 0 else ceil(scaled)
    sign = "-" if n < 0 else ""
    text = mpz(abs(n)).digits(10).zfill(digits + 1)
    return f"{sign}{text[:-digits]}.{text[-digits:]}" if digits else f"{sign}{text}"


def check_display(text, value, direction, pointer, report):
    """A display must be ``value`` rounded down (−1) or up (+1) at its own number of places."""
    decimal_value(text, pointer)
    digits = len(text.split(".")[1]) if "." in text else 0
    expected = outward_decimal(value, digits, direction)
    return report.check(text == expected, pointer, text, expected,
                        "display is not the exact value rounded " + ("down" if direction < 0 else "up"))


def check_display_pair(pair, lo, hi, pointer, report):
    """[lo display, hi display] around the enclosure [lo, hi], each rounded outward."""
    ok = check_display(pair[0], lo, -1, pointer + "/0", report)
    return check_display(pair[1], hi, +1, pointer + "/1", report) and ok


def bounded_binomial(top, r, cap):
    """C(top, r) when it is at most ``cap``, else cap + 1 (computed in O(log cap) steps).

    With r' = min(r, top − r) and big = top − r' >= r', the running values
    C(big + i, i), i = 1..r', at least double at every step, so the loop stops
    after at most log2(cap) + 1 steps whatever the sizes.
    """
    r = min(r, top - r)
    if r < 0:
        return 0
    big = top - r
    value = 1
    for i in range(1, r + 1):
        value = value * (big + i) // i
        if value > cap:
            return cap + 1
    return value


def bounded_power(base, exponent, cap):
    """base ** exponent when it is at most ``cap`` (base >= 2), else cap + 1, without
    building a large power: the exponent is compared by bit lengths first."""
    if exponent * (base.bit_length() - 1) > cap.bit_length():
        return cap + 1
    value = base ** exponent
    return value if value <= cap else cap + 1


def magnitude(n):
    """A short text for a possibly astronomical integer (safe beyond str()'s digit limit)."""
    n = int(n)
    if abs(n) < 10 ** 30:
        return str(n)
    return f"about 2^{n.bit_length()}"


def span(lo, hi):
    """Text of an interval [lo, hi] for a report (each end by :func:`auditor.rationals.show`)."""
    return f"[{show(lo)}, {show(hi)}]"


def _short(value):
    if isinstance(value, int) and not isinstance(value, bool):
        return magnitude(value)
    text = repr(value) if not isinstance(value, str) or len(value) <= 60 else repr(value[:60])
    return text if len(text) <= 60 else text[:57] + "..."
