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

from auditor.rationals import ceil, floor, read_rational, show, write_rational

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
    return (f"BRACE run {_brace_claim(cert['input'], res['brace'])}; "
            f"squared error per coordinate at the last step: {errors}")


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


def _gamma_sigma2(gamma, sigma2):
    return f"gamma = {rational_text(_q(gamma))}, sigma^2 = {rational_text(_q(sigma2))}"


# ---- hierarchy/1 ------------------------------------------------------------------------

def cut_set_text(cuts, budget):
    """``S = {0..6} without {1}`` or ``23 of the cuts 0..30`` (all cuts are 0..C-2).

    >>> cut_set_text([0, 2, 3, 4, 5, 6], 8)
    'S = {0..6} without {1}'
    >>> cut_set_text(list(range(0, 31, 2)), 32)
    'S = 16 of the cuts 0..30'
    """
    every = range(budget - 1)
    missing = [b for b in every if b not in set(cuts)]
    if not cuts:
        return "S empty"
    if not missing:
        return f"S = all cuts 0..{budget - 2}"
    if len(missing) <= MAX_LISTED:
        return f"S = {{0..{budget - 2}}} without {{{', '.join(map(str, missing))}}}"
    if len(cuts) <= MAX_LISTED:
        return f"S = {{{', '.join(map(str, cuts))}}}"
    return f"S = {len(cuts)} of the cuts 0..{budget - 2}"


def hierarchy(cert):
    """``eps*_8(1/10000) <= 4.867767 for gamma = 1/3, sigma^2 = 9 (depth-4 proof hierarchy)``.

    An epsilon query states ``Delta*_C(eps) <= upper`` instead (rounded up).
    """
    inp, res = cert["input"], cert["result"]
    C, model = inp["budget"], inp["model"]
    if model["game"] == "depth":
        game = f"depth-{model['depth']} proof hierarchy"
    else:
        game = f"cut game U_S, {cut_set_text(model['cuts'], C)}"
    if "delta" in inp["query"]:
        head = f"eps*_{C}({rational_text(_q(inp['query']['delta']))}) <= {upper_text(_q(res['epsilon']))}"
    else:
        head = f"Delta*_{C}({rational_text(_q(inp['query']['epsilon']))}) <= {upper_text(_q(res['upper']))}"
    return f"{head} for {_gamma_sigma2(inp['gamma'], inp['sigma2'])} ({game})"


# ---- deadline-witness/1 -------------------------------------------------------------------

def _sign(j):
    return {1: "+1", -1: "-1", 0: "0"}.get(j, str(j))


def deadline_witness(cert):
    """``H_{e^2}(P_T || Q_T) >= 0.00008284895910 at T = 3; ... for gamma = 1/3, sigma^2 = 9, C = 2 (...)``.

    P_T, Q_T: the discrete-Gaussian transcripts of the certificate's stopping
    program with T releases; each stated bound is the certified one rounded down.
    With a reference, its certified upper end Delta*_C(eps) <= u (rounded up).
    """
    inp, res = cert["input"], cert["result"]
    eps = rational_text(_q(inp["epsilon"]))
    bounds = [f"{lower_text(_q(d['lower']))} at T = {T}" for d, T in zip(res["deadlines"], inp["deadlines"])]
    shown = ", >= ".join(bounds[:MAX_LISTED])
    if len(bounds) > MAX_LISTED:
        shown += f" and {len(bounds) - MAX_LISTED} more deadlines"
    patterns = inp["patterns"]
    if len(patterns) == 1:
        program = f"suffix ({','.join(_sign(j) for j in patterns[0])})"
    else:
        program = f"best of {len(patterns)} suffixes of length {len(patterns[0])}"
    head = f"H_{{e^{eps}}}(P_T || Q_T) >= {shown}" if bounds else "no deadline"
    reference = res["reference"]
    if reference is not None:
        upper = _q(reference["result"]["interval"]["upper"])
        program += f"; reference Delta*_{inp['budget']}({eps}) <= {upper_text(upper)}"
    return (f"{head} for "
            f"{_gamma_sigma2(inp['gamma'], inp['sigma2'])}, C = {inp['budget']} (deadline witness, {program})")


# ---- workload/1 ---------------------------------------------------------------------------

