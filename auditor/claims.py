"""One-line summaries of what a verified certificate certifies.

:func:`summary` is called by :mod:`auditor.api` only *after* every check of a
certificate passed, so each number it states has been recomputed by the
auditor.  It reads the certificate's own fields (one small function per kind)
and states exact rationals when they are short; a long rational is stated by
a decimal enclosure of :data:`DIGITS` significant digits rounded outward (lower
end down, upper end up), so the line is true as written.

>>> rational_text(Fraction(4, 3))
'4/3'
>>> enclosure_text(Fraction(2, 3) / 10**4)
'[0.00006666666666, 0.00006666666667]'
"""

from fractions import Fraction

from auditor.rationals import read_rational, show, write_rational

DIGITS = 10
"""Significant digits of a decimal enclosure in a summary."""

SHORT = 24
"""Rationals written in at most this many characters are stated exactly."""

MAX_LISTED = 3
"""Queries listed in one summary line; the rest are counted."""


# ---- numbers ---------------------------------------------------------------------

def _q(text):
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


def _floor(q):
    return q.numerator // q.denominator


def _ceil(q):
    return -((-q.numerator) // q.denominator)


def outward(q, digits=DIGITS):
    """Decimal texts (lo, hi) of ``digits`` significant digits with lo <= q <= hi."""
    q = Fraction(q)
    if q == 0:
        return "0", "0"
    e = _exponent(q)
    if e > 12 or e < -12:  # scientific: mantissa d.ddd...
        scaled = q / Fraction(10) ** e * 10 ** (digits - 1)
        return (f"{_decimal(_floor(scaled), digits - 1)}e{e:+d}",
                f"{_decimal(_ceil(scaled), digits - 1)}e{e:+d}")
    places = digits - 1 - e
    scaled = q * Fraction(10) ** places
    return _decimal(_floor(scaled), places), _decimal(_ceil(scaled), places)


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


def _listed(items):
    items = list(items)
    shown = "; ".join(items[:MAX_LISTED])
    if len(items) > MAX_LISTED:
        shown += f"; and {len(items) - MAX_LISTED} more"
    return shown


# ---- the finite game ----------------------------------------------------------------

def law_text(law):
    """``(1,2,1)/4 on [-1..1]`` for a short law, else ``of 49 points on [-24..24]``."""
    weights = [_q(w) for w in law["weights"]]
    lo = law["offset"]
    hi = lo + len(weights) - 1
    total = sum(weights)
    if len(weights) <= 7 and all(len(write_rational(w)) <= 6 for w in weights):
        return f"({','.join(write_rational(w) for w in weights)})/{write_rational(total)} on [{lo}..{hi}]"
    return f"of {len(weights)} points on [{lo}..{hi}]"


def finite_game(cert):
    """``G_2(1, 1/2) = 4/3 for gamma = 1/3, law (1,2,1)/4 on [-1..1], C = 2``."""
    inp, res = cert["input"], cert["result"]
    C = inp["budget"]
    pending = inp.get("pending")
    if pending is None:
        head = f"G_{C}"
        prefix = ""
    else:
        head = f"F_{C}"
        prefix = f"({pending[0]}, {pending[1]}); "
    queries = [f"{head}({prefix}{rational_text(_q(q['x']))}, {rational_text(_q(q['y']))}) "
               f"{value_text(_q(q['value']))}" for q in res["queries"]]
    text = _listed(queries) if queries else "no query"
    if res.get("curve") is not None:
        text += f", with the testing curve of {head} ({len(res['curve'])} points)"
    return (f"{text} for gamma = {rational_text(_q(inp['gamma']))}, "
            f"law {law_text(inp['law'])}, C = {C}")


# ---- discrete Gaussian ------------------------------------------------------------------

def _dg_parameters(inp):
    noise = inp.get("noise")
    law = (f"sigma^2 = {rational_text(_q(inp['sigma2']))}" if noise is None
           else f"discrete Laplace t = {rational_text(_q(noise['t']))}")
    return f"gamma = {rational_text(_q(inp['gamma']))}, {law}, C = {inp['budget']}"


def dg_interval(cert):
    """``Delta*_2(2) in [lo, hi] for gamma = 1/3, sigma^2 = 9, C = 2``."""
    inp, iv = cert["input"], cert["result"]["interval"]
    return (f"Delta*_{inp['budget']}({rational_text(_q(inp['epsilon']))}) in "
            f"{interval_text(_q(iv['lower']), _q(iv['upper']))} "
            f"({'discrete Gaussian' if inp.get('noise') is None else 'discrete Laplace'}) "
            f"for {_dg_parameters(inp)}")


def calibration(cert):
    """``eps*_2(1/10000) in [lo, hi] for gamma = 1/3, sigma^2 = 9, C = 2``."""
    inp, res = cert["input"], cert["result"]
    head = f"eps*_{inp['budget']}({rational_text(_q(inp['delta']))})"
    if res.get("status") == "zero":
        body = f"{head} = 0"
    else:
        body = f"{head} in {interval_text(_q(res['epsilon_lo']), _q(res['epsilon_hi']))}"
    return f"{body} for {_dg_parameters(inp)}"


# ---- the PMW envelope ---------------------------------------------------------------------

def envelope(cert):
    """The instance and the status of each of its three claims."""
    inp, claims = cert["input"], cert["result"].get("claims", {})
    parts = []
    for name, label in (("pure_dp", f"pure {rational_text(_q(inp['epsilon']))}-DP"),
                        ("normaliser_bounds", "1 <= Z_x <= 1 + 2e"),
                        ("error_bound", "error bound")):
        status = claims.get(name, {}).get("status")
        if status is not None:
            parts.append(f"{label} {status}")
    k = len(inp["queries"])
    return (f"PMW envelope ({inp.get('variant', 'selection')}): {', '.join(parts) or 'no claim'} "
            f"for T = {inp['universe']}, n = {inp['records']}, k = {k}, J = {inp['rounds']}, "
            f"hedge {rational_text(_q(inp['hedge']))}, select {rational_text(_q(inp['select']))}")


# ---- BRACE ------------------------------------------------------------------------------------

def _brace_claim(inp, run):
    claim = run["claim"]
    return (f"({rational_text(_q(claim['epsilon']))}, {rational_text(_q(claim['delta']))})-DP "
            f"{claim['status']}, T = {inp['horizon']} steps on a {len(inp['bank']['points'])}-point "
            f"bank, gamma = {rational_text(_q(run['gamma']))}")


def brace_run(cert):
    """``BRACE run (128, 1/100000)-DP private, T = 5 steps on a 256-point bank, ...``."""
    return "BRACE run " + _brace_claim(cert["input"], cert["result"])


def brace_compare(cert):
    """The run's claim and the final-step squared errors of BRACE and each baseline."""
    res = cert["result"]
    finals = [("BRACE", res["brace_errors"])]
    finals += [(name, res["baselines"][name]["errors"]) for name in sorted(res["baselines"])]
    errors = ", ".join(f"{name} {enclosure_text(_q(errs[-1]), 4)}" for name, errs in finals if errs)
    return (f"BRACE run {_brace_claim(cert['input'], res['brace'])}; squared error per coordinate at the last step: {errors}")


SUMMARIES = {
    "finite-game": finite_game,
    "dg-interval": dg_interval,
    "calibration": calibration,
    "envelope": envelope,
    "brace-run": brace_run,
    "brace-compare": brace_compare,
}


def summary(kind, cert):
    """The one-line certified claim of a *verified* certificate of ``kind``.

    A field the summary needs but cannot find (a format changed) gives a
    shorter line naming the kind only; the verdict never depends on this.
    """
    build = SUMMARIES.get(kind)
    if build is None:
        return f"a {kind} certificate"
    try:
        return build(cert)
    except Exception:  # noqa: BLE001 - a summary must never change a verdict
        return f"a {kind} certificate (no summary of this form)"
