"""Proof-function lower lines of a cut game (docs/minimum-deletion.md §3; the paper's App. E.4, G.4).

Every node s of a game whose free states each allow one block length (a cut
game U_S) gets lines ℓ_s[i] = (a_s[i], b_s[i]), integers in [0, 2^F], one per
grid prior t_i = g_i/2^K, each valid at EVERY prior:

    t·a/2^F + (1 − t)·b/2^F <= u_s(t)        for all t ∈ [0, 1].

A line is a whole feasible event pair (one action, one child line per output,
coordinates floored), so it bounds the node value from below everywhere; a
lower end of the model, not an attack on the mechanism.

**Choice rule** (deterministic, exact): best(L, X, Y) is the line of the set L
maximising a·X + b·Y; among those the largest a; among those the largest b.

**Recursion**, children first (G_c, pending (c, ·), R_{c, ·}, c = 0, 1, …):

- stop: best({(2^F, 0), (0, 2^F)}, g_i, 2^K − g_i);
- an alternative (row (P_n, Q_n) over D, children c(n)) at prior i, with
  X_n = g_i·P_n, Y_n = (2^K − g_i)·Q_n: (a_n, b_n) = best(all lines of c(n), X_n, Y_n),
  A = floor(Σ_n P_n·a_n / D), B = floor(Σ_n Q_n·b_n / D);
- G_0: the stop line; G_c (c >= 1) and pending nodes: best of the stop line and
  every alternative's line at (g_i, 2^K − g_i);
- R_{c,d}: best of the lines ℓ_{(c,d,v)}[i] of its pending nodes at the same prior;
- a node allowing several block lengths (a proof hierarchy P_H; the paper's
  App. G.4): every group g gets lines ℓ_g[i] by the rules above restricted to
  its alternatives (or pending nodes); L_g(t) = max_i of its lines;
  H = Cvx(min_g L_g) exactly (producer.hierarchy.pl); the node's line at t_i
  is the tangent of H with its right derivative at t_i (left at t = 1),
  values at t = 1 and t = 0 floored to multiples of 2^-F — or the stop line
  if a floored value is negative.

Soundness: V_c(x, y) >= x·a_n/2^F + y·b_n/2^F for every child line (validity,
homogeneity), so the alternative's perspective sum is >= x·ΣP_n a_n/(D·2^F) +
y·ΣQ_n b_n/(D·2^F) >= x·A/2^F + y·B/2^F; the node value is at least every
alternative's and the stop value; flooring only lowers.  At a multi-group node a line below H is below
Cvx(min_g B_g) = u_s, since L_g <= B_g (each of its lines is valid for the
group's backup B_g) and a linear function below a function is below its Cvx.

The best child line is found on the upper envelope of the child's lines (the
lines that are the unique maximiser for some X, Y > 0): floats locate it,
exact integer score differences confirm every location.
"""

import numpy as np

from bisect import bisect_right

from gmpy2 import mpq

from producer.game.floats import ratio
from producer.hierarchy import pl
from producer.hierarchy.graph import Graph, Rows


def _obj(values):
    arr = np.empty(len(values), dtype=object)
    arr[:] = list(values)
    return arr


