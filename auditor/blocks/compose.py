"""Block curves and the adaptive composition of their pairs (docs/paper-claims.md §2, §2.3).

A block of k releases that starts a split is bounded by W_k(0, 0); a later
block by the upper envelope of W_k over every start class (r + d, r) — one
pair dominating every state the block can start in ([trusted base] §11: a
chain is the testing value of the pair read off its atoms).

The atoms of a chain from (A_0, B_0) to (A_r, B_r) are (A_0, 0) if A_0 > 0,
the edges (A_{s+1} − A_s, B_s − B_{s+1}), and (0, B_r) if B_r > 0: the pair
Σ_o max(x·p_o, y·q_o) = V(x, y).  The product pair of blocks 1..m has the
testing value

    V_{1⊗…⊗m}(x, y) = Σ_{atoms (p, q) of D_1} V_{2⊗…⊗m}(x·p, y·q),

evaluated here by that recursion over the atoms of all but the last block
(one binary search per product of atoms), or — when that is cheaper — with
the last two blocks first composed once as a Minkowski sum of scaled chains.
"""

from gmpy2 import mpq

from auditor.game.curves import envelope, Chain
from auditor.game.sums import sum_scaled

__all__ = ["block_curve", "atoms", "product_value"]


def block_curve(game, k, start):
    """D for a block of k releases: ``"zero"`` W_k(0, 0), ``"any"`` the envelope over the 3·B^k classes."""
    if start == "zero":
        return game.curve(k, 0, 0)
    return envelope([game.curve(k, kP, kQ) for kP, kQ in game.start_classes(k)])


def atoms(chain):
    """The atoms (p, q) of the pair of a chain, as integers over chain.den."""
    xs, ys = chain.xs, chain.ys
    out = [(xs[0], 0)] if xs[0] > 0 else []
    out += [(x1 - x0, y0 - y1) for x0, x1, y0, y1 in zip(xs, xs[1:], ys, ys[1:])]
    if ys[-1] > 0:
        out.append((0, ys[-1]))
    return out


def _composed(first, second):
    """The chain of the product pair of two chains (over first.den·second.den)."""
    total = sum_scaled([(second, p, q) for p, q in atoms(first)], second.den)
    return Chain(total.xs, total.ys, first.den * second.den)


def product_value(curves, x, y):
    """V_{1⊗…⊗m}(x, y) for the chains ``curves`` (exact mpq; x, y >= 0 rationals)."""
    if len(curves) == 1:
        return curves[0].value(x, y)
    heads, last = list(curves[:-1]), curves[-1]
    searches = 1
    for c in heads:
        searches *= len(c) + 1
    if len(heads) >= 2 and (len(heads[-1]) + 1) * len(last) + searches // (len(heads[-1]) + 1) < searches:
        heads, last = heads[:-1], _composed(heads[-1], last)
    return _value(heads, last, mpq(x), mpq(y))


def _value(heads, last, x, y):
    if not heads:
        return last.value(x, y)
    first, rest = heads[0], heads[1:]
    den = first.den
    return sum((_value(rest, last, x * mpq(p, den), y * mpq(q, den)) for p, q in atoms(first)), mpq(0))
