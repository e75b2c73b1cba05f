"""Checks of ``minimum-deletion/1`` certificates (docs/paper-claims.md §3).

Re-proved by the auditor's own route, in this order:

1. the input's domain (γ reduced with 0 < a < B, σ² > 0, 0 <= ε <= 64,
   0 < δ < 1, R non-empty and strictly increasing within 0..C−2): otherwise
   MALFORMED;
2. the limits, from the declared sizes before any work (§3.5): at most 8
   lower models; for the upper model the ``hierarchy/1`` estimate
   (:mod:`auditor.hierarchy.estimate`) on its grid; for every lower model the
   same graph estimate on the lower grid and at most MAX_LINE_TERMS
   line-location terms (branches × grid priors: the estimated branches, or —
   when that estimate is above the limit but at most MAX_COUNTED_BRANCHES
   branches — the branches of the rebuilt graph, counted before any line);
   the enclosure limits of the source and threshold claims: beyond, UNCHECKED;
3. the finite source, τ and λ₋ <= e^ε <= λ₊ (three-way, as for
   ``hierarchy/1``), draws = 2C, the transfer (1 + λ₊)(1 − (1 − τ)^{2C});
4. every lower model S_all ∖ R' (|R'| = |R| − 1, lexicographic): its
   proof-function lower lines recomputed (:mod:`auditor.hierarchy.lines`) and
   the fields derived from them (:func:`auditor.hierarchy.sides.check_lower`);
5. the upper model S_all ∖ R: the ``hierarchy/1`` recursion and its fields
   (:func:`auditor.hierarchy.sides.check_upper`);
6. ``minimum_removed`` from the recomputed booleans.

The functions :func:`read_question`, :func:`refuse_model` and
:func:`check_common` are shared with ``minimum-depth/1``.
"""

from itertools import combinations

from auditor.certificate import Malformed
from auditor.common import bounded_binomial
from auditor.claims import lower_text, rational_text, upper_text
from auditor.decide import fail_undecided
from auditor.enclosure_limits import refuse_dg_source, refuse_threshold
from auditor.hierarchy.estimate import MAX_PENDING, estimates, refuse_beyond_limits
from auditor.hierarchy.model import Model
from auditor.hierarchy.graph import Graph
from auditor.hierarchy.sides import Side, check_lower, check_upper, model_key
from auditor.hierarchy.words import Words
from auditor.hierarchy.source import check_dg_source, threshold_pair
from auditor.outcomes import Unchecked
from auditor.rationals import read_integer, read_rational

__all__ = ["verify", "claim", "MAX_LOWER_MODELS", "MAX_LINE_TERMS", "MAX_COUNTED_BRANCHES", "read_question",
           "refuse_model", "count_line_terms", "check_common"]

I, R = "/input", "/result"

MAX_LOWER_MODELS = 8
MAX_LINE_TERMS = 10 ** 8
MAX_COUNTED_BRANCHES = 2 * 10 ** 6
MAX_EPSILON = 64


def verify(cert, report):
    inp, res = cert["input"], cert["result"]
    q = read_question(inp)
    C, removed = q.C, inp["removed"]
    if any(x >= y for x, y in zip(removed, removed[1:])) or any(not 0 <= x <= C - 2 for x in removed):
        raise Malformed(f"{I}/removed: {removed} is not strictly increasing within 0..C−2 = 0..{C - 2}")
    count = bounded_binomial(C - 1, len(removed) - 1, MAX_LOWER_MODELS)
    if count > MAX_LOWER_MODELS:
        raise Unchecked(I + "/removed", f"more than {MAX_LOWER_MODELS}", MAX_LOWER_MODELS,
                        "lower models C(C − 1, |R| − 1)")
    every = list(range(C - 1))
    lower_sets = list(combinations(every, len(removed) - 1))
    lowers = res["lowers"]
    if len(lowers) != len(lower_sets):
        report.equal(R + "/lowers", len(lowers), len(lower_sets), "number of lower models C(C − 1, |R| − 1)")
        return
    upper_model = Model(C, cuts=[b for b in every if b not in removed])
    to_count = []
    for k, entry in enumerate(lowers):
        model = Model(C, cuts=[b for b in every if b not in lower_sets[k]])
        if refuse_model(model, q, res, entry, f"{R}/lowers/{k}", lower=True):
            to_count.append((model, entry, f"{R}/lowers/{k}"))
    refuse_model(upper_model, q, res, res["upper"], R + "/upper", lower=False)
    graphs = {}
    for model, entry, pointer in to_count:
        count_line_terms(model, q, res, entry, pointer, graphs)
    undecided = []
    side = check_common(inp, res, q, 2 * C, report, undecided, graphs)
    if side is not None:
        above = []
        for k, (entry, rset) in enumerate(zip(lowers, lower_sets)):
            P = f"{R}/lowers/{k}"
            report.equal(P + "/removed", entry["removed"], list(rset), "R' (lexicographic order)")
            cuts = [b for b in every if b not in rset]
            above.append(check_lower(entry, P, {"game": "cuts", "cuts": cuts}, Model(C, cuts=cuts), side,
                                     q.line_bits, q.K, q.lower_points, report))
        below = check_upper(res["upper"], R + "/upper", {"game": "cuts", "cuts": list(upper_model.cuts)},
                            upper_model, side, q.scale_bits, q.K, q.upper_points, report)
        expected = len(removed) if below and all(above) else None
        report.check(res["minimum_removed"] == expected, R + "/minimum_removed", res["minimum_removed"], expected,
                     "minimum_removed is |R| exactly when the upper is below δ and every lower above it")
    fail_undecided(undecided, report, cert)