class Envelope:
    """The upper envelope of a line set over s = X/(X + Y) ∈ (0, 1), with float breakpoints as hints.

    Lines are kept in increasing slope a − b (so a increasing, b decreasing);
    dA[j] = a_j − a_{j−1}, dB[j] = b_j − b_{j−1} for j >= 1.
    """

    __slots__ = ("a", "b", "dA", "dB", "breaks")

    def __init__(self, a_values, b_values):
        lines = sorted(set(zip((int(v) for v in a_values), (int(v) for v in b_values))),
                       key=lambda ab: (ab[0] - ab[1], -ab[1]))
        hull = []
        for a, b in lines:
            if hull and hull[-1][0] - hull[-1][1] == a - b:
                continue  # same slope, smaller or equal intercept
            while len(hull) >= 2:
                (a1, b1), (a2, b2) = hull[-2], hull[-1]
                m1, m2, m3 = a1 - b1, a2 - b2, a - b
                if (b1 - b) * (m2 - m1) <= (b1 - b2) * (m3 - m1):  # line 2 is never the unique maximum
                    hull.pop()
                else:
                    break
            hull.append((a, b))
        while len(hull) >= 2 and hull[0][1] <= hull[1][1]:  # dominated on (0, 1]
            hull.pop(0)
        while len(hull) >= 2 and hull[-2][0] >= hull[-1][0]:  # dominated on [0, 1)
            hull.pop()
        self.a = _obj([a for a, _ in hull])
        self.b = _obj([b for _, b in hull])
        self.dA = _obj([0] + [hull[j][0] - hull[j - 1][0] for j in range(1, len(hull))])
        self.dB = _obj([0] + [hull[j][1] - hull[j - 1][1] for j in range(1, len(hull))])
        # breakpoint between lines j−1 and j: s = (b_{j−1} − b_j) / ((a_j − b_j) − (a_{j−1} − b_{j−1}))
        self.breaks = np.array([ratio(-db, da - db) for da, db in zip(self.dA[1:], self.dB[1:])])

    def locate(self, X, Y, s_hint):
        """Index of best(lines, X_i, Y_i) for every entry (object arrays X, Y; float hints s)."""
        m = len(self.a)
        if m == 1:
            return np.zeros(len(X), dtype=np.int64)
        idx = np.searchsorted(self.breaks, s_hint, side="right").astype(np.int64)
        for _ in range(4):
            bad = self._wrong(idx, X, Y)
            if not bad.any():
                return idx
            for i in np.flatnonzero(bad):
                idx[i] = self._settle(int(idx[i]), X[i], Y[i])
        return idx

    def _wrong(self, idx, X, Y):
        m = len(self.a)
        left = np.zeros(len(idx), dtype=bool)
        has_left = idx >= 1
        if has_left.any():
            j = idx[has_left]
            left[has_left] = (self.dA[j] * X[has_left] + self.dB[j] * Y[has_left]) < 0
        right = np.zeros(len(idx), dtype=bool)
        has_right = idx <= m - 2
        if has_right.any():
            j = idx[has_right] + 1
            right[has_right] = (self.dA[j] * X[has_right] + self.dB[j] * Y[has_right]) >= 0
        return left | right

    def _settle(self, j, x, y):
        m = len(self.a)
        while j >= 1 and self.dA[j] * x + self.dB[j] * y < 0:
            j -= 1
        while j <= m - 2 and self.dA[j + 1] * x + self.dB[j + 1] * y >= 0:
            j += 1
        return j


def best_of(candidates, g, gbar):
    """Elementwise best((a, b) candidates) at (g_i, ḡ_i): max score, then max a, then max b."""
    a_best, b_best = candidates[0]
    score = a_best * g + b_best * gbar
    for a, b in candidates[1:]:
        s = a * g + b * gbar
        better = (s > score) | ((s == score) & ((a > a_best) | ((a == a_best) & (b > b_best))))
        if better.any():
            a_best = np.where(better, a, a_best)
            b_best = np.where(better, b, b_best)
            score = np.where(better, s, score)
    return a_best, b_best


def envelope_curve(a_values, b_values, unit):
    """The function t ↦ max_i (t·a_i + (1 − t)·b_i)/unit as an exact piecewise-linear curve (pl)."""
    env = Envelope(a_values, b_values)
    a, b = [mpq(int(v)) for v in env.a], [mpq(int(v)) for v in env.b]
    points = [(pl.ZERO, b[0] / unit)]
    for j in range(1, len(a)):
        t = (b[j - 1] - b[j]) / ((a[j] - b[j]) - (a[j - 1] - b[j - 1]))
        points.append((t, (t * a[j] + (1 - t) * b[j]) / unit))
    points.append((pl.ONE, a[-1] / unit))
    return pl.simplify(points)


def tangent_lines(hull, grid, bits, unit):
    """For each grid prior: the floored (a, b) of the convex curve's tangent with its right derivative
    (left at t = 1), or None where a floored value would be negative."""
    ts = [v[0] for v in hull]
    out = []
    for g in grid:
        t = mpq(g, 1 << bits)
        k = min(bisect_right(ts, t) - 1, len(hull) - 2)
        (t0, u0), (t1, u1) = hull[k], hull[k + 1]
        slope = (u1 - u0) / (t1 - t0)
        at_zero = u0 - slope * t0
        a, b = (at_zero + slope) * unit, at_zero * unit
        a, b = a.numerator // a.denominator, b.numerator // b.denominator
        out.append((int(a), int(b)) if a >= 0 and b >= 0 else None)
    return out


