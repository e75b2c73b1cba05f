"""The claims of a certified ε(δ) or δ(ε) and their decisions (docs/dpsgd.md §7 and §9; docs/accounting.md §5).

``dpsgd/1`` and ``accounting/1`` make the same claims about a δ(ε) that is the larger of two orders' hockey-stick
divergences: with ``input.delta`` the ends ε_lo <= ε(δ) <= ε_hi, with ``input.epsilons`` a point lower <= δ(ε) <=
upper per ε; widths, displays and ``lower_order``.

* :func:`read_question` reads the question both kinds share (δ or the ε list, R) and the result's form, against
  the domain (MALFORMED outside it).
* :func:`answer_claim` is the one-line claim of a verified certificate of either kind.
* :func:`exact_claims` records the exact claims (FAIL): ε_lo <= ε_hi and ε_hi − ε_lo <= R·ε_hi, or one point per ε
  in order with lower <= upper <= 1 and upper − lower <= R·upper (or upper <= 10^−30); ``lower_order`` null
  exactly when the lower end is 0 and on the gaussian route; displays the exact values rounded outward (down for
  lower ends, up for upper ends) to 10 significant digits.  Two facts: δ(ε) < 1 always (the pairs' laws are
  mutually absolutely continuous, so the event {ℓ > ε} where δ(ε) is attained has P-mass 1 only with Q-mass
  positive), so lower >= 1 is false; and, when the caller says the loss is unbounded above (``positive``),
  δ(ε) > 0 for every ε, so upper = 0 is false.  It returns the enclosure claims still to decide.
* :func:`decide_gaussian`: the closed form of a Gaussian-only composition (:mod:`.gaussian`) at a precision from
  the claims' sizes, then once at 4× (at most :data:`MAX_GAUSSIAN_BITS`).
* :func:`decide_pld`: the recipe's bounds (:func:`auditor.pld.recipe.bounds`).  An upper claim is proved by
  max F <= value and disproved by L > value; a lower claim is proved by the named order's L, disproved by max F
  below the value.  Open claims are retried once with :data:`auditor.pld.recipe.RETRY_GUARD` more guard bits when
  the file's budget affords it; still open, a claim is not established by the certificate's recipe: a FAIL, like
  a disproved one (:func:`settle`).
"""

from fractions import Fraction

from auditor import budget, common
from auditor import claims as summaries
from auditor.decide import OPEN, PROVED, state
from auditor.enclosures import exp_bounds
from auditor.pld import gaussian
from auditor.pld.recipe import RETRY_GUARD
from auditor.outcomes import Unchecked
from auditor.certificate import Malformed
from auditor.rationals import ceil_div, read_rational, show

__all__ = ["read_question", "bounded", "answer_claim", "Claim", "exact_claims", "decide_gaussian",
           "decide_pld", "decide", "settle", "start_bits", "TINY", "DISPLAY_DIGITS", "MAX_GAUSSIAN_BITS"]

DELTA_MIN = Fraction(1, 10 ** 30)
EPSILON_INPUT_MAX = Fraction(500)
WIDTH_MIN, WIDTH_MAX = Fraction(1, 10 ** 6), Fraction(1, 2)
TINY = Fraction(1, 10 ** 30)
"""A point with upper <= TINY needs no width."""
DISPLAY_DIGITS = 10
MAX_GAUSSIAN_BITS = 1 << 13
"""Largest precision of the closed-form enclosure (bits)."""


class Claim:
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


def bounded(value, lo, hi, pointer, text, lo_open=False, hi_open=False):
    """``value`` when it lies in the domain [lo, hi] (ends open as asked), else MALFORMED naming ``text``."""
    if value < lo or value > hi or (lo_open and value == lo) or (hi_open and value == hi):
        raise Malformed(f"{pointer}: {show(value)} is outside the domain {text}")
    return value


