"""Exact piecewise-linear functions of the prior t ∈ [0, 1] (docs/hierarchy.md; Cvx of the commitment hierarchy).

A curve is a tuple of vertices (t_i, u_i), exact rationals (gmpy2 mpq),
t_0 = 0 < … < t_m = 1, linear in between.  A node value is
V(x, y) = (x + y)·u(x/(x + y)).
"""

from bisect import bisect_right

from gmpy2 import mpq

ZERO, ONE = mpq(0), mpq(1)
STOP = ((ZERO, ONE), (mpq(1, 2), mpq(1, 2)), (ONE, ONE))  # max(t, 1 − t)


def evaluate(curve, t):
    """u(t) by linear interpolation between the neighbouring vertices."""
    ts = [v[0] for v in curve]
    i = min(max(bisect_right(ts, t) - 1, 0), len(curve) - 2)
    (t0, u0), (t1, u1) = curve[i], curve[i + 1]
    return u0 + (u1 - u0) * (t - t0) / (t1 - t0)


def _evaluator(curve):
    ts = [v[0] for v in curve]

    def at(t):
        i = min(max(bisect_right(ts, t) - 1, 0), len(curve) - 2)
        (t0, u0), (t1, u1) = curve[i], curve[i + 1]
        return u0 + (u1 - u0) * (t - t0) / (t1 - t0)
    return at


def simplify(points):
    """Drop vertices collinear with their neighbours (exact)."""
    out = []
    for p in points:
        while len(out) >= 2:
            (t0, u0), (t1, u1) = out[-2], out[-1]
            if (u1 - u0) * (p[0] - t0) == (p[1] - u0) * (t1 - t0):
                out.pop()
            else:
                break
        out.append(p)
    return tuple(out)


def perspective_sum(terms):
    """t ↦ Σ (t·p + (1−t)·q)·u(t·p/(t·p + (1−t)·q)) for terms (curve, p, q), as a curve.

    Each term is linear in t between the images t = s·q/((1−s)·p + s·q) of the
    curve's interior vertices s (none when p = 0 or q = 0); the sum is
    evaluated exactly at the union of these points and at 0, 1.
    """
    points = {ZERO, ONE}
    for curve, p, q in terms:
        if p > 0 and q > 0:
            for s, _ in curve[1:-1]:
                points.add(s * q / ((1 - s) * p + s * q))
    evaluators = [(_evaluator(curve), p, q) for curve, p, q in terms]
    out = []
    for t in sorted(points):
        total = ZERO
        for at, p, q in evaluators:
            m = t * p + (1 - t) * q
            if m > 0:
                total += m * at(t * p / m)
        out.append((t, total))
    return simplify(out)


def _combine(f, g, pick):
    """Pointwise pick (max or min) of two curves, with the crossings added."""
    ts = sorted({v[0] for v in f} | {v[0] for v in g})
    fa, ga = _evaluator(f), _evaluator(g)
    out = []
    prev = None
    for t in ts:
        d = fa(t) - ga(t)
        if prev is not None:
            t0, d0 = prev
            if d0 * d < 0:  # a crossing inside (t0, t)
                tc = t0 + (t - t0) * d0 / (d0 - d)
                out.append((tc, fa(tc)))
        out.append((t, pick(fa(t), ga(t))))
        prev = (t, d)
    return simplify(out)


def pointwise_max(curves):
    result = curves[0]
    for c in curves[1:]:
        result = _combine(result, c, max)
    return result


def pointwise_min(curves):
    result = curves[0]
    for c in curves[1:]:
        result = _combine(result, c, min)
    return result


def lower_hull(curve):
    """Cvx(u): the lower convex hull of the vertices (monotone chain; on-or-above points dropped)."""
    out = []
    for p in curve:
        while len(out) >= 2:
            (t0, u0), (t1, u1) = out[-2], out[-1]
            # drop the middle point when it lies on or above the chord from out[-2] to p
            if (u1 - u0) * (p[0] - t0) >= (p[1] - u0) * (t1 - t0):
                out.pop()
            else:
                break
        out.append(p)
    return tuple(out)


def leq_everywhere(f, g):
    """f <= g at every prior (checking the union of vertices suffices for PL functions)."""
    fa, ga = _evaluator(f), _evaluator(g)
    ts = {v[0] for v in f} | {v[0] for v in g}
    return all(fa(t) <= ga(t) for t in ts)


def equal_everywhere(f, g):
    return leq_everywhere(f, g) and leq_everywhere(g, f)
