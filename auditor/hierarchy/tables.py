"""The integer recursion of docs/hierarchy.md §4: upper excess tables at the grid priors.

Every node s gets integers E_s[0..M] with u_s(t_i) <= max(t_i, 1 − t_i) + E_s[i]/2^F.

Chord coefficients (the chord of E on [t_j, t_{j+1}] at t = 1 and at t = 0),
rewritten over Δg = g_{j+1} − g_j and ḡ = 2^K − g:

    α[j] = ceil( (E_{j+1}·ḡ_j − E_j·ḡ_{j+1}) / Δg ),   β[j] = ceil( (E_j·g_{j+1} − E_{j+1}·g_j) / Δg ),

so that (x + y)·chord(x/(x+y)) <= α·x + β·y for x, y >= 0 on that interval.

One alternative (row P, Q over D; child c(n) at output n; interval j_n(i)):

    N_i = 2^F·T_i + g_i·Σ_n P_n·α_{c(n)}[j_n(i)] + ḡ_i·Σ_n Q_n·β_{c(n)}[j_n(i)],
    A_i = ceil(N_i / (2^K·D)),

(Σ_n α·X_n + β·Y_n with X_n = g_i·P_n, Y_n = ḡ_i·Q_n, the grid factor taken out).
Node tables: pending max(0, actions); root group max(0, words × signs); free
group max over its words; several allowed groups: Cvx(min), the lower hull of
(t_i, max(t_i, 1 − t_i) + m_i/2^F) read back at the grid and rounded up.

Every rounding is a ceiling of an exact rational and multiplies only
non-negative quantities, so each table is an upper table of its node.
"""

import numpy as np

from auditor.hierarchy.limbs import plan, recombine, split_signed, weight_matrix
from auditor.rationals import ceil_div

__all__ = ["solve", "chord_coefficients", "lower_hull_excess", "RowCache"]


