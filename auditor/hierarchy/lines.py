"""Proof-function lower lines of hierarchy games (docs/paper-claims.md §3.2).

Every node s gets, for each grid prior t_i = g_i/2^K, a line (a_s[i], b_s[i])
of integers over 2^F with t·a/2^F + (1 − t)·b/2^F <= u_s(t) on all of [0, 1].
The documented deterministic rule, recomputed exactly:

- best(L, X, Y): the line of L with the largest a·X + b·Y, then the largest
  a, then the largest b;
- stop line: (2^F, 0) when 2·g_i >= 2^K, else (0, 2^F);
- an alternative (row P, Q over D, children c(n)) at prior i: per output the
  child's best line at (X_n, Y_n) = (g_i·P_n, ḡ_i·Q_n) over *all* its lines,
  then A = floor(Σ P_n·a_n / D), B = floor(Σ Q_n·b_n / D);
- G_c, pending nodes, a free group: best of the stop line (G_c and pending)
  and the alternatives (or member lines at the same index) at (g_i, ḡ_i);
- a node with several groups: the tangents, with the right derivative (the
  left one at t = 1), of H = Cvx(min over groups of the groups' line
  envelopes L_ℓ(t) = max_i (t·a + (1 − t)·b)), floored; the stop line where a
  coordinate would be negative.

How the auditor finds best(child lines, X, Y) (its own route).  The maximiser
of a·X + b·Y over a finite set, under this tie rule, is a vertex of the set's
upper-right hull (the face of maximisers is a point or a segment, and the tie
rule picks its end of largest a, a vertex; for X = Y = 0 the last vertex).
Along the hull (a increasing, b decreasing) the move past edge k
(Δa_k, Δb_k > 0) is taken iff Δb_k·Y <= Δa_k·X, i.e. s_k <= σ with
s_k = Δb_k/(Δa_k + Δb_k) and σ = X/(X + Y); the s_k increase strictly, so the
chosen vertex is #{k : s_k <= σ}.  It is counted on int64 keys
κ = floor(2^62·σ) against floor(2^62·s_k): a key below κ is counted, a key
above it is not, and only keys equal to κ are decided by the exact integer
comparison.  (X + Y = 0: every edge is counted.)

The sums Σ P_n·a_n are exact int64 limb products (:mod:`auditor.hierarchy.limbs`).
No floating point anywhere.
"""

from bisect import bisect_right

import numpy as np
from gmpy2 import mpq

from auditor.hierarchy.curves import lower_hull, segment_line, t_vertices
from auditor.hierarchy.limbs import plan, recombine, split_signed
from auditor.hierarchy.tables import RowCache
from auditor.game.curves import Chain
from auditor.rationals import floor

__all__ = ["solve_lines", "KEY_BITS"]

KEY_BITS = 62
_ALL = (1 << KEY_BITS) + 1          # the key of X + Y = 0: above every edge key


