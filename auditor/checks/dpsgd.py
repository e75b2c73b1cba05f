"""Checks of ``dpsgd/1`` certificates: ε(δ) or δ(ε) of DP-SGD (docs/dpsgd.md, §9).

The question is ``input`` (the schedule of stages (q, σ, T), δ or the ε
list, the relative width R); every ``result`` field but ``discretisation``
is a claim; ``discretisation`` is the recipe the claims are checked with (its
numbers fix the auditor's route; nothing stored is trusted).  In order:

1. Domain (MALFORMED outside it): 10^−5 <= q <= 1, 1/2 <= σ <= 100,
   Σ T <= 10^6; 10^−30 <= δ < 1, or 1..64 strictly increasing ε in
   [0, 500]; 10^−6 <= R <= 1/2; a result of the question's form; a ``pld``
   route with a discretisation, a ``gaussian`` one without.
2. Route (FAIL): ``gaussian`` exactly when every stage has q = 1.
3. Recipe (MALFORMED): one range per stage, lo <= hi everywhere, per chain
   one window list per stage of the length the powering prescribes
   ((bit length of T − 1) + (popcount of T − 1)) and S − 1 ``combine``
   windows; a lower chain for every order a claim names.
4. Work (UNCHECKED, before any enclosure is computed), from the recipe's
   numbers alone: |lo|, |hi| <= :data:`MAX_LOSS`·N; working precision <=
   :data:`MAX_WORKING_BITS`; Σ (hi − lo + 1) <= :data:`MAX_BUCKETS`; every
   array (window, product) <= :data:`MAX_ENTRIES` entries; 2^K (2^K′) >=
   4·ΣT·(3·n + 3) for the longest array n, which keeps every rounded total
   below twice the scale (so the field bits are as estimated); every ε
   evaluated <= :data:`MAX_EPSILON`.  And the whole check within the file's
   budget (:mod:`auditor.budget`): the masses of every bucket, Σ_s n_s·(W_s +
   ⌊W_s²/1024⌋ + ⌊parts_s/4⌋)·:data:`MASS_NS` work units (n_s the buckets of
   stage s, W_s its working bits, parts_s the bits of q's and σ's numerators
   and denominators), plus every product of the chains checked,
   Σ (n_A + n_B)·(field bits)·:data:`CONVOLUTION_NS`; memory the larger of
   Σ_s n_s·(1024 + 2·W_s) bytes (the masses) and Σ_s 6·(n_s + 1)·(64 +
   max(K, K′)/8) bytes (the single-step arrays kept) plus (384 + field
   bits/2) bytes per entry of the longest product (:func:`estimate`).  The retry is run only when the
   file's budget affords it too (its masses at W_s + 64).
5. Exact claims (FAIL): ε_lo <= ε_hi and ε_hi − ε_lo <= R·ε_hi, or one point
   per ε in order with lower <= upper <= 1 and upper − lower <= R·upper (or
   upper <= 10^−30); ``lower_order`` null exactly when the lower end is 0 (and
   on the gaussian route); displays are the exact values rounded outward
   (down for lower ends, up for upper ends) to 10 significant digits.  Two
   exact facts: 0 < δ(ε) < 1 for every ε (the loss is unbounded above, and
   the laws share their support), so upper = 0 and lower >= 1 are false.
6. Enclosure claims, three-way (:mod:`auditor.decide`): δ(ε_hi) <= δ,
   δ(ε_lo) > δ (when ε_lo > 0), δ(ε) <= upper, δ(ε) >= lower (when > 0).
   ``gaussian``: the auditor's closed-form enclosure (:mod:`auditor.pld.gaussian`).
   ``pld``: the auditor's own single-step arrays (:mod:`auditor.pld.masses`),
   composed with the recorded windows (:mod:`auditor.pld.composition`), give
   upper bounds F of both orders and, for the orders the claims name, lower
   bounds L (:mod:`auditor.pld.answer`).  An upper claim is proved by
   max F <= value and disproved by L > value; a lower claim is proved by the
   named order's L, disproved by max F below the value.  Open claims are
   retried once with more guard bits (when the file's budget affords it);
   still open, the claim is not established by the certificate's recipe: a
   FAIL, like a disproved one.
"""

