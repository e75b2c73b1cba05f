"""Exact values of the two budget-two relaxations.

(*Exact Compilation and Resource Laws for Hidden Integer Feedback*, Appendices B.4, B.5.)

Both are *relaxations*: the analyst gets extra power, so their values bound
the autonomous value G_2 from above; only their upper ends bound the
mechanism, their lower ends bound only the relaxation.

One-digit relaxation (the high preparation digit re-chosen after the first
output, before the next output sum):

    G_2^(1)(x,y) = max( max(x,y), max_{z∈[0,B), j=±1} Σ_y F̄_1((y−j, y); x·row_{Bz}(y−j), y·row_{Bz}(y)) )
    F̄_1((kP,kQ); x,y) = max_{t∈[0,B)} F_1((kP + Bt, kQ + Bt); x, y)        (F_1 of the game)

Offset class (public predictable offsets: any Q-residue R each step), with
a·K^Q + s = B·m + R, d = K^P − K^Q, R + a·d = B·e + R′:

    Q_R(f) = (1 − R/B)ν(f) + (R/B)ν(f+1),  P_{R,d,j}(f) = (1 − R′/B)ν(f−j+e) + (R′/B)ν(f−j+e+1)
    W(0,0) = max(x,y);  W(c,d) = max(max(x,y), max_{R, j, |j|<=c, (d,j)≠(0,0)} Σ_f W(c−|j|, −j; x·P, y·Q))

Evaluation: the inner levels are exact testing curves (producer.curves),
the top two levels are evaluated at the query point only.  All numbers are
integers: rows over D = B·S, a budget-two value over D^4.
"""

from gmpy2 import mpq, mpz

from producer.curves import TestingCurve, hull_envelope, minkowski_sum
from producer.lower.suffix import RowCache


def _stop_curve(den):
    return TestingCurve.from_vertices([(mpz(0), den), (den, mpz(0))])


def _with_stops(curve, den):
    return hull_envelope([curve, _stop_curve(den)])


def _pair_curve(pairs, den):
    """The testing curve of one experiment (pairs of numerators over den), stops included."""
    return _with_stops(TestingCurve.from_measures([p for p, _ in pairs], [q for _, q in pairs]), den)


def integer_query(x, y):
    """Integers (X, Y, M) with (x, y) = (X, Y)/M."""
    x, y = mpq(x), mpq(y)
    m = x.denominator * y.denominator
    return mpz(x * m), mpz(y * m), mpz(m)


# ----------------------------------------------------------------- one digit

class OneDigitRelaxation:
    """G_2^(1) on one finite law (integer point values over D^4)."""

    def __init__(self, law, gamma, g1_vertices=None):
        self.rows = RowCache(law, gamma)
        self.B, self.D = gamma.B, self.rows.denominator
        D2 = self.D ** 2
        if g1_vertices is None:
            from producer.game.values import root_curve
            g1_vertices = root_curve(law, gamma, 1)
        pts = [(mpz(a * D2), mpz(b * D2)) for a, b in g1_vertices]
        self.g1 = _with_stops(TestingCurve.from_vertices(pts), D2)
        self._f0 = {}

    def _outputs(self, k_p, k_q, sign):
        rows = self.rows
        return sorted(set(n + sign for n in rows.support(k_p)) | set(rows.support(k_q)))

    def f0_curve(self, k_p, k_q):
        """F_0((kP,kQ); ·) over D: stop or echo (one experiment)."""
        key = (k_p, k_q)
        curve = self._f0.get(key)
        if curve is None:
            row_p, row_q = self.rows(k_p), self.rows(k_q)
            pairs = [(row_p[y], row_q[y]) for y in self._outputs(k_p, k_q, 0)]
            curve = self._f0[key] = _pair_curve(pairs, self.D)
        return curve

    def f1(self, k_p, k_q, x, y):
        """F_1((kP,kQ); x, y) over D^3 (x, y integers)."""
        D = self.D
        row_p, row_q = self.rows(k_p), self.rows(k_q)
        best = max(x, y) * D ** 3
        echo = sum((self.g1(x * row_p[o], y * row_q[o]) for o in self._outputs(k_p, k_q, 0)), mpz(0))
        best = max(best, echo)
        for j in (1, -1):
            total = mpz(0)
            for o in self._outputs(k_p, k_q, j):
                total += self.f0_curve(o - j, o)(x * row_p[o - j], y * row_q[o])
            best = max(best, total * D)
        return best

    def f1_bar(self, k_p, k_q, x, y):
        return max(self.f1(k_p + self.B * t, k_q + self.B * t, x, y) for t in range(self.B))

    def value(self, x, y):
        """G_2^(1)(x, y) as an exact rational."""
        X, Y, M = integer_query(x, y)
        D, B = self.D, self.B
        best = max(X, Y) * D ** 4
        for z in range(B):
            row = self.rows(B * z)
            for j in (1, -1):
                outs = sorted(set(n + j for n in self.rows.support(B * z)) | set(self.rows.support(B * z)))
                total = sum((self.f1_bar(o - j, o, X * row[o - j], Y * row[o]) for o in outs), mpz(0))
                best = max(best, total)
        return mpq(best, D ** 4 * M)


