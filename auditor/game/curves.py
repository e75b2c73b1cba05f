"""Testing curves as exact convex chains (*Hidden Integer Feedback* §3), the auditor's own code.

A testing curve V(x, y) = max over supporting points (A, B') of x*A + y*B'
(x, y >= 0) is stored as its *upper-right chain*: the vertices that are the
unique maximiser for some direction with x, y > 0 plus the two ends, listed

    from the vertex maximising B' (ties: larger A)
    to   the vertex maximising A  (ties: larger B'),

without collinear interior points.  Along the chain A strictly increases and
B' strictly decreases, and the edge ratios dB/dA (with dB = -(change of B'))
strictly increase (concavity).  Hence the optimal vertex for (x, y) is the
number of edges with dB/dA < x/y, found by binary search.

Coordinates are integers over one common positive denominator ``den``; every
operation is exact.  gmpy2 is used for speed only (mpz/mpq are exact).
Sums of curves (Minkowski sums of scaled chains) are in :mod:`auditor.game.sums`.
"""

import math
from bisect import bisect_left
from fractions import Fraction

from gmpy2 import gcd, mpq, mpz

from auditor.rationals import ceil

__all__ = ["Chain", "dominating_chain", "envelope", "dominated", "run_apex", "hull_of_points",
           "on_common_denominator"]


def _upper_right(points):
    """Upper hull scan of integer points ((A, B') pairs) with A strictly
    increasing and B' strictly decreasing: their canonical chain (the first
    point has the largest B', the last the largest A)."""
    hull = []
    pop, push = hull.pop, hull.append
    for p in points:
        x, y = p
        while len(hull) >= 2:
            ox, oy = hull[-2]
            qx, qy = hull[-1]
            # pop q unless o -> q -> p turns clockwise (q strictly above segment op)
            if (qx - ox) * (y - oy) >= (qy - oy) * (x - ox):
                pop()
            else:
                break
        push(p)
    return hull


