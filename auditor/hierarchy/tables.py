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

from auditor.hierarchy.limbs import limbs_needed, recombine, split_signed, weight_matrix

__all__ = ["solve", "chord_coefficients", "lower_hull_excess"]


def _ceil_div(num, den):
    """ceil(num/den) for den > 0 (elementwise on object arrays)."""
    return -((-num) // den)


def chord_coefficients(E, grid):
    """(α, β) object arrays of length M for the table E (object array of length M+1)."""
    g, gb = grid.g_obj, grid.gbar_obj
    dg = g[1:] - g[:-1]
    alpha = _ceil_div(E[1:] * gb[:-1] - E[:-1] * gb[1:], dg)
    beta = _ceil_div(E[:-1] * g[1:] - E[1:] * g[:-1], dg)
    return alpha, beta


def lower_hull_excess(m, grid, F):
    """E[i] = ceil(H(t_i) − 2^F·max(t_i, 1 − t_i)) for H the lower hull of m's upper values.

    Points are scaled by 2^K: (g_i, 2^F·max(g_i, ḡ_i) + 2^K·m_i); a middle point is
    dropped when it lies on or above the chord of its neighbours.
    """
    g, K = grid.g, grid.K
    side = [s << F for s in grid.side_obj]
    h = [s + (int(mi) << K) for s, mi in zip(side, m)]
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
            out[i] = -((-num) // (span << K))
    return np.array(out, dtype=object)


class _Packed:
    """Chord coefficients of several nodes as int64 limb matrices, one row per (node, j)."""

    def __init__(self, coefficients, M):
        self.index = {key: i for i, key in enumerate(coefficients)}
        bits = 0
        for alpha, beta in coefficients.values():
            for arr in (alpha, beta):
                bits = max(bits, max(abs(int(x)) for x in arr).bit_length())
        self.nl = limbs_needed(bits)
        self.M = M
        count = len(coefficients)
        self.alpha = np.empty((count * M, self.nl), dtype=np.int64)
        self.beta = np.empty((count * M, self.nl), dtype=np.int64)
        for key, (alpha, beta) in coefficients.items():
            i = self.index[key]
            self.alpha[i * M:(i + 1) * M] = split_signed(alpha, self.nl)
            self.beta[i * M:(i + 1) * M] = split_signed(beta, self.nl)


class _Rows:
    """Per row: locations, one-step excess and limb weight matrices (cached per nl)."""

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

    def weights(self, key, nl):
        if (key, nl) not in self._weights:
            r = self.graph.rows[key]
            self._weights[(key, nl)] = (weight_matrix(r.P, nl), weight_matrix(r.Q, nl))
        return self._weights[(key, nl)]


def _alternative(row_key, kids, packed, rows, grid, F, den):
    """A_i for one alternative (object array of length M+1)."""
    J = rows.locations(row_key)
    idx = np.fromiter((packed.index[k] for k in kids), dtype=np.intp, count=len(kids))
    flat = (J + idx[None, :] * packed.M).ravel()
    width = len(kids) * packed.nl
    Wp, Wq = rows.weights(row_key, packed.nl)
    sa = recombine(packed.alpha.take(flat, axis=0).reshape(grid.M + 1, width) @ Wp)
    sb = recombine(packed.beta.take(flat, axis=0).reshape(grid.M + 1, width) @ Wq)
    N = (rows.excess(row_key) << F) + grid.g_obj * sa + grid.gbar_obj * sb
    return _ceil_div(N, den)


def _combine_groups(group_tables, grid, F):
    """One allowed group: its table; several: Cvx(min over groups)."""
    tables = list(group_tables)
    if len(tables) == 1:
        return tables[0]
    m = tables[0]
    for t in tables[1:]:
        m = np.minimum(m, t)
    return lower_hull_excess(m, grid, F)


def solve(graph, grid, F, progress=None):
    """The root table E_{G_C} (object array) by the recursion, level c = 0, 1, …, C."""
    C = graph.model.budget
    M = grid.M
    den = grid.top * graph.D
    zero = np.zeros(M + 1, dtype=object)
    rows = _Rows(graph, grid)
    below = None           # packed pending/free tables of level c − 1
    root = zero
    for c in range(C + 1):
        if c == 0:
            g_table = zero
        else:
            groups = []
            for alts in graph.root_groups[c].values():
                best = zero
                for row_key, kids in alts:
                    best = np.maximum(best, _alternative(row_key, kids, below, rows, grid, F, den))
                groups.append(best)
            g_table = _combine_groups(groups, grid, F)
        if c == C:
            root = g_table
            break
        g_packed = _Packed({("G", c): chord_coefficients(g_table, grid)}, M)
        level = {}
        for key, alts in graph.pending.items():
            if key[0] != c:
                continue
            best = zero
            for row_key, kids in alts:
                source = g_packed if kids[0][0] == "G" else below
                best = np.maximum(best, _alternative(row_key, kids, source, rows, grid, F, den))
            level[("P",) + key] = best
        for (rc, d), groups in graph.free_groups.items():
            if rc != c:
                continue
            tables = []
            for members in groups.values():
                t = level[("P",) + members[0]]
                for v in members[1:]:
                    t = np.maximum(t, level[("P",) + v])
                tables.append(t)
            level[("R", rc, d)] = _combine_groups(tables, grid, F)
        below = _Packed({k: chord_coefficients(t, grid) for k, t in level.items()}, M)
        if progress:
            progress(c)
    return root
