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
"""

import math
from bisect import bisect_left
from fractions import Fraction
from itertools import accumulate, compress, repeat
from operator import eq, floordiv, itemgetter, lshift, mul, sub

from gmpy2 import gcd, mpq, mpz

from auditor.rationals import ceil

__all__ = ["Chain", "dominating_chain", "envelope", "envelope_with_sum", "minkowski_sum", "sum_scaled", "dominated",
           "run_apex"]


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
            den = den * Fraction(a).denominator // math.gcd(den, Fraction(a).denominator)
            den = den * Fraction(b).denominator // math.gcd(den, Fraction(b).denominator)
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


def _common(chains):
    den = mpz(1)
    for c in chains:
        den = den * c.den // gcd(den, c.den)
    return [c.rescaled(den) for c in chains], den


def envelope(chains):
    """Upper hull of the union: the curve of max_i V_i (the hull envelope).

    The canonical chain depends only on the region K = conv(points) - R^2_+
    (its exposed points and its two lexicographic corners), so a point that
    lies in the region of the *other* points can be dropped without changing
    the result.  When one chain is much larger than the rest together (an
    echo curve against the stop and participation curves of an F_q curve),
    whole runs of its vertices are dropped at once by :func:`_outside_runs`
    against the envelope of the rest; the survivors and the rest are then
    hulled as below.
    """
    chains, den = _common(list(chains))
    big = max(range(len(chains)), key=lambda i: len(chains[i])) if chains else None
    if big is not None and len(chains[big]) >= PRUNE_MIN:
        rest = chains[:big] + chains[big + 1:]
        if rest and len(chains[big]) > 2 * sum(len(c) for c in rest):
            return pruned_envelope(chains[big], rest, den)
    return _hull_of_points([p for c in chains for p in zip(c.xs, c.ys)], den)


def pruned_envelope(big, rest, den):
    """:func:`envelope` of ``big`` and the chains ``rest`` (all over ``den``),
    dropping the runs of ``big`` that lie in the region of ``rest``."""
    small = _hull_of_points([p for c in rest for p in zip(c.xs, c.ys)], den)
    kept = _outside_runs(big, small)
    return _hull_of_points(kept + list(zip(small.xs, small.ys)), den)


# chains shorter than this are enveloped directly (pruning would not pay)
PRUNE_MIN = 4096
# runs of at most this many vertices are kept whole once their triangle is not dominated
PRUNE_LEAF = 48
# slope ranges of envelope_with_sum with at most this many edges are built, not tested
SUM_LEAF = 256


def _hull_of_points(points, den):
    """Canonical chain of integer points over ``den``.

    Points are sorted by (A, B') (chains are ascending runs, which the sort
    exploits), then every point with B' <= the largest B' to its right is
    dropped before the hull scan: such a point is weakly dominated in both
    coordinates, so it is never the unique maximiser of x*A + y*B' for
    x, y >= 0 and the canonical chain (which keeps, among equal A, only the
    top point, and no collinear interior points) cannot contain it.
    """
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
    return _hull_of_points(points, chain.den)


def _outside_runs(chain, small):
    """The vertices of ``chain`` that may lie outside K(small), as a point list.

    A run i..k is dropped when its triangle (:func:`run_apex`) lies in the
    convex region K of ``small``: its three corners do, hence every vertex
    of the run, each of which then is in the region of the other points.
    Runs that are not dropped are halved down to :data:`PRUNE_LEAF` vertices
    and then kept whole (keeping too much never changes the hull).
    """
    xs, ys = chain.xs, chain.ys
    kept = []
    stack = [(0, len(xs) - 1)]
    while stack:
        i, k = stack.pop()
        if k - i >= 2:
            ax, ay = run_apex(chain, i, k)
            if (dominated(small, xs[i], ys[i]) and dominated(small, xs[k], ys[k])
                    and dominated(small, ax, ay)):
                continue
        if k - i + 1 <= PRUNE_LEAF:
            kept.extend(zip(xs[i:k + 1], ys[i:k + 1]))
            continue
        mid = (i + k) // 2
        stack.append((mid + 1, k))
        stack.append((i, mid))
    return kept


def sum_scaled(terms, den):
    """Minkowski sum of scaled chains: the curve of sum_i V_i(p_i x, q_i y).

    ``terms`` are (chain, p, q) with integer p, q >= 0 and all chains over the
    same denominator ``den``; the result is over ``den`` as well (the caller
    accounts for any common denominator of the p, q).  Edges of the summands
    are merged by ratio, equal ratios added into one edge.

    Two exact shortcuts: terms of one chain with the same ratio q/p are
    merged first (p V(x, r y) + p' V(x, r y) = V((p+p') x, (q+q') y) for
    q = r p, q' = r p'); and edges are sorted by the integer floor
    K = floor(dB q 2^SORT_BITS / (dA p)) of their ratio, which orders any two
    edges with different K correctly (floor is monotone), while each run of
    equal K is re-sorted by the exact ratio and its exactly equal ratios are
    merged.
    """
    sx = mpz(0)
    sy = mpz(0)
    grouped = {}
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
            key = (id(chain), mpq(q, p))
            g = grouped.get(key)
            if g is None:
                grouped[key] = [chain, p, q]
            else:
                g[1] += p
                g[2] += q
    das, dbs = [], []
    for chain, p, q in grouped.values():
        dx, dy = chain.edges()
        das.extend(map(mul, dx, repeat(p)))
        dbs.extend(map(mul, dy, repeat(q)))
    return Chain(*_walk_edges(das, dbs, sx, sy), mpz(den))


def _walk_edges(das, dbs, sx, sy):
    """Vertices (xs, ys) of the chain from (sx, sy) along the edges
    (das[i], -dbs[i]) (all positive) in increasing order of ratio dB/dA,
    exactly equal ratios merged into one edge (see :func:`sum_scaled`)."""
    if not das:
        return [sx], [sy]
    ks = list(map(floordiv, map(lshift, dbs, repeat(SORT_BITS)), das))
    order = sorted(range(len(ks)), key=ks.__getitem__)
    ks = list(map(ks.__getitem__, order))
    das = list(map(das.__getitem__, order))
    dbs = list(map(dbs.__getitem__, order))
    xs = list(accumulate(das, initial=sx))
    ys = list(accumulate(dbs, sub, initial=sy))
    return _merge_equal_floors(ks, das, dbs, xs, ys)


def _merge_equal_floors(ks, das, dbs, xs, ys):
    """Redo the vertices inside each run of equal sort floors: the edges of
    the run in exact ratio order, exactly equal ratios merged into one edge.
    The vertex before a run and the one after it do not depend on the order
    inside the run (they are sums of the same edges)."""
    out_x, out_y = [], []
    n = len(ks)
    # edge m (1 <= m < n) continues a run when its floor equals edge m-1's
    continues = list(compress(range(1, n), map(eq, ks[1:], ks[:-1])))
    done = 0      # vertices before xs[done] are already in the output
    r = 0
    while r < len(continues):
        i = continues[r] - 1          # first edge of the run
        k = continues[r] + 1          # one past its last edge
        r += 1
        while r < len(continues) and continues[r] == k:
            k += 1
            r += 1
        # edges i..k-1 lead from vertex i to vertex k
        out_x.extend(xs[done:i + 1])
        out_y.extend(ys[done:i + 1])
        sx, sy = xs[i], ys[i]
        a0, b0 = das[i], dbs[i]
        if all(das[m] * b0 == dbs[m] * a0 for m in range(i + 1, k)):
            # one ratio (the usual case: equal products of row ratios): one edge
            out_x.append(xs[k])
            out_y.append(ys[k])
            done = k + 1
            continue
        run = sorted(((mpq(dbs[m], das[m]), das[m], dbs[m]) for m in range(i, k)), key=itemgetter(0))
        last = None
        for ratio, da, db in run:
            sx += da
            sy -= db
            if ratio == last:
                out_x[-1], out_y[-1] = sx, sy
            else:
                out_x.append(sx)
                out_y.append(sy)
                last = ratio
        done = k + 1
    out_x.extend(xs[done:])
    out_y.extend(ys[done:])
    return out_x, out_y


# bits below the binary point of the integer sort keys of sum_scaled
SORT_BITS = 256


def minkowski_sum(chains):
    """Curve of sum_i V_i(x, y) (chains over any denominators)."""
    chains, den = _common(list(chains))
    return sum_scaled([(c, 1, 1) for c in chains], den)


def envelope_with_sum(chain, terms, rest, den):
    """:func:`envelope` of the chains ``rest`` and the Minkowski sum
    S = sum_i chain(p_i x, q_i y) (``terms`` = (p_i, q_i), the curve of
    sum_scaled([(chain, p_i, q_i)])), without building all of S.

    S is explored by slope: its vertex v(k) after every edge of ratio < k is
    the sum over terms of term i's vertex after its edges with
    ratio(chain edge) * q_i/p_i < k (one binary search per term), and the
    line through v(k) with direction (1, -k) supports S (the edges before
    v(k) are less steep, those after steeper).  So the vertices of S with
    edge ratios in [k1, k2) lie in the triangle v(k1), v(k2) and the
    intersection of those two supporting lines (with k2 = infinity the
    vertical line through the last vertex); when its three corners lie in
    the region of ``rest`` (:func:`dominated`) the whole slope range is
    dropped (those vertices are in the region of the other points, which
    never changes the canonical chain).  Other ranges are halved until they
    hold at most :data:`SUM_LEAF` edges, whose vertices are then built
    exactly.  ``chain`` and ``rest`` are over ``den``; so is the result.
    """
    grouped = {}
    zero_x = zero_y = mpz(0)
    for p, q in terms:
        p, q = mpz(p), mpz(q)
        if p == 0 or q == 0:       # a constant term (a point): V(p x, q y) = p x A_max + q y B'_max
            zero_x += p * chain.xs[-1]
            zero_y += q * chain.ys[0]
            continue
        r = mpq(q, p)
        g = grouped.get(r)
        if g is None:
            grouped[r] = [p, q]
        else:
            g[0] += p
            g[1] += q
    groups = [(mpq(p, q), p, q) for p, q in grouped.values()]   # (p/q, p, q)
    small = _hull_of_points([pt for c in rest for pt in zip(c.xs, c.ys)], den)
    keys, xs, ys = chain.keys(), chain.xs, chain.ys
    nedges = len(keys)

    def indices(k):
        """Per term, the number of chain edges with key * q/p < k (k None: all)."""
        if k is None:
            return [nedges] * len(groups)
        return [bisect_left(keys, k * f) for f, _p, _q in groups]

    def vertex(idx):
        return (zero_x + sum(p * xs[i] for (_f, p, _q), i in zip(groups, idx)),
                zero_y + sum(q * ys[i] for (_f, _p, q), i in zip(groups, idx)))

    def apex(v1, k1, v2, k2):
        # line 1: B' = v1_B - k1 (A - v1_A); line 2 the same through v2 with k2, or A = v2_A
        if k2 is None:
            return v2[0], v1[1] - k1 * (v2[0] - v1[0])
        a = (v2[1] - v1[1] + k2 * v2[0] - k1 * v1[0]) / (k2 - k1)
        return a, v1[1] - k1 * (a - v1[0])

    def inside(pt):
        return dominated(small, pt[0], pt[1])

    kept = []
    k0 = mpq(0)
    i0 = [0] * len(groups)
    iN = indices(None)
    stack = [(k0, i0, vertex(i0), None, iN, vertex(iN))]
    while stack:
        k1, i1, v1, k2, i2, v2 = stack.pop()
        count = sum(b - a for a, b in zip(i1, i2))
        if count == 0:
            kept.append(v1)
            continue
        if inside(v1) and inside(v2) and inside(apex(v1, k1, v2, k2)):
            continue
        if count <= SUM_LEAF:
            kept.extend(_range_vertices(groups, chain, i1, i2, v1))
            continue
        # split at the middle edge of the term with the most edges in range
        t = max(range(len(groups)), key=lambda m: i2[m] - i1[m])
        f = groups[t][0]
        mid_edge = (i1[t] + i2[t]) // 2
        km = keys[mid_edge] / f            # that edge's ratio in S
        if not (k1 < km and (k2 is None or km < k2)):
            # every edge of the range has one ratio (cannot split): build it
            kept.extend(_range_vertices(groups, chain, i1, i2, v1))
            continue
        im = indices(km)
        vm = vertex(im)
        stack.append((km, im, vm, k2, i2, v2))
        stack.append((k1, i1, v1, km, im, vm))
    return _hull_of_points(kept + list(zip(small.xs, small.ys)), den)


def _range_vertices(groups, chain, i1, i2, v1):
    """Vertices of the sum from v1 over the edges of index i1[m] <= i < i2[m]
    of each term m, in exact ratio order (equal ratios merged), v1 included."""
    dx, dy = chain.edges()
    das, dbs = [], []
    for (_f, p, q), a, b in zip(groups, i1, i2):
        if b > a:
            das.extend(map(mul, dx[a:b], repeat(p)))
            dbs.extend(map(mul, dy[a:b], repeat(q)))
    xs, ys = _walk_edges(das, dbs, v1[0], v1[1])
    return list(zip(xs, ys))