from fractions import Fraction

from auditor import budget
from auditor import claims as summaries
from auditor.certificate import Malformed
from auditor import common
from auditor.decide import OPEN, PROVED, state
from auditor.enclosures import exp_bounds
from auditor.outcomes import Unchecked
from auditor.pld import answer, composition, gaussian, masses
from auditor.rationals import ceil_div, read_rational, show

# ---- the domain ---------------------------------------------------------------------------
MAX_STEPS = 10 ** 6
Q_MIN, Q_MAX = Fraction(1, 10 ** 5), Fraction(1)
SIGMA_MIN, SIGMA_MAX = Fraction(1, 2), Fraction(100)
DELTA_MIN = Fraction(1, 10 ** 30)
EPSILON_INPUT_MAX = Fraction(500)
WIDTH_MIN, WIDTH_MAX = Fraction(1, 10 ** 6), Fraction(1, 2)
TINY = Fraction(1, 10 ** 30)
"""A point with upper <= TINY needs no width."""
DISPLAY_DIGITS = 10

# ---- the limits (UNCHECKED beyond them, before any work) -------------------------------------
MAX_EPSILON = Fraction(2000)
"""Largest ε at which a claim is evaluated (stored ε_lo, ε_hi)."""
MAX_LOSS = 1024
"""Largest |lo|/N and |hi|/N of a single-step range (loss values)."""
MAX_WORKING_BITS = 4096
"""Largest working precision of the single-step masses (bits)."""
MAX_BUCKETS = 2 * 10 ** 6
"""Most single-step buckets over all stages."""
MAX_ENTRIES = 1 << 22
"""Longest array (a window or a product) of a composition chain."""

# ---- the whole check's work and memory (auditor.budget), measured on the development machine ----------
MASS_NS = 160
"""Work units per bucket and unit of W + W²/1024 (W the working bits): 250,000 buckets took 5.7 s at W = 138,
16 s at W = 466 and 74 s at W = 1066 (the estimates: 6.2, 27 and 87 s)."""
MASS_BYTES, MASS_BYTES_PER_BIT = 1024, 2
"""Memory of the masses per bucket: 1024 + 2·W bytes (measured 1077, 1548 and 2604 bytes at those W)."""
CONVOLUTION_NS = 3
"""Work units per (n_A + n_B) × field bits of a product (measured 2.2 to 2.5; the producer's largest
requests, T = 10^6, are about 5·10^9, 15 s)."""
KEPT_ARRAYS, KEPT_BYTES = 6, 64
"""The single-step arrays kept while the chains are composed: six per stage, 64 + K/8 bytes an entry."""
PRODUCT_BYTES = 384
"""Memory per entry of the longest product: 384 + field bits/2 bytes (measured 393 at 168-bit fields,
679 at 856-bit ones: the packed integers, the unpacked and rounded lists, the kept window)."""
MAX_GAUSSIAN_BITS = 1 << 13
"""Largest precision of the closed-form enclosure (bits)."""
RETRY_GUARD = 64
"""Extra guard bits of the second (and last) attempt at open claims."""

ORDERS = ("remove", "add")


def verify(cert, report):
    """Every claim of a schema-valid ``dpsgd/1`` certificate, in the order of the module docstring."""
    p = parse(cert)
    if not _check_route(p, report):
        return
    plan = _plan(p, cert) if p["route"] == "pld" else None
    pending = _exact_claims(p, cert, report)
    if not report.ok:
        return  # a false exact claim: no need for the enclosures
    for c in pending:
        if c.epsilon > MAX_EPSILON:
            raise Unchecked(c.pointer, c.epsilon, MAX_EPSILON, "epsilon to evaluate")
    if plan is not None:
        budget.reserve(report, [(cert, estimate_plan(p, plan))])
    if p["route"] == "gaussian":
        _decide_gaussian(p, pending, report)
    else:
        retried = _decide_pld(p, plan, pending, report)
        _settle(pending, report, "" if retried else
                f"; a retry with {RETRY_GUARD} more guard bits would exceed the file's budget")


