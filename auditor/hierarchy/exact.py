"""Exact root functions of hierarchy games and of the fixed-selector portfolio Q_H.

On the graph of :mod:`auditor.hierarchy.graph` (rows counted over the hidden
draws, words moved through integers), node curves are computed children first,
level c = 0, 1, …, C: G_c, then the pending nodes (c, ·, ·), then R_{c,·}
(docs/paper-claims.md §1.1):

- G_0: stop; G_c, group ℓ: max(stop, every (word, sign) perspective sum of length ℓ);
- pending (c, d, v): max(stop, echo, participations) (never convexified);
- R_{c,d}, group ℓ: max of its pending nodes (c, d, v), |v| = ℓ;
- a node with several allowed groups: Cvx(min over the groups).

A *selector* of Q_H fixes one allowed length at every selector state (the free
states of the P_H graph with at least two lengths); its game is the
single-group game with those lengths.  Selectors are enumerated level by level,
so every node curve is computed once per distinct choice at the levels it can
see (the choices made below it).

Every node curve is counted on its minimal t-domain representation and the
computation stops beyond ``max_vertices`` — the kind's own rule for these
curves, which the producer keeps — with the verdict "not established" (a FAIL:
a certificate of this kind never needs such a curve).
"""

from itertools import product

from auditor.hierarchy.curves import convex_minimum, maximum, perspective_sum, same_function, stop, vertex_count
from auditor.outcomes import NotEstablished

__all__ = ["ExactGame", "MAX_VERTICES"]

MAX_VERTICES = 10_000
"""Vertices of one node curve (t-domain, both ends counted) beyond which the check is refused."""


class ExactGame:
    """Node curves of one game graph; ``pointer`` names the model in a refusal."""

    def __init__(self, graph, pointer, max_vertices=None):
        self.graph, self.pointer = graph, pointer
        self.max_vertices = MAX_VERTICES if max_vertices is None else max_vertices
        self.D = graph.D
        self.C = graph.model.budget
        self.stop = stop()
        self.pending_at = {}
        for key in graph.pending:
            self.pending_at.setdefault(key[0], []).append(key)
        self.free_at = {}
        for (c, d) in graph.free_groups:
            self.free_at.setdefault(c, []).append(d)

    # one node at a time ----------------------------------------------------
    def _limit(self, chain, node):
        n = vertex_count(chain)
        if n > self.max_vertices:
            raise NotEstablished(self.pointer, f"a node curve {node} of {n} vertices",
                                 f"the kind's rule allows at most {self.max_vertices} vertices per node curve")
        return chain

    def _g_curve(self, c, lengths, below):
        groups = []
        for ell in lengths:
            alts = self.graph.root_groups[c][ell]
            groups.append(maximum([self.stop] + [perspective_sum(self.graph.rows[r], kids, below, self.D)
                                                 for r, kids in alts]))
        return self._limit(convex_minimum(groups), ("G", c))

    def _pending_curves(self, c, g_curve, below):
        curves = dict(below)
        curves[("G", c)] = g_curve
        level = {}
        for key in self.pending_at.get(c, ()):
            options = [self.stop] + [perspective_sum(self.graph.rows[r], kids, curves, self.D)
                                     for r, kids in self.graph.pending[key]]
            level[("P",) + key] = self._limit(maximum(options), ("P",) + key)
        return level

    def _r_curve(self, c, d, lengths, level):
        groups = self.graph.free_groups[(c, d)]
        tables = [maximum([level[("P",) + v] for v in groups[ell]]) for ell in lengths]
        return self._limit(convex_minimum(tables), ("R", c, d))

    # the whole game --------------------------------------------------------
    def _g_lengths(self, c):
        return tuple(self.graph.root_groups[c])

    def _r_lengths(self, c, d):
        return tuple(self.graph.free_groups[(c, d)])

    def root(self):
        """The root chain of G_C with every allowed group (Cvx(min) at multi-group nodes)."""
        below = {}
        for c in range(self.C + 1):
            g = self.stop if c == 0 else self._g_curve(c, self._g_lengths(c), below)
            if c == self.C:
                return g
            level = self._pending_curves(c, g, below)
            for d in self.free_at.get(c, ()):
                level[("R", c, d)] = self._r_curve(c, d, self._r_lengths(c, d), level)
            below = level
        raise AssertionError("unreachable")

    # the portfolio ---------------------------------------------------------
    def selector_states(self):
        """[(("G", c) or ("R", c, d), lengths)] of the states with >= 2 allowed lengths, in the documented order."""
        states = [(("G", c), self._g_lengths(c)) for c in range(1, self.C + 1)
                  if c in self.graph.root_groups and len(self._g_lengths(c)) >= 2]
        for c in range(0, self.C - 1):
            for d in (1, -1):
                if (c, d) in self.graph.free_groups and len(self._r_lengths(c, d)) >= 2:
                    states.append((("R", c, d), self._r_lengths(c, d)))
        return states

    def selector_roots(self):
        """The root chain of every selector (a list; order of the enumeration)."""
        roots = []
        self._enumerate(0, {}, roots)
        return roots

    def _enumerate(self, c, below, roots):
        choices = [(ell,) for ell in self._g_lengths(c)] if c >= 1 else [None]
        for g_choice in choices:
            g = self.stop if c == 0 else self._g_curve(c, g_choice, below)
            if c == self.C:
                roots.append(g)
                continue
            level = self._pending_curves(c, g, below)
            signs = self.free_at.get(c, ())
            for r_choice in product(*[self._r_lengths(c, d) for d in signs]):
                nxt = dict(level)
                for d, ell in zip(signs, r_choice):
                    nxt[("R", c, d)] = self._r_curve(c, d, (ell,), level)
                self._enumerate(c + 1, nxt, roots)


def distinct_functions(chains):
    """How many distinct functions the chains represent."""
    kept = []
    for chain in chains:
        if not any(same_function(chain, other) for other in kept):
            kept.append(chain)
    return len(kept)