def workload(cert):
    """``delta(2) <= ... for the static workload with A = 15I + J (n = 100), sigma^2 = 1444, ...``."""
    inp, res = cert["input"], cert["result"]
    ones = _q(inp["ones"])
    matrix = f"{rational_text(_q(inp['diagonal']))}I + {'' if ones == 1 else rational_text(ones)}J"
    cases = len(res["identity_checks"])
    return (f"delta({rational_text(_q(inp['epsilon']))}) <= {upper_text(_q(res['delta_upper']))} "
            f"for the static workload with A = {matrix} (dimension {inp['dimension']}), "
            f"sigma^2 = {rational_text(_q(inp['sigma2']))}, theta = {inp['theta']}; "
            f"the G.6 mean-square identity on {cases} small law{'s' if cases != 1 else ''}")


# ---- separation/1 -------------------------------------------------------------------------

def _separated(privacy, upper, separator, witness, lower):
    """``privacy < s < witness (privacy <= upper, witness >= lower)``, every part true."""
    return (f"{privacy} < {rational_text(separator)} < {witness} "
            f"({privacy} <= {upper_text(upper)}, {witness} >= {lower_text(lower)})")


def _privacy_bound(res):
    """Name and certified upper end of the embedded dg-interval/1 certificate."""
    embedded = res["privacy_bound"]["input"]
    name = f"Delta*_{embedded['budget']}({rational_text(_q(embedded['epsilon']))})"
    return name, _q(res["privacy_bound"]["result"]["interval"]["upper"]), embedded


def _mechanism(inp):
    """``gamma = 1/3, sigma^2 = 9, C = 2, eps = 2``: the mechanism and question of a separation."""
    return (f"{_gamma_sigma2(inp['gamma'], inp['sigma2'])}, C = 2, "
            f"eps = {rational_text(_q(inp['epsilon']))}")


def _finite_relaxation(inp, res):
    return (f"G_2({rational_text(_q(inp['x']))}, {rational_text(_q(inp['y']))}) - {rational_text(_q(inp['y']))} "
            f"= {rational_text(_q(res['autonomous']))} < {rational_text(_q(res['one_digit']))} "
            f"(one-digit relaxation) < {rational_text(_q(res['offset']))} (offset relaxation) "
            f"for gamma = {rational_text(_q(inp['gamma']))}, law {law_text(inp['law'])}")


def _dg_relaxation(inp, res):
    privacy, upper, embedded = _privacy_bound(res)
    level = RELAXATION_LEVELS.get(inp["relaxation"], "?")
    witness = f"Delta^({level})_{embedded['budget']}({rational_text(_q(embedded['epsilon']))})"
    return (_separated(privacy, upper, _q(inp["separator"]), witness,
                       _q(res["relaxation_interval"]["lower"]))
            + f" for the {inp['relaxation']} relaxation {witness}, {_mechanism(inp)}")


RELAXATION_LEVELS = {"one-digit": 1, "offset": 0}
"""The paper's names Delta^(1) (one re-chosen digit) and Delta^(0) (free offsets)."""


def _offset_event(inp, res):
    privacy, upper, embedded = _privacy_bound(res)
    eps = rational_text(_q(inp["epsilon"]))
    witness = f"P(A) - e^{eps} Q(A)"
    return (_separated(privacy, upper, _q(inp["separator"]), witness, _q(res["payoff"]["lower"]))
            + f" for an offset-class event A of {res['count']} atoms, {_mechanism(inp)}")


def _binary_pair(inp, res):
    privacy, upper, embedded = _privacy_bound(res)
    eps = rational_text(_q(inp["epsilon"]))
    witness = f"H_{{e^{eps}}}(P_b || Q_b)"
    return (_separated(privacy, upper, _q(inp["separator"]), witness, _q(res["payoff"]["lower"]))
            + f", D_inf(P_b, Q_b) <= {upper_text(_q(res['d_infinity_upper']))} "
            f"for the binary pair p = {rational_text(_q(inp['p']))}, q = {rational_text(_q(inp['q']))}, "
            f"{_mechanism(inp)}")


def _renyi_cover(inp, res):
    bands, top = res["bands"], res["top"]
    order = rational_text(_q(top["order"]))
    return (f"D_alpha(P_3 || Q_3) > D_alpha of the binary pair (both directions) for every "
            f"order alpha >= {rational_text(_q(bands[0]['left']))} ({len(bands)} bands up to "
            f"{rational_text(_q(bands[-1]['right']))}; D_{order}(P_3 || Q_3) >= "
            f"{lower_text(_q(top['lower']))} > {upper_text(_q(top['d_infinity_upper']))} >= D_inf) "
            f"for the (+1,+1,echo) suffix, {_gamma_sigma2(inp['gamma'], inp['sigma2'])}, "
            f"p = {rational_text(_q(inp['p']))}, q = {rational_text(_q(inp['q']))}")


