"""The certified numerical sandwich, upper side (docs/hierarchy.md §4).

(*Exact Compilation and Resource Laws for Hidden Integer Feedback*, §5.3, Appendices E.3, E.4 and G.4.)

Every node s gets an integer table E_s[0..M] with

    u_s(t_i) <= max(t_i, 1 − t_i) + E_s[i]/2^F       at the grid priors t_i = g_i/2^K.

Node functions are convex, so chords of upper samples bound them between
grid priors; t = 1/2 is a grid prior, so the chord of u is max(t, 1−t) plus
the chord of E.  One alternative (row (P_n, Q_n) over D, children c(n)) at
prior i:

    X_n = g_i·P_n,  Y_n = (2^K − g_i)·Q_n,  j_n = max{j <= M−1 : g_j·(X_n+Y_n) <= 2^K·X_n}
    A[i] = ceil( [2^F·(Σ max(X_n, Y_n) − D·max(g_i, 2^K − g_i)) + Σ α_c[j_n]·X_n + β_c[j_n]·Y_n] / (2^K·D) )

with α, β the chord of E_c extended to t = 1 and t = 0, each rounded up.
Maxima, minima over groups and the lower hull at multi-group nodes follow.
Everything is exact integer arithmetic (numpy arrays of Python integers);
floats only locate j_n, and every location is confirmed exactly.
"""

import numpy as np

from producer.game.floats import ratio
from producer.hierarchy.graph import Graph, Rows
from producer.hierarchy.limbs import coefficient_limbs, limb_sums, row_limbs


