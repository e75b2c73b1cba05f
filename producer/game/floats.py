"""Float64 copies of testing curves, used only to discard alternatives (never to decide).

Every float here approximates a nonnegative exact real: a curve coordinate
over its denominator, a probability, a normalised query weight, or a game
value.  A float curve is a convex chain stored as slopes S (ascending, padded
with +inf), and coordinates A, B; its value at (x, y) is x·A_k + y·B_k with
k = #{S_i < x/y}.

Error bound (u = 2^-52 bounds every rounding: int/int and mpq conversions,
products, quotients, and each addition of a sum).  Write v̂ ≈_η v for
|v̂ − v| <= η·v.
(1) Conversions: ≈_u.  A product of two ≈_η values: ≈_(2η + 2u) to first
    order (all bounds below are first order; the caller's margin carries a
    factor 4 of slack, and every bound used is below 2^-10, so the second-
    order terms are covered).
(2) A sum of n nonnegative ≈_η terms (sequential or pairwise): ≈_(η + n·u);
    more precisely ≈_(η + e·u) when every partial sum on the way to it passes
    through at most e roundings (each rounds a partial sum of nonnegative
    terms, at most the whole).
    Coordinates of a float Minkowski sum are such sums over its edges (A as
    prefix sums from the first vertex, B as suffix sums from the last one, so
    no term is negative and nothing cancels).
(3) A homogeneous convex monotone V evaluated at (x̂, ŷ) with x̂ ≈_η x,
    ŷ ≈_η y satisfies V(x̂, ŷ) ≈_η V(x, y).
(4) Choosing the vertex by float comparisons of slopes Ŝ ≈_σ S with
    t̂ = fl(x/y): an edge e is misjudged only when s_e and t lie within
    (σ + u)·max(s_e, t) of each other, and its gain ΔA_e·|x − s_e·y| is then at
    most (σ + u)·(x·ΔA_e + y·|ΔB_e|); over the chain these add to at most
    (σ + u)·(x·A_last + y·B_0) <= 2(σ + u)·V.  So the chosen vertex is within
    2(σ + u) of the optimum, and with coordinates ≈_κ the float value is
    ≈_(η + κ + 2σ + 4u).
(5) A maximum of ≈_η values is ≈_η.
Along any path from a query to a leaf there are at most 2C + 2 point levels
(C the budget), each an output sum (2) of at most R terms with its products
(1), adding at most (R + 32)·u; the path ends in exactly one curve
evaluation (4), whose coordinates are ≈_(K·u): K = 1 for a copy of an exact
curve, and for a float Minkowski sum the error units of its blocked
coordinate sums (:func:`minkowski`; slopes there are products of three ≈_u
numbers, σ <= 4u), so the leaf adds at most (K + 32)·u.  With R the largest
output sum and K the largest error units of a curve a query evaluates, every
float value is ≈_η with η = ((2C + 2)·(R + 32) + K + 32)·u, and
:func:`margin` returns 4η.  (A float Minkowski sum is never a component of
another on a query's path, so its K is not multiplied by the levels.)  If v* is the exact
maximum of some alternatives and v_a = v*, then v̂_a >= (1 − η)·v* and every
v̂ <= (1 + η)·v*, so v̂_a >= (1 − 4η)·max v̂: keeping every alternative with
v̂ >= (1 − margin)·max v̂ keeps every exact maximiser, ties included.

Excess (producer/game/points.py).  Near a corner of the curves (y ≫ x, as at
a large ε) every alternative's value is y plus a tiny excess, so the values
agree to many more digits than float64 carries and the relative screening
above keeps them all.  The point levels therefore compute, for each value
V(x, y) of a node, its excess e = V(x, y) − y: every testing value here has
V(0, 1) = 1 (stop gives y, no value exceeds x + y) and its rows sum to 1, so
every alternative of a node has the same baseline y and the excesses order
the alternatives as the values do.  A curve's excess at its vertex k is
x·A_k − y·D_k with D_k = B_0 − B_k, a sum of positive drops (D is stored, as
rounded exact differences for a copy of an exact curve and as blocked prefix
sums of the edges' drops for a float Minkowski sum: never a difference of
rounded coordinates, so its error units are those of A).  A node's excess is
the sum of its children's excesses (over their own baselines y·q, which add
up to y) or the maximum over its options; stop's is max(x − y, 0).  With each
float excess the floats carry an error scale s >= 0 and |ê − e| <= η·s with
the η above:
- at a curve evaluation, s = x·A_k + y·D_k (what (1) and the coordinates'
  K units multiply), plus x·A_last when a float slope lies within 2^-40
  (relative) of t = x/y: otherwise no edge is misjudged (4), and when one
  may be, the loss is at most 2(σ + u)·x·A_last;
- a sum's scale is the sum of the scales (each rounding of a partial sum of
  R terms is at most u·Σ|ê| <= u·(1 + η)·Σ s, and the relative errors of
  the products x·p, y·q scale the terms they multiply), a maximum's is the
  largest scale of its options;
- stop's scale is x + y, or 0 where x̂ < ŷ·(1 − margin) proves x < y (then
  its excess is exactly 0 on both sides).
The error scales are sums of nonnegative floats, themselves within η of
their value.  An exact maximiser a then has ê_a >= ê_b − η·(s_a + s_b) for
every option b, so keeping every option with ê >= max ê − margin·(s + max s)
(margin = 4η) keeps every exact maximiser, ties included.  Where y ≫ x the
scales are about x, not y: the screening separates alternatives whose values
differ in the 17th digit.

Underflow would break (1)-(2): a caller screens only when every product along
a path (the query weights, at most 2C + 2 row entries and one curve
coordinate, each bounded below by the smallest such float) stays above 2^-1000
(producer/game/points.py, ``GameFloats.safe``; producer/game/pruning.py);
otherwise it evaluates every alternative exactly.
"""