def estimate(cert, prefix=""):
    """The estimated first pass of the whole check (:class:`auditor.budget.Cost`); UNCHECKED beyond a limit
    of the kind.  Pointers start at ``prefix`` (an embedding certificate's place for this one)."""
    p = parse(cert)
    if p["route"] != "pld":
        return budget.Cost(pointer=prefix + "/result/route", what="closed form")
    cost = estimate_plan(p, _plan(p, cert))
    return budget.Cost(cost.work, cost.memory, prefix + cost.pointer, cost.what)


# ---- 1. domain ------------------------------------------------------------------------------

def _bounded(value, lo, hi, pointer, text, hi_open=False):
    if value < lo or value > hi or (hi_open and value == hi):
        raise Malformed(f"{pointer}: {show(value)} is outside the domain {text}")
    return value


def parse(cert):
    """The question and the result's form, validated against the kind's domain (Malformed outside it)."""
    inp, res = cert["input"], cert["result"]
    stages = []
    for s, stage in enumerate(inp["stages"]):
        P = f"/input/stages/{s}"
        q = _bounded(read_rational(stage["sampling_rate"], P + "/sampling_rate"), Q_MIN, Q_MAX,
                     P + "/sampling_rate", "[10^-5, 1]")
        sigma = _bounded(read_rational(stage["noise_multiplier"], P + "/noise_multiplier"), SIGMA_MIN,
                         SIGMA_MAX, P + "/noise_multiplier", "[1/2, 100]")
        steps = common.integer(stage["steps"], P + "/steps", 1)
        stages.append((q, sigma, steps))
    total = sum(steps for _, _, steps in stages)
    if total > MAX_STEPS:
        raise Malformed(f"/input/stages: {common.magnitude(total)} steps in all exceed the domain's 10^6")
    width = _bounded(read_rational(inp["rel_width"], "/input/rel_width"), WIDTH_MIN, WIDTH_MAX,
                     "/input/rel_width", "[10^-6, 1/2]")
    p = {"stages": stages, "width": width, "route": res["route"], "total": total}
    if "delta" in inp:
        p["delta"] = _bounded(read_rational(inp["delta"], "/input/delta"), DELTA_MIN, Fraction(1),
                              "/input/delta", "[10^-30, 1)", hi_open=True)
        if "points" in res:
            raise Malformed("/result/points: the question asks for ε(δ) (input.delta), not points")
    else:
        epsilons = [read_rational(e, f"/input/epsilons/{i}") for i, e in enumerate(inp["epsilons"])]
        for i, e in enumerate(epsilons):
            _bounded(e, Fraction(0), EPSILON_INPUT_MAX, f"/input/epsilons/{i}", "[0, 500]")
            if i and e <= epsilons[i - 1]:
                raise Malformed(f"/input/epsilons/{i}: {show(e)} does not exceed the previous "
                                f"{show(epsilons[i - 1])} (the epsilons must be strictly increasing)")
        p["epsilons"] = epsilons
        if "points" not in res:
            raise Malformed("/result: the question asks for δ at the input epsilons (result.points)")
    discretisation = res["discretisation"]
    if (p["route"] == "pld") != (discretisation is not None):
        raise Malformed("/result/discretisation: must be null exactly for the gaussian route")
    return p


# ---- 2. route -------------------------------------------------------------------------------

def _check_route(p, report):
    gaussian_only = all(q == 1 for q, _, _ in p["stages"])
    expected = "gaussian" if gaussian_only else "pld"
    return report.check(p["route"] == expected, "/result/route", p["route"], expected,
                        "the route is gaussian exactly when every stage has q = 1")


# ---- 3. and 4. the recipe and the work ------------------------------------------------------

def _window(value, pointer):
    lo = common.integer(value[0], pointer + "/0")
    hi = common.integer(value[1], pointer + "/1")
    if lo > hi:
        raise Malformed(f"{pointer}: window [{common.magnitude(lo)}, {common.magnitude(hi)}] has lo > hi")
    return lo, hi