class Chain:
    """Upper-right convex chain with integer vertices over ``den``."""

    __slots__ = ("xs", "ys", "den", "_keys", "_edges")

    def __init__(self, xs, ys, den):
        # trusted constructor: xs strictly increasing, ys strictly decreasing, concave
        self.xs = xs
        self.ys = ys
        self.den = den
        self._keys = None
        self._edges = None

    # -- constructors -------------------------------------------------------
    @classmethod
    def from_points(cls, points, den=1):
        """Upper-right chain of the convex hull of integer ``points`` over ``den``."""
        if not points:
            raise ValueError("a curve needs at least one point")
        return hull_of_points([(mpz(a), mpz(b)) for a, b in points], mpz(den))

    @classmethod
    def from_measures(cls, P, Q):
        """Chain of (P(E), Q(E^c)) for two finite measures with integer atoms.

        ``P`` and ``Q`` map outcomes to nonnegative integers.  Outcomes are taken
        into E in order of decreasing likelihood ratio P/Q (Q = 0 first); equal
        ratios enter together.  Both axis points (E empty, E everything) are
        included before the canonical trimming.
        """
        outcomes = set(P) | set(Q)
        groups = {}
        for o in outcomes:
            p, q = P.get(o, 0), Q.get(o, 0)
            if p == 0 and q == 0:
                continue
            key = mpq(q, p) if p else None  # Q/P ascending == P/Q descending
            g = groups.setdefault(key, [0, 0])
            g[0] += p
            g[1] += q
        finite = sorted(k for k in groups if k is not None)
        order = finite + ([None] if None in groups else [])
        A, Bp = 0, sum(Q.values())
        points = [(A, Bp)]
        for key in order:
            p, q = groups[key]
            A += p
            Bp -= q
            points.append((A, Bp))
        return cls.from_points(points, 1)

    @classmethod
    def from_fractions(cls, vertices):
        """Chain from (Fraction, Fraction) points (common denominator taken)."""
        vertices = [(Fraction(a), Fraction(b)) for a, b in vertices]
        den = math.lcm(*(v.denominator for pt in vertices for v in pt))
        return cls.from_points([(int(a * den), int(b * den)) for a, b in vertices], den)

    @classmethod
    def stop(cls, den=1):
        """max(x, y): the points (0, 1) and (1, 0)."""
        den = mpz(den)
        return cls([mpz(0), den], [den, mpz(0)], den)

    # -- queries ------------------------------------------------------------
    def __len__(self):
        return len(self.xs)

    def keys(self):
        """Edge ratios dB/dA (strictly increasing), as mpq."""
        if self._keys is None:
            dx, dy = self.edges()
            self._keys = [mpq(b, a) for a, b in zip(dx, dy)]
        return self._keys

    def edges(self):
        """Edge vectors (dA_i, dB_i), both positive, as two lists."""
        if self._edges is None:
            xs, ys = self.xs, self.ys
            self._edges = ([b - a for a, b in zip(xs, xs[1:])],
                           [a - b for a, b in zip(ys, ys[1:])])
        return self._edges

    def value(self, x, y):
        """V(x, y) as an mpq (x, y exact rationals >= 0): the vertex maximising
        x*A + y*B' is the number of edges with ratio dB/dA < x/y."""
        if x == 0 and y == 0:
            return mpq(0)
        i = 0 if x == 0 else len(self.xs) - 1 if y == 0 else bisect_left(self.keys(), mpq(x) / mpq(y))
        return (mpq(x) * self.xs[i] + mpq(y) * self.ys[i]) / self.den

    def value_ratio(self, t):
        """V(1, t) for an mpq t >= 0 (fast path used by the game)."""
        if t == 0:
            return mpq(self.xs[-1], self.den)
        i = bisect_left(self.keys(), 1 / t)
        return (self.xs[i] + t * self.ys[i]) / self.den

    def vertices(self):
        """Canonical vertex list as (Fraction, Fraction) pairs."""
        d = int(self.den)
        return [(Fraction(int(a), d), Fraction(int(b), d)) for a, b in zip(self.xs, self.ys)]

    def rescaled(self, den):
        """The same curve over a multiple ``den`` of the current denominator."""
        den = mpz(den)
        f, r = divmod(den, self.den)
        if r:
            raise ValueError("new denominator must be a multiple of the old one")
        if f == 1:
            return self
        return Chain([a * f for a in self.xs], [b * f for b in self.ys], den)

    def transposed(self):
        """The curve of V(y, x): the vertices (B', A) in reverse order (A and B'
        swap roles, so the chain runs the other way; still canonical)."""
        return Chain(self.ys[::-1], self.xs[::-1], self.den)

    def __eq__(self, other):
        return isinstance(other, Chain) and self.vertices() == other.vertices()

    __hash__ = None

    def __repr__(self):
        return f"Chain({[(str(a), str(b)) for a, b in self.vertices()]})"


def on_common_denominator(chains):
    den = mpz(1)
    for c in chains:
        den = den * c.den // gcd(den, c.den)
    return [c.rescaled(den) for c in chains], den


def envelope(chains):
    """Upper hull of the union: the curve of max_i V_i (the hull envelope).

    The canonical chain depends only on the region K = conv(points) - R^2_+
    (its exposed points and its two lexicographic corners), so a point that
    lies in the region of the *other* points can be dropped without changing
    the result: when the largest chain's region holds every vertex of the
    others (the stop under an F_q curve's participation), it is the envelope.
    """
    chains, den = on_common_denominator(list(chains))
    big = max(chains, key=len)
    if all(dominated(big, a, b) for c in chains if c is not big for a, b in zip(c.xs, c.ys)):
        return big
    return hull_of_points([p for c in chains for p in zip(c.xs, c.ys)], den)


# sums of at least this many edges are explored by slope, not built (auditor.game.levels)
PRUNE_MIN = 4096