import math

np = None  # numpy, imported on first use

U = 2.0 ** -52
MAX_MARGIN = 2.0 ** -12
NEAR = 2.0 ** -40  # a vertex choice with no float slope this near t (relative) misjudges no edge


def numpy():
    """The numpy module (imported lazily: most queries never screen)."""
    global np
    if np is None:
        import numpy
        np = numpy
    return np


def margin(budget, row_terms, curve_units):
    """The relative screening margin 4η of the module docstring: R = ``row_terms``, K = ``curve_units``."""
    return 4.0 * ((2 * budget + 2) * (row_terms + 32) + curve_units + 32) * U


def ratio(num, den):
    """float(num/den) for nonnegative integers (correctly rounded; 0 when num is 0)."""
    if not num:
        return 0.0
    try:
        return int(num) / int(den)
    except OverflowError:
        return float("inf")


def _ratios(values, den):
    """[ratio(v, den) for v in values] (``den`` an int), without a call per value."""
    try:
        return [int(v) / den for v in values]
    except OverflowError:
        return [ratio(v, den) for v in values]


def slope_float(s):
    try:
        return float(s)
    except OverflowError:
        return float("inf")


class FloatCurve:
    """A float convex chain: slopes S (len n, last +inf), coordinates A, B (len n).

    ``dA``/``dB`` are the edge increments (dB as positive drops), kept exact-
    rounded so that Minkowski sums never subtract rounded coordinates.
    ``D`` are the drops B_0 − B_k from the first vertex (sums of positive
    terms, never differences of rounded coordinates), for :meth:`excess`.
    """

    __slots__ = ("S", "A", "B", "dA", "dB", "D", "terms")

    def __init__(self, S, A, B, dA, dB, terms, D=None):
        self.S, self.A, self.B, self.dA, self.dB = S, A, B, dA, dB
        self.D = D
        self.terms = terms  # the error units K of a coordinate (module docstring)

    @classmethod
    def from_exact(cls, curve, den):
        """Float copy of an exact TestingCurve whose coordinates are over ``den``."""
        np = numpy()
        den = int(den)
        A, B = curve.A, curve.B
        n = len(A)
        fa = np.array(_ratios(A, den))
        fb = np.array(_ratios(B, den))
        dA = np.array(_ratios([b - a for a, b in zip(A, A[1:])], den))
        dB = np.array(_ratios([a - b for a, b in zip(B, B[1:])], den))
        S = np.empty(n)
        try:
            S[:n - 1] = [float(s) for s in curve.slopes]
        except OverflowError:
            S[:n - 1] = [slope_float(s) for s in curve.slopes]
        S[n - 1] = np.inf
        b0 = B[0]
        D = np.array(_ratios([b0 - b for b in B], den))
        return cls(S, fa, fb, dA, dB, 1, D)

    def __len__(self):
        return len(self.A)

    def smallest(self):
        """The smallest positive coordinate or increment (for the underflow check)."""
        parts = [v[v > 0] for v in (self.A, self.B, self.dA, self.dB, self.D) if v is not None]
        parts = [p for p in parts if p.size]
        return float(min(p.min() for p in parts)) if parts else 1.0

    def _slots(self, x, y):
        """(t = x/y, the index of the vertex that attains V at each (x, y))."""
        np = numpy()
        with np.errstate(divide="ignore", invalid="ignore"):
            t = x / y
        k = np.searchsorted(self.S, t, side="left")
        np.minimum(k, len(self.A) - 1, out=k)
        return t, k

    def values(self, x, y):
        """V(x, y) for float arrays x, y >= 0 (0 where both are 0)."""
        _, k = self._slots(x, y)
        out = x * self.A[k] + y * self.B[k]
        return numpy().where((x == 0) & (y == 0), 0.0, out)

    def excess(self, x, y):
        """(V(x, y) − y·B_0, its error scale) for float arrays x, y >= 0 (module docstring, excess)."""
        t, k = self._slots(x, y)
        return _excess(x, y, t, self.A[k], self.D[k], self.S, k, self.A[-1])