def read_question(inp, res):
    """{"width", "route", "delta" or "epsilons"}: R in [10^-6, 1/2], δ in [10^-30, 1) or 1 ... 64 strictly
    increasing ε in [0, 500], a result of the question's form and ``discretisation`` null exactly on the
    gaussian route (MALFORMED otherwise)."""
    width = bounded(read_rational(inp["rel_width"], "/input/rel_width"), WIDTH_MIN, WIDTH_MAX,
                    "/input/rel_width", "[10^-6, 1/2]")
    p = {"width": width, "route": res["route"]}
    if "delta" in inp:
        p["delta"] = bounded(read_rational(inp["delta"], "/input/delta"), DELTA_MIN, Fraction(1),
                             "/input/delta", "[10^-30, 1)", hi_open=True)
        if "points" in res:
            raise Malformed("/result/points: the question asks for ε(δ) (input.delta), not points")
    else:
        epsilons = [read_rational(e, f"/input/epsilons/{i}") for i, e in enumerate(inp["epsilons"])]
        for i, e in enumerate(epsilons):
            bounded(e, Fraction(0), EPSILON_INPUT_MAX, f"/input/epsilons/{i}", "[0, 500]")
            if i and e <= epsilons[i - 1]:
                raise Malformed(f"/input/epsilons/{i}: {show(e)} does not exceed the previous "
                                f"{show(epsilons[i - 1])} (the epsilons must be strictly increasing)")
        p["epsilons"] = epsilons
        if "points" not in res:
            raise Malformed("/result: the question asks for δ at the input epsilons (result.points)")
    if (p["route"] == "pld") != (res["discretisation"] is not None):
        raise Malformed("/result/discretisation: must be null exactly for the gaussian route")
    return p


def answer_claim(cert, mechanism):
    """``eps(δ) in [ε_lo, ε_hi] for MECHANISM`` or ``delta(eps) of MECHANISM: eps = …: delta in […]; …`` (ends
    rounded outward; at most two points listed)."""
    res = cert["result"]
    if "points" not in res:
        lo, hi = read_rational(res["epsilon_lo"], ""), read_rational(res["epsilon_hi"], "")
        delta = read_rational(cert["input"]["delta"], "")
        return (f"eps({summaries.rational_text(delta)}) in [{summaries.outward(lo)[0]}, {summaries.outward(hi)[1]}] "
                f"for {mechanism}")
    listed = [f"eps = {summaries.rational_text(read_rational(pt['epsilon'], ''))}: delta in "
              f"[{summaries.outward(read_rational(pt['lower'], ''))[0]}, "
              f"{summaries.outward(read_rational(pt['upper'], ''))[1]}]" for pt in res["points"]]
    shown = "; ".join(listed[:2]) + (f"; and {len(listed) - 2} more" if len(listed) > 2 else "")
    return f"delta(eps) of {mechanism}: {shown}"


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


