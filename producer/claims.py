"""The one-line human summary of a certificate: what was asked and what is certified.

Every producer command prints this line on stderr at the end, and
``producer.api.Certificate.claim`` returns it.  It echoes the parsed inputs
(so that a mistake such as σ typed for σ² shows) and states the answer.
Interval ends are rounded outward (exact decimal arithmetic), so a printed
interval always contains the certified one; exact values too long for a line
are shown as such an interval.  The line is a display: the certificate's
exact rationals are what counts.
"""

from gmpy2 import mpq

from producer.rationals import describe_rational, format_rational, significant_outward

SIGNIFICANT = 11  # digits of an interval end (10 after the point)
MECHANISM = "hidden integer feedback"


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


def _q(text):
    """A certificate's rational string as an mpq (gmpy2 reads it with no digit limit)."""
    return mpq(str(text))


def _law_text(law):
    weights, offset = law["weights"], law["offset"]
    high = offset + len(weights) - 1
    if len(weights) <= 8 and all(len(w) <= 6 for w in weights):
        total = sum(int(w) for w in weights)
        return f"ν = ({', '.join(weights)})/{total} on {{{offset}, …, {high}}}"
    return f"ν: {len(weights)} integer weights on {{{offset}, …, {high}}}"


def _finite_game(cert):
    inp, res = cert["input"], cert["result"]
    C, pending = inp["budget"], inp["pending"]
    name = f"G_{C}" if pending is None else f"F_{C}(({pending[0]}, {pending[1]});"
    parts = []
    queries = res["queries"]
    for q in queries[:2]:
        at = f"{name}({show(_q(q['x']))}, {show(_q(q['y']))})" if pending is None \
            else f"{name} {show(_q(q['x']))}, {show(_q(q['y']))})"
        text = f"{at} {show_value(_q(q['value']))}"
        if "hockey_stick" in q:
            text += f" (hockey-stick {show_value(_q(q['hockey_stick']))[2:]})"
        parts.append(text)
    if len(queries) > 2:
        parts.append(f"and {len(queries) - 2} more queries")
    if res.get("curve") is not None:
        parts.append(f"testing curve with {len(res['curve'])} vertices")
    return (f"{'; '.join(parts)} for γ = {inp['gamma']}, {_law_text(inp['law'])}, C = {C} "
            f"({'plain composition' if inp['gamma'] == '0' else MECHANISM}, finite law; "
            f"method {res['method']})")


def _dg_inputs(inp):
    noise = inp.get("noise")
    law = f"σ² = {show(_q(inp['sigma2']))}" if noise is None else f"t = {show(_q(noise['t']))}"
    return f"γ = {inp['gamma']}, {law}, C = {inp['budget']}"


def _law_name(inp):
    """The innovation law and, at γ = 0, that this is plain composition."""
    name = "discrete Gaussian" if inp.get("noise") is None else "discrete Laplace"
    return f"{name}, plain composition" if inp["gamma"] == "0" else f"{name}, {MECHANISM}"


def _dg_interval(cert):
    inp, res = cert["input"], cert["result"]
    interval = res["interval"]
    return (f"Δ*_{inp['budget']}({show(_q(inp['epsilon']))}) "
            f"∈ {show_interval(_q(interval['lower']), _q(interval['upper']))} "
            f"for {_dg_inputs(inp)} ({_law_name(inp)})")


def _calibration(cert):
    inp, res = cert["input"], cert["result"]
    C, delta = inp["budget"], show(_q(inp["delta"]))
    if res["status"] == "zero":
        answer = f"ε*_{C}({delta}) = 0 (already Δ*_{C}(0) ≤ δ)"
    else:
        answer = f"ε*_{C}({delta}) ∈ {show_interval(_q(res['epsilon_lo']), _q(res['epsilon_hi']))}"
    return (f"{answer} for {_dg_inputs(inp)}, δ = {delta}: the smallest ε with Δ*_{C}(ε) ≤ δ "
            f"({_law_name(inp)})")