def minkowski(components, keep_increments=False, keep_b=True):
    """Float curve of Σ_i V_i(p_i·x, q_i·y) for (FloatCurve V_i, float p_i, float q_i).

    Without ``keep_b`` the curve has no B (only :meth:`FloatCurve.excess`
    evaluates it; :meth:`FloatCurve.values` needs B).

    Edges are sorted by their float slopes; A are prefix sums from the first
    vertex and B suffix sums from the last (module docstring, (2)), both by
    blocked sums, so ``terms`` (the error units of a coordinate) grows like
    2·√edges, not like the number of edges.
    """
    np = numpy()
    a0 = 0.0
    b_last = 0.0
    slopes, da, db = [], [], []
    count = 0  # components: a0 and b_last are sequential sums of at most this many terms
    for curve, p, q in components:
        if p == 0.0 and q == 0.0:
            continue
        count += 1
        if p == 0.0:
            b_last += q * curve.B[0]
            continue
        if q == 0.0:
            a0 += p * curve.A[-1]
            continue
        a0 += p * curve.A[0]
        b_last += q * curve.B[-1]
        if len(curve.dA):
            slopes.append(curve.S[:-1] * (q / p))
            da.append(curve.dA * p)
            db.append(curve.dB * q)
    if slopes:
        s = np.concatenate(slopes)
        order = np.argsort(s, kind="stable")
        s = s[order]
        dA = np.concatenate(da)[order]
        dB = np.concatenate(db)[order]
    else:
        s = dA = dB = np.zeros(0)
    n = len(s) + 1
    A = np.empty(n)
    A[0] = a0
    prefix, units = blocked_prefix_sums(dA)
    A[1:] = prefix + a0
    B = None
    if keep_b:
        B = np.empty(n)
        B[n - 1] = b_last
        if len(s):
            B[:n - 1] = blocked_prefix_sums(dB[::-1])[0][::-1] + b_last
    S = np.empty(n)
    S[:n - 1] = s
    S[n - 1] = np.inf
    D = np.zeros(n)
    if len(s):
        D[1:] = blocked_prefix_sums(dB)[0]
    if not keep_increments:
        dA = dB = None  # only needed when this sum is itself a component of another
    # a coordinate: a start sum (count terms) plus a blocked sum (units), each of terms ≈_(3u), then one addition
    return FloatCurve(S, A, B, dA, dB, count + units + 4, D)


