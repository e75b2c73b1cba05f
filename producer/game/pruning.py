"""Exact F_q curves without building the whole echo curve (float-pruned, exact result).

F_q((k − j, k); ·) is the hull envelope of the echo curve E (the Minkowski sum
Σ_y G_q(x·p_y, y·q_y), p, q the echo rows) and the two participation curves
(stopping is dominated by the complete echo).  E is large (ℓ times G_q) but
mostly lies under M = hull(P₊, P₋), which is small.

Pruning.  M is exact and linear on each of its cones [m_i, m_{i+1}] (between
consecutive edge slopes, with m = 0 and m = ∞ at the ends), and E is convex,
so E − M is convex there: E < M on the whole closed cone as soon as E < M at
both ends.  The ends are tested in floats with the proved margin of
producer/game/floats.py (E from a float Minkowski sum, M from its exact
vertices), and an exact vertex of E optimal only in directions inside such
cones is never a vertex of the envelope.  For the remaining direction
intervals [m_lo, m_hi] the vertices of E optimal there are rebuilt exactly:
the start vertex is the sum of each component's optimal vertex at m_lo
(a bisection on its exact slopes), and the edges are those of slopes within
[m_lo, m_hi], merged by exact slope.  The exact hull of M's vertices and these
pieces is then exactly the envelope: it contains every envelope vertex and
only points of E ∪ M.

Work.  The merge orders the edges by float slopes and confirms the order
exactly (adjacent slopes cross-multiplied; the exact sort if a pair fails),
and a piece vertex goes to the hull only when it is not proved under M (most
are not envelope vertices: near the axes E and M agree to within the float
margin, so the cones there are not dropped).  Both are on numpy arrays of
exact integers; floats only propose.
"""

import math
from bisect import bisect_left, bisect_right

from gmpy2 import mpq, mpz

from producer.curves import hull_envelope, hull_of_chains
from producer.game import floats

SMALL_ECHO = 4096  # below this many echo edges the plain exact envelope is cheaper


def pruned_f_curve(game, q, k, j, participations):
    """F_q((k − j, k); ·) over D^(2q+1) from the exact participations (already ×D).

    Returns None when the plain construction should be used (small, or floats
    outside their proved range).
    """
    g = game.g_curve(q)
    start, entries = game.pair_entries(k - j, k, 0)
    if len(g) * len(entries) < SMALL_ECHO:
        return None
    M = hull_envelope(participations)
    E = game.floats.echo_curve(q, k, j)
    if E is None:
        return None
    den = game.D ** (2 * q + 1)
    # E's entries are products of a G_q coordinate and a row entry: keep them normal
    if math.log2(game.floats.g(q).smallest()) + math.log2(game.floats.p_min) < -1000:
        return None
    below = _below_at_breakpoints(E, M, den, game.floats.margin_for(E.terms))
    if below is None:
        return None
    # at the axis directions (x = 0, y = 0) compare exactly: E <= M there is enough
    # when the cone's other end is strict (E − M convex: then E < M inside the cone)
    last = len(g.A) - 1
    at_zero = sum((qq * g.B[0] for _o, _p, qq in entries), mpz(0)) <= M.B[0]
    at_inf = sum((p * g.A[last] for _o, p, _q in entries), mpz(0)) <= M.A[-1]
    steps = _g_steps(game, q)
    chains = [(M.A, M.B, M.slopes)]
    for lo, hi in _open_intervals(M, below, at_zero, at_inf):
        A, B = _exact_echo_piece(g, steps, entries, lo, hi)
        chains.append(_not_under(M, A, B) + (None,))
    return hull_of_chains(chains)


def _below_at_breakpoints(E, M, den, margin):
    """For each direction m_0 = 0, slopes of M, m_last = ∞: is E < M there (proved)?"""
    np = floats.numpy()
    Mf = floats.FloatCurve.from_exact(M, den)
    if Mf.smallest() < 2.0 ** -1000:
        return None
    n = len(M.slopes)
    t = np.empty(n + 2)
    t[0] = 0.0
    t[1:n + 1] = Mf.S[:n]
    t[n + 1] = np.inf
    x = np.where(np.isinf(t), 1.0, t)
    y = np.where(np.isinf(t), 0.0, 1.0)
    e = E.values(x, y)
    m = Mf.values(x, y)
    return e * (1.0 + margin) < m * (1.0 - margin)


