"""Testing curves as exact convex chains (SPEC section 2), the auditor's own code.

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
"""

from bisect import bisect_left
from fractions import Fraction
from operator import itemgetter

from gmpy2 import mpq, mpz

__all__ = ["Chain", "envelope", "minkowski_sum", "sum_scaled"]


def _upper_right(points, presorted=False):
    """Canonical upper-right chain of integer points ((A, B') pairs).

    ``presorted``: the points are already in ascending (A, B') order
    (duplicates allowed: a repeated point is popped as collinear).
    """
    pts = points if presorted else sorted(set(points))
    hull = []
    for p in pts:
        while len(hull) >= 2:
            o, q = hull[-2], hull[-1]
            # pop q unless o -> q -> p turns clockwise (q strictly above segment op)
            if (q[0] - o[0]) * (p[1] - o[1]) - (q[1] - o[1]) * (p[0] - o[0]) >= 0:
                hull.pop()
            else:
                break
        hull.append(p)
    # hull: upper hull from leftmost to rightmost (for equal A only the top survives)
    top = max(b for _, b in hull)
    start = max(i for i, (_, b) in enumerate(hull) if b == top)
    return hull[start:]


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
        chain = _upper_right([(mpz(a), mpz(b)) for a, b in points])
        if not chain:
            raise ValueError("a curve needs at least one point")
        return cls([a for a, _ in chain], [b for _, b in chain], mpz(den))

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
        den = 1
        for a, b in vertices:
            den = den * Fraction(a).denominator // _gcd(den, Fraction(a).denominator)
            den = den * Fraction(b).denominator // _gcd(den, Fraction(b).denominator)
        pts = [(int(Fraction(a) * den), int(Fraction(b) * den)) for a, b in vertices]
        return cls.from_points(pts, den)

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
            xs, ys = self.xs, self.ys
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

    def vertex_for(self, x, y):
        """Index of a vertex maximising x*A + y*B' (x, y >= 0, not both 0)."""
        if y == 0:
            return len(self.xs) - 1
        if x == 0:
            return 0
        return bisect_left(self.keys(), mpq(x) / mpq(y))

    def value(self, x, y):
        """V(x, y) as an mpq (x, y exact rationals >= 0)."""
        if x == 0 and y == 0:
            return mpq(0)
        i = self.vertex_for(x, y)
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

    def scaled(self, alpha, beta):
        """V(alpha*x, beta*y) for integers alpha, beta >= 0 (same denominator)."""
        alpha, beta = mpz(alpha), mpz(beta)
        if alpha == 0 or beta == 0:
            return Chain([alpha * self.xs[-1]], [beta * self.ys[0]], self.den)
        return Chain([a * alpha for a in self.xs], [b * beta for b in self.ys], self.den)

    def __eq__(self, other):
        return isinstance(other, Chain) and self.vertices() == other.vertices()

    __hash__ = None

    def __repr__(self):
        return f"Chain({[(str(a), str(b)) for a, b in self.vertices()]})"


def _gcd(a, b):
    while b:
        a, b = b, a % b
    return a


def _common(chains):
    den = mpz(1)
    for c in chains:
        den = den * c.den // _gcd(den, c.den)
    return [c.rescaled(den) for c in chains], den


def envelope(chains):
    """Upper hull of the union: the curve of max_i V_i (the hull envelope).

    Points are sorted by (A, B') (each chain is an ascending run, which the
    sort exploits), then every point with B' <= the largest B' to its right
    is dropped before the hull scan: such a point is weakly dominated in both
    coordinates, so it is never the unique maximiser of x*A + y*B' for
    x, y >= 0 and the canonical chain (which keeps, among equal A, only the
    top point, and no collinear interior points) cannot contain it.
    """
    chains, den = _common(list(chains))
    points = [p for c in chains for p in zip(c.xs, c.ys)]
    points.sort()
    kept = []
    top = None
    for p in reversed(points):
        if top is None or p[1] > top:
            kept.append(p)
            top = p[1]
    kept.reverse()
    chain = _upper_right(kept, presorted=True)
    return Chain([a for a, _ in chain], [b for _, b in chain], den)


def sum_scaled(terms, den):
    """Minkowski sum of scaled chains: the curve of sum_i V_i(p_i x, q_i y).

    ``terms`` are (chain, p, q) with integer p, q >= 0 and all chains over the
    same denominator ``den``; the result is over ``den`` as well (the caller
    accounts for any common denominator of the p, q).  Edges of the summands
    are merged by ratio, equal ratios added into one edge.
    """
    sx = mpz(0)
    sy = mpz(0)
    edges = []
    for chain, p, q in terms:
        if chain.den != den:
            raise ValueError("sum_scaled needs a common denominator")
        p, q = mpz(p), mpz(q)
        if p == 0 or q == 0:
            sx += p * chain.xs[-1]
            sy += q * chain.ys[0]
            continue
        sx += p * chain.xs[0]
        sy += q * chain.ys[0]
        if len(chain.xs) > 1:
            f = mpq(q, p)
            dx, dy = chain.edges()
            edges.extend(zip([k * f for k in chain.keys()],
                             [d * p for d in dx], [d * q for d in dy]))
    edges.sort(key=itemgetter(0))
    xs, ys = [sx], [sy]
    last = None
    for key, da, db in edges:
        sx += da
        sy -= db
        if key == last:  # same ratio: extend the previous edge
            xs[-1] = sx
            ys[-1] = sy
        else:
            xs.append(sx)
            ys.append(sy)
            last = key
    return Chain(xs, ys, mpz(den))


def minkowski_sum(chains):
    """Curve of sum_i V_i(x, y) (chains over any denominators)."""
    chains, den = _common(list(chains))
    return sum_scaled([(c, 1, 1) for c in chains], den)