def blocked_prefix_sums(terms):
    """(prefix sums P_k = Σ_{i<=k} t_i of nonnegative floats, their error units e): each P_k ≈_(e·u) of the sum.

    Blocks of b = ⌊√n⌋ terms are summed sequentially (at most b − 1 roundings
    on the way to any partial sum), the block totals likewise (⌈n/b⌉ − 1 more),
    and one addition joins the two: every P_k is a sum of nonnegative terms
    computed with at most b + ⌈n/b⌉ roundings, so e = b + ⌈n/b⌉ (module
    docstring, (2): for nonnegative terms each rounding adds at most u of the
    whole).  A plain sequential cumsum would give e = n.  Zero padding is exact.
    """
    np = numpy()
    n = len(terms)
    if n == 0:
        return np.zeros(0), 0
    b = max(1, math.isqrt(n))
    blocks = -(-n // b)
    padded = np.zeros(blocks * b)
    padded[:n] = terms
    within = padded.reshape(blocks, b).cumsum(axis=1)
    before = np.zeros(blocks)
    if blocks > 1:
        np.cumsum(within[:-1, -1], out=before[1:])
    return (within + before[:, None]).reshape(-1)[:n], b + blocks


class FloatBank:
    """Many float curves in one set of arrays (slopes, A and the drops D), evaluated together by curve index."""

    __slots__ = ("S", "A", "D", "start", "last", "steps", "count")

    def __init__(self, curves):
        np = numpy()
        lengths = np.array([len(c) for c in curves], dtype=np.int64)
        self.start = np.concatenate([[0], np.cumsum(lengths)[:-1]]).astype(np.int64)
        self.last = self.start + lengths - 1
        self.S = np.concatenate([c.S for c in curves])
        self.A = np.concatenate([c.A for c in curves])
        self.D = np.concatenate([c.D for c in curves])
        self.steps = int(lengths.max()).bit_length() if len(curves) else 0
        self.count = len(curves)
        # the curves now read their slopes, A and drops from the bank (the same numbers): one copy, not two
        for curve, start, length in zip(curves, self.start.tolist(), lengths.tolist()):
            view = slice(start, start + length)
            curve.S, curve.A, curve.D = self.S[view], self.A[view], self.D[view]

    def excess(self, index, x, y):
        """(V_index(x, y) − y·B_0, its error scale) elementwise (:meth:`FloatCurve.excess`)."""
        np = numpy()
        with np.errstate(divide="ignore", invalid="ignore"):
            t = x / y
        lo = self.start[index]
        hi = self.last[index]
        for _ in range(self.steps):
            mid = (lo + hi) >> 1
            below = self.S[mid] < t
            lo = np.where(below, mid + 1, lo)
            hi = np.where(below, hi, mid)
        return _excess(x, y, t, self.A[lo], self.D[lo], self.S, lo, self.A[self.last[index]], self.start[index])


def _excess(x, y, t, a, d, S, k, a_last, first=0):
    """(x·a − y·d, its error scale x·a + y·d, plus x·A_last where a slope is near t) (module docstring).

    ``k`` indexes the chosen vertex in ``S`` (the first vertex of its curve at
    ``first``); an edge can be misjudged only when its float slope is within
    NEAR of t, relative (S[k − 1] below, S[k] above).
    """
    np = numpy()
    out = x * a - y * d
    scale = x * a + y * d
    below = np.where(k > first, S[np.maximum(k - 1, 0)], -np.inf)
    near = ~((below < t * (1.0 - NEAR)) & (S[k] > t * (1.0 + NEAR)))
    scale = scale + np.where(near, x * a_last, 0.0)
    both = (x == 0) & (y == 0)
    return np.where(both, 0.0, out), np.where(both, 0.0, scale)


def exact_ratio_floats(values, den):
    """float(v/den) for a sequence of nonnegative integers."""
    np = numpy()
    return np.array([ratio(v, den) for v in values])