def _open_intervals(M, below, at_zero, at_inf):
    """Maximal runs of cones of M where E < M is not proved, as exact (lo, hi) directions (None = ∞).

    ``below[i]``: E < M proved at breakpoint i (strict); at the two axis
    directions ``at_zero``/``at_inf`` say E <= M.  A cone is dropped when E <= M
    at both ends and E < M at one of them.
    """
    slopes = M.slopes
    ends = [mpq(0)] + list(slopes) + [None]
    weak = list(below)
    weak[0] = weak[0] or at_zero
    weak[-1] = weak[-1] or at_inf
    cones = len(ends) - 1

    def dropped(i):
        return weak[i] and weak[i + 1] and (below[i] or below[i + 1])

    runs = []
    i = 0
    while i < cones:
        if dropped(i):
            i += 1
            continue
        lo = i
        while i < cones and not dropped(i):
            i += 1
        runs.append((ends[lo], ends[i]))
    return runs


def _g_steps(game, q):
    """G_q's edges as arrays: exact increments ΔA, drops −ΔB (object), float slopes (for ordering only)."""
    cache = game.floats.__dict__.setdefault("pruning_steps", {})
    steps = cache.get(q)
    if steps is None:
        g = game.g_curve(q)
        A = _objects(g.A)
        B = _objects(g.B)
        steps = cache[q] = (A[1:] - A[:-1], B[:-1] - B[1:], game.floats.g(q).S[:-1])
    return steps


def _exact_echo_piece(g, steps, entries, lo, hi):
    """The exact vertices of E = Σ_y G(p_y·x, q_y·y) optimal for directions in [lo, hi], as arrays A, B.

    The edges are put in slope order by their float slopes, and the order is
    then confirmed exactly (adjacent slopes by cross-multiplication; the exact
    sort when that fails).  Edges of equal slope may come in any order: the
    vertices between them lie on an edge of E, and the hull drops them.
    """
    np = floats.numpy()
    dA, dB, fs = steps
    a0 = mpz(0)
    b0 = mpz(0)
    da, db, keys = [], [], []
    A, B, slopes = g.A, g.B, g.slopes
    last = len(A) - 1
    for _off, p, qq in entries:
        if not qq:
            a0 += p * A[last]
            continue
        if not p:
            b0 += qq * B[0]
            continue
        # component slopes are s_i·qq/p: compare s_i with t·p/qq
        k_lo = bisect_left(slopes, lo * p / qq) if lo else 0
        k_hi = bisect_right(slopes, hi * p / qq) if hi is not None else last
        a0 += p * A[k_lo]
        b0 += qq * B[k_lo]
        if k_hi > k_lo:
            da.append(dA[k_lo:k_hi] * p)
            db.append(dB[k_lo:k_hi] * qq)
            keys.append(fs[k_lo:k_hi] * floats.ratio(qq, p))
    if not da:
        return np.array([a0], dtype=object), np.array([b0], dtype=object)
    da = np.concatenate(da)
    db = np.concatenate(db)
    with np.errstate(invalid="ignore", over="ignore"):
        order = np.argsort(np.concatenate(keys), kind="stable")
    da = da[order]
    db = db[order]
    # slope db/da is nondecreasing along the order (all da > 0)
    if not (db[:-1] * da[1:] <= db[1:] * da[:-1]).all():
        order = sorted(range(len(da)), key=lambda i: mpq(db[i], da[i]))
        da = da[order]
        db = db[order]
    n = len(da)
    pa = np.empty(n + 1, dtype=object)
    pb = np.empty(n + 1, dtype=object)
    pa[0] = a0
    pb[0] = b0
    pa[1:] = np.cumsum(da) + a0
    pb[1:] = b0 - np.cumsum(db)
    return pa, pb


def _not_under(M, A, B):
    """The points (A_i, B_i) (arrays in ascending A) that M's chain does not cover, as arrays.

    A point is dropped only when it is proved under M exactly: A no larger than
    M's first vertex and B no larger than its B, or, between two consecutive
    vertices of M by A, on or below the edge joining them (it is then a
    convex combination of points of M minus a nonnegative vector, so never
    above M in any direction).  Floats only propose which edge to test.
    """
    np = floats.numpy()
    n = len(M.A)
    mA = _objects(M.A)
    mB = _objects(M.B)
    try:
        fa = mA.astype(np.float64)
        fp = A.astype(np.float64)
    except OverflowError:
        return A, B
    drop = (A <= mA[0]) & (B <= mB[0])
    if n >= 2:
        k = np.clip(np.searchsorted(fa, fp, side="right") - 1, 0, n - 2)
        a0, b0, a1, b1 = mA[k], mB[k], mA[k + 1], mB[k + 1]
        inside = (a0 <= A) & (A <= a1)
        under = (a1 - a0) * (B - b0) - (b1 - b0) * (A - a0) <= 0
        drop |= inside & under
    keep = np.nonzero(~drop.astype(bool))[0]
    return A[keep], B[keep]


def _objects(values):
    """A numpy object array of the given integers (fromiter: np.array inspects every element)."""
    return floats.numpy().fromiter(values, dtype=object, count=len(values))
