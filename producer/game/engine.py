"""The finite-law game G_C / F_q, made finite by R1 and R2.

(The game of *Exact Compilation and Resource Laws for Hidden Integer Feedback*, §3.1 and
Appendix A; docs/mechanism.md §4.)

Notation: pending states are (k_P, k_Q); after a participation with sign j
they are (y − j, y).  Rows are integer numerators over D = B·S, and every
curve or point value carries an integer numerator over a power of D:

    F_q   over D^(2q+1)        (echo Σ G_q·row, participation Σ F_{q−1}·row·D)
    G_c   over D^(2c)          (Σ F_{c−1}·pure row)

Finiteness and memoisation (the facts of the paper's Appendix A.2, checked by brute force in the tests):
- R1: at a synchronised root with c participations left it suffices to prepare
  k = B·z, 0 <= z < B^c.  A pure root has row ν(n + a·z), so after output
  f = y + a·z the state is y = f − a·z, and only r = a·z mod B^c matters;
  r runs over all residues because a is invertible mod B^c.
- R2: F_q((k − j, k); ·) depends on k only through k mod B^(q+1) and j.
- The echo part from (k − j, k) depends only on (k mod B, j): both rows are
  translates of mixtures fixed by a·k mod B, the translation is common, and
  G_q does not depend on the state.
- Reflection (symmetric ν): row_{−k}(−n) = row_k(n), so the root alternatives
  (r, j) and (−r, −j) have equal values; only j = +1 is needed.  Likewise
  F_q((k − j, k); ·) = F_q((j − k, −k); ·) (by induction on q: substitute
  y → −y in the echo and participation sums, the participation sign s → −s),
  so an F_q curve is built once per reflection pair (a testing curve's vertex
  chain is unique, so the shared curve is the one either would build).
- Transposition (every ν): F_q((k_P, k_Q); x, y) = F_q((k_Q, k_P); y, x).  By
  induction on q: G_0(x, y) = max(x, y) is symmetric, hence every G_q (the
  root alternatives with both signs are searched, and swapping the two runs
  maps the alternative (r, j) onto (r, −j) read transposed); an echo term
  G_q(x·row_{k_P}(y), y·row_{k_Q}(y)) is symmetric under the swap; and the
  participation with sign s from (k_Q, k_P) at (y, x) has the terms of the
  participation with sign −s from (k_P, k_Q) at (x, y), relabelled y → y − s.
  So the curve of (k, k − j) = ((k − j) − (−j), k − j) is the transpose of
  that of (k − j, k) (:meth:`producer.curves.TestingCurve.transposed`: the
  vertices (B_i, A_i) in reverse order), and each transposed pair of F_q
  keys is built once.

Curves are built for the lower levels; the top two levels (G at the root and
F below it) are evaluated only at the requested point.  For budgets C >= 3
the levels above G_{C−2} are evaluated at points with float screening
(producer/game/points.py), and F_q curves (q >= 1) are built by the float-
pruned exact envelope (producer/game/pruning.py).  The root alternatives come
from the game's root cover (producer/game/roots.py).
"""

from gmpy2 import mpz

from producer.curves import TestingCurve, hull_envelope, minkowski_sum
from producer.game import screening
from producer.game.roots import SIGNS, AllRoots, SupportReduction
from producer.rows import mixture_numerators

FEW_ALTERNATIVES = 12  # below this, G_q point values use max over alternatives, not their hull
FOLD_VERTICES = 1 << 20  # a G curve's alternatives are folded into their hull beyond this many vertices held