# ----------------------------------------------------------------- offsets

class OffsetRelaxation:
    """W(2, 0; ·) of the offset class on one finite law (integer point values over D^4)."""

    def __init__(self, law, gamma):
        self.law, self.a, self.B = law, gamma.a, gamma.B
        self.D = mpz(gamma.B) * law.total
        self._pairs = {}
        self.w0 = {d: self._w0_curve(d) for d in (1, -1)}
        self.w10 = self._w10_curve()

    def pairs(self, R, d, j):
        """[(P_{R,d,j}(f), Q_R(f)) numerators over D] for every f where either is positive."""
        key = (R, d, j)
        out = self._pairs.get(key)
        if out is None:
            B, w = self.B, self.law.weight
            e, R2 = divmod(R + self.a * d, B)
            lo, hi = self.law.low, self.law.high
            fs = range(min(lo - 1, lo - 1 + j - e), max(hi, hi + j - e) + 1)
            out = []
            for f in fs:
                p = (B - R2) * w(f - j + e) + R2 * w(f - j + e + 1)
                q = (B - R) * w(f) + R * w(f + 1)
                if p or q:
                    out.append((p, q))
            self._pairs[key] = out
        return out

    def _w0_curve(self, d):
        """W(0, d; ·) for d ≠ 0 over D: stop, or an echo at any residue R."""
        return hull_envelope([_pair_curve(self.pairs(R, d, 0), self.D) for R in range(self.B)])

    def _w10_curve(self):
        """W(1, 0; ·) over D²: stop, or participate j = ±1 at any residue into W(0, −j)."""
        D2 = self.D ** 2
        alternatives = [_stop_curve(D2)]
        for R in range(self.B):
            for j in (1, -1):
                child = self.w0[-j]
                alternatives.append(minkowski_sum([child.scaled(p, q) for p, q in self.pairs(R, 0, j)]))
        return hull_envelope(alternatives)

    def w1(self, d, x, y):
        """W(1, d; x, y) for d ≠ 0, over D^3."""
        D = self.D
        best = max(x, y) * D ** 3
        for R in range(self.B):
            best = max(best, sum((self.w10(x * p, y * q) for p, q in self.pairs(R, d, 0)), mpz(0)))
            for j in (1, -1):
                child = self.w0[-j]
                total = sum((child(x * p, y * q) for p, q in self.pairs(R, d, j)), mpz(0))
                best = max(best, total * D)
        return best

    def value(self, x, y):
        """W(2, 0; x, y) as an exact rational."""
        X, Y, M = integer_query(x, y)
        D = self.D
        best = max(X, Y) * D ** 4
        for R in range(self.B):
            for j in (1, -1):
                total = sum((self.w1(-j, X * p, Y * q) for p, q in self.pairs(R, 0, j)), mpz(0))
                best = max(best, total)
        return mpq(best, D ** 4 * M)
