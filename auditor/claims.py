"""The number text of the one-line claims: every kind's ``claim(cert)`` writes its numbers here.

Each ``auditor/checks/<kind>.py`` owns the ``claim(cert)`` of its kind (the
line :mod:`auditor.api` states, only *after* every check of the certificate
passed, so each number in it has been recomputed by the auditor).  The claims
share this module's rules for writing a number: an exact rational when it is
short (:func:`rational_text`, :func:`value_text`, :func:`interval_text`); a
long one by a decimal enclosure of :data:`DIGITS` significant digits rounded
outward (:func:`outward`, :func:`enclosure_text`: lower end down, upper end
up); a one-sided bound rounded only the safe way (:func:`lower_text` down,
:func:`upper_text` up); so every line is true as written.  A finite law is
written by :func:`law_text`, a long list cut at :data:`MAX_LISTED`
(:func:`listed`).

>>> rational_text(Fraction(4, 3))
'4/3'
>>> enclosure_text(Fraction(2, 3) / 10**4)
'[0.00006666666666, 0.00006666666667]'
"""

from fractions import Fraction

from auditor.rationals import ceil, floor, read_rational, show, write_rational

DIGITS = 10
"""Significant digits of a decimal enclosure in a summary."""

SHORT = 24
"""Rationals written in at most this many characters are stated exactly."""

MAX_LISTED = 3
"""Items (queries, deadlines, ...) listed in one claim line; the rest are counted."""


# ---- numbers ---------------------------------------------------------------------

def number(text):
    """The rational of a canonical number field (the checks have read it already)."""
    return read_rational(text, "")


def _decimal(n, places):
    """The decimal text of the integer n / 10**places."""
    sign, digits = ("-" if n < 0 else ""), str(abs(n))
    if places <= 0:
        return sign + digits + "0" * (-places)
    digits = digits.rjust(places + 1, "0")
    return f"{sign}{digits[:-places]}.{digits[-places:]}"


def _exponent(q):
    """e with 10**e <= |q| < 10**(e+1), for q != 0 (no decimal conversion of q)."""
    q = abs(q)
    e = (q.numerator.bit_length() - q.denominator.bit_length()) * 30103 // 100000
    while Fraction(10) ** e > q:
        e -= 1
    while Fraction(10) ** (e + 1) <= q:
        e += 1
    return e


def outward(q, digits=DIGITS):
    """Decimal texts (lo, hi) of ``digits`` significant digits with lo <= q <= hi."""
    q = Fraction(q)
    if q == 0:
        return "0", "0"
    e = _exponent(q)
    if e > 12 or e < -12:  # scientific: mantissa d.ddd...
        scaled = q / Fraction(10) ** e * 10 ** (digits - 1)
        return (f"{_decimal(floor(scaled), digits - 1)}e{e:+d}",
                f"{_decimal(ceil(scaled), digits - 1)}e{e:+d}")
    places = digits - 1 - e
    scaled = q * Fraction(10) ** places
    return _decimal(floor(scaled), places), _decimal(ceil(scaled), places)


def enclosure_text(q, digits=DIGITS):
    """``[lo, hi]``: decimals with ``digits`` significant digits, lo <= q <= hi."""
    lo, hi = outward(q, digits)
    return f"[{lo}, {hi}]"


def rational_text(q):
    """The exact text of ``q`` when short, else its bounded abbreviation."""
    text = write_rational(q) if _is_small(q) else None
    return text if text is not None and len(text) <= SHORT else show(q)


def _is_small(q):
    q = Fraction(q)
    return q.numerator.bit_length() + q.denominator.bit_length() < 4 * SHORT


def value_text(q):
    """``= p/q`` when short, else ``in [lo, hi]`` (outward decimals)."""
    q = Fraction(q)
    if _is_small(q) and len(write_rational(q)) <= SHORT:
        return "= " + write_rational(q)
    return "in " + enclosure_text(q)


def interval_text(lo, hi):
    """``[lo, hi]`` exactly when both ends are short, else outward decimals."""
    lo, hi = Fraction(lo), Fraction(hi)
    if all(_is_small(v) and len(write_rational(v)) <= SHORT for v in (lo, hi)):
        exact = f"[{write_rational(lo)}, {write_rational(hi)}]"
        if lo.denominator == hi.denominator == 1:
            return exact
        return f"{exact} within [{outward(lo)[0]}, {outward(hi)[1]}]"
    return f"[{outward(lo)[0]}, {outward(hi)[1]}]"


def listed(items):
    """``a; b; c; and 2 more``: at most MAX_LISTED items, the rest counted."""
    items = list(items)
    shown = "; ".join(items[:MAX_LISTED])
    if len(items) > MAX_LISTED:
        shown += f"; and {len(items) - MAX_LISTED} more"
    return shown


# ---- the finite game ----------------------------------------------------------------

def law_text(law):
    """``(1,2,1)/4 on [-1..1]`` for a short law, else ``of 49 points on [-24..24]``."""
    weights = [number(w) for w in law["weights"]]
    lo = law["offset"]
    hi = lo + len(weights) - 1
    total = sum(weights)
    if len(weights) <= 7 and all(len(write_rational(w)) <= 6 for w in weights):
        return f"({','.join(write_rational(w) for w in weights)})/{write_rational(total)} on [{lo}..{hi}]"
    return f"of {len(weights)} points on [{lo}..{hi}]"


# ---- one-sided bounds ----------------------------------------------------------------

EXACT_PLACES = 16
"""A terminating decimal with at most this many places is stated exactly."""


def _exact_decimal(q):
    """The exact decimal text of q when it terminates within EXACT_PLACES, else None."""
    q = Fraction(q)
    for places in range(EXACT_PLACES + 1):
        scaled = q * 10 ** places
        if scaled.denominator == 1:
            return _decimal(scaled.numerator, places)
    return None


def _exact_text(q):
    """A short exact text of q (decimal, then ``p/q``), or None."""
    q = Fraction(q)
    if q.denominator.bit_length() <= 4 * EXACT_PLACES and q.numerator.bit_length() <= 4 * SHORT:
        text = _exact_decimal(q)
        if text is not None and len(text) <= SHORT:
            return text
    if not _is_small(q):
        return None
    text = write_rational(q)
    return text if len(text) <= SHORT else None


def lower_text(q):
    """A decimal text d with d <= q: q itself when short, else q rounded down.

    >>> lower_text(Fraction(1208541048903, 250000000000)), lower_text(Fraction(2, 3))
    ('4.834164195612', '2/3')
    >>> lower_text(Fraction(2, 3) + Fraction(1, 10**40))
    '0.6666666666'
    """
    exact = _exact_text(q)
    return exact if exact is not None else outward(q)[0]


def upper_text(q):
    """A decimal text d with d >= q: q itself when short, else q rounded up.

    >>> upper_text(Fraction(4867767, 1000000)), upper_text(Fraction(2, 3) + Fraction(1, 10**40))
    ('4.867767', '0.6666666667')
    """
    exact = _exact_text(q)
    return exact if exact is not None else outward(q)[1]


def gamma_sigma2_text(gamma, sigma2):
    """``gamma = 1/3, sigma^2 = 9``: the discrete-Gaussian mechanism of a claim."""
    return f"gamma = {rational_text(number(gamma))}, sigma^2 = {rational_text(number(sigma2))}"