class LineTree:
    """The lower lines of every node of a model on an integer grid (numerators over 2^K)."""

    def __init__(self, model, law, gamma, grid, grid_bits, line_bits, progress=None):
        self.rows = Rows(law, gamma)
        self.graph = Graph(model, self.rows)
        self.grid, self.bits, self.line_bits = list(grid), int(grid_bits), int(line_bits)
        top = 1 << self.bits
        self.g = _obj(self.grid)
        self.gbar = top - self.g
        gf = np.array([float(v) for v in self.grid])
        self._gf, self._gbf = gf, float(top) - gf
        self.progress = progress or (lambda message: None)
        unit = 1 << self.line_bits
        size = len(self.grid)
        self.stop = best_of([(_obj([unit] * size), _obj([0] * size)), (_obj([0] * size), _obj([unit] * size))],
                            self.g, self.gbar)
        self._hints = {}

    def _hint(self, key, k, p, q):
        """Float s_n(t_i) for output k of a row (a hint only)."""
        h = self._hints.get((key, k))
        if h is None:  # p, q as shares of p + q: a float of a huge row entry would overflow
            x, y = self._gf * ratio(p, p + q), self._gbf * ratio(q, p + q)
            with np.errstate(invalid="ignore", divide="ignore"):
                h = np.where(x + y > 0, x / np.where(x + y > 0, x + y, 1.0), 0.0)
            h = self._hints[(key, k)] = h
        return h

    def _alternative(self, alt, envelopes):
        row = self.rows.row(alt.row_key)
        sum_a, sum_b = 0, 0
        for k, ((_, p, q), child) in enumerate(zip(row, alt.children)):
            env = envelopes[child]
            X, Y = self.g * p, self.gbar * q
            idx = env.locate(X, Y, self._hint(alt.row_key, k, p, q))
            sum_a = sum_a + p * env.a[idx]
            sum_b = sum_b + q * env.b[idx]
        D = self.rows.D
        return sum_a // D, sum_b // D

    def _group_lines(self, node, members, lines, envelopes):
        if node[0] == "R":
            return best_of([lines[child] for child in members], self.g, self.gbar)
        candidates = [self.stop] + [self._alternative(alt, envelopes) for alt in members]
        return best_of(candidates, self.g, self.gbar)

    def _node_lines(self, node, lines, envelopes):
        if node == ("G", 0):
            return self.stop
        if node[0] == "P":
            candidates = [self.stop] + [self._alternative(alt, envelopes) for alt in self.graph.alternatives[node]]
            return best_of(candidates, self.g, self.gbar)
        groups = [self._group_lines(node, members, lines, envelopes) for members in self.graph.groups[node].values()]
        if len(groups) == 1:
            return groups[0]
        return self._convex_minimum(groups)

    def _convex_minimum(self, groups):
        """Lines below Cvx(min over groups of each group's line envelope): tangents, floored (or the stop line)."""
        unit = mpq(1 << self.line_bits)
        hull = pl.lower_hull(pl.pointwise_min([envelope_curve(a, b, unit) for a, b in groups]))
        tangents = tangent_lines(hull, self.grid, self.bits, unit)
        a = _obj([ab[0] if ab else int(s) for ab, s in zip(tangents, self.stop[0])])
        b = _obj([ab[1] if ab else int(s) for ab, s in zip(tangents, self.stop[1])])
        return a, b

    def solve(self):
        """(a, b) of the root G_C, lists of Python integers, one line per grid prior."""
        lines, envelopes = {}, {}
        level = 0
        for node in self.graph.order:
            if node[1] != level:
                self.progress(f"lower lines: level {level} done")
                for old in [n for n in lines if n[1] <= node[1] - 2]:
                    del lines[old]
                    envelopes.pop(old, None)
                level = node[1]
            lines[node] = self._node_lines(node, lines, envelopes)
            envelopes[node] = Envelope(*lines[node])
        a, b = lines[("G", self.graph.budget)]
        return [int(v) for v in a], [int(v) for v in b]

    def work(self):
        """Line-location terms: branches × grid priors."""
        return self.graph.counts()["branches"] * len(self.grid)
