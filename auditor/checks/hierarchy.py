"""Checks of ``hierarchy/1`` certificates (*Hidden Integer Feedback* §5, App. E, G, docs/hierarchy.md).

Re-proved by the auditor's own routes, in this order:

1. the input's domain (γ reduced with 0 < a < B, σ² > 0, cuts strictly
   increasing within {0..C−2}, 0 < δ < 1): otherwise the certificate is
   malformed;
2. the work estimate from the declared sizes (:mod:`auditor.hierarchy.estimate`)
   and the enclosure limits of the source and threshold claims
   (:mod:`auditor.enclosure_limits`), and the recursion's work
   (:data:`WORK_NS` × its estimate) and memory (:data:`ENTRY_BYTES` × the
   table entries of one level) within the file's budget
   (:mod:`auditor.budget`): beyond a limit the check is refused before any
   work (UNCHECKED);
3. the finite source and τ (the auditor's DG enclosures);
4. the grid, and the graph rebuilt from the input with rows counted over the
   hidden draws: its four counts;
5. the root table recomputed by the integer recursion of docs/hierarchy.md §4
   (int64 limbs and Python integers, no floats): equal to ``root_excess``
   entry by entry (soundness only needs ≤; the recursion fixes every rounding,
   so the field claims equality);
6. λ₋ <= e^ε <= λ₊, t₋ = 1/(1 + λ₋), the chord ``finite_upper``, the transfer
   term, ``upper``, the outward displays and, for a δ query, upper <= δ
   (hence ε*_C(δ) <= ε).

The enclosure claims of 3 and 6 (atoms, τ, λ₋ <= e^ε <= λ₊) are decided
three-way (:mod:`auditor.hierarchy.source`): FAIL only when the auditor's
enclosure disproves one; one neither proved nor disproved at four times the
starting precision is not established by the certificate's recipe: a FAIL too.
"""


from auditor import budget
from auditor.certificate import Malformed
from auditor.common import outward_decimal
from auditor.claims import MAX_LISTED, gamma_sigma2_text, number as _q, rational_text, upper_text
from auditor.hierarchy.estimate import refuse_beyond_limits
from auditor.hierarchy.graph import Graph
from auditor.hierarchy.model import Model
from auditor.decide import fail_undecided
from auditor.enclosure_limits import refuse_dg_source, refuse_threshold
from auditor.hierarchy.source import check_dg_source, threshold_pair
from auditor.hierarchy.sides import chord_upper, upper_table
from auditor.hierarchy.words import Words
from auditor.outcomes import MalformedInput, Unchecked
from auditor.rationals import read_rational

I, R = "/input", "/result"
# The whole check in the file's budget (auditor.budget), measured on the development machine on the
# references: 5 to 21 work units (about 1 ns; 25 with a margin) per unit of the recursion's estimated work
# (C = 8, P_4 at 1503 priors: 1.2·10^9 units, 15 s), and 260 to 830 bytes per table entry of one level.
WORK_NS = 25
ENTRY_BYTES = 1024


def verify(cert, report):
    inp, res = cert["input"], cert["result"]
    a, B, sigma2, model, delta = _input(inp)
    budget.reserve(report, [(cert, _cost(_refuse_beyond_limits(inp, res, model, B)))])
    undecided = []  # pointers of claims neither proved nor disproved at the highest precision
    _verify(inp, res, a, B, sigma2, model, delta, report, undecided)
    fail_undecided(undecided, report, cert)


def _verify(inp, res, a, B, sigma2, model, delta, report, undecided):
    source = _source(inp, res, sigma2, report, undecided)
    if source is None:
        return
    weights, offset = source
    table = _root_table(inp, res, weights, offset, a, B, model, report)
    if table is None:
        return
    _bound(inp, res, table, delta, report, undecided)


# 1. input ----------------------------------------------------------------
def _input(inp):
    gamma = read_rational(inp["gamma"], I + "/gamma")
    a, B = gamma.numerator, gamma.denominator
    if not 0 < a < B:
        raise Malformed(f"{I}/gamma: {inp['gamma']} is not a fraction a/B with 0 < a < B")
    sigma2 = read_rational(inp["sigma2"], I + "/sigma2")
    if sigma2 <= 0:
        raise Malformed(f"{I}/sigma2: {inp['sigma2']} is not positive")
    C = inp["budget"]
    spec = inp["model"]
    if spec["game"] == "cuts":
        cuts = spec["cuts"]
        if any(b >= c for b, c in zip(cuts, cuts[1:])) or any(not 0 <= b <= C - 2 for b in cuts):
            raise Malformed(f"{I}/model/cuts: {cuts} is not strictly increasing within 0..C−2 = 0..{C - 2}")
    model = Model.from_json(C, spec)
    delta = None
    if "delta" in inp["query"]:
        delta = read_rational(inp["query"]["delta"], I + "/query/delta")
        if not 0 < delta < 1:
            raise Malformed(f"{I}/query/delta: {inp['query']['delta']} is not in (0, 1)")
    return a, B, sigma2, model, delta


# 2. limits ---------------------------------------------------------------
def estimate(cert, prefix=""):
    """The limits, and the work and memory in the file's budget (:class:`auditor.budget.Cost`), of a
    certificate embedded at ``prefix`` (:func:`auditor.embedded.cost`), with the pointers prefixed."""
    inp, res = cert["input"], cert["result"]
    try:
        _, B, _, model, _ = _input(inp)
        cost = _cost(_refuse_beyond_limits(inp, res, model, B))
    except MalformedInput as exc:
        raise Malformed(f"{prefix}{exc}") from None
    except Unchecked as exc:
        raise Unchecked(prefix + exc.pointer, exc.estimate, exc.limit, exc.what) from None
    return cost.at(prefix)


