"""Checks for ``finite-game/1`` certificates (*Hidden Integer Feedback* §3–4).

Every number is recomputed by :mod:`auditor.game` (the package; hidden-rounding rows by
counting, the auditor's own hull code) and compared exactly:

* ``input``: gamma = a/B must be reduced with 0 < a < B, or exactly "0" (plain
  composition: a = 0, B = 1, the single root k = 0, every row equal to ν;
  docs/plain-composition.md §1), the weights must not
  all be zero and thresholds must be >= 0.  These are the domain of the game;
  a certificate outside it is *malformed* (exit 2), not a failed claim,
  because there is no game whose value it could claim.
* ``result.queries``: one entry per threshold L (x = 1, y = L), then one per
  point, in input order; x and y as in the input; the value equal to the
  recomputed G_C(x, y) (or F_C((kP, kQ); x, y) when ``pending`` is set);
  ``hockey_stick`` present exactly when x = 1 and equal to value - y.
* each witness must be a legal first action and attain the value: ``stop``
  gives max(x, y); ``echo`` only when pending; ``participate`` with a sign,
  and with a preparation k (any integer) exactly at the synchronised root;
  a participation needs budget >= 1.
* ``result.curve``: null when ``input.curve`` is false; otherwise the exact
  canonical vertex list of the root's curve (G_C, or F_C at the pending pair).
* ``result.method``: a known root-search label (:mod:`auditor.common`);
  ``reduced`` only for a law symmetric around 0 and C <= 2.  The label is
  otherwise not used: every value is recomputed by the auditor's own route.

Structural fields (budget, offset, pending states, witness k and sign) must be
JSON integers; ``2.0`` or ``true`` there is malformed.

Work limits, checked from the input alone before any game is built (the
certificate is then UNCHECKED, exit 3; nothing is claimed about its truth):
budget (plus one for a curve) at most :data:`MAX_BUDGET`, at most
:data:`MAX_WEIGHTS` weights, at most :data:`MAX_QUERIES` queries, and the
estimated work (:func:`auditor.game.work.estimated_work` of the preparations
actually searched, times the number of queries) at most :data:`MAX_WORK`.
The estimate counts B^C or the smaller closed-carry-cell cover of
:mod:`auditor.game.cover`, and a pending query (F_C at given states, which needs
G_C at about l points) is counted l times.  The top level is counted by
the distinct F_(C-1) values the root can reach: root outputs with one
likelihood ratio share them (:func:`auditor.game.work.root_ratio_groups`), so a
uniform law of radius 50 or 52 at B = 257, C = 2 (the largest the producer
accepts with --method reduced / compiled) is about 5e7 units (a few seconds,
under 100 MB).  For scale: law radius 24, B = 3,
C = 3 is about 5e6 units (seconds); radius 6, B = 1009, C = 3 searches 5586
covered preparations instead of 1e9, about 4e7 units; radius 16, B = 3,
C = 4 is about 9.7e7 (under the limit); radius 24, B = 3, C = 4 is about
4.1e8 and radius 40, B = 1009, C = 3 about 1.1e12: both are refused.
"""

from fractions import Fraction

from auditor.game import values
from auditor.game.rows import Law
from auditor.game.work import estimated_work, root_preparation_count, root_ratio_groups, support_width
from auditor.certificate import Malformed
from auditor import common
from auditor.claims import law_text, listed, number as _q, rational_text, value_text
from auditor.outcomes import Unchecked
from auditor.rationals import read_rational, write_rational

# Largest estimated work (curve points built or looked up) the auditor recomputes
# (one unit is at most about 0.5 microseconds, so at most about a minute).
MAX_WORK = 15 * 10 ** 7
# Pre-checks that keep the estimate itself cheap (far above anything MAX_WORK admits).
MAX_BUDGET = 64
MAX_WEIGHTS = 5_000
MAX_QUERIES = 10_000


