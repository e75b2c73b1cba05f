"""The certified numerical sandwich, upper side (docs/hierarchy.md §4; SPEC-hierarchy 8.7).

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

from producer.hierarchy.graph import Graph, Rows


def ceil_div(num, den):
    """ceil(num/den) for den > 0, elementwise on object arrays or ints."""
    return -((-num) // den)


def _obj(values):
    arr = np.empty(len(values), dtype=object)
    arr[:] = list(values)
    return arr


class RowTables:
    """Per-row arrays over (output, prior): X, Y, locations j_n, and the one-step excess term."""

    __slots__ = ("X", "Y", "loc", "base")

    def __init__(self, row, grid, bits, scale_bits, D):
        top = 1 << bits
        g = _obj(grid)
        gbar = top - g
        P = [p for _, p, _ in row]
        Q = [q for _, _, q in row]
        self.X = np.empty((len(row), len(grid)), dtype=object)
        self.Y = np.empty((len(row), len(grid)), dtype=object)
        for k in range(len(row)):
            self.X[k] = g * P[k]
            self.Y[k] = gbar * Q[k]
        one_step = np.maximum(self.X, self.Y).sum(axis=0) - D * np.maximum(g, gbar)
        self.base = one_step * (1 << scale_bits)
        self.loc = _locate(self.X, self.Y, grid, bits)


def _locate(X, Y, grid, bits):
    """j = max{j <= M−1 : g_j·(X+Y) <= 2^K·X} for every entry (float hint, exact confirmation)."""
    M = len(grid) - 1
    top = 1 << bits
    gf = np.array([float(v) / top for v in grid])
    loc = np.empty(X.shape, dtype=np.int64)
    for k in range(X.shape[0]):
        xs, ys = X[k], Y[k]
        s = np.array([x / (x + y) if x + y else 0.0 for x, y in zip(xs, ys)])
        hint = np.clip(np.searchsorted(gf, s, side="right") - 1, 0, M - 1)
        for i in range(X.shape[1]):
            x, m = xs[i], xs[i] + ys[i]
            j = int(hint[i])
            while j > 0 and grid[j] * m > top * x:
                j -= 1
            while j < M - 1 and grid[j + 1] * m <= top * x:
                j += 1
            loc[k, i] = j
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
    """E with 2^K·(2^F·max(t, 1−t) + E) the lower hull of the points (g_i, 2^F·max(g_i, 2^K−g_i) + 2^K·m_i), rounded up."""
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


class Sandwich:
    """The integer tables of every node of ``model`` for ``law``, γ, on ``grid`` (numerators over 2^bits)."""

    def __init__(self, model, law, gamma, grid, bits, scale_bits, progress=None):
        self.rows = Rows(law, gamma)
        self.graph = Graph(model, self.rows)
        self.grid, self.bits, self.scale_bits = list(grid), bits, scale_bits
        self.progress = progress or (lambda message: None)
        self._row_tables = {}
        self.den = (1 << bits) * self.rows.D
        self.root_excess = self._solve()

    def _tables_of(self, key):
        rt = self._row_tables.get(key)
        if rt is None:
            rt = self._row_tables[key] = RowTables(self.rows.row(key), self.grid, self.bits,
                                                   self.scale_bits, self.rows.D)
        return rt

    def _alternative(self, alt, lines):
        rt = self._tables_of(alt.row_key)
        acc = rt.base.copy()
        for k, child in enumerate(alt.children):
            alpha, beta = lines[child]
            idx = rt.loc[k]
            acc += alpha[idx] * rt.X[k] + beta[idx] * rt.Y[k]
        return ceil_div(acc, self.den)

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
            lines[node] = line_coefficients(table, self.grid, self.bits)
        return tables[root]

    @staticmethod
    def _forget(tables, lines, below):
        for node in [n for n in tables if n[1] <= below]:
            del tables[node]
            lines.pop(node, None)
