"""Testing curves: exact convex chains representing testing values.

(*Exact Compilation and Resource Laws for Hidden Integer Feedback*, Appendix C.2; docs/mechanism.md
§3.)

A testing curve stands for the positively homogeneous convex function

    V(x, y) = max_i (x·A_i + y·B_i),        x, y >= 0,

through the vertices (A_i, B_i) of its upper-right chain: A strictly
increasing, B strictly decreasing, and the edge slopes s_i = −ΔB/ΔA strictly
increasing (no collinear vertices).  Coordinates are integers over a common
denominator that the caller keeps track of; slopes are ``mpq``.

Proof sketch of evaluation: moving along edge i changes x·A + y·B by
ΔA·(x − s_i·y), which is positive exactly when s_i < x/y.  Slopes increase, so
the maximum is at vertex k = #{i : s_i < x/y}, found by binary search.
"""

from bisect import bisect_left
from itertools import repeat
from operator import itemgetter

from gmpy2 import mpq, mpz

_ZERO = mpz(0)
_TINY, _HUGE = 2.0 ** -1000, 2.0 ** 1000
_BELOW, _ABOVE = 1.0 - 2.0 ** -40, 1.0 + 2.0 ** -40  # TestingCurve.proved_vertex


class TestingCurve:
    """An immutable exact testing curve (see the module docstring)."""

    __slots__ = ("A", "B", "slopes", "fslopes")
    __test__ = False  # not a pytest test class

    def __init__(self, A, B, slopes, fslopes=None):
        self.A = A
        self.B = B
        self.slopes = slopes
        # Float slopes only guide the search in __call__ (the result is exact);
        # they are made on the first evaluation, since most curves are only summed.
        self.fslopes = fslopes

    # -- constructors -------------------------------------------------------

    @classmethod
    def from_vertices(cls, points, presorted=False):
        """The upper-right chain of the given (A, B) points.

        This is the hull envelope: the curve of max over the points.  With
        ``presorted`` the points already come in ascending (A, B) order.
        """
        pts = points if presorted else sorted(points)
        hull = []
        for a, b in pts:
            if hull and hull[-1][0] == a:
                hull.pop()  # same A and (ascending order) no larger B: dominated
            while len(hull) >= 2:
                (a0, b0), (a1, b1) = hull[-2], hull[-1]
                # pop unless (a0,b0) -> (a1,b1) -> (a,b) turns strictly clockwise
                if (a1 - a0) * (b - b0) - (b1 - b0) * (a - a0) >= 0:
                    hull.pop()
                else:
                    break
            hull.append((a, b))
        # keep the part from the highest vertex (largest A among ties) rightwards
        top = max(range(len(hull)), key=lambda i: (hull[i][1], i))
        hull = hull[top:]
        A = tuple(p[0] for p in hull)
        B = tuple(p[1] for p in hull)
        slopes = tuple(mpq(B[i] - B[i + 1], A[i + 1] - A[i]) for i in range(len(hull) - 1))
        return cls(A, B, slopes)

    @classmethod
    def from_start_and_edges(cls, a0, b0, edges):
        """From a start vertex and edges (slope, ΔA, ΔB) sorted by slope.

        Edges of equal slope are merged; zero slopes (ΔB = 0) are folded into
        the start and infinite ones (ΔA = 0) are dropped: neither is on the
        upper-right chain.
        """
        A, B, slopes = [a0], [b0], []
        for s, da, db in edges:
            if da == 0:
                continue
            if s == 0:
                A[-1] += da
                continue
            if slopes and slopes[-1] == s:
                A[-1] += da
                B[-1] += db
            else:
                A.append(A[-1] + da)
                B.append(B[-1] + db)
                slopes.append(s)
        return cls(tuple(A), tuple(B), tuple(slopes))

    @classmethod
    def from_measures(cls, p, q):
        """The testing curve of two finite measures on the same outputs.

        ``p`` and ``q`` are equal-length sequences of nonnegative integers; the
        vertices are (P(E), Q(Eᶜ)) for the likelihood-ratio events E.
        """
        edges = [(mpq(qi, pi), pi, -qi) for pi, qi in zip(p, q) if pi]
        edges.sort(key=itemgetter(0))
        return cls.from_start_and_edges(_ZERO, sum(q, _ZERO), edges)

    @classmethod
    def point(cls, a, b):
        """The curve of the single point (a, b): V(x, y) = a·x + b·y."""
        return cls((a,), (b,), ())

    # -- operations ---------------------------------------------------------

    def edges(self):
        """The edges (slope, ΔA, ΔB) in slope order."""
        A, B = self.A, self.B
        return [(self.slopes[i], A[i + 1] - A[i], B[i + 1] - B[i]) for i in range(len(self.slopes))]

    def scaled(self, alpha, beta):
        """The curve of V(α·x, β·y) for integers α, β >= 0."""
        if alpha == 0 or beta == 0:
            return TestingCurve.point(alpha * self.A[-1], beta * self.B[0])
        ratio = mpq(beta, alpha)
        return TestingCurve(tuple(alpha * a for a in self.A), tuple(beta * b for b in self.B),
                            tuple(s * ratio for s in self.slopes))

    def transposed(self):
        """The curve of V(y, x): the vertices (B_i, A_i) in reverse order, the slopes inverted."""
        return TestingCurve(self.B[::-1], self.A[::-1], tuple(1 / s for s in reversed(self.slopes)))

    def times(self, factor):
        """The curve of factor·V (a change of common denominator)."""
        return TestingCurve(tuple(factor * a for a in self.A), tuple(factor * b for b in self.B),
                            self.slopes, self.fslopes)

    def __call__(self, x, y):
        """V(x, y) for x, y >= 0 (exact; integers in give an integer out).

        A float estimate of x/y guesses the optimal vertex k; exact integer
        gains then move k until g_{k−1} > 0 >= g_k, where
        g_i = x·ΔA_i + y·ΔB_i is the gain of edge i.  Gains change sign once
        (slopes increase), so that k is optimal whatever the float error.
        """
        if not y:
            return x * self.A[-1]
        k = self.vertex(x, y)
        return x * self.A[k] + y * self.B[k]

    def vertex(self, x, y):
        """A vertex k attaining V(x, y), for x >= 0, y > 0 (exact; see :meth:`__call__`)."""
        A, B = self.A, self.B
        if self.fslopes is None:
            self.fslopes = _float_slopes(self.slopes)
        try:
            k = bisect_left(self.fslopes, float(x) / float(y))
        except (OverflowError, ZeroDivisionError):
            k = bisect_left(self.slopes, mpq(x) / y)
        while k > 0 and x * (A[k] - A[k - 1]) + y * (B[k] - B[k - 1]) <= 0:
            k -= 1
        last = len(A) - 1
        while k < last and x * (A[k + 1] - A[k]) + y * (B[k + 1] - B[k]) > 0:
            k += 1
        return k

    def proved_vertex(self, t):
        """A vertex attaining V(x, y) when ``t`` is a float within 2^-48 of x/y (relative), or -1.

        Vertex k attains the maximum when s_{k−1} <= x/y <= s_k (module
        docstring).  The float slopes are within 2^-50 of the slopes (relative;
        an infinite one is above 2^1023, a subnormal or zero one below
        2^-1021), so when t lies in [2^-1000, 2^1000] and its float neighbours
        are 2^-40 away from it (relative), the order of x/y among the slopes
        is the float order: proved, not guessed.  Otherwise -1 (the caller
        decides exactly, :meth:`vertex`).
        """
        if not _TINY < t < _HUGE:
            return -1
        fs = self.fslopes
        if fs is None:
            fs = self.fslopes = _float_slopes(self.slopes)
        k = bisect_left(fs, t)
        if k and not fs[k - 1] <= t * _BELOW:
            return -1
        if k < len(fs) and not t * _ABOVE <= fs[k]:
            return -1
        return k

    def argmax(self, x, y):
        """Index of a vertex attaining V(x, y)."""
        if not y:
            return len(self.A) - 1
        return bisect_left(self.slopes, mpq(x) / y)

    def vertices(self):
        return list(zip(self.A, self.B))

    def __len__(self):
        return len(self.A)

    def __eq__(self, other):
        return isinstance(other, TestingCurve) and self.A == other.A and self.B == other.B

    def __hash__(self):
        return hash((self.A, self.B))

    def __repr__(self):
        return f"TestingCurve({[(int(a), int(b)) for a, b in self.vertices()]})"