def _cost(est):
    """The recursion's work and memory (:class:`auditor.budget.Cost`) from the estimates of
    :mod:`auditor.hierarchy.estimate`: :data:`WORK_NS` units per unit of its work, :data:`ENTRY_BYTES` per table
    entry of one level."""
    return budget.Cost(est["work"] * WORK_NS, est["level_entries"] * ENTRY_BYTES, R + "/grid/numerators",
                       "the integer recursion")


def _refuse_beyond_limits(inp, res, model, B):
    numerics = inp["numerics"]
    S = int(read_rational(numerics["source_scale"], I + "/numerics/source_scale"))
    bits = (B * S).bit_length() + numerics["scale_bits"] + numerics["grid_bits"]
    est = refuse_beyond_limits(model, B, len(res["source"]["weights"]), len(res["grid"]["numerators"]), bits)
    # the enclosure claims of 3 and 6 (atoms, τ, λ₋ <= e^ε <= λ₊): the dg-interval/1 limits
    src = res["source"]
    refuse_dg_source(read_rational(inp["sigma2"], I + "/sigma2"), src["radius"],
                     int(read_rational(src["scale"], R + "/source/scale")), len(src["weights"]),
                     I + "/sigma2", R + "/source")
    sides = [read_rational(res["threshold"][side], f"{R}/threshold/{side}") for side in ("lower", "upper")]
    refuse_threshold(read_rational(res["epsilon"], R + "/epsilon"), sides, R + "/epsilon", R + "/threshold")
    return est


# 3. source and τ ---------------------------------------------------------
def _source(inp, res, sigma2, report, undecided):
    numerics = inp["numerics"]
    checked = check_dg_source(res["source"], sigma2, numerics["radius"],
                              int(read_rational(numerics["source_scale"], I + "/numerics/source_scale")),
                              res["tau"], report, undecided, R + "/source", R + "/tau",
                              "source radius (input numerics.radius)", "source scale (input numerics.source_scale)")
    return None if checked is None else checked[:2]


# 4-5. grid, graph, root table --------------------------------------------
def _root_table(inp, res, weights, offset, a, B, model, report):
    """The certificate's root table when it equals the recomputed one's shape (compared entry by entry)."""
    numerics = inp["numerics"]
    solved = upper_table(res, R, lambda: Graph(weights, offset, a, B, model, Words(a, B)), numerics["scale_bits"],
                         numerics["grid_bits"], numerics["priors"] + 3, report)
    return None if solved is None else [int(read_rational(x, "")) for x in res["root_excess"]]


# 6. the bound -------------------------------------------------------------
def _bound(inp, res, table, delta, report, undecided):
    C = inp["budget"]
    eps = read_rational(res["epsilon"], R + "/epsilon")
    if delta is None:
        report.equal(R + "/epsilon", eps, read_rational(inp["query"]["epsilon"], I + "/query/epsilon"),
                     "epsilon (the query's)")
    pair = threshold_pair(res["threshold"], eps, report, undecided, R + "/threshold")
    if pair is None:
        return
    lam_lo, lam_hi = pair

    prior = read_rational(res["prior"], R + "/prior")
    report.equal(R + "/prior", prior, 1 / (1 + lam_lo), "t₋ = 1/(1 + λ₋)")
    g = [int(x) for x in res["grid"]["numerators"]]
    u = chord_upper(1 / (1 + lam_lo), g, res["grid"]["bits"], table, res["scale_bits"])
    finite = (1 + lam_lo) * u - lam_lo
    claimed_finite = read_rational(res["finite_upper"], R + "/finite_upper")
    report.equal(R + "/finite_upper", claimed_finite, finite, "(1 + λ₋)·ū(t₋) − λ₋ from the root table's chord")
    tau = read_rational(res["tau"], R + "/tau")
    transfer = (1 + lam_hi) * (1 - (1 - tau) ** (2 * C))
    claimed_transfer = read_rational(res["transfer"], R + "/transfer")
    report.equal(R + "/transfer", claimed_transfer, transfer, "b = (1 + λ₊)(1 − (1 − τ)^{2C})")
    upper = read_rational(res["upper"], R + "/upper")
    report.equal(R + "/upper", upper, finite + transfer, "finite_upper + transfer")
    _display(res["upper_display"], upper, R + "/upper_display", report)
    _display(res["epsilon_display"], eps, R + "/epsilon_display", report)

    if delta is None:
        report.check(res["delta"] is None, R + "/delta", res["delta"], None, "an ε query has no δ")
        report.check(res["meets_delta"] is None, R + "/meets_delta", res["meets_delta"], None,
                     "an ε query has no δ claim")
        return
    claimed_delta = res["delta"]
    report.check(claimed_delta is not None and read_rational(claimed_delta, R + "/delta") == delta,
                 R + "/delta", claimed_delta, delta, "delta (the query's)")
    report.check(res["meets_delta"] is True, R + "/meets_delta", res["meets_delta"], True,
                 "a δ query claims upper <= δ")
    report.at_most(R + "/upper", upper, delta, "upper <= δ, hence ε*_C(δ) <= ε")


def _display(text, value, pointer, report):
    digits = len(text.split(".")[1]) if "." in text else 0
    expected = outward_decimal(value, digits, +1)  # gmpy2 digits: no int/str limit
    report.check(text == expected, pointer, text, expected, "display is not the exact value rounded up")


# ---- the claim: the one-line summary of a verified certificate (auditor.api states it) ----

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


def claim(cert):
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
    return f"{head} for {gamma_sigma2_text(inp['gamma'], inp['sigma2'])} ({game})"
