"""A deliberately plain reference for the finite-law game, for tests only.

It follows the game's definition (docs/mechanism.md §4) literally with Fractions: rows from the mixture form,
testing values as explicit sets of supporting points (pairwise Minkowski sums
pruned to their upper-right hull), roots over every k in one full period
B^(C+1) (no pure-root reduction), and states cached by their exact integers
(no residue memoisation).
"""

from fractions import Fraction
from functools import lru_cache


def prune(points):
    """Vertices of the upper-right chain of a point set (plain monotone chain)."""
    pts = sorted(set(points))
    hull = []
    for p in pts:
        while len(hull) >= 2:
            o, a = hull[-2], hull[-1]
            if (a[0] - o[0]) * (p[1] - o[1]) - (a[1] - o[1]) * (p[0] - o[0]) >= 0:
                hull.pop()
            else:
                break
        hull.append(p)
    top = max(range(len(hull)), key=lambda i: (hull[i][1], i))
    return tuple(hull[top:])


def value(points, x, y):
    return max(x * a + y * b for a, b in points)


def msum(sets):
    """Minkowski sum of upper-right chains: add the first vertices, merge the edges by slope."""
    chains = [prune(s) for s in sets]
    a0 = sum((c[0][0] for c in chains), Fraction(0))
    b0 = sum((c[0][1] for c in chains), Fraction(0))
    edges = [(c[i + 1][0] - c[i][0], c[i + 1][1] - c[i][1]) for c in chains for i in range(len(c) - 1)]
    edges.sort(key=lambda e: Fraction(-e[1], e[0]))
    points = [(a0, b0)]
    for da, db in edges:
        points.append((points[-1][0] + da, points[-1][1] + db))
    return prune(points)


def scaled(points, p, q):
    return tuple((p * a, q * b) for a, b in points)


class ReferenceGame:
    def __init__(self, weights, offset, a, B):
        S = sum(weights)
        self.nu = {offset + i: Fraction(w, S) for i, w in enumerate(weights) if w}
        self.a, self.B = a, B
        self.g = lru_cache(maxsize=None)(self._g)
        self.f = lru_cache(maxsize=None)(self._f)
        self.row = lru_cache(maxsize=None)(self.row)
        self.joint = lru_cache(maxsize=None)(self.joint)

    def row(self, k):
        m, rho = divmod(self.a * k, self.B)
        r = Fraction(rho, self.B)
        out = {}
        for z, p in self.nu.items():
            out[z - m] = out.get(z - m, 0) + (1 - r) * p      # ν(n + m): n = z − m
            out[z - m - 1] = out.get(z - m - 1, 0) + r * p    # ν(n + m + 1)
        return {n: v for n, v in out.items() if v}

    def joint(self, k_p, k_q, j):
        rp, rq = self.row(k_p), self.row(k_q)
        ys = {n + j for n in rp} | set(rq)
        return [(y, rp.get(y - j, 0), rq.get(y, 0)) for y in sorted(ys)]

    def _g(self, c):
        """Supporting points of G_c."""
        alts = [((Fraction(1), Fraction(0)), (Fraction(0), Fraction(1)))]
        if c > 0:
            for k in range(self.B ** (c + 1)):
                for j in (1, -1):
                    alts.append(self.after_participation(c - 1, k, k, j))
        return prune([p for s in alts for p in s])

    def after_participation(self, q, k_p, k_q, j):
        return msum([scaled(self.f(q, y - j, y), p, qq) for y, p, qq in self.joint(k_p, k_q, j)])

    def _f(self, q, k_p, k_q):
        """Supporting points of F_q((k_P, k_Q); ·)."""
        alts = [((Fraction(1), Fraction(0)), (Fraction(0), Fraction(1)))]
        alts.append(msum([scaled(self.g(q), p, qq) for _y, p, qq in self.joint(k_p, k_q, 0)]))
        if q >= 1:
            for j in (1, -1):
                alts.append(self.after_participation(q - 1, k_p, k_q, j))
        return prune([p for s in alts for p in s])

    def G(self, c, x, y):
        """G_c(x, y), with the top level evaluated at the point (no curve built)."""
        x, y = Fraction(x), Fraction(y)
        best = max(x, y)
        for k in range(self.B ** (c + 1)) if c > 0 else ():
            for j in (1, -1):
                best = max(best, self.participation_value(c - 1, k, k, j, x, y))
        return best

    def participation_value(self, q, k_p, k_q, j, x, y):
        return sum(self.F(q, y_ - j, y_, x * p, y * qq) for y_, p, qq in self.joint(k_p, k_q, j))

    def F(self, q, k_p, k_q, x, y):
        """F_q((k_P, k_Q); x, y), evaluated at the point by the recursion itself.

        Only the echo's G_q is taken from a point set; the participations recurse
        at their points, down to F_0 = Σ max(x·p, y·q).
        """
        x, y = Fraction(x), Fraction(y)
        if x == 0 or y == 0:
            return x + y
        echo_pairs = self.joint(k_p, k_q, 0)
        if q == 0:
            return max(max(x, y), sum(max(x * p, y * qq) for _y, p, qq in echo_pairs))
        g = self.g(q)
        best = max(max(x, y), sum(value(g, x * p, y * qq) for _y, p, qq in echo_pairs))
        for j in (1, -1):
            best = max(best, self.participation_value(q - 1, k_p, k_q, j, x, y))
        return best
