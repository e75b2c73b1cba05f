"""Hierarchy games on exact piecewise-linear curves, for small laws.

(*Exact Compilation and Resource Laws for Hidden Integer Feedback*, §5.1 and Appendix G.1.)

Node values (curves in the prior t):

    pending:  max(stop, echo, participations)            never convexified
    group ℓ:  max(stop, max over alternatives)           (G_c: words × signs; R: max over v)
    node:     Cvx(min over allowed groups)               one group: that group's curve

Exact curves grow quickly (docs/hierarchy.md §7): ``max_vertices`` stops a
computation whose curves outgrow a limit (a LimitError naming it), which is
how ``hierarchy-exact/1`` (producer.kinds.hierarchy_exact) keeps to its
documented sizes.
"""

from itertools import product

from gmpy2 import mpq

from producer.errors import LimitError
from producer.hierarchy import pl
from producer.hierarchy.graph import Graph, Rows
from producer.hierarchy.models import DepthModel, SelectorModel
from producer.names import entry


def _alternative_curve(alt, rows, curves):
    D = rows.D
    terms = [(curves[child], mpq(p, D), mpq(q, D)) for child, (_, p, q) in zip(alt.children, rows.row(alt.row_key))]
    return pl.perspective_sum(terms)


def _group_curve(alts, rows, curves):
    return pl.pointwise_max([pl.STOP] + [_alternative_curve(alt, rows, curves) for alt in alts])


def _node_curve(graph, node, curves):
    rows = graph.rows
    if node == ("G", 0):
        return pl.STOP
    if node[0] == "P":
        return _group_curve(graph.alternatives[node], rows, curves)
    if node[0] == "G":
        groups = [_group_curve(alts, rows, curves) for alts in graph.groups[node].values()]
    else:
        groups = [pl.pointwise_max([curves[k] for k in ks]) for ks in graph.groups[node].values()]
    if len(groups) == 1:
        return groups[0]
    return pl.lower_hull(pl.pointwise_min(groups))


def solve(model, law, gamma, max_vertices=None, graph=None):
    """(graph, {node: curve}) for the game ``model``; the root is ("G", C).

    With ``max_vertices``, a node curve with more vertices raises LimitError.
    """
    graph = graph or Graph(model, Rows(law, gamma))
    curves = {}
    for node in graph.order:
        curve = curves[node] = _node_curve(graph, node, curves)
        if max_vertices is not None and len(curve) > max_vertices:
            raise LimitError(f"{model}: the exact curve of node {node} has {len(curve)} vertices, beyond the "
                             f"limit {max_vertices} (law too irregular for exact curves; {entry('hierarchy')} "
                             "certifies sampled upper bounds instead)")
    return graph, curves


def root_curve(model, law, gamma, max_vertices=None):
    graph, curves = solve(model, law, gamma, max_vertices)
    return curves[("G", model.budget)]


def selector_states(budget, depth):
    """The free states with more than one allowed length in the P_depth graph (the selector's domain)."""
    model = DepthModel(budget, depth)
    states = [("G", c) for c in range(1, budget + 1) if len(model.groups_at_g(c)) > 1]
    states += [("R", c, d) for c in range(0, budget - 1) for d in (1, -1) if len(model.groups_at_r(c, d)) > 1]
    return states


def selector_choices(budget, depth):
    """(states, the allowed lengths at each state): the fixed selectors are the product of the latter."""
    states = selector_states(budget, depth)
    base = DepthModel(budget, depth)

    def allowed(state):
        return base.groups_at_g(state[1]) if state[0] == "G" else base.groups_at_r(state[1], state[2])

    return states, [allowed(s) for s in states]


def selector_portfolio(budget, law, gamma, depth=2, max_vertices=None):
    """Q_depth = Cvx(min over fixed selectors of the root curves) (8.5: Q_2); also the distinct root curves.

    Root curves are compared as functions (equal everywhere), not as vertex lists.
    """
    states, allowed = selector_choices(budget, depth)
    roots = []
    for choice in product(*allowed):
        root = root_curve(SelectorModel(budget, depth, dict(zip(states, choice))), law, gamma, max_vertices)
        if not any(pl.equal_everywhere(root, seen) for seen in roots):
            roots.append(root)
    roots = sorted(roots)
    return pl.lower_hull(pl.pointwise_min(roots)), roots