def hull_of_points(points, den):
    """Canonical chain of integer points over ``den``.

    Points are sorted by (A, B') (chains are ascending runs, which the sort
    exploits), then every point with B' <= the largest B' to its right is
    dropped before the hull scan: such a point is weakly dominated in both
    coordinates, so it is never the unique maximiser of x*A + y*B' for
    x, y >= 0 and the canonical chain (which keeps, among equal A, only the
    top point, and no collinear interior points) cannot contain it.  The
    points left have A strictly increasing and B' strictly decreasing.
    """
    points.sort()
    kept = []
    top = None
    for p in reversed(points):
        if top is None or p[1] > top:
            kept.append(p)
            top = p[1]
    kept.reverse()
    chain = _upper_right(kept)
    return Chain([a for a, _ in chain], [b for _, b in chain], den)


def dominated(chain, a, b):
    """True iff the point (a, b) (rationals, in the units of ``chain``'s
    numerators) lies in K = conv(vertices) - R^2_+, i.e. x*a + y*b <= V(x, y)
    for every x, y >= 0.

    The upper boundary of K is the horizontal ray left of the first vertex,
    the chain, and the vertical ray below the last vertex; so (a, b) is in K
    iff a <= max A, b <= max B' (= the first B'), and, when a is beyond the
    first vertex, (a, b) is on or below the chain edge over a.
    """
    xs, ys = chain.xs, chain.ys
    if a > xs[-1] or b > ys[0]:
        return False
    if a <= xs[0]:
        return True
    i = bisect_left(xs, a)          # xs[i-1] < a <= xs[i], i >= 1
    x0, y0, x1, y1 = xs[i - 1], ys[i - 1], xs[i], ys[i]
    return (x1 - x0) * (b - y0) - (y1 - y0) * (a - x0) <= 0


def run_apex(chain, i, k):
    """Apex of the triangle that holds the vertices i..k (k >= i + 2) of a chain.

    Each edge line of a concave chain supports the whole chain from above, so
    the vertices i..k lie below the line of edge (i, i+1) and below that of
    edge (k-1, k), and (being on the chain between them) on or above the chord
    from vertex i to vertex k: inside the triangle with corners vertex i,
    vertex k and the intersection of the two edge lines, returned here as
    (mpq, mpq).  The edge directions differ because edge ratios strictly
    increase along a canonical chain.
    """
    xs, ys = chain.xs, chain.ys
    ua, ub = xs[i + 1] - xs[i], ys[i + 1] - ys[i]
    va, vb = xs[k] - xs[k - 1], ys[k] - ys[k - 1]
    wa, wb = xs[k] - xs[i], ys[k] - ys[i]
    s = mpq(wa * vb - wb * va, ua * vb - ub * va)
    return xs[i] + s * ua, ys[i] + s * ub


def dominating_chain(chain, run):
    """A chain of at most about 2 len/run vertices whose curve is >= ``chain``'s
    everywhere (same denominator): an outer simplification, for upper bounds.

    Each run of ``run`` edges (vertices i..k) lies in the triangle of
    :func:`run_apex`; the apex, rounded up in both coordinates to integers,
    dominates it, and the region K of {vertex i, rounded apex, vertex k}
    (down-closed) then contains the whole run.  So every vertex of ``chain``
    lies in K of the new points, i.e. V_chain <= V_new for all x, y >= 0.
    """
    if run < 2:
        raise ValueError(f"run must be >= 2, got {run}")
    xs, ys = chain.xs, chain.ys
    n = len(xs)
    if n <= 2 * run:
        return chain
    points = [(xs[0], ys[0])]
    i = 0
    while i < n - 1:
        k = min(i + run, n - 1)
        if k - i >= 2:
            ax, ay = run_apex(chain, i, k)
            points.append((ceil(ax), ceil(ay)))
        points.append((xs[k], ys[k]))
        i = k
    return hull_of_points(points, chain.den)