# shared with minimum-depth/1 ---------------------------------------------------------
class Question:
    __slots__ = ("a", "B", "sigma2", "epsilon", "delta", "C", "K", "scale_bits", "line_bits", "upper_points",
                 "lower_points", "radius", "scale")


def read_question(inp):
    """The domain of the shared input fields (MALFORMED outside it) and the numerics."""
    q = Question()
    gamma = read_rational(inp["gamma"], I + "/gamma")
    q.a, q.B = gamma.numerator, gamma.denominator
    if not 0 < q.a < q.B:
        raise Malformed(f"{I}/gamma: {inp['gamma']} is not a fraction a/B with 0 < a < B")
    q.sigma2 = read_rational(inp["sigma2"], I + "/sigma2")
    if q.sigma2 <= 0:
        raise Malformed(f"{I}/sigma2: {inp['sigma2']} is not positive")
    q.epsilon = read_rational(inp["epsilon"], I + "/epsilon")
    if q.epsilon > MAX_EPSILON:
        raise Malformed(f"{I}/epsilon: {inp['epsilon']} is not in [0, {MAX_EPSILON}]")
    q.delta = read_rational(inp["delta"], I + "/delta")
    if not 0 < q.delta < 1:
        raise Malformed(f"{I}/delta: {inp['delta']} is not in (0, 1)")
    q.C = inp["budget"]
    if 2 * q.B * q.C > MAX_PENDING:     # every level has at least 2·B pending keys: refused before any list of C
        raise Unchecked(I + "/budget", 2 * q.B * q.C, MAX_PENDING, "pending-node bound (2·B·C)")
    n = inp["numerics"]
    q.K, q.scale_bits, q.line_bits = n["grid_bits"], n["scale_bits"], n["line_bits"]
    q.upper_points, q.lower_points = n["upper_priors"] + 3, n["lower_priors"] + 3
    q.radius = n["radius"]
    q.scale = read_integer(n["source_scale"], I + "/numerics/source_scale")
    return q


def refuse_model(model, q, res, entry, pointer, lower):
    """UNCHECKED when one side's declared sizes exceed the limits (docs/paper-claims.md §3.5).

    Returns True when a lower model's estimated line terms exceed MAX_LINE_TERMS: its
    branches are then counted on the rebuilt graph (:func:`count_line_terms`).
    """
    n_weights = len(res["source"]["weights"])
    points = len(entry["grid"]["numerators"])
    F = q.line_bits if lower else q.scale_bits
    bits = (q.B * q.scale).bit_length() + F + q.K
    refuse_beyond_limits(model, q.B, n_weights, points, bits)
    if not lower:
        return False
    terms = estimates(model, q.B, n_weights, points, 64)["work"]     # estimated branches × (M + 1)
    if terms <= MAX_LINE_TERMS:
        return False
    if terms // points > MAX_COUNTED_BRANCHES:
        raise Unchecked(pointer + "/grid/numerators", terms, MAX_LINE_TERMS,
                        f"estimated line-location terms (branches × grid priors; the branches are counted "
                        f"only up to an estimate of {MAX_COUNTED_BRANCHES})")
    return True