SEPARATIONS = {
    "finite-relaxation": _finite_relaxation,
    "dg-relaxation": _dg_relaxation,
    "offset-event": _offset_event,
    "binary-pair": _binary_pair,
    "renyi-cover": _renyi_cover,
}


def separation(cert):
    """A certified privacy upper end strictly below a certified witness/relaxation lower end."""
    inp = cert["input"]
    return SEPARATIONS[inp["claim"]](inp, cert["result"])


# ---- calibration-lower/1 ------------------------------------------------------------------

def calibration_lower(cert):
    """``eps*_8(1/10000) >= 4.834164195612 for gamma = 1/3, sigma^2 = 9 (target-{0} witness lines)``."""
    inp, res = cert["input"], cert["result"]
    if inp["claim"] == "target-zero":
        witness = "target-{0} witness lines"
    else:
        witness = (f"capped preparation of state {inp['target']} from 0 within {inp['cap']} "
                   f"releases, T = {inp['horizon']}")
    return (f"eps*_{inp['budget']}({rational_text(_q(inp['delta']))}) >= "
            f"{lower_text(_q(res['epsilon_lower']))} for {_gamma_sigma2(inp['gamma'], inp['sigma2'])} "
            f"({witness})")


# ---- plain-composition/1 --------------------------------------------------------------------

def _noise_text(noise):
    if noise["family"] == "discrete-gaussian":
        return f"the discrete Gaussian sigma^2 = {rational_text(_q(noise['sigma2']))}"
    return f"the discrete Laplace t = {rational_text(_q(noise['t']))}"


def plain_composition(cert):
    """The points of a plain-composition certificate, e.g.

    ``delta(eps) of the 8-fold plain composition of the discrete Gaussian sigma^2 = 9: eps = 1/2: delta in [..]; ...``.
    """
    inp, points = cert["input"], cert["result"]["points"]
    listed = [f"eps = {rational_text(_q(p['epsilon']))}: delta in "
              f"{interval_text(_q(p['lower']), _q(p['upper']))}" for p in points]
    return (f"delta(eps) of the {inp['budget']}-fold plain composition of {_noise_text(inp['noise'])}: "
            f"{_listed(listed)}")


def _claim_of_checks(kind):
    """The ``claim(cert)`` of the kind's checks module (kinds born with their summary there)."""
    def build(cert):
        from auditor.checks import checker_for   # at call time: the checks modules import this one
        return checker_for(kind).claim(cert)
    return build


SUMMARIES = {
    "finite-game": finite_game,
    "dg-interval": dg_interval,
    "calibration": calibration,
    "envelope": envelope,
    "brace-run": brace_run,
    "brace-compare": brace_compare,
    "hierarchy": hierarchy,
    "deadline-witness": deadline_witness,
    "workload": workload,
    "separation": separation,
    "calibration-lower": calibration_lower,
    "plain-composition": plain_composition,
    "dpsgd": _claim_of_checks("dpsgd"),
    "hierarchy-exact": _claim_of_checks("hierarchy-exact"),
    "block-composition": _claim_of_checks("block-composition"),
    "minimum-deletion": _claim_of_checks("minimum-deletion"),
    "minimum-depth": _claim_of_checks("minimum-depth"),
    "epsilon-bracket": _claim_of_checks("epsilon-bracket"),
}


def _checks_claim(kind):
    """The ``claim(cert)`` of the kind's checks module (kinds born in the target layout keep it there)."""
    from auditor.checks import checker_for  # lazy: the checks import this module

    module = checker_for(kind)
    return getattr(module, "claim", None) if module is not None else None


def summary(kind, cert):
    """The one-line certified claim of a *verified* certificate of ``kind``.

    A field the summary needs but cannot find (a format changed) gives a
    shorter line naming the kind only; the verdict never depends on this.
    """
    build = SUMMARIES.get(kind) or _checks_claim(kind)
    if build is None:
        return f"a {kind} certificate"
    try:
        return build(cert)
    except Exception:  # a summary must never change a verdict
        return f"a {kind} certificate (no summary of this form)"
