"""Values of the two relaxations of the budget-two game (*Hidden Integer Feedback* §3.3, §4.1, App. B.4–B.5), exactly.

**Offset class** (7.2).  K_t = η_t − floor((a·K_{t−1} + U_t + s_t)/B) with a
public predictable offset s_t.  Writing a·K^Q + s = B·m + R (0 <= R < B),
d = K^P − K^Q, R + a·d = B·e + R′ and f = Y − x^Q + m, counting U gives

    Q_R(f)       = Σ_h count(R, h)·w_{f+h} / D,
    P_{R,d,j}(f) = Σ_h count(R′, h)·w_{f−j+e+h} / D,     new difference −j

(in world Q, K^Q_new + m = η − floor((R + U)/B); in world P,
K^P_new + m = η − e − floor((R′ + U)/B) and Y = x^P + K^P_new).  The value

    W(0, 0) = max(x, y),
    W(c, d) = max(max(x, y), max_{R ∈ [0,B), j ∈ {0,±1}, |j| <= c, (d,j) ≠ (0,0)}
                  Σ_f W(c − |j|, −j; x·P_{R,d,j}(f), y·Q_R(f)))

is evaluated with every residue R ∈ [0, B) (no residue reduction is
assumed).  Levels with c <= 1 except W(1, ±1) are testing curves
(:mod:`auditor.game.curves`); W(1, ±1) and W(2, 0) are evaluated at points.

**One-digit relaxation** (7.3).

    G_2^(1)(x, y) = max(max(x, y), max_{z ∈ [0,B), j = ±1} Σ_y F̄_1((y−j, y); x·row_{Bz}(y−j), y·row_{Bz}(y))),
    F̄_1((kP, kQ); x, y) = max_{t ∈ [0,B)} F_1((kP + Bt, kQ + Bt); x, y),

with F_1 by :class:`BudgetOne` (its own F_0 / G_1 curves).  G_2 itself
(the autonomous value) comes from the auditor's game evaluator (:mod:`auditor.game`).
"""

from bisect import bisect_left
from fractions import Fraction

from gmpy2 import mpq

from auditor.game import values
from auditor.game.curves import Chain, envelope
from auditor.game.sums import sum_scaled
from auditor.game.rows import Law, count


class OffsetClass:
    """W(c, d; x, y) of the offset class for a finite law and γ = a/B (c <= 2)."""

    def __init__(self, weights, offset, a, B):
        self.w = list(weights)
        self.offset = offset
        self.a, self.B = a, B
        self.D = B * sum(self.w)
        self._curves = {}
        self._steps = {}

    def _nu(self, z):
        i = z - self.offset
        return self.w[i] if 0 <= i < len(self.w) else 0

    def step(self, R, d, j):
        """[(P numerator, Q numerator)] over f for residue R, difference d, sign j (over D)."""
        key = (R, d, j)
        out = self._steps.get(key)
        if out is None:
            e, R2 = divmod(R + self.a * d, self.B)
            lo = self.offset - 2 - abs(j) - abs(e)
            hi = self.offset + len(self.w) + 2 + abs(j) + abs(e)
            out = []
            for f in range(lo, hi + 1):
                q = sum(count(R, h, self.B) * self._nu(f + h) for h in (0, 1))
                p = sum(count(R2, h, self.B) * self._nu(f - j + e + h) for h in (0, 1))
                if p or q:
                    out.append((p, q))
            self._steps[key] = out
        return out

    def moves(self, c, d):
        """(R, j) allowed at (c, d)."""
        return [(R, j) for R in range(self.B) for j in (0, 1, -1)
                if abs(j) <= c and (d, j) != (0, 0)]

    def curve(self, c, d):
        """Testing curve of W(c, d) for (c, d) in {(0, 0), (0, ±1), (1, 0)}."""
        key = (c, d)
        chain = self._curves.get(key)
        if chain is None:
            if (c, d) == (0, 0):
                chain = Chain.stop()
            else:
                options = [Chain.stop()]
                for R, j in self.moves(c, d):
                    child = self.curve(c - abs(j), -j)
                    s = sum_scaled([(child, p, q) for p, q in self.step(R, d, j)], child.den)
                    options.append(Chain(s.xs, s.ys, s.den * self.D))
                chain = envelope(options)
            self._curves[key] = chain
        return chain

    def items(self, R, d, j):
        """The step's outputs split for :func:`sum_at`: (p, q, p/q) with p, q > 0, and the rest."""
        key = ("items", R, d, j)
        out = self._steps.get(key)
        if out is None:
            both, only_p, only_q = [], 0, 0
            for p, q in self.step(R, d, j):
                if p and q:
                    both.append((p, q, mpq(p, q)))
                else:
                    only_p += p
                    only_q += q
            out = self._steps[key] = (both, only_p, only_q)
        return out

    def value(self, c, d, x, y):
        """W(c, d; x, y) as an mpq; curves where built, else one level of direct recursion."""
        x, y = mpq(x), mpq(y)
        if x == 0 or y == 0:
            return x + y
        if (c, d) in ((0, 0), (0, 1), (0, -1), (1, 0)):
            return self.curve(c, d).value(x, y)
        best = max(x, y)
        for R, j in self.moves(c, d):
            cc, dd = c - abs(j), -j
            if (cc, dd) in ((0, 0), (0, 1), (0, -1), (1, 0)):
                total = sum_at(self.curve(cc, dd), self.items(R, d, j), x, y, self.D)
            else:
                total = mpq(0)
                for p, q in self.step(R, d, j):
                    total += self.value(cc, dd, x * p / self.D, y * q / self.D)
            best = max(best, total)
        return best