def _envelope(cert):
    inp, claims = cert["input"], cert["result"]["claims"]
    error = claims["error_bound"]
    bound = error["bound_decimal"][1]
    worst = error["max_error_decimal"][1]
    return (f"envelope ({inp['variant']}) with T = {inp['universe']}, n = {inp['records']}, "
            f"k = {len(inp['queries'])}, J = {inp['rounds']}, γ = {show(_q(inp['hedge']))}, "
            f"η = {show(_q(inp['select']))}, ε = {show(_q(inp['epsilon']))}: "
            f"pure ε-DP {claims['pure_dp']['status']}, normaliser bounds "
            f"{claims['normaliser_bounds']['status']}, error bound {error['status']} "
            f"(expected {error['measure']} error ≤ {worst} against the bound {bound})")


def _brace_inputs(inp):
    n, d = len(inp["bank"]["points"]), len(inp["query"])
    return (f"bank '{inp['bank']['name']}' (n = {n}, d = {d}), T = {inp['horizon']}, "
            f"r² = {show(_q(inp['r2']))}, κ = {show(_q(inp['kappa']))}, seed {inp['seed']}")


def _brace_claim(inp, res):
    claim = res["claim"]
    return (f"({show(_q(claim['epsilon']))}, {show(_q(claim['delta']))})-DP: {claim['status']} "
            f"at γ = {show(_q(res['gamma']))}")


def _brace_run(cert):
    inp, res = cert["input"], cert["result"]
    return f"BRACE run: {_brace_claim(inp, res)} for {_brace_inputs(inp)}"


def _approx(text):
    return "≈" + significant_outward(_q(text), 4, -1)


def _brace_compare(cert):
    inp, res = cert["input"], cert["result"]
    errors = [f"BRACE {_approx(res['brace_errors'][-1])}"]
    for name, baseline in sorted(res["baselines"].items()):
        errors.append(f"{name} {_approx(baseline['errors'][-1])}")
    return (f"BRACE against baselines: {_brace_claim(inp, res['brace'])} for {_brace_inputs(inp)}; "
            f"final squared error per coordinate: {', '.join(errors)}")


def _down(text):
    """A certified lower end, rounded down (the shown number is <= it)."""
    return significant_outward(_q(text), SIGNIFICANT, -1)


def _up(text):
    """A certified upper end, rounded up (the shown number is >= it)."""
    return significant_outward(_q(text), SIGNIFICANT, +1)


def _model_text(model):
    if model["game"] == "depth":
        return f"commitment hierarchy, depth {model['depth']}"
    cuts = model["cuts"]
    shown = ", ".join(str(c) for c in cuts[:8]) + (", …" if len(cuts) > 8 else "")
    return f"cut game U_S, S = {{{shown}}} ({len(cuts)} cuts)"


def _hierarchy(cert):
    inp, res = cert["input"], cert["result"]
    C, query = inp["budget"], inp["query"]
    if "delta" in query and query["delta"] is not None:
        answer = f"ε*_{C}({show(_q(query['delta']))}) ≤ {res['epsilon_display']}"
    else:
        answer = f"Δ*_{C}({show(_q(query['epsilon']))}) ≤ {_up(res['upper'])}"
    return f"{answer} for {_dg_inputs(inp)} ({_model_text(inp['model'])})"


def _deadline_witness(cert):
    inp, res = cert["input"], cert["result"]
    eps = show(_q(inp["epsilon"]))
    rows = res["deadlines"]
    parts = [f"H_{{e^{eps}}}(P_{d['T']}‖Q_{d['T']}) ≥ {_down(d['lower'])}" for d in rows[:3]]
    if len(rows) > 3:
        parts.append(f"and {len(rows) - 3} more deadlines")
    reading = "fixed suffix" if len(inp["patterns"]) == 1 else f"best of {len(inp['patterns'])} suffixes"
    return (f"{'; '.join(parts)} for γ = {inp['gamma']}, σ² = {show(_q(inp['sigma2']))}, "
            f"source L = {inp['radius']} (deadline witness of the physical program, {reading})")


def _workload(cert):
    inp, res = cert["input"], cert["result"]
    checks = len(res["identity_checks"])
    identity = f"; G.6 identity checked in {checks} cases" if checks else ""
    return (f"δ({show(_q(inp['epsilon']))}) ≤ {_up(res['delta_upper'])} for A = {inp['diagonal']}·I + "
            f"{inp['ones']}·J, n = {inp['dimension']}, σ² = {show(_q(inp['sigma2']))}, θ = {inp['theta']} "
            f"(static workload, finite discrete-Gaussian draws{identity})")


