"""The two sides of a model-capacity statement (``minimum-deletion/1``, ``minimum-depth/1``).

- :func:`check_upper`: a ``hierarchy/1`` table for one model — grid, graph
  counts, the root table recomputed by the integer recursion (equal entry by
  entry), t₋ = 1/(1 + λ₋), the chord ``finite_upper``, ``upper`` =
  finite_upper + transfer, its display (rounded up) and ``below_delta``
  (upper < δ);
- :func:`check_lower`: proof-function lower lines for one model
  (:mod:`auditor.hierarchy.lines`) — grid, graph counts, the root lines
  (equal entry by entry), the selected line (first index maximising
  a + λ₊·b), t₊ = 1/(1 + λ₊), ``finite_lower`` = (a + λ₊·b)/2^F − λ₊,
  ``lower`` = finite_lower − transfer, its display (rounded down) and
  ``above_delta`` (lower > δ).

Both sides rebuild the model's graph from the question (rows counted over the
hidden draws).  Each returns the recomputed boolean (None when the side could
not be recomputed, which is then a recorded failure).
"""

import json
from fractions import Fraction

from auditor.common import check_display
from auditor.hierarchy.graph import Graph
from auditor.hierarchy.grid import Grid, grid_problems
from auditor.hierarchy.lines import solve_lines
from auditor.hierarchy.tables import solve
from auditor.hierarchy.words import Words
from auditor.rationals import read_integer, read_rational, show

__all__ = ["Side", "check_upper", "check_lower", "chord_upper", "read_grid", "graph_counts", "compare_entries",
           "recomputed_table", "upper_table", "model_key"]


class Side:
    """What both sides share: the law, γ = a/B, the threshold, transfer and δ."""

    __slots__ = ("weights", "offset", "a", "B", "lam_lo", "lam_hi", "transfer", "delta", "graphs")

    def __init__(self, weights, offset, a, B, lam_lo, lam_hi, transfer, delta, graphs=None):
        self.weights, self.offset, self.a, self.B = weights, offset, a, B
        self.lam_lo, self.lam_hi, self.transfer, self.delta = lam_lo, lam_hi, transfer, delta
        self.graphs = {} if graphs is None else graphs     # model key -> Graph already built (same law)

    def graph(self, model):
        key = model_key(model)
        if key not in self.graphs:
            self.graphs[key] = Graph(self.weights, self.offset, self.a, self.B, model, Words(self.a, self.B))
        return self.graphs[key]


def model_key(model):
    return (model.budget, model.depth, model.cuts)


def read_grid(entry, pointer, K, max_points, report):
    """The grid numerators of ``entry`` when valid (bits = K, at most max_points), else None."""
    report.equal(pointer + "/grid/bits", entry["grid"]["bits"], K, "K (input numerics.grid_bits)")
    g = [read_integer(x, f"{pointer}/grid/numerators/{i}") for i, x in enumerate(entry["grid"]["numerators"])]
    problems = grid_problems(g, entry["grid"]["bits"])
    ok = report.check(not problems, pointer + "/grid/numerators", f"{len(g)} numerators", "a valid grid",
                      "; ".join(problems) or "grid")
    report.check(len(g) <= max_points, pointer + "/grid/numerators", len(g), max_points,
                 "more grid priors than requested (interior priors plus 0, 1/2, 1)")
    return g if ok else None


def graph_counts(graph, claimed, pointer, report):
    counts = graph.counts()
    for key in ("synchronised", "free", "pending", "branches"):
        report.equal(f"{pointer}/graph/{key}", claimed[key], counts[key], f"{key} count of the rebuilt graph")


def _model(entry, pointer, spec, report):
    report.check(entry["model"] == spec, pointer + "/model", json.dumps(entry["model"]), json.dumps(spec),
                 "model differs from the one the question determines")


def chord_upper(t, g, K, E, F):
    """max(t, 1 − t) + ℓ(t)/2^F, ℓ the chord of E on the grid interval of t."""
    M = len(g) - 1
    x = t * (1 << K)
    j = max(i for i in range(M) if g[i] <= x)
    ell = E[j] + Fraction(E[j + 1] - E[j]) * (x - g[j]) / (g[j + 1] - g[j])
    return max(t, 1 - t) + ell / (1 << F)


def compare_entries(claimed, mine, pointer, report, what):
    """Equal entry by entry; one failure naming the first differing entry and how many differ."""
    wrong = [i for i, (x, y) in enumerate(zip(claimed, mine)) if x != y]
    first = wrong[0] if wrong else 0
    return report.check(not wrong, f"{pointer}/{first}", claimed[first], mine[first],
                        f"{what} differs from the recomputed recursion ({len(wrong)} entries differ)")


def recomputed_table(make_graph, claimed_graph, g, K, F, claimed, pointer, report):
    """Rebuild and recount the graph, recompute the root table (docs/hierarchy.md §4), compare it with ``claimed``.

    ``pointer`` is that of the object holding ``graph`` and ``root_excess``; returns the
    recomputed table, or None when an internal bound of the exact route does not hold.
    """
    try:
        graph = make_graph()
        graph_counts(graph, claimed_graph, pointer, report)
        table = solve(graph, Grid(g, K), F)
    except ArithmeticError as exc:
        report.check(False, pointer + "/root_excess", "the certificate's table", "not recomputed",
                     f"the auditor could not recompute the root table ({exc})")
        return None
    compare_entries(claimed, table, pointer + "/root_excess", report, "root table entry")
    return table


