"""Adaptive composition of dominating pairs, on testing curves.

A testing curve V (a convex, positively homogeneous function with V(x, 0) = x·P̃
and V(0, y) = y·Q̃) is the testing value of the pair of measures read off its
chain: an atom (A_0, 0) when A_0 > 0, one atom (ΔA, −ΔB) per edge, and (0, B_m)
when B_m > 0.  A pair dominates a block of releases when its testing value is
at least the block's at every (x, y) for every start state and strategy, i.e.
its hockey-stick divergence H_α is at least the block's for every α >= 0.

If (P̃_i, Q̃_i) dominates block i conditionally on every history, the product
pair dominates the adaptive composition (Zhu, Dong and Wang, *Optimal
accounting of differential privacy via characteristic function*, 2022, the
adaptive composition of dominating pairs; equivalently the tensor product of
trade-off functions of Dong, Roth and Su, *Gaussian differential privacy*).
The product's testing value is a perspective sum over the first pair's atoms:

    V_{1⊗2}(x, y) = Σ_a V_2(x·p_a, y·q_a),

so the composition of curves C_1, …, C_m is computed from the right by
Minkowski sums of scaled copies: integer coordinates over the product of the
blocks' denominators.
"""

from gmpy2 import mpq, mpz

from producer.curves import minkowski_sum


def atoms(curve):
    """The (p, q) masses of the pair whose testing value is ``curve``."""
    out = []
    if curve.A[0]:
        out.append((curve.A[0], mpz(0)))
    out.extend((da, -db) for _, da, db in curve.edges())
    if curve.B[-1]:
        out.append((mpz(0), curve.B[-1]))
    return out


def compose(curves):
    """The testing curve of the product of the pairs of ``curves`` (in order)."""
    out = curves[-1]
    for curve in reversed(curves[:-1]):
        out = minkowski_sum([out.scaled(p, q) for p, q in atoms(curve)])
    return out


def hockey_stick(curve, unit, lam):
    """V(1, λ)/unit − λ: the hockey-stick divergence H_λ of the curve's pair (unit = its total mass)."""
    lam = mpq(lam)
    return mpq(curve(mpq(1), lam)) / unit - lam
