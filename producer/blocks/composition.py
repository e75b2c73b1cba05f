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
blocks' denominators.  A hockey-stick divergence needs the product's value at
one point only, so :func:`product_value` sums V_m over the products of the
other pairs' atoms instead (composing the last two curves first when that is
cheaper): the product curve, as large as the product of the blocks' curves,
is never built.
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


def product_value(curves, x, y):
    """V_{1⊗…⊗m}(x, y) of the product of the pairs of ``curves`` (integers x, y >= 0), without its curve."""
    curves = list(curves)
    while len(curves) >= 3 and _composing_is_cheaper(curves):
        curves[-2:] = [compose(curves[-2:])]
    return _value([atoms(c) for c in curves[:-1]], curves[-1], x, y)


def _composing_is_cheaper(curves):
    """Whether composing the last two curves first takes fewer steps than one more level of atoms."""
    leaves = 1
    for curve in curves[:-1]:
        leaves *= len(curve) + 1  # a curve of n vertices has at most n + 1 atoms
    second = len(curves[-2]) + 1
    return second * len(curves[-1]) + leaves // second < leaves


def _value(heads, last, x, y):
    if not heads:
        return last(x, y)
    rest = heads[1:]
    return sum((_value(rest, last, x * p, y * q) for p, q in heads[0]), mpz(0))


def product_hockey_stick(curves, unit, lam):
    """:func:`hockey_stick` of the composition of ``curves`` (``unit`` its total mass), by :func:`product_value`."""
    lam = mpq(lam)
    return mpq(product_value(curves, lam.denominator, lam.numerator), lam.denominator * unit) - lam