def upper_table(entry, pointer, make_graph, F, K, max_points, report):
    """(grid, recomputed root table) of a ``hierarchy/1`` table held by ``entry``, or None.

    ``scale_bits`` = F, the grid (bits K, at most max_points), E[0] = E[M] = 0, the
    graph counts and ``root_excess`` entry by entry.
    """
    report.equal(pointer + "/scale_bits", entry["scale_bits"], F, "F (input numerics.scale_bits)")
    g = read_grid(entry, pointer, K, max_points, report)
    claimed = [int(read_rational(x, f"{pointer}/root_excess/{i}")) for i, x in enumerate(entry["root_excess"])]
    if g is None or not report.equal(pointer + "/root_excess", len(claimed), len(g), "length of root_excess (M + 1)"):
        return None
    report.check(claimed[0] == 0 and claimed[-1] == 0, pointer + "/root_excess",
                 f"[{show(claimed[0])}, …, {show(claimed[-1])}]", "E[0] = E[M] = 0",
                 "u(0) = u(1) = 1 forces zero excess at both ends")
    table = recomputed_table(make_graph, entry["graph"], g, entry["grid"]["bits"], entry["scale_bits"], claimed,
                             pointer, report)
    return None if table is None else (g, table)


def check_upper(entry, pointer, spec, model, side, F, K, max_points, report):
    """The upper side of one model; returns the recomputed ``upper < δ`` (or None)."""
    _model(entry, pointer, spec, report)
    solved = upper_table(entry, pointer, lambda: side.graph(model), F, K, max_points, report)
    if solved is None:
        return None
    g, table = solved
    t = 1 / (1 + side.lam_lo)
    report.equal(pointer + "/prior", read_rational(entry["prior"], pointer + "/prior"), t, "t₋ = 1/(1 + λ₋)")
    finite = (1 + side.lam_lo) * chord_upper(t, g, K, table, F) - side.lam_lo
    report.equal(pointer + "/finite_upper", read_rational(entry["finite_upper"], pointer + "/finite_upper"), finite,
                 "(1 + λ₋)·ū(t₋) − λ₋ from the root table's chord")
    upper = finite + side.transfer
    claimed_upper = read_rational(entry["upper"], pointer + "/upper")
    report.equal(pointer + "/upper", claimed_upper, upper, "finite_upper + transfer")
    check_display(entry["upper_display"], claimed_upper, +1, pointer + "/upper_display", report)
    below = upper < side.delta
    report.equal(pointer + "/below_delta", entry["below_delta"], below, "upper < δ")
    return below


def check_lower(entry, pointer, spec, model, side, F, K, max_points, report):
    """The lower side of one model; returns the recomputed ``lower > δ`` (or None)."""
    _model(entry, pointer, spec, report)
    report.equal(pointer + "/line_bits", entry["line_bits"], F, "F of the lines (input numerics.line_bits)")
    g = read_grid(entry, pointer, K, max_points, report)
    lines = entry["root_lines"]
    a_claimed = [read_integer(x, f"{pointer}/root_lines/a/{i}") for i, x in enumerate(lines["a"])]
    b_claimed = [read_integer(x, f"{pointer}/root_lines/b/{i}") for i, x in enumerate(lines["b"])]
    if g is None:
        return None
    ok = report.equal(pointer + "/root_lines/a", len(a_claimed), len(g), "number of root lines (M + 1)")
    ok &= report.equal(pointer + "/root_lines/b", len(b_claimed), len(g), "number of root lines (M + 1)")
    if not ok:
        return None
    try:
        graph = side.graph(model)
        graph_counts(graph, entry["graph"], pointer, report)
        A, B = solve_lines(graph, Grid(g, K), F)
    except ArithmeticError as exc:
        report.check(False, pointer + "/root_lines", "the certificate's lines", "not recomputed",
                     f"the auditor could not recompute the root lines ({exc})")
        return None
    for name, claimed, mine in (("a", a_claimed, A), ("b", b_claimed, B)):
        compare_entries(claimed, mine, f"{pointer}/root_lines/{name}", report, "root line coordinate")
    lam = side.lam_hi
    scores = [a + lam * b for a, b in zip(A, B)]
    best = max(scores)
    index = scores.index(best)
    line = entry["line"]
    report.equal(pointer + "/line/index", line["index"], index, "first index maximising a + λ₊·b")
    report.equal(pointer + "/line/a", read_integer(line["a"], pointer + "/line/a"), A[index], "a of the selected line")
    report.equal(pointer + "/line/b", read_integer(line["b"], pointer + "/line/b"), B[index], "b of the selected line")
    report.equal(pointer + "/prior", read_rational(entry["prior"], pointer + "/prior"), 1 / (1 + lam),
                 "t₊ = 1/(1 + λ₊)")
    finite = best / (1 << F) - lam
    report.equal(pointer + "/finite_lower", read_rational(entry["finite_lower"], pointer + "/finite_lower"), finite,
                 "(a + λ₊·b)/2^F − λ₊ of the selected line")
    lower = finite - side.transfer
    claimed_lower = read_rational(entry["lower"], pointer + "/lower")
    report.equal(pointer + "/lower", claimed_lower, lower, "finite_lower − transfer")
    check_display(entry["lower_display"], claimed_lower, -1, pointer + "/lower_display", report)
    above = lower > side.delta
    report.equal(pointer + "/above_delta", entry["above_delta"], above, "lower > δ")
    return above