def ceil_div(num, den):
    """ceil(num/den) for den > 0, elementwise on object arrays or ints."""
    return -((-num) // den)


def _obj(values):
    arr = np.empty(len(values), dtype=object)
    arr[:] = list(values)
    return arr


class RowTables:
    """Per-row data over (output, prior): numerators P, Q (as columns), locations j_n, one-step excess.

    Σ_n α[j_n]·X_n + β[j_n]·Y_n = g·Σ_n P_n·α[j_n] + ḡ·Σ_n Q_n·β[j_n]: the grid
    factors g, ḡ are applied once per alternative.
    """

    __slots__ = ("P", "Q", "g", "gbar", "loc", "base", "P_limbs", "Q_limbs")

    def __init__(self, row, grid, bits, scale_bits, D):
        top = 1 << bits
        self.g = _obj(grid)
        self.gbar = top - self.g
        self.P = _obj([p for _, p, _ in row]).reshape(-1, 1)
        self.Q = _obj([q for _, _, q in row]).reshape(-1, 1)
        X = self.P * self.g
        Y = self.Q * self.gbar
        one_step = np.maximum(X, Y).sum(axis=0) - D * np.maximum(self.g, self.gbar)
        self.base = one_step * (1 << scale_bits)
        self.loc = _locate(X, Y, grid, bits)
        self.P_limbs = row_limbs([p for _, p, _ in row])
        self.Q_limbs = row_limbs([q for _, _, q in row])


def _locate(X, Y, grid, bits):
    """j = max{j <= M−1 : g_j·(X+Y) <= 2^K·X} for every entry (float hint, exact confirmation)."""
    M = len(grid) - 1
    top = 1 << bits
    gf = np.array([float(v) / top for v in grid])
    g = _obj(grid)
    loc = np.empty(X.shape, dtype=np.int64)
    for k in range(X.shape[0]):
        xs, ys = X[k], Y[k]
        ms = xs + ys
        s = np.array([ratio(x, m) for x, m in zip(xs, ms)])  # X <= X + Y: no overflow, even for huge rows
        hint = np.clip(np.searchsorted(gf, s, side="right") - 1, 0, M - 1)
        scaled = xs * top
        ok = (g[hint] * ms <= scaled) & ((hint == M - 1) | (g[np.minimum(hint + 1, M)] * ms > scaled))
        for i in np.flatnonzero(~ok.astype(bool)):  # rare: the float hint was off; settle exactly
            x, m, jj = xs[i], ms[i], int(hint[i])
            while jj > 0 and grid[jj] * m > top * x:
                jj -= 1
            while jj < M - 1 and grid[jj + 1] * m <= top * x:
                jj += 1
            hint[i] = jj
        loc[k] = hint
    return loc


def line_coefficients(E, grid, bits):
    """(α, β): the chord of E on each grid interval at t = 1 and at t = 0, rounded up."""
    g = _obj(grid)
    top = 1 << bits
    e0, dE, g0 = E[:-1], E[1:] - E[:-1], g[:-1]
    dg = g[1:] - g0
    alpha = e0 + ceil_div(dE * (top - g0), dg)
    beta = e0 + ceil_div(-dE * g0, dg)
    return alpha, beta


def convexified(m, grid, bits, scale_bits):
    """E with 2^K·(2^F·max(t, 1−t) + E) the lower hull of the points
    (g_i, 2^F·max(g_i, 2^K−g_i) + 2^K·m_i), rounded up."""
    top = 1 << bits
    unit = 1 << scale_bits
    peak = [unit * max(gi, top - gi) for gi in grid]
    H = [peak[i] + top * int(m[i]) for i in range(len(grid))]
    hull = []
    for i in range(len(grid)):
        while len(hull) >= 2:
            a, b = hull[-2], hull[-1]
            if (H[b] - H[a]) * (grid[i] - grid[a]) >= (H[i] - H[a]) * (grid[b] - grid[a]):
                hull.pop()
            else:
                break
        hull.append(i)
    out = [0] * len(grid)
    for a, b in zip(hull, hull[1:]):
        out[a] = int(m[a])
        span = grid[b] - grid[a]
        for i in range(a + 1, b):
            num = H[a] * span + (H[b] - H[a]) * (grid[i] - grid[a]) - peak[i] * span
            out[i] = ceil_div(num, top * span)
    out[hull[-1]] = int(m[hull[-1]])
    return _obj(out)


class Lines:
    """A node's line coefficients (α, β); ``limbs`` tells whether their int64 limbs are in the arena."""

    __slots__ = ("alpha", "beta", "limbs")

    def __init__(self, alpha, beta, limbs):
        self.alpha, self.beta, self.limbs = alpha, beta, limbs


class Sandwich:
    """The integer tables of every node of ``model`` for ``law``, γ, on ``grid`` (numerators over 2^bits)."""

    def __init__(self, model, law, gamma, grid, bits, scale_bits, progress=None, fast=True):
        self.fast = fast  # the int64 limb path where its bounds hold (identical integers)
        self.rows = Rows(law, gamma)
        self.graph = Graph(model, self.rows)
        self.grid, self.bits, self.scale_bits = list(grid), bits, scale_bits
        self.progress = progress or (lambda message: None)
        self._row_tables = {}
        self.den = (1 << bits) * self.rows.D
        self.root_excess = None
        self.node_id = {node: i for i, node in enumerate(self.graph.order)}
        self.arena = None

    def _lines(self, node, table):
        alpha, beta = line_coefficients(table, self.grid, self.bits)
        limbs = coefficient_limbs(alpha, beta) if self.fast else None
        if limbs is not None:
            self.arena[self.node_id[node]] = limbs
        return Lines(alpha, beta, limbs is not None)

    def work(self):
        """Perspective-sum terms to evaluate: branches × grid priors."""
        return self.graph.counts()["branches"] * len(self.grid)

    def solve(self):
        """Compute every table; return the root's (E_{G_C})."""
        if self.fast:  # int64 limbs (α_hi, α_lo, β_hi, β_lo) of every node's line coefficients
            self.arena = np.zeros((len(self.graph.order), 4, len(self.grid) - 1), dtype=np.int64)
        self.root_excess = self._solve()
        return self.root_excess

    def _tables_of(self, key):
        rt = self._row_tables.get(key)
        if rt is None:
            rt = self._row_tables[key] = RowTables(self.rows.row(key), self.grid, self.bits,
                                                   self.scale_bits, self.rows.D)
        return rt

    def _alternative(self, alt, lines):
        rt = self._tables_of(alt.row_key)
        if self.fast and rt.P_limbs is not None and rt.Q_limbs is not None \
                and all(lines[child].limbs for child in alt.children):
            sum_p, sum_q = self._limb_sums(alt, rt)
        else:
            sum_p, sum_q = 0, 0
            for k, child in enumerate(alt.children):
                line = lines[child]
                idx = rt.loc[k]
                sum_p = sum_p + line.alpha[idx] * rt.P[k, 0]
                sum_q = sum_q + line.beta[idx] * rt.Q[k, 0]
        return ceil_div(rt.base + rt.g * sum_p + rt.gbar * sum_q, self.den)

    def _limb_sums(self, alt, rt):
        """Σ_n P_n·α[j_n] and Σ_n Q_n·β[j_n] exactly through int64 limbs (producer.hierarchy.limbs)."""
        ids = np.fromiter((self.node_id[child] for child in alt.children), dtype=np.int64, count=len(alt.children))
        return limb_sums(self.arena, ids, rt.loc, rt.P_limbs, rt.Q_limbs)

    def _max_of(self, arrays):
        out = np.zeros(len(self.grid), dtype=object)
        for arr in arrays:
            out = np.maximum(out, arr)
        return out

    def _table(self, node, tables, lines):
        graph = self.graph
        if node == ("G", 0):
            return np.zeros(len(self.grid), dtype=object)
        if node[0] == "P":
            return self._max_of(self._alternative(alt, lines) for alt in graph.alternatives[node])
        if node[0] == "G":
            groups = [self._max_of(self._alternative(alt, lines) for alt in alts)
                      for alts in graph.groups[node].values()]
        else:
            groups = [self._max_of(tables[k] for k in ks) for ks in graph.groups[node].values()]
        if len(groups) == 1:
            return groups[0]
        m = groups[0]
        for arr in groups[1:]:
            m = np.minimum(m, arr)
        return convexified(m, self.grid, self.bits, self.scale_bits)

    def _solve(self):
        tables, lines = {}, {}
        root = ("G", self.graph.budget)
        level = 0
        for node in self.graph.order:
            if node[1] != level:
                self._forget(tables, lines, node[1] - 2)
                self.progress(f"level {level} done")
                level = node[1]
            table = tables[node] = self._table(node, tables, lines)
            lines[node] = self._lines(node, table)
        return tables[root]

    @staticmethod
    def _forget(tables, lines, below):
        for node in [n for n in tables if n[1] <= below]:
            del tables[node]
            lines.pop(node, None)