def sum_at(chain, items, x, y, D):
    """Σ_o V(x·p_o/D, y·q_o/D) for one chain V: one bisection per output with both masses positive.

    V(x′, y′) = (x′·A_i + y′·B′_i)/den at the vertex i = number of edges with
    dB/dA < x′/y′ (x′/y′ = (x/y)·(p/q)); outputs with a zero mass add
    x′·A_last or y′·B′_first.
    """
    both, only_p, only_q = items
    keys, xs, ys = chain.keys(), chain.xs, chain.ys
    ratio = x / y
    sa = only_p * xs[-1]
    sb = only_q * ys[0]
    for p, q, r in both:
        i = bisect_left(keys, ratio * r)
        sa += p * xs[i]
        sb += q * ys[i]
    return (x * sa + y * sb) / (chain.den * D)


def offset_value(weights, offset, a, B, x, y):
    """W(2, 0; x, y) as a Fraction."""
    v = OffsetClass(weights, offset, a, B).value(2, 0, x, y)
    return Fraction(int(v.numerator), int(v.denominator))


class BudgetOne:
    """F_0 and G_1 testing curves and F_1 point values of the finite-law game (*Hidden Integer Feedback* §3.1).

    F_0((kP, kQ)) = max(stop, the testing curve of the pair (row_kP, row_kQ));
    G_1 = envelope(stop, over k = B·z, z ∈ [0, B) (R1), j = ±1, of
    Σ_y F_0((y−j, y)) scaled by (row_k(y−j), row_k(y))); F_1 at a point is one
    level of direct recursion over echo (G_1) and both participations (F_0).
    F_0 curves are shared between translated pairs: (kP + B·u, kQ + B·u) has
    the rows of (kP, kQ) translated by a·u, hence the same curve.
    """

    def __init__(self, weights, offset, a, B):
        self.law = Law(weights, offset, a, B)
        self.B = B
        self.D = self.law.D
        self._f0 = {}
        self._g1 = None

    def f0_curve(self, kP, kQ):
        u = kQ // self.B
        key = (kP - self.B * u, kQ - self.B * u)
        chain = self._f0.get(key)
        if chain is None:
            test = Chain.from_measures(self.law.row(key[0]), self.law.row(key[1]))
            chain = self._f0[key] = envelope([Chain.stop(), Chain(test.xs, test.ys, test.den * self.D)])
        return chain

    def g1_curve(self):
        if self._g1 is None:
            options = [Chain.stop()]
            for z in range(self.B):
                row = self.law.row(self.B * z)
                for j in (1, -1):
                    terms = []
                    for y in sorted(set(n + j for n in row) | set(row)):
                        terms.append((self.f0_curve(y - j, y), row.get(y - j, 0), row.get(y, 0)))
                    den = terms[0][0].den
                    s = sum_scaled([(c.rescaled(den) if c.den != den else c, p, q) for c, p, q in terms], den)
                    options.append(Chain(s.xs, s.ys, s.den * self.D))
            self._g1 = envelope(options)
        return self._g1

    def f1_value(self, kP, kQ, x, y):
        """F_1((kP, kQ); x, y) as an mpq."""
        if x == 0 or y == 0:
            return x + y
        rowP, rowQ = self.law.row(kP), self.law.row(kQ)
        D = self.D
        g1 = self.g1_curve()
        echo = mpq(0)
        for o in set(rowP) | set(rowQ):
            echo += g1.value(x * rowP.get(o, 0) / D, y * rowQ.get(o, 0) / D)
        best = max(x, y, echo)
        for j in (1, -1):
            total = mpq(0)
            for o in set(n + j for n in rowP) | set(rowQ):
                total += self.f0_curve(o - j, o).value(x * rowP.get(o - j, 0) / D, y * rowQ.get(o, 0) / D)
            best = max(best, total)
        return best


def one_digit_value(weights, offset, a, B, x, y):
    """G_2^(1)(x, y) as a Fraction."""
    x, y = mpq(x), mpq(y)
    game1 = BudgetOne(weights, offset, a, B)
    law, D = game1.law, game1.D
    best = max(x, y)
    for z in range(B):
        row = law.row(B * z)
        for j in (1, -1):
            total = mpq(0)
            for yv in sorted(set(n + j for n in row) | set(row)):
                px, qy = x * row.get(yv - j, 0) / D, y * row.get(yv, 0) / D
                if px == 0 or qy == 0:
                    total += px + qy
                    continue
                total += max(game1.f1_value(yv - j + B * t, yv + B * t, px, qy) for t in range(B))
            best = max(best, total)
    return Fraction(int(best.numerator), int(best.denominator))


def autonomous_value(weights, offset, a, B, x, y):
    """G_2(x, y) by the auditor's game evaluator."""
    return Fraction(values.root_value(Law(weights, offset, a, B), 2, x, y))