def chord_coefficients(E, grid):
    """(α, β) lists of length M for the table E (list of length M+1)."""
    g, gb = grid.g, grid.gbar
    alpha, beta = [], []
    for j in range(grid.M):
        dg = g[j + 1] - g[j]
        alpha.append(-((E[j] * gb[j + 1] - E[j + 1] * gb[j]) // dg))
        beta.append(-((E[j + 1] * g[j] - E[j] * g[j + 1]) // dg))
    return alpha, beta


def lower_hull_excess(m, grid, F):
    """E[i] = ceil(H(t_i) − 2^F·max(t_i, 1 − t_i)) for H the lower hull of m's upper values.

    Points are scaled by 2^K: (g_i, 2^F·max(g_i, ḡ_i) + 2^K·m_i); a middle point is
    dropped when it lies on or above the chord of its neighbours.
    """
    g, K = grid.g, grid.K
    side = [s << F for s in grid.side]
    h = [s + (mi << K) for s, mi in zip(side, m)]
    hull = []
    for i in range(len(g)):
        while len(hull) >= 2:
            o, p = hull[-2], hull[-1]
            # cross(o, p, i) <= 0: p is on or above the chord o–i
            if (g[p] - g[o]) * (h[i] - h[o]) - (h[p] - h[o]) * (g[i] - g[o]) <= 0:
                hull.pop()
            else:
                break
        hull.append(i)
    out = list(m)
    for left, right in zip(hull, hull[1:]):
        span = g[right] - g[left]
        for i in range(left + 1, right):
            num = h[left] * (g[right] - g[i]) + h[right] * (g[i] - g[left]) - side[i] * span
            out[i] = ceil_div(num, span << K)
    return out


class _Packed:
    """Chord coefficients of several nodes as int64 limb matrices, one row per (node, j)."""

    def __init__(self, coefficients, M, numerator_bits, outputs):
        self.index = {key: i for i, key in enumerate(coefficients)}
        bits = 0
        for alpha, beta in coefficients.values():
            bits = max(bits, max(abs(x) for x in alpha).bit_length(), max(abs(x) for x in beta).bit_length())
        self.plan = plan(bits, numerator_bits, outputs)
        ba, nl = self.plan[0], self.plan[1]
        self.nl = nl
        self.M = M
        count = len(coefficients)
        self.alpha = np.empty((count * M, nl), dtype=np.int64)
        self.beta = np.empty((count * M, nl), dtype=np.int64)
        for key, (alpha, beta) in coefficients.items():
            i = self.index[key]
            self.alpha[i * M:(i + 1) * M] = split_signed(alpha, ba, nl)
            self.beta[i * M:(i + 1) * M] = split_signed(beta, ba, nl)


class RowCache:
    """Per row: locations, one-step excess and limb weight matrices (cached per plan)."""

    def __init__(self, graph, grid):
        self.graph, self.grid = graph, grid
        self._loc, self._excess, self._weights = {}, {}, {}

    def locations(self, key):
        if key not in self._loc:
            r = self.graph.rows[key]
            self._loc[key] = self.grid.locations(r.P, r.Q)
        return self._loc[key]

    def excess(self, key):
        if key not in self._excess:
            r = self.graph.rows[key]
            self._excess[key] = self.grid.one_step_excess(r.P, r.Q, self.graph.D)
        return self._excess[key]

    def weights(self, key, limb_plan):
        if (key, limb_plan) not in self._weights:
            r = self.graph.rows[key]
            _, nl, bp, n_p = limb_plan
            self._weights[(key, limb_plan)] = (weight_matrix(r.P, nl, bp, n_p), weight_matrix(r.Q, nl, bp, n_p))
        return self._weights[(key, limb_plan)]


def _alternative(row_key, kids, packed, rows, grid, F, den):
    """A_i for one alternative (list of length M+1)."""
    J = rows.locations(row_key)
    idx = np.fromiter((packed.index[k] for k in kids), dtype=np.intp, count=len(kids))
    flat = (J + idx[None, :] * packed.M).ravel()
    width = len(kids) * packed.nl
    Wp, Wq = rows.weights(row_key, packed.plan)
    sa = recombine(packed.alpha.take(flat, axis=0).reshape(grid.M + 1, width) @ Wp, *packed.plan)
    sb = recombine(packed.beta.take(flat, axis=0).reshape(grid.M + 1, width) @ Wq, *packed.plan)
    return [ceil_div((t << F) + gi * a + hi * b, den)
            for t, gi, hi, a, b in zip(rows.excess(row_key), grid.g, grid.gbar, sa, sb)]


def _maximum(u, v):
    return [x if x >= y else y for x, y in zip(u, v)]


def _combine_groups(group_tables, grid, F):
    """One allowed group: its table; several: Cvx(min over groups)."""
    tables = list(group_tables)
    if len(tables) == 1:
        return tables[0]
    m = tables[0]
    for t in tables[1:]:
        m = [x if x <= y else y for x, y in zip(m, t)]
    return lower_hull_excess(m, grid, F)


def solve(graph, grid, F, progress=None):
    """The root table E_{G_C} (list) by the recursion, level c = 0, 1, …, C."""
    C = graph.model.budget
    M = grid.M
    den = grid.top * graph.D
    zero = [0] * (M + 1)
    rows = RowCache(graph, grid)
    numerator_bits = graph.D.bit_length()
    outputs = max(len(r.outputs) for r in graph.rows.values())
    below = None           # packed pending/free tables of level c − 1
    g_table = zero
    for c in range(C + 1):
        if c >= 1:
            groups = []
            for alts in graph.root_groups[c].values():
                best = zero
                for row_key, kids in alts:
                    best = _maximum(best, _alternative(row_key, kids, below, rows, grid, F, den))
                groups.append(best)
            g_table = _combine_groups(groups, grid, F)
        if c == C:
            break
        g_packed = _Packed({("G", c): chord_coefficients(g_table, grid)}, M, numerator_bits, outputs)
        level = {}
        for key, alts in graph.pending.items():
            if key[0] != c:
                continue
            best = zero
            for row_key, kids in alts:
                source = g_packed if kids[0][0] == "G" else below
                best = _maximum(best, _alternative(row_key, kids, source, rows, grid, F, den))
            level[("P",) + key] = best
        for (rc, d), groups in graph.free_groups.items():
            if rc != c:
                continue
            tables = []
            for members in groups.values():
                t = level[("P",) + members[0]]
                for v in members[1:]:
                    t = _maximum(t, level[("P",) + v])
                tables.append(t)
            level[("R", rc, d)] = _combine_groups(tables, grid, F)
        below = _Packed({k: chord_coefficients(t, grid) for k, t in level.items()}, M, numerator_bits, outputs)
        if progress:
            progress(c)
    return g_table