def _privacy_upper(res):
    return _up(res["privacy_bound"]["result"]["interval"]["upper"])


def _separation(cert):
    res = cert["result"]
    claim = res["claim"]
    if claim == "finite-relaxation":
        return (f"autonomous {show_value(_q(res['autonomous']))[2:]} < one-digit "
                f"{show_value(_q(res['one_digit']))[2:]} < offset {show_value(_q(res['offset']))[2:]} "
                f"at (x, y) = ({show(_q(res['x']))}, {show(_q(res['y']))}) for γ = {res['gamma']}, "
                f"{_law_text(res['law'])} (separation, finite relaxations, C = 2)")
    if claim == "renyi-cover":
        top = res["top"]
        return (f"Rényi lower bounds exceed the binary pair's at every order in "
                f"[{res['bands'][0]['left']}, {res['bands'][-1]['right']}] and at order {top['order']} "
                f"{_down(top['lower'])} > D_∞ ≤ {_up(top['d_infinity_upper'])} for σ² = "
                f"{show(_q(res['sigma2']))}, p = {show(_q(res['p']))}, q = {show(_q(res['q']))} "
                f"(separation, Rényi cover)")
    lower = res["relaxation_interval"] if claim == "dg-relaxation" else res["payoff"]
    what = {"dg-relaxation": f"{res.get('relaxation')} relaxation", "offset-event": "offset event",
            "binary-pair": "binary pair"}[claim]
    return (f"{what} ≥ {_down(lower['lower'])} > s = {show(_q(res['separator']))} > Δ*_2("
            f"{show(_q(res['epsilon']))}) ≤ {_privacy_upper(res)} (separation, {claim})")


def _calibration_lower(cert):
    res = cert["result"]
    C, delta = res["budget"], show(_q(res["delta"]))
    return (f"ε*_{C}({delta}) ≥ {res['epsilon_lower_display']} for γ = {res['gamma']}, "
            f"σ² = {show(_q(res['sigma2']))}, C = {C} ({res['claim']} witness line, {res['draws']} draws)")


def _plain_noise(noise):
    if noise["family"] == "discrete-gaussian":
        return f"discrete Gaussian σ² = {show(_q(noise['sigma2']))}"
    return f"discrete Laplace t = {show(_q(noise['t']))}"


def _plain_composition(cert):
    inp, points = cert["input"], cert["result"]["points"]
    C = inp["budget"]
    parts = [f"δ_{C}({show(_q(p['epsilon']))}) {_plain_value(p)}" for p in points[:2]]
    if len(points) > 2:
        parts.append(f"and {len(points) - 2} more point{'s' if len(points) > 3 else ''}")
    return (f"{'; '.join(parts)} for the {C}-fold plain composition of the {_plain_noise(inp['noise'])}, "
            f"sensitivity 1 (product pair; width ≤ {show(_q(inp['width']))})")


def _plain_value(point):
    lower, upper = _q(point["lower"]), _q(point["upper"])
    if lower == upper:
        return f"= {format_rational(lower)}"
    return f"∈ {show_interval(lower, upper)}"


_BY_KIND = {
    "finite-game/1": _finite_game,
    "dg-interval/1": _dg_interval,
    "calibration/1": _calibration,
    "envelope/1": _envelope,
    "brace-run/1": _brace_run,
    "brace-compare/1": _brace_compare,
    "hierarchy/1": _hierarchy,
    "deadline-witness/1": _deadline_witness,
    "workload/1": _workload,
    "separation/1": _separation,
    "calibration-lower/1": _calibration_lower,
    "plain-composition/1": _plain_composition,
}


def claim_of(certificate):
    """The one-line human summary of ``certificate`` (a certificate dict)."""
    summary = _BY_KIND.get(certificate["schema"])
    if summary is None:  # kinds born in producer/kinds/ carry their own claim()
        from producer.kinds import claim_of as kind_claim
        return kind_claim(certificate)
    return summary(certificate)