class FiniteGame:
    """Exact values of one finite-law game (law ν, γ = a/B)."""

    __slots__ = ("law", "gamma", "a", "B", "D", "symmetric", "_mix", "_g", "_f", "_echo", "stats",
                 "_entries", "_ftab", "_echo_values", "_roots", "cover", "_alternatives", "floats")

    TRANSPOSE = True  # share F_q curves between transposed keys (tests switch it off to compare)

    def __init__(self, law, gamma, cover=None, reduced=False):
        """``cover``: the root cover (producer/game/roots.py) used at every level;
        by default all pure roots, or the support reduction with ``reduced``."""
        self.law = law.trimmed()
        self.gamma = gamma
        self.a, self.B = gamma.a, gamma.B
        self.D = mpz(gamma.B) * self.law.total
        self.symmetric = self.law.is_symmetric()
        if cover is None:
            cover = SupportReduction() if reduced else AllRoots()
        self.cover = cover
        self._mix = {}
        self._g = {0: TestingCurve.from_vertices([(mpz(1), mpz(0)), (mpz(0), mpz(1))])}
        self._f = {}
        self._echo = {}
        self._entries = {}
        self._ftab = {}
        self._echo_values = {}
        self._roots = {}
        self._alternatives = {}
        self.floats = None  # producer.game.points.GameFloats, made when floats are first needed
        self.stats = {"f_curves": 0, "echo_curves": 0, "g_curves": 0}

    # -- rows ---------------------------------------------------------------

    def row(self, k):
        """(start, numerators) of row_k over D: entry i is row_k(start + i)."""
        m, rho = divmod(self.a * k, self.B)
        mix = self._mix.get(rho)
        if mix is None:
            mix = self._mix[rho] = mixture_numerators(self.law, self.B, rho)
        return self.law.low - 1 - m, mix

    def pure_weights(self):
        """(low, numerators) of the pure row ν over D: B·w_z for z = low..high."""
        return self.law.low, tuple(self.B * w for w in self.law.weights)

    def row_pair(self, k_p, k_q, j):
        """Outputs y with the joint numerators (row_{k_P}(y − j), row_{k_Q}(y)).

        Yields (y, p, q) for every y where p or q is nonzero (j = 0: echo).
        """
        sp, vp = self.row(k_p)
        sq, vq = self.row(k_q)
        lo = min(sp + j, sq)
        hi = max(sp + j + len(vp), sq + len(vq))
        for y in range(lo, hi):
            ip, iq = y - j - sp, y - sq
            p = vp[ip] if 0 <= ip < len(vp) else 0
            q = vq[iq] if 0 <= iq < len(vq) else 0
            if p or q:
                yield y, p, q

    def root_pairs(self, r, j):
        """Outputs f of a pure root with residue r: (state y = f − r, ν(f − j), ν(f)) over D."""
        low, ws = self.pure_weights()
        n = len(ws)
        for f in range(low + min(j, 0), low + n + max(j, 0)):
            ip, iq = f - j - low, f - low
            p = ws[ip] if 0 <= ip < n else 0
            q = ws[iq] if 0 <= iq < n else 0
            if p or q:
                yield f - r, p, q

    def root_alternatives(self, c):
        """The (r, j) root choices with c participations left: the cover's, memoised.

        The covers are valid for every (x, y) at once, so they give whole G_c
        curves as well as point values.
        """
        alternatives = self._alternatives.get(c)
        if alternatives is None:
            alternatives = self._alternatives[c] = self.cover.alternatives(self.law, self.gamma, c)
        return alternatives

    # -- curves -------------------------------------------------------------

    def g_curve(self, q):
        """G_q as a curve over D^(2q)."""
        curve = self._g.get(q)
        if curve is None:
            alternatives = self._g.pop(("alternatives", q), None)  # the hull replaces them: free their memory
            if alternatives is not None:
                curve = hull_envelope(alternatives)
            else:
                # the hull of a union is the hull of the running hull and the rest (a point off the running
                # hull is never a vertex of the union's): beyond FOLD_VERTICES held, the curves are folded into
                # one, so memory stays bounded (at C = 5, L = 14 all alternatives at once passed 13 GB)
                held, size = [], 0
                for r, j in self.root_alternatives(q):
                    held.append(self.root_curve(q, r, j))
                    size += len(held[-1])
                    if size > FOLD_VERTICES and len(held) > 1:
                        held = [hull_envelope(held)]
                        size = len(held[0])
                curve = hull_envelope(held) if len(held) > 1 else held[0]
            self._g[q] = curve
            self.stats["g_curves"] += 1
        return curve

    def g_alternatives(self, q):
        """The curves of the root alternatives whose maximum is G_q (memoised)."""
        key = ("alternatives", q)
        alternatives = self._g.get(key)
        if alternatives is None:
            alternatives = self._g[key] = [self.root_curve(q, r, j) for r, j in self.root_alternatives(q)]
        return alternatives

    def g_evaluator(self, q):
        """A callable (X, Y) -> G_q(X, Y)·D^(2q) for point queries.

        With few root alternatives the maximum of their curves is evaluated
        directly, which avoids building the (large) hull of their union.
        """
        if q in self._g or len(self.root_alternatives(q)) > FEW_ALTERNATIVES:
            return self.g_curve(q)
        alternatives = self.g_alternatives(q)
        return lambda X, Y: max(c(X, Y) for c in alternatives)

    def f_curve(self, q, k, j):
        """F_q((k − j, k); ·) as a curve over D^(2q+1) (memoised by R2)."""
        period = self.B ** (q + 1)
        key = (q, k % period, j)
        curve = self._f.get(key)
        if curve is None and self.symmetric:
            curve = self._f.get((q, -k % period, -j))  # reflection (module docstring)
            if curve is not None:
                self._f[key] = curve
        if curve is None and self.TRANSPOSE:
            curve = self._transposed_twin(q, k, j, period)
            if curve is not None:
                self._f[key] = curve
        if curve is None:
            k = key[1]
            if q == 0:
                curve = self.echo_curve(q, k - j, k)
            else:
                parts = [self.participation_curve(q, k - j, k, s).times(self.D) for s in SIGNS]
                curve = self._pruned_f_curve(q, k, j, parts)
                if curve is None:
                    curve = hull_envelope([self.echo_curve(q, k - j, k)] + parts)
            self._f[key] = curve
            self.stats["f_curves"] += 1
        return curve

    def _transposed_twin(self, q, k, j, period):
        """F_q((k − j, k)) as the transpose of the built curve of (k, k − j), or None (module docstring)."""
        twins = [(q, (k - j) % period, -j)]
        if self.symmetric:
            twins.append((q, (j - k) % period, j))
        for twin in twins:
            curve = self._f.get(twin)
            if curve is not None:
                return curve.transposed()
        return None

    def _pruned_f_curve(self, q, k, j, participations):
        """F_q by the float-pruned envelope (producer/game/pruning.py), or None."""
        from producer.game.pruning import pruned_f_curve
        if self.floats is None:
            from producer.game.points import GameFloats
            self.floats = GameFloats(self)
        return pruned_f_curve(self, q, k, j, participations)

    def echo_curve(self, q, k_p, k_q):
        """Σ_y G_q(x·row_{k_P}(y), y·row_{k_Q}(y)) over D^(2q+1); cached for k_Q − k_P = ±1."""
        d = k_q - k_p
        key = (q, k_q % self.B, d) if d in SIGNS else None
        curve = self._echo.get(key) if key else None
        if curve is None:
            if q == 0:
                pairs = [(p, qq) for _y, p, qq in self.row_pair(k_p, k_q, 0)]
                curve = TestingCurve.from_measures([p for p, _ in pairs], [qq for _, qq in pairs])
            else:
                g = self.g_curve(q)
                curve = minkowski_sum([g.scaled(p, qq) for _y, p, qq in self.row_pair(k_p, k_q, 0)])
            if key:
                self._echo[key] = curve
                self.stats["echo_curves"] += 1
        return curve

    def participation_curve(self, q, k_p, k_q, s):
        """Σ_y F_{q−1}((y − s, y); x·row_{k_P}(y − s), y·row_{k_Q}(y)) over D^(2q)."""
        return minkowski_sum([self.f_curve(q - 1, y, s).scaled(p, qq)
                              for y, p, qq in self.row_pair(k_p, k_q, s)])

    def root_curve(self, c, r, j):
        """Σ_f F_{c−1}((f − r − j, f − r); x·ν(f − j), y·ν(f)) over D^(2c): one root alternative."""
        return minkowski_sum([self.f_curve(c - 1, y, j).scaled(p, qq)
                              for y, p, qq in self.root_pairs(r, j)])

    # -- point values -------------------------------------------------------
    # X, Y are integers; each returns (numerator, witness) with the
    # denominators stated above.  Ties keep the first action in the order
    # stop, echo, participate +1, participate −1 (roots: r ascending).

    def g_value(self, c, X, Y, alternatives=None):
        """G_c(X, Y)·D^(2c) and the optimising root action.

        ``alternatives`` restricts the (r, j) root choices (a proved reduction).
        """
        den = self.D ** (2 * c)
        best, witness = max(X, Y) * den, ("stop",)
        if c == 0 or X == 0 or Y == 0:
            return (X + Y) * den if (X == 0 or Y == 0) else best, witness
        if alternatives is None and c >= 3 and self.points_apply(c):
            from producer.game.points import PointLevels
            return PointLevels(self, c).root_value(X, Y)
        f_value = self.f_value
        if alternatives is None:
            alternatives = self.root_alternatives(c)
        if c == 2:
            # float screening discards alternatives that provably cannot attain the maximum
            alternatives = screening.candidates(self, X, Y, alternatives)
        for r, j in alternatives:
            total = mpz(0)
            for f, p, q in self.root_entries(j):
                total += f_value(c - 1, f - r - j, f - r, X * p, Y * q)[0]
            if total > best:
                best, witness = total, ("participate", r, j)
        return best, witness

    def points_apply(self, c):
        """Whether the screened point levels (producer/game/points.py) can evaluate G_c.

        They index residues in int64 and tabulate rows for every ρ mod B.
        """
        return self.B ** (c + 1) < 2 ** 60 and self.B <= 2 ** 16

    def root_entries(self, j):
        """The tuple of (f, ν(f − j), ν(f)) numerators over D, nonzero pairs only."""
        entries = self._roots.get(j)
        if entries is None:
            entries = self._roots[j] = tuple((y, p, q) for y, p, q in self.root_pairs(0, j))
        return entries

    def pair_entries(self, k_p, k_q, s):
        """(start, entries) with entries (y − start, row_{k_P}(y − s), row_{k_Q}(y)), nonzero pairs.

        Cached by (a·k_Q mod B, k_Q − k_P, s): a·k_P = a·k_Q − a·d, so both rows
        are fixed up to the common translation start = low − 1 − ⌊a·k_Q/B⌋.
        """
        m_q, rho_q = divmod(self.a * k_q, self.B)
        start = self.law.low - 1 - m_q
        key = (rho_q, k_q - k_p, s)
        entries = self._entries.get(key)
        if entries is None:
            entries = self._entries[key] = tuple((y - start, p, q) for y, p, q in self.row_pair(k_p, k_q, s))
        return start, entries

    def f_table(self, q, s):
        """F_q curves for sign s indexed by k mod B^(q+1) (filled on demand)."""
        table = self._ftab.get((q, s))
        if table is None:
            table = self._ftab[(q, s)] = [None] * self.B ** (q + 1)
        return table

    def f_value(self, q, k_p, k_q, X, Y, g_curve=True):
        """F_q((k_P, k_Q); X, Y)·D^(2q+1) and the optimising action."""
        den = self.D ** (2 * q + 1)
        if X == 0 or Y == 0:
            return (X + Y) * den, ("stop",)
        best, witness = max(X, Y) * den, ("stop",)
        echo = self.echo_value(q, k_p, k_q, X, Y, g_curve)
        if echo > best:
            best, witness = echo, ("echo",)
        if q >= 1:
            for s in SIGNS:
                total = self.participation_value(q, k_p, k_q, s, X, Y) * self.D
                if total > best:
                    best, witness = total, ("participate", s)
        return best, witness

    def participation_value(self, q, k_p, k_q, s, X, Y):
        """Σ_y F_{q−1}((y − s, y); X·row_{k_P}(y − s), Y·row_{k_Q}(y)) over D^(2q)."""
        start, entries = self.pair_entries(k_p, k_q, s)
        table = self.f_table(q - 1, s)
        mod = len(table)
        total = mpz(0)
        for off, p, qq in entries:
            i = (start + off) % mod
            curve = table[i]
            if curve is None:
                curve = table[i] = self.f_curve(q - 1, start + off, s)
            total += curve(X * p, Y * qq)
        return total

    def echo_value(self, q, k_p, k_q, X, Y, g_curve=True):
        """Σ_y G_q(X·row_{k_P}(y), Y·row_{k_Q}(y)) over D^(2q+1).

        With ``g_curve`` false, G_q is evaluated at each point instead of being
        built as a curve (used for a pending query at the top level).  Values
        are cached by (q, a·k_Q mod B, k_Q − k_P, X, Y): the rows are fixed up
        to a translation and G_q does not depend on the state.
        """
        _start, entries = self.pair_entries(k_p, k_q, 0)
        if q == 0:
            return sum((max(X * p, Y * qq) for _o, p, qq in entries), mpz(0))
        key = (q, (self.a * k_q) % self.B, k_q - k_p, X, Y, g_curve)
        value = self._echo_values.get(key)
        if value is None:
            if g_curve:
                g = self.g_evaluator(q)
                value = sum((g(X * p, Y * qq) for _o, p, qq in entries), mpz(0))
            else:
                value = sum((self.g_value(q, X * p, Y * qq)[0] for _o, p, qq in entries), mpz(0))
            self._echo_values[key] = value
        return value

    def pending_curve(self, q, k_p, k_q):
        """F_q((k_P, k_Q); ·) as a curve over D^(2q+1), for any pair of states."""
        if k_q - k_p in SIGNS:
            return self.f_curve(q, k_q, k_q - k_p)
        parts = [self.echo_curve(q, k_p, k_q)]
        if q >= 1:
            parts += [self.participation_curve(q, k_p, k_q, s).times(self.D) for s in SIGNS]
        return hull_envelope(parts)