class _Envelope:
    """The upper-right hull of one node's lines: vertices (a, b), edge keys and exact edge data."""

    __slots__ = ("a", "b", "keys", "da", "db")

    def __init__(self, a_list, b_list):
        chain = Chain.from_points(list(zip(a_list, b_list)))
        self.a = [int(x) for x in chain.xs]
        self.b = [int(y) for y in chain.ys]
        self.da = [y - x for x, y in zip(self.a, self.a[1:])]
        self.db = [x - y for x, y in zip(self.b, self.b[1:])]
        self.keys = np.array([(db << KEY_BITS) // (da + db) for da, db in zip(self.da, self.db)], dtype=np.int64)

    def choose(self, kappa, X, Y):
        """Vertex indices for the key column ``kappa`` (exact ties via the callables X(i), Y(i))."""
        left = np.searchsorted(self.keys, kappa, side="left")
        right = np.searchsorted(self.keys, kappa, side="right")
        for i in np.nonzero(right > left)[0].tolist():
            x, y = X(i), Y(i)
            k = int(left[i])
            while k < right[i] and self.db[k] * (x + y) <= (self.da[k] + self.db[k]) * x:
                k += 1
            left[i] = k
        return left


class _Packed:
    """Envelope vertices of several nodes as int64 limb matrices (a and b), one row per vertex."""

    def __init__(self, envelopes, numerator_bits, outputs):
        self.envelopes = envelopes
        self.offset, total, bits = {}, 0, 1
        for key, env in envelopes.items():
            self.offset[key] = total
            total += len(env.a)
            bits = max(bits, max(env.a).bit_length(), max(env.b).bit_length())
        self.plan = plan(bits, numerator_bits, outputs)
        ba, nl = self.plan[0], self.plan[1]
        self.nl = nl
        every_a = [x for env in envelopes.values() for x in env.a]
        every_b = [y for env in envelopes.values() for y in env.b]
        self.a = split_signed(every_a, ba, nl)
        self.b = split_signed(every_b, ba, nl)


class _Rows(RowCache):
    """Per row, beside the limb weight matrices of the tables: the key matrix κ (priors × outputs)."""

    def __init__(self, graph, grid):
        super().__init__(graph, grid)
        self._keys = {}
        self._g = np.array(grid.g, dtype=object)
        self._gbar = np.array(grid.gbar, dtype=object)

    def keys(self, key):
        out = self._keys.get(key)
        if out is None:
            r = self.graph.rows[key]
            out = np.empty((self.grid.M + 1, len(r.P)), dtype=np.int64)
            for col, (p, q) in enumerate(zip(r.P, r.Q)):
                X = self._g * p
                total = X + self._gbar * q
                empty = total == 0
                kappa = (X * (1 << KEY_BITS)) // np.where(empty, 1, total)
                out[:, col] = np.where(empty, _ALL, kappa).astype(np.int64)
            self._keys[key] = out
        return out


def _alternative(row_key, kids, packed, rows, grid, D):
    """(A, B) lists over the priors of one alternative's line."""
    r = rows.graph.rows[row_key]
    kappa = rows.keys(row_key)
    g, gbar = grid.g, grid.gbar
    flat = np.empty((grid.M + 1, len(kids)), dtype=np.intp)
    for col, kid in enumerate(kids):
        p, q = r.P[col], r.Q[col]
        env = packed.envelopes[kid]
        idx = env.choose(kappa[:, col], lambda i, p=p: g[i] * p, lambda i, q=q: gbar[i] * q)
        flat[:, col] = idx + packed.offset[kid]
    width = len(kids) * packed.nl
    Wp, Wq = rows.weights(row_key, packed.plan)
    sa = recombine(packed.a.take(flat.ravel(), axis=0).reshape(grid.M + 1, width) @ Wp, *packed.plan)
    sb = recombine(packed.b.take(flat.ravel(), axis=0).reshape(grid.M + 1, width) @ Wq, *packed.plan)
    return [x // D for x in sa], [y // D for y in sb]


def _best(candidates, grid):
    """Per prior, best(candidates' lines at that index, g_i, ḡ_i): (A, B) lists."""
    A, B = list(candidates[0][0]), list(candidates[0][1])
    g, gbar = grid.g, grid.gbar
    score = [a * x + b * y for a, b, x, y in zip(A, B, g, gbar)]
    for As, Bs in candidates[1:]:
        for i, (a, b) in enumerate(zip(As, Bs)):
            s = a * g[i] + b * gbar[i]
            if s > score[i] or (s == score[i] and (a > A[i] or (a == A[i] and b > B[i]))):
                score[i], A[i], B[i] = s, a, b
    return A, B


def _stop(grid, F):
    unit = 1 << F
    A = [unit if 2 * x >= grid.top else 0 for x in grid.g]
    return A, [unit - x for x in A]


def _tangents(groups, grid, stop):
    """Lines of a multi-group node: tangents of Cvx(min over groups of the line envelopes), floored."""
    points = []
    for A, B in groups:
        points.extend(t_vertices(Chain.from_points(list(zip(A, B)))))
    hull = lower_hull(points)
    ts = [t for t, _ in hull]
    A, B = [], []
    for i, x in enumerate(grid.g):
        t = mpq(x, grid.top)
        k = min(bisect_right(ts, t) - 1, len(hull) - 2)
        alpha, beta = segment_line(hull[k], hull[k + 1])
        a, b = int(floor(alpha)), int(floor(beta))
        if a < 0 or b < 0:
            a, b = stop[0][i], stop[1][i]
        A.append(a)
        B.append(b)
    return A, B


def _node(groups, grid, stop):
    return groups[0] if len(groups) == 1 else _tangents(groups, grid, stop)


def solve_lines(graph, grid, F, progress=None):
    """The root lines (a list, b list) of G_C by the recursion of docs/paper-claims.md §3.2."""
    C = graph.model.budget
    D = graph.D
    rows = _Rows(graph, grid)
    numerator_bits = D.bit_length()
    outputs = max(len(r.outputs) for r in graph.rows.values())
    stop = _stop(grid, F)
    below = None
    g_lines = stop
    for c in range(C + 1):
        if c >= 1:
            groups = []
            for alts in graph.root_groups[c].values():
                groups.append(_best([stop] + [_alternative(rk, kids, below, rows, grid, D) for rk, kids in alts],
                                    grid))
            g_lines = _node(groups, grid, stop)
        if c == C:
            break
        g_packed = _Packed({("G", c): _Envelope(*g_lines)}, numerator_bits, outputs)
        level = {}
        for key, alts in graph.pending.items():
            if key[0] != c:
                continue
            cands = [stop]
            for rk, kids in alts:
                cands.append(_alternative(rk, kids, g_packed if kids[0][0] == "G" else below, rows, grid, D))
            level[("P",) + key] = _best(cands, grid)
        for (rc, d), groups in graph.free_groups.items():
            if rc != c:
                continue
            tables = [_best([level[("P",) + v] for v in members], grid) for members in groups.values()]
            level[("R", rc, d)] = _node(tables, grid, stop)
        below = _Packed({k: _Envelope(*t) for k, t in level.items()}, numerator_bits, outputs)
        if progress:
            progress(c)
    return g_lines