def _chain(value, stages, pointer):
    """The windows of one chain: ([windows per stage], [combine windows]), lengths checked."""
    if len(value["stages"]) != len(stages):
        raise Malformed(f"{pointer}/stages: {len(value['stages'])} window lists for {len(stages)} stages")
    per_stage = []
    for s, (windows, stage) in enumerate(zip(value["stages"], stages)):
        need = composition.products_in_power(stage.steps)
        if len(windows) != need:
            raise Malformed(f"{pointer}/stages/{s}: {len(windows)} windows, but T = {stage.steps} takes "
                            f"{need} products")
        per_stage.append([_window(w, f"{pointer}/stages/{s}/{i}") for i, w in enumerate(windows)])
    if len(value["combine"]) != len(stages) - 1:
        raise Malformed(f"{pointer}/combine: {len(value['combine'])} windows for {len(stages)} stages "
                        f"(need {len(stages) - 1})")
    combine = [_window(w, f"{pointer}/combine/{i}") for i, w in enumerate(value["combine"])]
    return per_stage, combine


def _named_orders(cert):
    res = cert["result"]
    named = set()
    if "points" in res:
        named.update(pt["lower_order"] for pt in res["points"])
    else:
        named.add(res["lower_order"])
    named.discard(None)
    return named


def _plan(p, cert):
    """The recipe, checked for shape (Malformed); its work is estimated separately (:func:`estimate_plan`)."""
    d = cert["result"]["discretisation"]
    P = "/result/discretisation"
    N = common.integer(d["grid"], P + "/grid", 1)
    K = common.integer(d["p_bits"], P + "/p_bits", 1)
    K_q = common.integer(d["q_bits"], P + "/q_bits", 1)
    if len(d["ranges"]) != len(p["stages"]):
        raise Malformed(f"{P}/ranges: {len(d['ranges'])} ranges for {len(p['stages'])} stages")
    stages = []
    for s, ((q, sigma, steps), r) in enumerate(zip(p["stages"], d["ranges"])):
        lo, hi = _window(r, f"{P}/ranges/{s}")
        stages.append(masses.Stage(q, sigma, steps, lo, hi))
    named = _named_orders(cert)
    chains = {}
    for order in ORDERS:
        W = d["windows"][order]
        upper = _chain(W["upper"], stages, f"{P}/windows/{order}/upper")
        lower = None if W["lower"] is None else _chain(W["lower"], stages, f"{P}/windows/{order}/lower")
        if order in named and lower is None:
            raise Malformed(f"{P}/windows/{order}/lower: null, but a lower end names the order {order}")
        # a recorded lower chain that no claim names is shape-checked, never computed
        chains[order] = {"upper": upper, "lower": lower if order in named else None}
    return {"N": N, "K": K, "K_q": K_q, "stages": stages, "chains": chains, "named": named}