def exact_claims(p, cert, report, positive=True):
    """Record the exact claims; return the enclosure claims still to decide.

    ``p``: the question ("delta" or "epsilons", "width" R, "route"); ``positive``: δ(ε) > 0 at every ε.
    """
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
        pending.append(Claim("/result/epsilon_hi", "upper", hi, p["delta"], stated=hi,
                             reason="δ(ε_hi) > δ (the auditor's lower bound exceeds δ), so ε(δ) > epsilon_hi"))
        if lo > 0:
            pending.append(Claim("/result/epsilon_lo", "lower", lo, p["delta"], strict=True, order=order, stated=lo,
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
        if positive:
            report.check(upper > 0, P + "/upper", upper, "δ(ε) > 0",
                         "upper is 0, but δ(ε) > 0 (the loss is unbounded)")
        report.check(lower < 1, P + "/lower", lower, "δ(ε) < 1", "lower is at least 1, but δ(ε) < 1")
        if not aligned:
            continue
        if upper < 1:  # δ(ε) <= 1 always (a hockey-stick divergence of two laws, e^ε >= 1): upper = 1 is exact
            pending.append(Claim(P + "/upper", "upper", epsilon, upper))
        if lower > 0:
            pending.append(Claim(P + "/lower", "lower", epsilon, lower, order=order))
    return pending


def _magnitude_bits(value):
    """b with value >= 2^−b (value > 0)."""
    return max(0, value.denominator.bit_length() - value.numerator.bit_length() + 1)


def start_bits(pending):
    """The starting precision of the answers: 64 bits beyond the smallest positive claimed value."""
    return 64 + max([_magnitude_bits(c.value) for c in pending if c.value > 0] + [0])


def decide(claim, lower_bound, upper_bound):
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


def settle(pending, report, note=""):
    """Record every claim: a check when proved, a failure when disproved or not established (``note`` says
    why no retry ran, when it did not)."""
    for c in pending:
        if c.decision == OPEN:
            report.not_established(c.pointer, c.stated, c.shown or "no bound at the largest precision",
                                   _UNPROVED[c.side] + note)
            continue
        report.check(c.decision == PROVED, c.pointer, c.stated, c.shown or "", c.reason)


def decide_gaussian(mu2, pending, report):
    """The closed form δ(ε) = ΦC(ε/μ − μ/2) − e^ε·ΦC(ε/μ + μ/2) at a precision from the claims' sizes, then at 4x
    (at most MAX_GAUSSIAN_BITS); μ² the composed loss's variance."""
    bits = start_bits(pending)
    if pending and bits > MAX_GAUSSIAN_BITS:  # refused before any enclosure is computed
        raise Unchecked(pending[0].pointer, bits, MAX_GAUSSIAN_BITS, "starting precision of the closed form (bits)")
    for _ in range(2):
        open_claims = [c for c in pending if c.decision == OPEN]
        if not open_claims or bits > MAX_GAUSSIAN_BITS:
            break
        for c in open_claims:
            lo, hi = gaussian.delta_bounds(mu2, c.epsilon, bits)
            c.decision = decide(c, lo, hi)
            c.shown = f"δ(ε) in {_span(lo, hi)}"
        bits *= 4
    return settle(pending, report)


def _span(lo, hi):
    return f"[{summaries.outward(lo, 25)[0]}, {summaries.outward(hi, 25)[1]}]"


def decide_pld(pending, report, cost_at, bounds_at):
    """Decide the claims from the recipe's bounds, ``bounds_at(guard)`` (:func:`auditor.pld.recipe.bounds`); once
    more with RETRY_GUARD more guard bits if any is open and the file's budget affords ``cost_at(guard)``; then
    :func:`settle` them.  A part of the recipe the bounds name as unestablished is a FAIL at its pointer (its
    bound, δ <= 1, proves no claim)."""
    retried, noted = True, set()
    for guard in (0, RETRY_GUARD):
        if not any(c.decision == OPEN for c in pending):
            break
        if guard and not budget.afford(report, cost_at(guard)):
            retried = False
            break
        found = bounds_at(guard)
        for pointer, claimed, reached, what in found.get("unestablished", ()):
            if (pointer, reached) not in noted:     # once, though the retry finds it again
                noted.add((pointer, reached))
                report.not_established(pointer, claimed, reached, what)
        for c in pending:
            if c.decision != OPEN:
                continue
            uppers = [tail.bound(c.epsilon) for tail in found["upper"].values()]
            lam = exp_bounds(c.epsilon, found["lambda_bits"] + exp_bits(c.epsilon))[1]
            lowers = {order: events.bound(lam) for order, events in found["lower"].items()}
            up = max(uppers)
            if c.side == "lower":
                low = lowers.get(c.order)
            else:
                low = max(lowers.values()) if lowers else None
            c.decision = decide(c, low, up)
            c.shown = f"δ(ε) in [{'?' if low is None else summaries.outward(max(low, Fraction(0)), 25)[0]}, " \
                      f"{summaries.outward(up, 25)[1]}]"
    settle(pending, report, "" if retried else
           f"; a retry with {RETRY_GUARD} more guard bits would exceed the file's budget")


def exp_bits(epsilon):
    """An integer b >= log2 e^ε (log2 e < 1.45)."""
    return ceil_div(epsilon.numerator * 145, 100 * epsilon.denominator) + 1