def _parse_input(inp):
    a, B = common.gamma(inp["gamma"], "/input/gamma")
    weights = inp["law"]["weights"]
    if len(weights) > MAX_WEIGHTS:
        raise Unchecked("/input/law/weights", len(weights), MAX_WEIGHTS, "number of weights")
    weights = [int(read_rational(w, f"/input/law/weights/{i}")) for i, w in enumerate(weights)]
    if any(w < 0 for w in weights) or not any(weights):
        raise Malformed("/input/law/weights: weights must be >= 0 and not all zero")
    offset = common.integer(inp["law"]["offset"], "/input/law/offset")
    budget = common.integer(inp["budget"], "/input/budget", 0)
    pending = inp["pending"]
    if pending is not None:
        pending = [common.integer(k, f"/input/pending/{i}") for i, k in enumerate(pending)]
    common.boolean(inp["curve"], "/input/curve")
    if len(inp["thresholds"]) + len(inp["points"]) > MAX_QUERIES:
        raise Unchecked("/input/thresholds", len(inp["thresholds"]) + len(inp["points"]), MAX_QUERIES,
                        "number of queries")
    thresholds = []
    for i, text in enumerate(inp["thresholds"]):
        L = read_rational(text, f"/input/thresholds/{i}")
        if L < 0:
            raise Malformed(f"/input/thresholds/{i}: negative threshold {text}")
        thresholds.append(L)
    points = []
    for i, (xs, ys) in enumerate(inp["points"]):
        points.append((read_rational(xs, f"/input/points/{i}/0"),
                       read_rational(ys, f"/input/points/{i}/1")))
    return {
        "weights": weights, "offset": offset, "a": a, "B": B,
        "budget": budget, "pending": pending, "curve": inp["curve"],
        "queries": [(Fraction(1), L) for L in thresholds] + points,
    }


def _law(p):
    return Law(p["weights"], p["offset"], p["a"], p["B"])


def _value(p, x, y):
    if p["pending"] is None:
        return values.root_value(_law(p), p["budget"], x, y)
    kP, kQ = p["pending"]
    return values.pending_value(_law(p), p["budget"], kP, kQ, x, y)


def _witness_value(p, witness, x, y, report, ptr):
    """Value of the witnessed action, or None after recording why it is illegal."""
    return witness_value(_law(p), p["budget"], p["pending"], witness, x, y, report, ptr)


def witness_value(law, budget, pending, witness, x, y, report, ptr):
    """Value of the witnessed first action, or None after recording why it is illegal.

    ``law`` is the :class:`auditor.game.rows.Law`; ``pending`` None (synchronised root) or
    [kP, kQ].  Shared with the dg-interval checks.
    """
    action = witness["action"]
    at_root = pending is None
    if action == "stop":
        if "k" in witness or "sign" in witness:
            report.fail(ptr, str(witness), "stop", "a stop carries no k or sign")
            return None
        return max(x, y)
    if action == "echo":
        if at_root:
            report.fail(ptr + "/action", "echo", "stop or participate",
                        "no echo at the synchronised root")
            return None
        kP, kQ = pending
        return values.pending_action_value(law, budget, kP, kQ, x, y, "echo")
    # participate
    if budget < 1:
        report.fail(ptr + "/action", "participate", "stop" if at_root else "stop or echo",
                    "no participation with budget 0")
        return None
    sign = common.integer(witness["sign"], ptr + "/sign")
    if at_root:
        if "k" not in witness:
            report.fail(ptr + "/k", "absent", "an integer preparation",
                        "a root participation needs its preparation k")
            return None
        k = common.integer(witness["k"], ptr + "/k")
        return values.root_action_value(law, budget, x, y, k, sign)
    if "k" in witness:
        report.fail(ptr + "/k", common.magnitude(witness["k"]) if isinstance(witness["k"], int) else "present",
                    "absent", "no preparation when pending (the states are given)")
        return None
    kP, kQ = pending
    return values.pending_action_value(law, budget, kP, kQ, x, y, "participate", sign)


