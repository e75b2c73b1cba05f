"""A plain re-check of a hierarchy/1 certificate written from docs/hierarchy.md alone.

Pure Python integers, no numpy, no producer code: it confirms that the
documentation specifies the producer's integers exactly (the auditor will be
written from the same page).  Slow; for small certificates only.
"""

from fractions import Fraction
from itertools import product


def ceil_div(a, b):
    return -((-a) // b)


def floor_div(a, b):
    return a // b


class PlainCheck:
    def __init__(self, cert):
        inp, res = cert["input"], cert["result"]
        self.a, self.B = (int(s) for s in inp["gamma"].split("/"))
        self.C = inp["budget"]
        self.model = inp["model"]
        src = res["source"]
        self.L = src["radius"]
        self.wts = [int(w) for w in src["weights"]]
        self.S = int(src["scale"])
        self.D = self.B * self.S
        self.K = res["grid"]["bits"]
        self.g = [int(x) for x in res["grid"]["numerators"]]
        self.M = len(self.g) - 1
        self.F = res["scale_bits"]

    def w(self, m):
        return self.wts[m + self.L] if -self.L <= m <= self.L else 0

    def ell_cut(self, r):
        S = self.model["cuts"]
        return r - max([b for b in S if b < r] + [-1])

    def groups_g(self, c):
        if self.model["game"] == "depth":
            return list(range(1, min(self.model["depth"], c) + 1))
        return [self.ell_cut(c - 1)]

    def groups_r(self, c):
        if self.model["game"] == "depth":
            return list(range(1, min(self.model["depth"], c + 1) + 1))
        return [self.ell_cut(c)]

    def carry(self, word, n):
        out, off = [], n
        for z in word:
            t = z + self.a * off
            out.append(t % self.B)
            off = -floor_div(t, self.B)
        return tuple(out)

    def outputs(self):
        return range(-self.L - 6, self.L + 7)

    def root_row(self, j):
        return [(n, self.B * self.w(n - j), self.B * self.w(n)) for n in self.outputs()
                if self.w(n - j) + self.w(n) > 0]

    def pending_row(self, d, z, j):
        e = floor_div(z - self.a * d, self.B)
        rho = z - self.a * d - self.B * e
        rows = []
        for n in self.outputs():
            Q = (self.B - z) * self.w(n) + z * self.w(n + 1)
            P = (self.B - rho) * self.w(n - j + e) + rho * self.w(n - j + e + 1)
            if P + Q > 0:
                rows.append((n, P, Q))
        return rows

    def lines(self, E):
        top, g = 1 << self.K, self.g
        al, be = [], []
        for j in range(self.M):
            dE, dg = E[j + 1] - E[j], g[j + 1] - g[j]
            al.append(E[j] + ceil_div(dE * (top - g[j]), dg))
            be.append(E[j] + ceil_div(-dE * g[j], dg))
        return al, be

    def alternative(self, row, kids, lines):
        top, out = 1 << self.K, []
        for gi in self.g:
            gb = top - gi
            N1, N2 = 0, 0
            for (_n, P, Q), kid in zip(row, kids):
                X, Y = gi * P, gb * Q
                if X + Y == 0:
                    continue
                N1 += max(X, Y)
                lo, hi = 0, self.M - 1  # the largest j <= M-1 with g_j·(X+Y) <= 2^K·X (monotone in j)
                while lo < hi:
                    mid = (lo + hi + 1) // 2
                    if self.g[mid] * (X + Y) <= top * X:
                        lo = mid
                    else:
                        hi = mid - 1
                j = lo
                al, be = lines[kid]
                N2 += al[j] * X + be[j] * Y
            N = (1 << self.F) * (N1 - self.D * max(gi, gb)) + N2
            out.append(ceil_div(N, top * self.D))
        return out

    def hull(self, m):
        top, unit, g = 1 << self.K, 1 << self.F, self.g
        pts = [(g[i], Fraction(unit * max(g[i], top - g[i]), top) + m[i]) for i in range(self.M + 1)]
        h = []
        for p in pts:
            while (len(h) >= 2
                   and (h[-1][1] - h[-2][1]) * (p[0] - h[-2][0]) >= (p[1] - h[-2][1]) * (h[-1][0] - h[-2][0])):
                h.pop()
            h.append(p)
        out = []
        for gi, (_, _) in zip(g, pts):
            k = max(k for k in range(len(h)) if h[k][0] <= gi)
            if h[k][0] == gi:
                v = h[k][1]
            else:
                (x0, y0), (x1, y1) = h[k], h[k + 1]
                v = y0 + (y1 - y0) * Fraction(gi - x0, x1 - x0)
            v -= Fraction(unit * max(gi, top - gi), top)
            out.append(ceil_div(v.numerator, v.denominator))
        return out

    def root_table(self):
        tables, lines = {}, {}

        def put(node, E):
            tables[node] = E
            lines[node] = self.lines(E)

        zero = [0] * (self.M + 1)

        def combine(node, groups):
            if len(groups) == 1:
                return groups[0]
            m = [min(col) for col in zip(*groups)]
            return self.hull(m)

        for c in range(self.C + 1):
            if c == 0:
                put(("G", 0), zero)
            else:
                groups = []
                for ell in self.groups_g(c):
                    best = zero
                    for wd in product(range(self.B), repeat=ell):
                        for j in (1, -1):
                            row = self.root_row(j)
                            kids = [("P", c - 1, j, self.carry(wd, n)) for n, _, _ in row]
                            best = [max(x, y) for x, y in zip(best, self.alternative(row, kids, lines))]
                    groups.append(best)
                put(("G", c), combine(("G", c), groups))
            for d in (1, -1) if c < self.C else ():
                for length in range(1, c + 2):
                    for v in product(range(self.B), repeat=length):
                        best = zero
                        row = self.pending_row(d, v[0], 0)
                        best = [max(x, y) for x, y in zip(best, self.alternative(row, [("G", c)] * len(row), lines))]
                        if c >= 1:
                            for j in (1, -1):
                                row = self.pending_row(d, v[0], j)
                                if length >= 2:
                                    kids = [("P", c - 1, j, self.carry(v[1:], n)) for n, _, _ in row]
                                else:
                                    kids = [("R", c - 1, j)] * len(row)
                                best = [max(x, y) for x, y in zip(best, self.alternative(row, kids, lines))]
                        put(("P", c, d, v), best)
            if c <= self.C - 2:
                for d in (1, -1):
                    groups = []
                    for ell in self.groups_r(c):
                        cols = [tables[("P", c, d, v)] for v in product(range(self.B), repeat=ell)]
                        groups.append([max(col) for col in zip(*cols)])
                    put(("R", c, d), combine(("R", c, d), groups))
        return tables[("G", self.C)]


def plain_upper(cert):
    """(prior, finite_upper, transfer, upper) from the certificate's own fields (docs/hierarchy.md §1)."""
    res, C = cert["result"], cert["input"]["budget"]
    E = [int(e) for e in res["root_excess"]]
    g, K, F = [int(x) for x in res["grid"]["numerators"]], res["grid"]["bits"], res["scale_bits"]
    lam_lo, lam_hi = Fraction(res["threshold"]["lower"]), Fraction(res["threshold"]["upper"])
    tau = Fraction(res["tau"])
    t = 1 / (1 + lam_lo)
    x = t * (1 << K)
    j = max(j for j in range(len(g) - 1) if g[j] <= x)
    chord = E[j] + (E[j + 1] - E[j]) * (x - g[j]) / (g[j + 1] - g[j])
    u = max(t, 1 - t) + chord / (1 << F)
    finite = (1 + lam_lo) * u - lam_lo
    transfer = (1 + lam_hi) * (1 - (1 - tau) ** (2 * C))
    return t, finite, transfer, finite + transfer


class PlainLines(PlainCheck):
    """The proof-function lower lines of docs/paper-claims.md §3 (cut games and proof hierarchies), brute force.

    Pure Python integers; every child line is scanned for the best one (no
    envelope), so this also checks the producer's envelope search and its
    tie rule.  ``cert`` needs the fields PlainCheck reads; ``scale_bits`` is
    the lines' F.
    """

    @staticmethod
    def best(candidates, X, Y):
        return max(candidates, key=lambda ab: (ab[0] * X + ab[1] * Y, ab[0], ab[1]))

    def _alternative(self, row, kids, lines):
        top, out = 1 << self.K, []
        for gi in self.g:
            sum_a = sum_b = 0
            for (_n, P, Q), kid in zip(row, kids):
                a, b = self.best(lines[kid], gi * P, (top - gi) * Q)
                sum_a += P * a
                sum_b += Q * b
            out.append((floor_div(sum_a, self.D), floor_div(sum_b, self.D)))
        return out

    def _pick(self, columns):
        top = 1 << self.K
        return [self.best([col[i] for col in columns], gi, top - gi) for i, gi in enumerate(self.g)]

    def _convex_minimum(self, groups, stop):
        """Tangents of Cvx(min_g max_i line), brute force: m at every pairwise crossing, then a lower hull."""
        unit, top = 1 << self.F, 1 << self.K
        every = [ab for group in groups for ab in group]
        ts = {Fraction(0), Fraction(1)}
        for (a1, b1) in every:
            for (a2, b2) in every:
                slope = (a1 - b1) - (a2 - b2)
                if slope:
                    t = Fraction(b2 - b1, slope)
                    if 0 < t < 1:
                        ts.add(t)

        def m(t):
            return min(max(t * a + (1 - t) * b for a, b in group) for group in groups) / unit

        hull = []
        for p in sorted((t, m(t)) for t in ts):
            while len(hull) >= 2 and (hull[-1][1] - hull[-2][1]) * (p[0] - hull[-2][0]) >= \
                    (p[1] - hull[-2][1]) * (hull[-1][0] - hull[-2][0]):
                hull.pop()
            hull.append(p)
        out = []
        for i, gi in enumerate(self.g):
            t = Fraction(gi, top)
            k = max(k for k in range(len(hull) - 1) if hull[k][0] <= t)
            (t0, u0), (t1, u1) = hull[k], hull[k + 1]
            slope = (u1 - u0) / (t1 - t0)
            a, b = floor_div(((u0 - slope * t0) + slope) * unit, 1), floor_div((u0 - slope * t0) * unit, 1)
            out.append((a, b) if a >= 0 and b >= 0 else stop[i])
        return out

    def _node(self, groups, stop):
        return groups[0] if len(groups) == 1 else self._convex_minimum(groups, stop)

    def root_lines(self):
        unit, top = 1 << self.F, 1 << self.K
        stop = [self.best([(unit, 0), (0, unit)], gi, top - gi) for gi in self.g]
        lines = {("G", 0): stop}
        for c in range(self.C + 1):
            if c >= 1:
                groups = []
                for ell in self.groups_g(c):
                    columns = [stop]
                    for wd in product(range(self.B), repeat=ell):
                        for j in (1, -1):
                            row = self.root_row(j)
                            kids = [("P", c - 1, j, self.carry(wd, n)) for n, _, _ in row]
                            columns.append(self._alternative(row, kids, lines))
                    groups.append(self._pick(columns))
                lines[("G", c)] = self._node(groups, stop)
            for d in (1, -1) if c < self.C else ():
                for length in range(1, c + 2):
                    for v in product(range(self.B), repeat=length):
                        row = self.pending_row(d, v[0], 0)
                        columns = [stop, self._alternative(row, [("G", c)] * len(row), lines)]
                        if c >= 1:
                            for j in (1, -1):
                                row = self.pending_row(d, v[0], j)
                                kids = ([("P", c - 1, j, self.carry(v[1:], n)) for n, _, _ in row] if length >= 2
                                        else [("R", c - 1, j)] * len(row))
                                columns.append(self._alternative(row, kids, lines))
                        lines[("P", c, d, v)] = self._pick(columns)
            if c <= self.C - 2:
                for d in (1, -1):
                    groups = [self._pick([lines[("P", c, d, v)] for v in product(range(self.B), repeat=ell)])
                              for ell in self.groups_r(c)]
                    lines[("R", c, d)] = self._node(groups, stop)
        return lines[("G", self.C)]