def _float_slopes(slopes):
    out = []
    for s in slopes:
        try:
            out.append(float(s))
        except OverflowError:
            out.append(float("inf"))
    return out


def minkowski_sum(curves):
    """The curve of Σ V_i: start vertices add, edges merge by slope."""
    a0 = sum((c.A[0] for c in curves), _ZERO)
    b0 = sum((c.B[0] for c in curves), _ZERO)
    edges = []
    for c in curves:
        edges.extend(c.edges())
    edges.sort(key=itemgetter(0))
    return TestingCurve.from_start_and_edges(a0, b0, edges)


def hull_envelope(curves):
    """The curve of max_i V_i: the upper-right hull of all vertices."""
    return hull_of_chains([(c.A, c.B, c.slopes) for c in curves])


def hull_of_chains(chains):
    """The upper-right hull of the points of some chains, each (A, B, slopes) in ascending A.

    ``slopes`` is None for a chain of bare points, or the chain's edge slopes
    (then it is the chain of a testing curve: A strictly increasing, B
    strictly decreasing).  The result is :meth:`TestingCurve.from_vertices`
    of all the points; a testing curve's chain only saves work: three of its
    consecutive vertices turn strictly clockwise exactly when its two slopes
    there increase strictly (no cross product), and an edge between two of
    its consecutive vertices keeps its slope (no new rational).
    """
    slopes = [s for _A, _B, s in chains]
    pts = []
    for c, (A, B, _s) in enumerate(chains):
        pts.extend(zip(A, B, repeat(c), range(len(A))))
    pts.sort()  # ascending (A, B); the runs of each chain are merged, not sorted again
    hull = []
    push = hull.append
    for pt in pts:
        a, b, c, i = pt
        if hull and hull[-1][0] == a:
            hull.pop()  # same A and (ascending order) no larger B: dominated
        while len(hull) >= 2:
            a1, b1, c1, i1 = hull[-1]
            if c1 == c and i1 == i - 1:
                s = slopes[c]
                if s is not None:
                    c0, i0 = hull[-2][2:]
                    if c0 == c and i0 == i - 2 and s[i0] < s[i1]:
                        break  # consecutive vertices of a strictly convex chain
            a0, b0 = hull[-2][:2]
            # pop unless (a0,b0) -> (a1,b1) -> (a,b) turns strictly clockwise
            if (a1 - a0) * (b - b0) - (b1 - b0) * (a - a0) >= 0:
                hull.pop()
            else:
                break
        push(pt)
    # keep the part from the highest vertex (largest A among ties) rightwards: B rises, then falls
    top = 0
    while top + 1 < len(hull) and hull[top + 1][1] >= hull[top][1]:
        top += 1
    hull = hull[top:]
    A = tuple(h[0] for h in hull)
    B = tuple(h[1] for h in hull)
    out = []
    for (a0, b0, c0, i0), (a1, b1, c1, i1) in zip(hull, hull[1:]):
        s = slopes[c0]
        if s is not None and c1 == c0 and i1 == i0 + 1:
            out.append(s[i0])
        else:
            out.append(mpq(b0 - b1, a1 - a0))
    return TestingCurve(A, B, tuple(out))