def count_line_terms(model, q, res, entry, pointer, graphs):
    """Rebuild the lower model's graph (kept in ``graphs``) and refuse when branches × (M + 1) > MAX_LINE_TERMS."""
    src = res["source"]
    weights = [read_integer(w, f"{R}/source/weights/{i}") for i, w in enumerate(src["weights"])]
    try:
        graph = Graph(weights, src["offset"], q.a, q.B, model, Words(q.a, q.B))
    except ArithmeticError:      # no law (e.g. zero weights): the source checks fail, and the lines are not computed
        return
    graphs[model_key(model)] = graph
    terms = graph.counts()["branches"] * len(entry["grid"]["numerators"])
    if terms > MAX_LINE_TERMS:
        raise Unchecked(pointer + "/grid/numerators", terms, MAX_LINE_TERMS,
                        "line-location terms (branches × grid priors)")


def check_common(inp, res, q, draws, report, undecided, graphs=None):
    """Source, τ, threshold, draws (when ``draws``) and the transfer; the Side both checks use, or None.

    ``draws`` = 2C: transfer (1 + λ₊)(1 − (1 − τ)^{2C}); None: (1 + λ₊)·2C·τ.
    """
    src = res["source"]
    refuse_dg_source(q.sigma2, src["radius"], read_integer(src["scale"], R + "/source/scale"), len(src["weights"]),
                     I + "/sigma2", R + "/source")
    lam_lo = read_rational(res["threshold"]["lower"], R + "/threshold/lower")
    lam_hi = read_rational(res["threshold"]["upper"], R + "/threshold/upper")
    refuse_threshold(q.epsilon, [lam_lo, lam_hi], I + "/epsilon", R + "/threshold")
    checked = check_dg_source(src, q.sigma2, q.radius, q.scale, res["tau"], report, undecided, R + "/source",
                              R + "/tau", "source radius (input numerics.radius)",
                              "source scale (input numerics.source_scale)")
    if checked is None:
        return None
    weights, offset, tau = checked
    if threshold_pair(res["threshold"], q.epsilon, report, undecided, R + "/threshold") is None:
        return None
    if draws is not None:
        report.equal(R + "/draws", res["draws"], draws, "draws (2C: the informative coupling)")
        transfer = (1 + lam_hi) * (1 - (1 - tau) ** draws)
        what = "(1 + λ₊)(1 − (1 − τ)^{2C})"
    else:
        transfer = (1 + lam_hi) * 2 * q.C * tau
        what = "(1 + λ₊)·2C·τ"
    report.equal(R + "/transfer", read_rational(res["transfer"], R + "/transfer"), transfer, what)
    return Side(weights, offset, q.a, q.B, lam_lo, lam_hi, transfer, q.delta, graphs)


def capacity_text(name, eps, value, direction):
    """``D_{S_all}(5) >= 0.0001088341406`` (lower) or ``D_{...}(5) <= ...`` (upper)."""
    if direction < 0:
        return f"D_{{{name}}}({eps}) >= {lower_text(value)}"
    return f"D_{{{name}}}({eps}) <= {upper_text(value)}"


# summary ------------------------------------------------------------------------
def claim(cert):
    """``minimum removed cuts = 1: D_{S_all}(5) >= … > delta = 1/10000 > … >= D_{S_all\\{1}}(5) for …``."""
    inp, res = cert["input"], cert["result"]
    eps = rational_text(read_rational(inp["epsilon"], ""))
    delta = rational_text(read_rational(inp["delta"], ""))
    lowers = [capacity_text("S_all\\{" + ",".join(map(str, e["removed"])) + "}" if e["removed"] else "S_all", eps,
                            read_rational(e["lower"], ""), -1) for e in res["lowers"]]
    upper = capacity_text("S_all\\{" + ",".join(map(str, inp["removed"])) + "}", eps,
                          read_rational(res["upper"]["upper"], ""), +1)
    head = (f"minimum removed cuts = {res['minimum_removed']}" if res["minimum_removed"] is not None
            else "minimum not established")
    shown = "; ".join(lowers[:3]) + (f"; and {len(lowers) - 3} more lower models" if len(lowers) > 3 else "")
    return (f"{head}: {shown} vs delta = {delta}; {upper} for gamma = {rational_text(read_rational(inp['gamma'], ''))}"
            f", sigma^2 = {rational_text(read_rational(inp['sigma2'], ''))}, C = {inp['budget']} "
            f"(capacities of the cut-game models, not attacks on the mechanism)")
