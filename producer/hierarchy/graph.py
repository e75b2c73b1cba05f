"""The graph of a game above G_C in the commitment hierarchy.

(*Exact Compilation and Resource Laws for Hidden Integer Feedback*, §5.1, Appendices E.1, E.3 and G.1.)

Nodes are tuples:

- ``("G", c)``: synchronised, c participations left (G_0 = max(t, 1 − t));
- ``("P", c, d, v)``: pending, previous sign d = ±1, committed digits v (a
  tuple, 1 <= |v| <= c + 1) for the positions c, c − 1, …;
- ``("R", c, d)``: free (renewal), nothing committed.

Rows are integer numerators over D = B·S (the hidden-rounding rows of
the paper's §3.1 in digit-word coordinates, Appendix E.1).  A *model* (:mod:`producer.hierarchy.models`) says which
block lengths ("groups") may be committed at G_c and R_{c,d}.  Late renewal:
R_{c−1,j} is entered after the output of the row that used the last
committed digit, and its block includes the next row's digit.
"""

from itertools import product

ROOT, PENDING = "root", "pend"


def carry(word, n, a, B):
    """The word of k + n from the word of k (the paper's Appendix E.1)."""
    out, off = [], n
    for z in word:
        t = z + a * off
        out.append(t % B)
        off = -(t // B)
    return tuple(out)


def words(length, B):
    """All words in {0..B−1}^length, in lexicographic order."""
    return list(product(range(B), repeat=length))


class Rows:
    """The rows of the digit-word game for a law and γ, cached.

    ``row(key)`` is a tuple of (n, P_n, Q_n) with P_n + Q_n > 0, numerators
    over D = B·S, for the keys ("root", j) (P_n = B·w_{n−j}, Q_n = B·w_n) and
    ("pend", d, z, j) (8.1: e = floor((z − a·d)/B), ρ = z − a·d − B·e,
    Q_n = (B − z)·w_n + z·w_{n+1}, P_n = (B − ρ)·w_{n−j+e} + ρ·w_{n−j+e+1}).
    """

    def __init__(self, law, gamma):
        self.law, self.a, self.B = law, gamma.a, gamma.B
        self.D = self.B * int(law.total)
        self._cache = {}

    def _w(self, m):
        return int(self.law.weight(m))

    def row(self, key):
        row = self._cache.get(key)
        if row is None:
            row = self._cache[key] = self._build(key)
        return row

    def _build(self, key):
        B, w = self.B, self._w
        lo, hi = self.law.low - 2, self.law.high + 2
        if key[0] == ROOT:
            j = key[1]
            entries = ((n, B * w(n - j), B * w(n)) for n in range(lo - 2, hi + 2))
        else:
            _, d, z, j = key
            e, rho = divmod(z - self.a * d, B)
            entries = ((n, (B - rho) * w(n - j + e) + rho * w(n - j + e + 1), (B - z) * w(n) + z * w(n + 1))
                       for n in range(lo - 4, hi + 4))
        row = tuple((n, p, q) for n, p, q in entries if p + q > 0)
        if sum(p for _, p, _ in row) != self.D or sum(q for _, _, q in row) != self.D:
            raise ArithmeticError(f"row {key}: masses do not sum to D = {self.D}")
        return row


class Alternative:
    """One alternative of a node: a row and the child reached at each of its outputs."""

    __slots__ = ("row_key", "children")

    def __init__(self, row_key, children):
        self.row_key, self.children = row_key, children


class Graph:
    """The reachable graph of ``model`` over ``rows``, with evaluation order and counts.

    ``alternatives[node]`` lists Alternatives for G and pending nodes (for G,
    grouped: ``groups[node]`` maps ℓ to its list); for R nodes ``groups[node]``
    maps ℓ to the pending nodes of that block length.  ``order`` lists the
    nodes so that children come first: by c, then G_c, pending(c, ·), R_{c,·}.
    """

    def __init__(self, model, rows):
        self.model, self.rows = model, rows
        self.budget = model.budget
        self.groups, self.alternatives = {}, {}
        self._explore()

    def _g_groups(self, c):
        a, B = self.rows.a, self.rows.B
        groups = {}
        for ell in self.model.groups_at_g(c):
            alts = []
            for w in words(ell, B):
                for j in (1, -1):
                    row = self.rows.row((ROOT, j))
                    alts.append(Alternative((ROOT, j), tuple(("P", c - 1, j, carry(w, n, a, B)) for n, _, _ in row)))
            groups[ell] = alts
        return groups

    def _pending_alternatives(self, node):
        _, c, d, v = node
        a, B = self.rows.a, self.rows.B
        echo_key = (PENDING, d, v[0], 0)
        alts = [Alternative(echo_key, tuple(("G", c) for _ in self.rows.row(echo_key)))]
        if c >= 1:
            for j in (1, -1):
                key = (PENDING, d, v[0], j)
                row = self.rows.row(key)
                if len(v) >= 2:
                    kids = tuple(("P", c - 1, j, carry(v[1:], n, a, B)) for n, _, _ in row)
                else:
                    kids = tuple(("R", c - 1, j) for _ in row)
                alts.append(Alternative(key, kids))
        return alts

    def _r_groups(self, node):
        _, c, d = node
        return {ell: [("P", c, d, v) for v in words(ell, self.rows.B)] for ell in self.model.groups_at_r(c, d)}

    def _children(self, node):
        if node[0] == "G":
            if node[1] == 0:
                return []
            groups = self.groups[node] = self._g_groups(node[1])
            return [k for alts in groups.values() for alt in alts for k in alt.children]
        if node[0] == "P":
            alts = self.alternatives[node] = self._pending_alternatives(node)
            return [k for alt in alts for k in alt.children]
        groups = self.groups[node] = self._r_groups(node)
        return [k for ks in groups.values() for k in ks]

    def _explore(self):
        root = ("G", self.budget)
        seen, stack = {root}, [root]
        while stack:
            node = stack.pop()
            for child in self._children(node):
                if child not in seen:
                    seen.add(child)
                    stack.append(child)
        rank = {"G": 0, "P": 1, "R": 2}
        self.order = sorted(seen, key=lambda k: (k[1], rank[k[0]], k[2:]))
        self.nodes = seen

    def node_alternatives(self, node):
        """Every Alternative of a G or pending node (all groups together for G)."""
        if node[0] == "P":
            return self.alternatives[node]
        return [alt for alts in self.groups.get(node, {}).values() for alt in alts]

    def counts(self):
        """(synchronised, free, pending, branches): the sizes of docs/hierarchy.md §3."""
        kinds = {"G": 0, "R": 0, "P": 0}
        branches = 0
        for node in self.nodes:
            kinds[node[0]] += 1
            if node[0] != "R":
                branches += sum(len(alt.children) for alt in self.node_alternatives(node))
        return {"synchronised": kinds["G"], "free": kinds["R"], "pending": kinds["P"], "branches": branches}
