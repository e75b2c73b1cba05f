"""Exact node functions of the commitment hierarchy games (docs/paper-claims.md §1).

Every node value u(t) of a hierarchy game with a finite law is convex and
piecewise linear in the prior t, and is stored here by its *testing curve*
(:class:`auditor.game.curves.Chain`): V(x, y) = (x + y)·u(x/(x + y)) = max over the
chain's points (A, B') of x·A + y·B', so u(t) = max (t·A + (1 − t)·B').  In that
dual form the game's operations are the chain algebra of the finite game:

- stop: max(t, 1 − t), the points (1, 0) and (0, 1);
- an alternative's perspective sum Σ_n u_n(t·p_n, (1 − t)·q_n): the Minkowski
  sum of the children's chains scaled by (P_n, Q_n) (rows over D);
- a pointwise maximum: the upper hull of the union (:func:`auditor.game.curves.envelope`);
- Cvx(min over groups): the convex envelope of a minimum of convex functions
  is the lower convex hull of the union of their graphs' vertices (each
  epigraph over [0, 1] is the hull of its vertices plus the upward ray, and
  the epigraph of Cvx(min f_i) is the hull of the union of the epigraphs), so
  it is built from the groups' t-domain vertices without any crossing point.

The producer works in the t-domain (perspective breakpoints, crossings of
maxima and minima); values at a prior do not depend on the representation.
"""

from gmpy2 import lcm, mpq, mpz

from auditor.game.curves import Chain, envelope
from auditor.game.sums import sum_scaled

__all__ = ["stop", "perspective_sum", "maximum", "convex_minimum", "value_at", "vertex_count",
           "same_function", "t_vertices", "lower_hull", "segment_line"]


def stop(den=1):
    """max(t, 1 − t) over ``den``."""
    return Chain.stop(den)


def perspective_sum(row, kids, curves, D):
    """The chain of Σ_n u_{kid(n)}(t·P_n/D, (1 − t)·Q_n/D) for a Row and its children per output."""
    chains = [curves[k] for k in kids]
    den = mpz(1)
    for c in {id(c): c for c in chains}.values():
        den = lcm(den, c.den)
    terms = [(c.rescaled(den), p, q) for c, p, q in zip(chains, row.P, row.Q)]
    total = sum_scaled(terms, den)
    return Chain(total.xs, total.ys, den * D)


def maximum(chains):
    """Pointwise maximum: the canonical upper hull of the union."""
    chains = list(chains)
    return chains[0] if len(chains) == 1 else envelope(chains)


def t_vertices(chain):
    """The graph vertices (t, u) of u(t) = max (t·A + (1 − t)·B')/den on [0, 1], as mpq pairs.

    Between consecutive chain points k, k + 1 the pieces meet at
    t = dB/(dA + dB) (dA = A_{k+1} − A_k > 0, dB = B'_k − B'_{k+1} > 0).
    """
    xs, ys, den = chain.xs, chain.ys, chain.den
    out = [(mpq(0), mpq(ys[0], den))]
    for k in range(len(xs) - 1):
        da, db = xs[k + 1] - xs[k], ys[k] - ys[k + 1]
        out.append((mpq(db, da + db), mpq(db * xs[k] + da * ys[k], (da + db) * den)))
    out.append((mpq(1), mpq(xs[-1], den)))
    return out


def lower_hull(points):
    """The lower convex hull of (t, u) points (mpq pairs), left to right, no collinear middle points."""
    hull = []
    for p in sorted(points):
        if hull and hull[-1][0] == p[0]:
            continue                              # same t: the smaller u came first
        while len(hull) >= 2:
            (t0, u0), (t1, u1) = hull[-2], hull[-1]
            # pop the middle point when it is on or above the chord from hull[-2] to p
            if (u1 - u0) * (p[0] - t0) >= (p[1] - u0) * (t1 - t0):
                hull.pop()
            else:
                break
        hull.append(p)
    return hull


def segment_line(p0, p1):
    """(value at t = 1, value at t = 0) of the line through two (t, u) points with t0 < t1."""
    (t0, u0), (t1, u1) = p0, p1
    slope = (u1 - u0) / (t1 - t0)
    return u0 + slope * (1 - t0), u0 - slope * t0


def convex_minimum(chains):
    """Cvx(pointwise min of the chains' functions), as a chain (lower hull of all t-vertices)."""
    chains = list(chains)
    if len(chains) == 1:
        return chains[0]
    hull = lower_hull([p for c in chains for p in t_vertices(c)])
    lines = [segment_line(p0, p1) for p0, p1 in zip(hull, hull[1:])]
    den = mpz(1)
    for a, b in lines:
        for q in (a, b):
            den = lcm(den, q.denominator)
    return Chain.from_points([(mpz(a * den), mpz(b * den)) for a, b in lines], den)


def value_at(chain, t):
    """u(t) as an mpq, for a rational t in [0, 1]."""
    t = mpq(t)
    return chain.value(t, 1 - t)


def vertex_count(chain):
    """Vertices of the t-domain graph on its minimal representation (both ends included)."""
    return len(chain.xs) + 1


def same_function(c1, c2):
    """True iff the two chains are the same function on [0, 1] (canonical chains: equal vertices)."""
    if len(c1.xs) != len(c2.xs):
        return False
    return all(a * c2.den == b * c1.den for a, b in zip(c1.xs, c2.xs)) and \
        all(a * c2.den == b * c1.den for a, b in zip(c1.ys, c2.ys))