def _check_query(p, i, entry, expected, report):
    ptr = f"/result/queries/{i}"
    x, y = expected
    cx = read_rational(entry["x"], ptr + "/x")
    cy = read_rational(entry["y"], ptr + "/y")
    report.equal(ptr + "/x", cx, x, "x")
    report.equal(ptr + "/y", cy, y, "y")
    claimed = read_rational(entry["value"], ptr + "/value")
    value = _value(p, x, y)
    report.equal(ptr + "/value", claimed, value, "game value")
    if x == 1:
        if report.check("hockey_stick" in entry, ptr + "/hockey_stick", "absent",
                        write_rational(value - y), "hockey_stick is required when x = 1"):
            hs = read_rational(entry["hockey_stick"], ptr + "/hockey_stick")
            report.equal(ptr + "/hockey_stick", hs, value - y, "hockey_stick (value - y)")
    else:
        report.check("hockey_stick" not in entry, ptr + "/hockey_stick",
                     entry.get("hockey_stick"), "absent", "hockey_stick only when x = 1")
    wptr = ptr + "/witness"
    wv = _witness_value(p, entry["witness"], x, y, report, wptr)
    if wv is not None:
        report.check(wv == value, wptr, wv, value,
                     "the witnessed action does not attain the value (claimed = action value)")


def _check_curve(p, claimed, report):
    if not p["curve"]:
        report.check(claimed is None, "/result/curve", "a curve", "null",
                     "input.curve is false, so result.curve must be null")
        return
    if not report.check(claimed is not None, "/result/curve", "null", "a curve",
                        "input.curve is true, so result.curve must hold the curve"):
        return
    if p["pending"] is None:
        curve = values.root_curve(_law(p), p["budget"])
    else:
        kP, kQ = p["pending"]
        curve = values.pending_curve(_law(p), p["budget"], kP, kQ)
    vertices = [(read_rational(a, f"/result/curve/{i}/0"), read_rational(b, f"/result/curve/{i}/1"))
                for i, (a, b) in enumerate(claimed)]
    report.equal("/result/curve", len(vertices), len(curve), "number of curve vertices")
    for i, (got, want) in enumerate(zip(vertices, curve)):
        report.equal(f"/result/curve/{i}/0", got[0], want[0], "vertex A")
        report.equal(f"/result/curve/{i}/1", got[1], want[1], "vertex B'")


def work_estimate(weights, offset, a, B, level, pointer="/input/budget", pending=False):
    """auditor.game.work's estimate for one query at ``level`` (``pending``: F at given
    states rather than G at the root); Unchecked beyond MAX_BUDGET first."""
    if level > MAX_BUDGET:
        raise Unchecked(pointer, level, MAX_BUDGET, "budget")
    # every estimate is at least 2·(len + 2)^max(2, level) (one preparation): refusing on this
    # floor first keeps the cover count itself cheap (it grows with level·len)
    width = support_width(weights)   # zeros outside the support cost nothing
    floor = 2 * common.bounded_power(width + 2, max(2, level), MAX_WORK)
    if floor > MAX_WORK:
        raise Unchecked(pointer, f"at least {common.magnitude(floor)}", common.magnitude(MAX_WORK), "estimated work")
    law = Law(weights, offset, a, B)
    return estimated_work(width, B, level, preparations=root_preparation_count(law, level),
                          pending=pending, root_ratios=root_ratio_groups(law), symmetric=law.is_symmetric())


def refuse_beyond_limit(work, pointer):
    if work > MAX_WORK:
        raise Unchecked(pointer, common.magnitude(work), common.magnitude(MAX_WORK), "estimated work")


def verify(cert, report):
    p = _parse_input(cert["input"])
    # a whole budget-C curve costs about as much as a budget-(C+1) point query
    level = p["budget"] + (1 if p["curve"] else 0)
    work = work_estimate(p["weights"], p["offset"], p["a"], p["B"], level,
                         pending=p["pending"] is not None)
    refuse_beyond_limit(work * max(1, len(p["queries"])), "/input/budget")
    result = cert["result"]
    common.check_method(result["method"], p["weights"], p["offset"], p["budget"], "/result/method", report)
    entries = result["queries"]
    expected = p["queries"]
    report.equal("/result/queries", len(entries), len(expected), "number of queries")
    for i, (entry, want) in enumerate(zip(entries, expected)):
        _check_query(p, i, entry, want, report)
    _check_curve(p, result["curve"], report)


# ---- the claim: the one-line summary of a verified certificate (auditor.api states it) ----

def claim(cert):
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
    text = listed(queries) if queries else "no query"
    if res.get("curve") is not None:
        text += f", with the testing curve of {head} ({len(res['curve'])} points)"
    return (f"{text} for gamma = {rational_text(_q(inp['gamma']))}, "
            f"law {law_text(inp['law'])}, C = {C}")
