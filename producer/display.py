"""Shared pieces of the one-line claims: numbers as a person reads them, rounded outward.

Every producer command prints its certificate's claim line on stderr at the
end (``claim(cert)`` of the kind's module in producer/kinds/), and
``producer.api.Certificate.claim`` returns it.  The line echoes the parsed
inputs (so that a mistake such as σ typed for σ² shows) and states the
answer.  Interval ends are rounded outward (exact decimal arithmetic), so a
printed interval always contains the certified one; exact values too long for
a line are shown as such an interval.  The line is a display: the
certificate's exact rationals are what counts.
"""

from gmpy2 import mpq, mpz

from producer.rationals import describe_rational, format_rational, significant_outward

SIGNIFICANT = 11  # digits of an interval end (10 after the point)
MECHANISM = "hidden integer feedback"


def rational(text):
    """A certificate's rational string as an mpq (gmpy2 reads it with no digit limit)."""
    return mpq(str(text))


def show_interval(lower, upper, significant=SIGNIFICANT):
    """``[lo, hi]`` with both ends rounded outward: contains [lower, upper]."""
    lo = significant_outward(mpq(lower), significant, -1)
    hi = significant_outward(mpq(upper), significant, +1)
    return f"[{lo}, {hi}]"


def show_value(value, max_length=24):
    """``= p/q`` for a short exact value, else ``∈ [lo, hi]`` rounded outward."""
    q = mpq(value)
    exact = format_rational(q)
    if len(exact) <= max_length:
        return f"= {exact}"
    return f"∈ {show_interval(q, q)}"


def show(value):
    """An input number as the user would write it (exact when short)."""
    return describe_rational(mpq(value))


def down(text):
    """A certified lower end, rounded down (the shown number is <= it)."""
    return significant_outward(rational(text), SIGNIFICANT, -1)


def up(text):
    """A certified upper end, rounded up (the shown number is >= it)."""
    return significant_outward(rational(text), SIGNIFICANT, +1)


def approx(text):
    """``≈`` and four significant digits (rounded down): a figure, not a bound."""
    return "≈" + significant_outward(rational(text), 4, -1)


def law_text(law):
    """A finite law ``{"weights", "offset"}`` as ``ν = (w, ...)/S on {lo, …, hi}`` (or its size)."""
    weights, offset = law["weights"], law["offset"]
    high = offset + len(weights) - 1
    if len(weights) <= 8 and all(len(w) <= 6 for w in weights):
        total = sum(int(w) for w in weights)
        return f"ν = ({', '.join(weights)})/{total} on {{{offset}, …, {high}}}"
    return f"ν: {len(weights)} integer weights on {{{offset}, …, {high}}}"


def mechanism_inputs(inp):
    """``γ = …, σ² = … (or t = …), C = …`` of a dg-interval, calibration or hierarchy input."""
    noise = inp.get("noise")
    law = f"σ² = {show(rational(inp['sigma2']))}" if noise is None else f"t = {show(rational(noise['t']))}"
    return f"γ = {inp['gamma']}, {law}, C = {inp['budget']}"


def release_text(release):
    """One release of a plain composition's releases form: ``20 × σ² = 4 (sensitivity 2)``,
    ``5 × discrete Laplace t = 2``."""
    noise, s = release["noise"], release["sensitivity"]
    law = f"σ² = {show(rational(noise['sigma2']))}" if noise["family"] == "discrete-gaussian" else \
        f"discrete Laplace t = {show(rational(noise['t']))}"
    return f"{release['count']} × {law}" + ("" if s == 1 else f" (sensitivity {s})")


def law_name(inp):
    """The innovation law and, at γ = 0, that this is plain composition."""
    name = "discrete Gaussian" if inp.get("noise") is None else "discrete Laplace"
    return f"{name}, plain composition" if inp["gamma"] == "0" else f"{name}, {MECHANISM}"


def display_digits(width):
    """Decimal places for displays: 8 more than the first significant place of the width."""
    width = mpq(width)
    if width <= 0:
        return 30
    d = 0
    while mpq(1, mpz(10) ** d) > width and d < 52:
        d += 1
    return max(12, d + 8)