def estimate_plan(p, plan, guard=0):
    """The work and memory of one pass at ``guard`` extra bits (:class:`auditor.budget.Cost`), from the
    recipe's numbers alone; UNCHECKED beyond a limit of the kind (module docstring, step 4)."""
    N, K, K_q, stages = plan["N"], plan["K"], plan["K_q"], plan["stages"]
    P = "/result/discretisation"
    buckets = mass_work = mass_memory = 0
    for s, st in enumerate(stages):
        loss = ceil_div(max(abs(st.lo), abs(st.hi)), N)
        if loss > MAX_LOSS:
            raise Unchecked(f"{P}/ranges/{s}", loss, MAX_LOSS, "largest |loss| of the single-step range")
        bits = masses.working_bits(st, N, K, K_q)
        if bits + RETRY_GUARD > MAX_WORKING_BITS:
            raise Unchecked(P, bits + RETRY_GUARD, MAX_WORKING_BITS,
                            "working precision of the single-step masses in bits")
        bits += guard
        parts = sum(x.numerator.bit_length() + x.denominator.bit_length() for x in (st.q, st.sigma))
        n = st.hi - st.lo + 1
        buckets += n
        mass_work += n * (bits + bits * bits // 1024 + parts // 4) * MASS_NS
        mass_memory += n * (MASS_BYTES + MASS_BYTES_PER_BIT * bits)
    if buckets > MAX_BUCKETS:
        raise Unchecked(f"{P}/ranges", buckets, MAX_BUCKETS, "single-step buckets")
    work = memory = 0
    longest = max(st.hi - st.lo + 1 for st in stages)
    for order in ORDERS:
        for side, scales in (("upper", (K,)), ("lower", (K, K_q))):
            chain = plan["chains"][order][side]
            if chain is None:
                continue
            for scale in scales:
                w, n, m = _chain_work(stages, chain, scale, f"{P}/windows/{order}/{side}")
                work += w
                longest = max(longest, n)
                memory = max(memory, m)
    need = 4 * p["total"] * (3 * longest + 3)
    for scale, name in ((K, "p_bits"), (K_q, "q_bits")):
        if (1 << scale) < need:
            raise Unchecked(f"{P}/{name}", need, 1 << scale,
                            "rounding excess bound 4·ΣT·(3n + 1) against 2^bits (too few bits for the arrays)")
    masses_cost = budget.Cost(mass_work, mass_memory, f"{P}/ranges", "single-step masses")
    # the single-step arrays (at most six per stage, entries of about K bits) are kept while the chains are
    # composed: their memory adds to the products'
    kept = sum((st.hi - st.lo + 2) * KEPT_ARRAYS * (KEPT_BYTES + max(K, K_q) // 8) for st in stages)
    chains_cost = budget.Cost(CONVOLUTION_NS * work, kept + memory, f"{P}/windows", "convolutions")
    total = masses_cost + chains_cost
    return budget.Cost(total.work, total.memory, total.pointer, "single-step masses and convolutions")


def _field_bits(scale, n_a, n_b):
    return 2 * (scale + 2) + min(n_a, n_b).bit_length()


def _chain_work(stages, chain, scale, pointer):
    """(Σ (n_A + n_B)·field bits, longest array, bytes of the largest product) of one chain, from the window
    lengths alone."""
    per_stage, combine = chain
    work, longest, memory, lengths = 0, 0, 0, []

    def step(n_a, n_b, window, where):
        nonlocal work, longest, memory
        product = n_a + n_b - 1
        size = window[1] - window[0] + 1
        for n in (product, size):
            if n > MAX_ENTRIES:
                raise Unchecked(where, n, MAX_ENTRIES, "entries of one array")
        field = _field_bits(scale, n_a, n_b)
        work += (n_a + n_b) * field
        longest = max(longest, product, size)
        memory = max(memory, product * (PRODUCT_BYTES + field // 2))
        return size

    for s, (st, windows) in enumerate(zip(stages, per_stage)):
        base = st.hi - st.lo + 1
        n, it = base, iter(enumerate(windows))
        for bit in bin(st.steps)[3:]:
            i, w = next(it)
            n = step(n, n, w, f"{pointer}/stages/{s}/{i}")
            if bit == "1":
                i, w = next(it)
                n = step(n, base, w, f"{pointer}/stages/{s}/{i}")
        lengths.append(n)
    n = lengths[0]
    for i, (other, w) in enumerate(zip(lengths[1:], combine)):
        n = step(n, other, w, f"{pointer}/combine/{i}")
    return work, longest, memory


# ---- 5. exact claims --------------------------------------------------------------------------

class _Claim:
    """One enclosure claim: δ(ε) <= value (side "upper") or >= value (> when strict, side "lower").

    ``stated`` is what the certificate says at ``pointer`` (an ε end or a point's end), ``reason``
    why a disproved claim is false.
    """

    __slots__ = ("pointer", "side", "epsilon", "value", "strict", "order", "decision", "shown", "stated", "reason")

    def __init__(self, pointer, side, epsilon, value, strict=False, order=None, stated=None, reason=None):
        self.pointer, self.side, self.epsilon, self.value = pointer, side, epsilon, value
        self.strict, self.order = strict, order
        self.decision, self.shown = OPEN, None
        self.stated = value if stated is None else stated
        self.reason = reason or _REASONS[side]


def _display(text, value, direction, pointer, report):
    """The display must be ``value`` rounded outward to DISPLAY_DIGITS significant digits (compared as numbers)."""
    expected = summaries.outward(value, DISPLAY_DIGITS)[0 if direction < 0 else 1]
    shown = _display_value(text) if isinstance(text, str) and len(text) <= 40 else None
    return report.check(shown is not None and shown == _display_value(expected), pointer, text, expected,
                        "display is not the exact value rounded " + ("down" if direction < 0 else "up")
                        + f" to {DISPLAY_DIGITS} significant digits")


def _display_value(text):
    mantissa, _, exponent = text.partition("e")
    try:
        value = common.decimal_value(mantissa, "")
    except Exception:  # noqa: BLE001 - a display that is no decimal is simply false
        return None
    return value * Fraction(10) ** int(exponent or 0)


def _exact_claims(p, cert, report):
    """Record the exact claims; return the enclosure claims still to decide."""
    res = cert["result"]
    gaussian_route = p["route"] == "gaussian"
    pending = []
    if "delta" in p:
        lo = read_rational(res["epsilon_lo"], "/result/epsilon_lo")
        hi = read_rational(res["epsilon_hi"], "/result/epsilon_hi")
        report.check(lo <= hi, "/result", common.span(lo, hi), "epsilon_lo <= epsilon_hi", "the ends are swapped")
        report.check(hi - lo <= p["width"] * hi, "/result/epsilon_hi", show(hi - lo),
                     f"at most R·epsilon_hi = {show(p['width'] * hi)}",
                     "epsilon_hi − epsilon_lo exceeds the requested relative width")
        _display(res["epsilon_lo_display"], lo, -1, "/result/epsilon_lo_display", report)
        _display(res["epsilon_hi_display"], hi, +1, "/result/epsilon_hi_display", report)
        order = res["lower_order"]
        expected = "null" if lo == 0 or gaussian_route else "an order"
        report.check((order is None) == (expected == "null"), "/result/lower_order", order, expected,
                     "lower_order is null exactly when epsilon_lo = 0 or on the gaussian route")
        pending.append(_Claim("/result/epsilon_hi", "upper", hi, p["delta"], stated=hi,
                              reason="δ(ε_hi) > δ (the auditor's lower bound exceeds δ), so ε(δ) > epsilon_hi"))
        if lo > 0:
            pending.append(_Claim("/result/epsilon_lo", "lower", lo, p["delta"], strict=True, order=order, stated=lo,
                                  reason="δ(ε_lo) <= δ (the auditor's upper bound is at most δ): ε(δ) <= epsilon_lo"))
        return pending
    points, epsilons = res["points"], p["epsilons"]
    report.equal("/result/points", len(points), len(epsilons), "number of points (one per input epsilon)")
    for i, point in enumerate(points):
        P = f"/result/points/{i}"
        epsilon = read_rational(point["epsilon"], P + "/epsilon")
        lower = read_rational(point["lower"], P + "/lower")
        upper = read_rational(point["upper"], P + "/upper")
        aligned = i < len(epsilons) and epsilon == epsilons[i]
        report.check(aligned, P + "/epsilon", epsilon, epsilons[i] if i < len(epsilons) else "no such input epsilon",
                     "the point's epsilon is not the input epsilon at the same index")
        report.check(lower <= upper, P, common.span(lower, upper), "lower <= upper", "the ends are swapped")
        report.check(upper <= 1, P + "/upper", upper, "at most 1", "upper exceeds 1")
        report.check(upper - lower <= p["width"] * upper or upper <= TINY, P + "/upper", show(upper - lower),
                     f"at most R·upper = {show(p['width'] * upper)} (or upper <= 10^-30)",
                     "upper − lower exceeds the requested relative width")
        _display(point["lower_display"], lower, -1, P + "/lower_display", report)
        _display(point["upper_display"], upper, +1, P + "/upper_display", report)
        order = point["lower_order"]
        expected = "null" if lower == 0 or gaussian_route else "an order"
        report.check((order is None) == (expected == "null"), P + "/lower_order", order, expected,
                     "lower_order is null exactly when lower = 0 or on the gaussian route")
        report.check(upper > 0, P + "/upper", upper, "δ(ε) > 0", "upper is 0, but δ(ε) > 0 (the loss is unbounded)")
        report.check(lower < 1, P + "/lower", lower, "δ(ε) < 1", "lower is at least 1, but δ(ε) < 1")
        if not aligned:
            continue
        pending.append(_Claim(P + "/upper", "upper", epsilon, upper))
        if lower > 0:
            pending.append(_Claim(P + "/lower", "lower", epsilon, lower, order=order))
    return pending


# ---- 6. enclosure claims ------------------------------------------------------------------------

def _magnitude_bits(value):
    """b with value >= 2^−b (value > 0)."""
    return max(0, value.denominator.bit_length() - value.numerator.bit_length() + 1)


def _start_bits(pending):
    return 64 + max([_magnitude_bits(c.value) for c in pending if c.value > 0] + [0])


def _decide(claim, lower_bound, upper_bound):
    """The decision of one claim from bounds lower_bound <= δ(ε) <= upper_bound (either may be None)."""
    v = claim.value
    if claim.side == "upper":
        return state(upper_bound is not None and upper_bound <= v, lower_bound is not None and lower_bound > v)
    if claim.strict:
        return state(lower_bound is not None and lower_bound > v, upper_bound is not None and upper_bound <= v)
    return state(lower_bound is not None and lower_bound >= v, upper_bound is not None and upper_bound < v)


_UNPROVED = {
    "upper": "the recipe's upper bounds (both orders, retried with more guard bits) do not prove δ(ε) <= the claim",
    "lower": "the named order's lower bound (retried with more guard bits) does not prove δ(ε) >= the claim",
}

_REASONS = {
    "upper": "δ(ε) exceeds the claimed upper end (the auditor's lower bound is above it)",
    "lower": "δ(ε) is below the claimed lower end (the auditor's upper bound is below it)",
}


def _settle(pending, report, note=""):
    """Record every claim: a check when proved, a failure when disproved or not established (``note`` says
    why no retry ran, when it did not)."""
    for c in pending:
        if c.decision == OPEN:
            report.not_established(c.pointer, c.stated, c.shown or "no bound at the largest precision",
                                   _UNPROVED[c.side] + note)
            continue
        report.check(c.decision == PROVED, c.pointer, c.stated, c.shown or "", c.reason)


def _decide_gaussian(p, pending, report):
    """The closed form at a precision from the claims' sizes, then at 4x (at most MAX_GAUSSIAN_BITS)."""
    mu2 = sum(Fraction(steps) / (sigma * sigma) for _, sigma, steps in p["stages"])
    bits = _start_bits(pending)
    if pending and bits > MAX_GAUSSIAN_BITS:  # refused before any enclosure is computed
        raise Unchecked(pending[0].pointer, bits, MAX_GAUSSIAN_BITS, "starting precision of the closed form (bits)")
    for _ in range(2):
        open_claims = [c for c in pending if c.decision == OPEN]
        if not open_claims or bits > MAX_GAUSSIAN_BITS:
            break
        for c in open_claims:
            lo, hi = gaussian.delta_bounds(mu2, c.epsilon, bits)
            c.decision = _decide(c, lo, hi)
            c.shown = f"δ(ε) in {_span(lo, hi)}"
        bits *= 4
    return _settle(pending, report)


def _span(lo, hi):
    return f"[{summaries.outward(lo, 25)[0]}, {summaries.outward(hi, 25)[1]}]"


def _decide_pld(p, plan, pending, report):
    """Compose the recipe's arrays with the auditor's masses; decide; once more with more guard bits if open
    and the file's budget affords the retry.  False when a retry was needed but not affordable."""
    for guard in (0, RETRY_GUARD):
        if not any(c.decision == OPEN for c in pending):
            break
        if guard and not budget.afford(report, estimate_plan(p, plan, guard)):
            return False
        bounds = _pld_bounds(plan, pending, guard)
        for c in pending:
            if c.decision != OPEN:
                continue
            uppers = [tail.bound(c.epsilon) for tail in bounds["upper"].values()]
            lam = exp_bounds(c.epsilon, bounds["lambda_bits"] + common_exp_bits(c.epsilon))[1]
            lowers = {order: events.bound(lam) for order, events in bounds["lower"].items()}
            up = max(uppers)
            if c.side == "lower":
                low = lowers.get(c.order)
            else:
                low = max(lowers.values()) if lowers else None
            c.decision = _decide(c, low, up)
            c.shown = f"δ(ε) in [{'?' if low is None else summaries.outward(max(low, Fraction(0)), 25)[0]}, " \
                      f"{summaries.outward(up, 25)[1]}]"
    return True


def _pld_bounds(plan, pending, guard):
    """{"upper": {order: UpperTail}, "lower": {order: LowerEvents}, "lambda_bits"} of the recipe."""
    N, K, K_q, stages = plan["N"], plan["K"], plan["K_q"], plan["stages"]
    named = plan["named"]
    singles = [masses.single_step(st, N, K, K_q, lower=named, guard=guard) for st in stages]
    value_bits = _start_bits(pending) + guard
    upper, lower = {}, {}
    for order in ORDERS:
        chains = plan["chains"][order]
        per_stage, combine = chains["upper"]
        powers = [composition.power(composition.Array(s[order].LO, s[order].upper, s[order].upper_atom),
                                    st.steps, w, composition.UPPER, K)
                  for s, st, w in zip(singles, stages, per_stage)]
        U = composition.compose(powers, combine, composition.UPPER, K)
        upper[order] = answer.UpperTail(U, K, N, value_bits + len(U.values).bit_length())
        if chains["lower"] is None:
            continue
        per_stage, combine = chains["lower"]
        p_powers, q_powers = [], []
        for s, st, w in zip(singles, stages, per_stage):
            one = s[order]
            p_powers.append(composition.power(composition.Array(one.LO, one.lower_p), st.steps, w,
                                              composition.LOWER_P, K))
            q_powers.append(composition.power(composition.Array(one.LO, one.lower_q, one.lower_atom), st.steps, w,
                                              composition.LOWER_Q, K_q))
        P_L = composition.compose(p_powers, combine, composition.LOWER_P, K)
        Q_L = composition.compose(q_powers, combine, composition.LOWER_Q, K_q)
        lower[order] = answer.LowerEvents(P_L, Q_L, K, K_q)
    return {"upper": upper, "lower": lower, "lambda_bits": value_bits + 32}


def common_exp_bits(epsilon):
    """An integer b >= log2 e^ε (log2 e < 1.45)."""
    return ceil_div(epsilon.numerator * 145, 100 * epsilon.denominator) + 1


# ---- the summary ----------------------------------------------------------------------------------

def _stage_text(stage):
    return (f"q = {summaries.rational_text(read_rational(stage['sampling_rate'], ''))}, "
            f"sigma = {summaries.rational_text(read_rational(stage['noise_multiplier'], ''))}, "
            f"T = {stage['steps']}")


def _mechanism_text(cert):
    stages = cert["input"]["stages"]
    if len(stages) == 1:
        text = f"DP-SGD with {_stage_text(stages[0])}"
    else:
        listed = "; ".join(_stage_text(s) for s in stages[:2])
        more = f"; and {len(stages) - 2} more" if len(stages) > 2 else ""
        text = f"a DP-SGD schedule of {len(stages)} stages ({listed}{more})"
    d = cert["result"]["discretisation"]
    route = "closed form" if d is None else f"certified PLD, h = 1/{d['grid']}"
    return f"{text} (Poisson-subsampled Gaussian, sensitivity 1, add/remove; {route})"


def claim(cert):
    """``eps(1/100000) in [6.186614990, 6.189910889] for DP-SGD with q = 1/100, ...`` or the points."""
    res = cert["result"]
    if "points" not in res:
        lo, hi = read_rational(res["epsilon_lo"], ""), read_rational(res["epsilon_hi"], "")
        delta = read_rational(cert["input"]["delta"], "")
        return (f"eps({summaries.rational_text(delta)}) in [{summaries.outward(lo)[0]}, {summaries.outward(hi)[1]}] "
                f"for {_mechanism_text(cert)}")
    listed = [f"eps = {summaries.rational_text(read_rational(pt['epsilon'], ''))}: delta in "
              f"[{summaries.outward(read_rational(pt['lower'], ''))[0]}, "
              f"{summaries.outward(read_rational(pt['upper'], ''))[1]}]" for pt in res["points"]]
    shown = "; ".join(listed[:2]) + (f"; and {len(listed) - 2} more" if len(listed) > 2 else "")
    return f"delta(eps) of {_mechanism_text(cert)}: {shown}"
