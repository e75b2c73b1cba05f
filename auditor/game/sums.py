"""Minkowski sums of scaled testing curves (*Hidden Integer Feedback* §3), exact.

The support function of a Minkowski sum is the sum of the support functions,
so the curve of sum_i V_i(p_i x, q_i y) is the chain that starts at the sum
of the first vertices and walks every summand's edges, scaled by (p_i, q_i),
in increasing order of ratio (:func:`sum_scaled`).  :func:`envelope_with_sums`
takes the envelope of such sums with other curves without building the
whole sum, dropping slope ranges that lie in the region of the others.
Chains (:class:`auditor.game.curves.Chain`) are integers over one common
denominator; gmpy2 mpz/mpq are exact.
"""

from bisect import bisect_left
from itertools import accumulate, compress, repeat
from operator import eq, floordiv, itemgetter, lshift, mul, sub

from gmpy2 import mpq, mpz

from auditor.game.curves import Chain, hull_of_points, dominated, envelope

__all__ = ["sum_scaled", "envelope_with_sums"]

# slope ranges of envelope_with_sums with at most this many edges are built, not tested
SUM_LEAF = 512


def sum_scaled(terms, den):
    """Minkowski sum of scaled chains: the curve of sum_i V_i(p_i x, q_i y).

    ``terms`` are (chain, p, q) with integer p, q >= 0 and all chains over the
    same denominator ``den``; the result is over ``den`` as well (the caller
    accounts for any common denominator of the p, q).  Edges of the summands
    are merged by ratio, equal ratios added into one edge.

    Two exact shortcuts: terms of one chain with the same ratio q/p are
    merged first (:func:`_grouped`); and edges are sorted by the integer floor
    K = floor(dB q 2^SORT_BITS / (dA p)) of their ratio, which orders any two
    edges with different K correctly (floor is monotone), while each run of
    equal K is re-sorted by the exact ratio and its exactly equal ratios are
    merged.
    """
    if any(chain.den != den for chain, _p, _q in terms):
        raise ValueError("sum_scaled needs a common denominator")
    zero_x, zero_y, groups = _grouped(terms)
    sx = zero_x + sum(p * c.xs[0] for c, p, _q in groups)
    sy = zero_y + sum(q * c.ys[0] for c, _p, q in groups)
    ends = [len(c) - 1 for c, _p, _q in groups]
    return Chain(*_walk_edges(*_edges(groups, [0] * len(groups), ends), sx, sy), mpz(den))


def _grouped(terms):
    """(zero_x, zero_y, groups) of (chain, p, q) terms: a term with p q = 0 is
    the point (p A_max, q B'_max) (V(p x, q y) = p x A_max + q y B'_max), summed
    into (zero_x, zero_y); the others are merged by chain and ratio q/p
    (p V(x, r y) + p' V(x, r y) = V((p+p') x, (q+q') y) for q = r p, q' = r p')
    into groups [chain, p, q], one-vertex chains into the zero point."""
    zero_x = zero_y = mpz(0)
    grouped = {}
    for chain, p, q in terms:
        p, q = mpz(p), mpz(q)
        if p == 0 or q == 0 or len(chain) == 1:
            zero_x += p * chain.xs[-1]
            zero_y += q * chain.ys[0]
            continue
        g = grouped.get((id(chain), mpq(q, p)))
        if g is None:
            grouped[(id(chain), mpq(q, p))] = [chain, p, q]
        else:
            g[1] += p
            g[2] += q
    return zero_x, zero_y, list(grouped.values())


def _edges(groups, i1, i2):
    """(das, dbs): the edges i1[m] <= i < i2[m] of each group [chain, p, q], scaled."""
    das, dbs = [], []
    for (chain, p, q), a, b in zip(groups, i1, i2):
        if b > a:
            dx, dy = chain.edges()
            das.extend(map(mul, dx[a:b], repeat(p)))
            dbs.extend(map(mul, dy[a:b], repeat(q)))
    return das, dbs


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


def envelope_with_sums(sums, rest, den):
    """:func:`auditor.game.curves.envelope` of the chains ``rest`` and of
    Minkowski sums S = sum_i chain_i(p_i x, q_i y) (each of ``sums`` a list of
    (chain_i, p_i, q_i) terms, the curve of :func:`sum_scaled`), without
    building the sums whole.

    Each S is explored by slope: its vertex v(k) after every edge of ratio < k
    is the sum over terms of term i's vertex after its edges with
    ratio(chain_i edge) * q_i/p_i < k (one binary search per term), and the
    line through v(k) with direction (1, -k) supports S (the edges before
    v(k) are less steep, those after steeper).  So the vertices of S with
    edge ratios in [k1, k2) lie in the triangle v(k1), v(k2) and the
    intersection of those two supporting lines (with k2 = infinity the
    vertical line through the last vertex); when its three corners lie in
    the region of ``rest`` (:func:`auditor.game.curves.dominated`) the whole slope range is
    dropped (those vertices are in the region of the other points, which
    never changes the canonical chain).  Other ranges are halved until they
    hold at most :data:`SUM_LEAF` edges, whose vertices are then built
    exactly.  The chains and ``rest`` are over ``den``; so is the result.
    """
    small = envelope(rest)
    kept = list(zip(small.xs, small.ys))
    for terms in sums:
        kept += _outside(terms, small)
    return hull_of_points(kept, den)


def _outside(terms, small):
    """The vertices of the sum of ``terms`` that may lie outside the region
    of ``small`` (:func:`envelope_with_sums`), as a point list."""
    zero_x, zero_y, plain = _grouped(terms)
    groups = [(mpq(p, q), p, q, c.keys(), c.xs, c.ys) for c, p, q in plain]

    def indices(k):
        """Per term, the number of edges with key * q/p < k (k None: all)."""
        if k is None:
            return [len(g[3]) for g in groups]
        return [bisect_left(keys, k * f) for f, _p, _q, keys, _x, _y in groups]

    def vertex(idx):
        return (zero_x + sum(g[1] * g[4][i] for g, i in zip(groups, idx)),
                zero_y + sum(g[2] * g[5][i] for g, i in zip(groups, idx)))

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
            kept.extend(_range_vertices(plain, i1, i2, v1))
            continue
        # split at the middle edge of the term with the most edges in range
        t = max(range(len(groups)), key=lambda m: i2[m] - i1[m])
        km = groups[t][3][(i1[t] + i2[t]) // 2] / groups[t][0]     # that edge's ratio in S
        if not (k1 < km and (k2 is None or km < k2)):
            # every edge of the range has one ratio (cannot split): build it
            kept.extend(_range_vertices(plain, i1, i2, v1))
            continue
        im = indices(km)
        vm = vertex(im)
        stack.append((km, im, vm, k2, i2, v2))
        stack.append((k1, i1, v1, km, im, vm))
    return kept


def _range_vertices(groups, i1, i2, v1):
    """Vertices of the sum from v1 over the edges of index i1[m] <= i < i2[m]
    of each group m, in exact ratio order (equal ratios merged), v1 included."""
    xs, ys = _walk_edges(*_edges(groups, i1, i2), v1[0], v1[1])
    return list(zip(xs, ys))
