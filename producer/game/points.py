"""Screened point evaluation of the top levels of G_C (budget C >= 3), exact values.

Structure (*Exact Compilation and Resource Laws for Hidden Integer Feedback*,
§4.2, Appendices F.2–F.4).  Curves are built only for
the lower levels: G_q for q <= qg = C − 2 and F_q for q <= qf = max(1, C − 3)
(F_1 curves by the pruned envelope of producer/game/pruning.py).  The levels
above — F_q for qf < q < C, G_c for qg < c <= C — are evaluated only at the
points a query reaches.

Screening.  Every maximum above the curve levels (the root alternatives
(r, j) of each G_c, the options stop / echo / participate ± of each F_q) is
first valued in float64, vectorised over all alternatives and everything
below them, as excesses over the common baseline y with error scales
(producer/game/floats.py, excess); only the alternatives within the proved
tolerance of the best float excess (all exact maximisers survive, ties
included) are then evaluated exactly, and the exact maximum over them, with the same
tie rule as the plain engine (the first maximiser in the order stop, echo,
+1, −1; roots in the order of ``root_alternatives``), is the value.  Floats
of an F level whose echo G_q is a curve use float Minkowski sums of the
curves below (echo curves per (ρ, d), participation curves per residue),
never built exactly.  When the floats could leave their proved range every
alternative is evaluated exactly.

Caches: complete echoes are cached by (q, a·k_Q mod B, d, X, Y) (the
regeneration lemma) for one query and dropped when it returns; float
curves live with the game like its exact curves.
"""

import math

from gmpy2 import mpz

from producer.game import floats
from producer.game.roots import SIGNS

CHUNK = 1 << 20  # vectorised elements per block (bounds memory)
FEW_CURVES = 64  # up to this many distinct curves in one call, evaluate them group by group
SMALL_KEYS = 1 << 16  # curve keys below this are counted, not sorted (bank_values)
MAX_BANKS = 8  # banks of one (kind, q) before they are joined into one (bank_values looks in each)


class GameFloats:
    """Float copies of one game's rows and curves, built on demand."""

    def __init__(self, game):
        np = floats.numpy()
        self.np = np
        self.game = game
        self.D = int(game.D)
        self._g = {}
        self._f = {}          # (q, residue, j) -> FloatCurve
        self._banks = {}      # (kind, q) -> [(sorted keys array, FloatBank of their curves), ...]
        self._echo = {}       # (q, rho, j) -> float echo curve
        self._part = {}       # (q, residue, j, s) -> float participation curve
        self._rows = {}
        # R and K of the margin (floats.py): the largest output sum (at most
        # len(weights) + 2 terms) and the largest error units of an evaluated curve
        self.largest = max(64, len(game.law.weights) + 2)
        self.widest = 1
        low, ws = game.pure_weights()
        self._roots = {}
        for j in SIGNS:
            entries = game.root_entries(j)
            self._roots[j] = (np.array([f for f, _p, _q in entries], dtype=np.int64),
                              floats.exact_ratio_floats([p for _f, p, _q in entries], self.D),
                              floats.exact_ratio_floats([q for _f, _p, q in entries], self.D))
        # every nonzero row numerator (B − ρ)·w_z + ρ·w_{z+1} or B·w_z is at least the least positive weight
        self.p_min = min(floats.ratio(min(w for w in game.law.weights if w), self.D), 1.0)
        self.c_min = 1.0  # the smallest positive coordinate or increment of a float curve so far
        self._ratios = {}  # id(entries) -> (entries, [fl(p/qq), None where p or qq is 0])

    def entry_ratios(self, entries):
        """fl(p/qq) for each (off, p, qq) of a row pair's entries (None where p or qq is 0), cached.

        The entries are the game's cached tuples (``pair_entries``, ``root_entries``),
        which live as long as the game: the cache holds them, so an id is never reused.
        """
        hit = self._ratios.get(id(entries))
        if hit is not None and hit[0] is entries:
            return hit[1]
        ratios = [_ratio(p, qq) if p and qq else None for _o, p, qq in entries]
        self._ratios[id(entries)] = (entries, ratios)
        return ratios

    def margin_for(self, terms):
        """The margin of a one-level comparison of float curves of ``terms`` error units (pruning)."""
        return floats.margin(0, terms, terms)

    def margin(self, budget):
        return floats.margin(budget, self.largest, self.widest)

    # -- curves -------------------------------------------------------------

    def g(self, q):
        curve = self._g.get(q)
        if curve is None:
            curve = self._g[q] = floats.FloatCurve.from_exact(self.game.g_curve(q), self.game.D ** (2 * q))
            self._note(curve)
        return curve

    def _note(self, curve):
        self.c_min = min(self.c_min, curve.smallest())

    def safe(self, budget, x, y):
        """Every float product below a node with inputs (x, y) stays normal (floats.py, underflow).

        Such a product is an input, at most 2C + 2 row probabilities (each >= p_min)
        and one curve coordinate or increment (>= c_min).
        """
        smallest = min([v for v in (x, y) if v > 0] + [1.0])
        return (math.log2(smallest) + (2 * budget + 2) * math.log2(self.p_min) + math.log2(self.c_min)
                > -1000.0)

    def f(self, q, residue, j):
        key = (q, residue, j)
        curve = self._f.get(key)
        if curve is None and self.game.symmetric:
            # the reflected curve is the same exact curve (producer/game/engine.py): share its copy
            curve = self._f.get((q, -residue % self.game.B ** (q + 1), -j))
            if curve is not None:
                self._f[key] = curve
        if curve is None:
            exact = self.game.f_curve(q, residue, j)
            curve = self._f[key] = floats.FloatCurve.from_exact(exact, self.game.D ** (2 * q + 1))
            self._note(curve)
        return curve

    def echo_curve(self, q, k, j):
        """Float Σ_y G_q(x·p_y, y·q_y) for the echo rows of (k − j, k), cached by (q, ρ, j)."""
        g = self.game
        rho = (g.a * k) % g.B
        key = (q, rho, j)
        curve = self._echo.get(key)
        if curve is None:
            gq = self.g(q)
            _start, entries = g.pair_entries(k - j, k, 0)
            D = self.D
            curve = floats.minkowski([(gq, floats.ratio(p, D), floats.ratio(qq, D)) for _o, p, qq in entries])
            self._echo[key] = curve
            self._note(curve)
        return curve

    def participation_curve(self, q, residue, j, s):
        """Float Σ_y F_{q−1}((y − s, y); x·row_{k−j}(y − s), y·row_k(y)), k = residue."""
        key = (q, residue, j, s)
        curve = self._part.get(key)
        if curve is None:
            g = self.game
            start, entries = g.pair_entries(residue - j, residue, s)
            period = g.B ** q
            D = self.D
            # only the point levels evaluate it, by its excess: no B
            curve = floats.minkowski([(self.f(q - 1, (start + off) % period, s), floats.ratio(p, D),
                                       floats.ratio(qq, D)) for off, p, qq in entries], keep_b=False)
            self._part[key] = curve
            self._note(curve)
        return curve

    def bank_values(self, kind, q, keys, x, y):
        """(excesses V(x, y) − y, their error scales) of the float curves named by integer ``keys``
        (kind 'f', 'echo', 'part'; floats.py, excess)."""
        np = self.np
        out = np.empty(len(keys))
        scale = np.empty(len(keys))
        if not len(keys):
            return out, scale
        uniq, inverse, counts = _unique(np, keys)
        if len(uniq) <= FEW_CURVES:
            # few (often large) curves: one binary search per group, no concatenated copy
            # (a stable sort of small integers: numpy's radix sort)
            order = np.argsort(inverse.astype(np.uint8), kind="stable")
            bounds = np.zeros(len(uniq) + 1, dtype=np.int64)
            np.cumsum(counts, out=bounds[1:])
            for i, key in enumerate(uniq):
                sel = order[bounds[i]:bounds[i + 1]]
                curve = self._curve_of_key(kind, q, int(key))
                self.widest = max(self.widest, curve.terms)
                out[sel], scale[sel] = curve.excess(x[sel], y[sel])
            return out, scale
        segments = self._bank(kind, q, uniq)
        if len(segments) == 1:
            index = np.searchsorted(segments[0][0], uniq)[inverse]
            for lo in range(0, len(keys), CHUNK):
                sl = slice(lo, lo + CHUNK)
                out[sl], scale[sl] = segments[0][1].excess(index[sl], x[sl], y[sl])
            return out, scale
        which = np.empty(len(uniq), dtype=np.int64)
        where = np.empty(len(uniq), dtype=np.int64)
        for number, (known, _bank) in enumerate(segments):
            pos = np.minimum(np.searchsorted(known, uniq), len(known) - 1)
            hit = known[pos] == uniq
            which[hit], where[hit] = number, pos[hit]
        which, where = which[inverse], where[inverse]
        for number, (_known, bank) in enumerate(segments):
            chosen = np.flatnonzero(which == number)
            for lo in range(0, len(chosen), CHUNK):
                sel = chosen[lo:lo + CHUNK]
                out[sel], scale[sel] = bank.excess(where[sel], x[sel], y[sel])
        return out, scale

    def _bank(self, kind, q, needed):
        """The banks of (kind, q) holding every key of ``needed`` (sorted, distinct): a list of (keys, FloatBank).

        Keys met later go into a new bank of their own, so no curve is copied twice (a bank's curves read
        their arrays from it); past MAX_BANKS the banks are joined into one, which bounds the lookups.
        """
        np = self.np
        segments = self._banks.setdefault((kind, q), [])
        missing = needed
        for known, _bank in segments:
            pos = np.minimum(np.searchsorted(known, missing), len(known) - 1)
            missing = missing[known[pos] != missing]
        if len(missing):
            curves = [self._curve_of_key(kind, q, int(key)) for key in missing]
            # only curves the point levels evaluate enter their margin
            self.widest = max([self.widest] + [c.terms for c in curves])
            if len(segments) + 1 > MAX_BANKS:
                keys = np.concatenate([known for known, _bank in segments] + [missing])
                order = np.argsort(keys, kind="stable")
                curves = [self._curve_of_key(kind, q, int(key)) for key in keys[order]]
                segments[:] = []
                missing = keys[order]
            segments.append((missing, floats.FloatBank(curves)))
        return segments

    def _curve_of_key(self, kind, q, key):
        # keys: f/part pack (residue, j[, s]) as residue*4 + code; echo packs (rho, j)
        g = self.game
        if kind == "f":
            residue, code = divmod(key, 4)
            return self.f(q, residue, _SIGN[code])
        if kind == "echo":
            rho, code = divmod(key, 4)
            return self.echo_curve(q, _state_of_rho(g, rho), _SIGN[code])
        residue, code = divmod(key, 4)
        return self.participation_curve(q, residue, _SIGN[code & 1], _SIGN[code >> 1])

    # -- rows ---------------------------------------------------------------

    def rows(self, s):
        """Padded tables over ρ = a·k_Q mod B and d = ±1 of the rows of (k_Q − d, k_Q), sign s.

        Returns (off, p, q, valid) of shape (B, 2, W): index d as (1 − d)//2.
        """
        table = self._rows.get(s)
        if table is None:
            np = self.np
            g = self.game
            lists = [[g.pair_entries(_state_of_rho(g, rho) - d, _state_of_rho(g, rho), s)[1] for d in SIGNS]
                     for rho in range(g.B)]
            width = max(len(e) for pair in lists for e in pair)
            off = np.zeros((g.B, 2, width), dtype=np.int64)
            pp = np.zeros((g.B, 2, width))
            qq = np.zeros((g.B, 2, width))
            D = self.D
            for rho, pair in enumerate(lists):
                for di, entries in enumerate(pair):
                    n = len(entries)
                    off[rho, di, :n] = [o for o, _p, _q in entries]
                    pp[rho, di, :n] = [floats.ratio(p, D) for _o, p, _q in entries]
                    qq[rho, di, :n] = [floats.ratio(q, D) for _o, _p, q in entries]
            valid = (pp > 0) | (qq > 0)
            table = self._rows[s] = (off, pp, qq, valid)
            self.largest = max(self.largest, width)
        return table


def _unique(np, keys):
    """np.unique(keys, return_inverse=True) and the counts, for nonnegative integer keys.

    Small keys (the usual case: residues times four) are counted in one pass
    instead of sorted.
    """
    if keys.min() >= 0 and keys.max() < SMALL_KEYS:
        counts = np.bincount(keys)
        uniq = np.flatnonzero(counts)
        lookup = np.zeros(len(counts), dtype=np.int64)
        lookup[uniq] = np.arange(len(uniq))
        return uniq, lookup[keys], counts[uniq]
    uniq, inverse, counts = np.unique(keys, return_inverse=True, return_counts=True)
    return uniq, inverse.reshape(-1), counts


_SIGN = {0: 1, 1: -1}
_CODE = {1: 0, -1: 1}


def _state_of_rho(game, rho):
    """A state k_Q with a·k_Q ≡ ρ (mod B)."""
    return int(rho * pow(game.a, -1, game.B)) % game.B


class PointLevels:
    """G_C at points for one game and budget C >= 3 (see the module docstring)."""

    def __init__(self, game, budget):
        self.game = game
        self.C = budget
        self.qg = max(1, budget - 2)
        self.qf = max(1, budget - 3)
        if game.floats is None:
            game.floats = GameFloats(game)
        self.fl = game.floats
        self.np = self.fl.np
        self._echo = {}
        self._alts = {}

    # -- float values (vectorised; x, y normalised float arrays) -----------

    def alternatives(self, c):
        alts = self._alts.get(c)
        if alts is None:
            np = self.np
            roots = self.game.root_alternatives(c)
            groups = {}
            for i, (_r, j) in enumerate(roots):
                groups.setdefault(j, []).append(i)
            alts = self._alts[c] = (roots, [(j, np.array(idx, dtype=np.int64),
                                             np.array([roots[i][0] for i in idx], dtype=np.int64))
                                            for j, idx in sorted(groups.items())])
        return alts

    def g_float(self, c, x, y):
        """Float (G_c(x, y) − y, its error scale) elementwise (floats.py, excess)."""
        np = self.np
        if c <= self.qg:
            return self.fl.g(c).excess(x, y)
        if not len(x):
            return np.zeros(0), np.zeros(0)
        pts = np.stack([x, y], axis=1)
        uniq, inverse = np.unique(pts, axis=0, return_inverse=True)
        inverse = inverse.reshape(-1)
        ux, uy = uniq[:, 0], uniq[:, 1]
        out = np.empty(len(ux))
        scale = np.empty(len(ux))
        roots, groups = self.alternatives(c)
        per_point = len(roots) * max(len(self.fl._roots[j][0]) for j, _i, _r in groups)
        step = max(1, CHUNK // max(per_point, 1))
        for lo in range(0, len(ux), step):
            sl = slice(lo, lo + step)
            vals, scales = self.root_values(c, ux[sl], uy[sl])
            stop, stop_scale = self._stop(ux[sl], uy[sl])
            out[sl] = np.maximum(stop, vals.max(axis=1))
            scale[sl] = np.maximum(stop_scale, scales.max(axis=1))
        return out[inverse], scale[inverse]

    def _stop(self, x, y):
        """(max(x, y) − y, its error scale): the scale is 0 where the floats prove x < y (x̂ < ŷ·(1 − margin))."""
        np = self.np
        below = x < y * (1.0 - self.fl.margin(self.C))
        return np.maximum(x - y, 0.0), np.where(below, 0.0, x + y)

    def root_values(self, c, x, y, details=False):
        """Float (Σ_f F_{c−1}(...) − y, error scales) per point (rows) and root alternative (columns).

        With ``details`` (one point) also the options of every child F node
        (:meth:`f_float`), indexed [alternative, output], when F_{c−1} is a
        point level.
        """
        np = self.np
        roots, groups = self.alternatives(c)
        out = np.empty((len(x), len(roots)))
        scale = np.empty((len(x), len(roots)))
        children = {}
        for j, idx, r in groups:
            f, p, q = self.fl._roots[j]
            k = f[None, None, :] - r[None, :, None]
            xs = x[:, None, None] * p[None, None, :]
            ys = y[:, None, None] * q[None, None, :]
            shape = (len(x), len(r), len(f))
            k = np.broadcast_to(k, shape).reshape(-1)
            xs = np.broadcast_to(xs, shape).reshape(-1)
            ys = np.broadcast_to(ys, shape).reshape(-1)
            flat = self.f_float(c - 1, k, np.full(len(k), j, dtype=np.int64), xs, ys, options=details)
            if details and c - 1 > self.qf:
                children[j] = (idx, flat[2].reshape(len(r), len(f), 8))
            out[:, idx] = flat[0].reshape(shape).sum(axis=2)
            scale[:, idx] = flat[1].reshape(shape).sum(axis=2)
        return (out, scale, children) if details else (out, scale)

    def f_float(self, q, k, j, x, y, options=False):
        """Float (F_q((k − j, k); x, y) − y, its error scale) elementwise (floats.py, excess).

        With ``options`` also an (n, 8) array: the excesses of stop, echo,
        participate +1, −1, then their error scales (None at a curve level).
        """
        np = self.np
        if q <= self.qf:
            period = self.game.B ** (q + 1)
            keys = (k % period) * 4 + (j < 0)
            values, scale = self.fl.bank_values("f", q, keys, x, y)
            return (values, scale, None) if options else (values, scale)
        g = self.game
        n = len(k)
        opts = np.empty((n, 8))
        opts[:, 0], opts[:, 4] = self._stop(x, y)
        rho = (g.a * k) % g.B
        jcode = (j < 0).astype(np.int64)
        if q <= self.qg:
            opts[:, 1], opts[:, 5] = self.fl.bank_values("echo", q, rho * 4 + jcode, x, y)
            period = g.B ** (q + 1)
            for col, s in ((2, 1), (3, -1)):
                keys = (k % period) * 4 + jcode + 2 * _CODE[s]
                opts[:, col], opts[:, col + 4] = self.fl.bank_values("part", q, keys, x, y)
        else:
            opts[:, 1], opts[:, 5] = self._echo_float(q, rho, jcode, x, y)
            start = g.law.low - 1 - (g.a * k) // g.B
            for col, s in ((2, 1), (3, -1)):
                opts[:, col], opts[:, col + 4] = self._participation_float(q, rho, jcode, start, s, x, y)
        zero = (x == 0) | (y == 0)
        # F(x, 0) − 0 = x (scale x), F(0, y) − y = 0 (scale 0)
        values = np.where(zero, x, opts[:, :4].max(axis=1))
        scale = np.where(zero, x, opts[:, 4:].max(axis=1))
        return (values, scale, opts) if options else (values, scale)

    def _echo_float(self, q, rho, jcode, x, y):
        np = self.np
        key = np.stack([rho.astype(np.float64), jcode.astype(np.float64), x, y], axis=1)
        uniq, inverse = np.unique(key, axis=0, return_inverse=True)
        inverse = inverse.reshape(-1)
        urho, ujc = uniq[:, 0].astype(np.int64), uniq[:, 1].astype(np.int64)
        _off, pp, qq, valid = self.fl.rows(0)
        P, Q, V = pp[urho, ujc], qq[urho, ujc], valid[urho, ujc]
        xs = uniq[:, 2:3] * P
        ys = uniq[:, 3:4] * Q
        vals = np.zeros(P.shape)
        scales = np.zeros(P.shape)
        vals[V], scales[V] = self.g_float(q, xs[V], ys[V])
        return vals.sum(axis=1)[inverse], scales.sum(axis=1)[inverse]

    def _participation_float(self, q, rho, jcode, start, s, x, y):
        np = self.np
        off, pp, qq, valid = self.fl.rows(s)
        O, P, Q, V = off[rho, jcode], pp[rho, jcode], qq[rho, jcode], valid[rho, jcode]
        states = start[:, None] + O
        xs = x[:, None] * P
        ys = y[:, None] * Q
        vals = np.zeros(P.shape)
        scales = np.zeros(P.shape)
        vals[V], scales[V] = self.f_float(q - 1, states[V], np.full(int(V.sum()), s, dtype=np.int64), xs[V], ys[V])
        return vals.sum(axis=1), scales.sum(axis=1)

    # -- exact values ------------------------------------------------------

    def _normalised(self, X, Y):
        m = max(X, Y)
        return floats.ratio(X, m), floats.ratio(Y, m)

    def root_value(self, X, Y):
        """G_C(X, Y)·D^(2C) and the witness, as ``FiniteGame.g_value``."""
        try:
            return self.g_exact(self.C, X, Y)
        finally:
            self._echo.clear()

    def g_exact(self, c, X, Y):
        g = self.game
        den = g.D ** (2 * c)
        if X == 0 or Y == 0:
            return (X + Y) * den, ("stop",)
        if c <= self.qg:
            return g.g_curve(c)(X, Y), None
        best, witness = max(X, Y) * den, ("stop",)
        roots, _groups = self.alternatives(c)
        x, y = self._normalised(X, Y)
        np = self.np
        vals, scales, children = self.root_values(c, np.array([x]), np.array([y]), details=True)
        if self.fl.safe(self.C, x, y):  # checked after the floats: they may have added curves
            keep = self.kept_roots(x, y, vals[0], scales[0])
        else:
            keep, children = range(len(roots)), {}
        child_opts = {}
        for idx, opts in children.values():
            for pos, i in enumerate(idx):
                child_opts[int(i)] = opts[pos]
        for i in keep:
            r, j = roots[int(i)]
            opts = child_opts.get(int(i))
            if c - 1 <= self.qf:
                total = self._curve_sum(c - 1, j, -r, g.root_entries(j), X, Y)
            else:
                total = mpz(0)
                for fi, (f, p, q) in enumerate(g.root_entries(j)):
                    total += self.f_exact(c - 1, f - r, j, X * p, Y * q, None if opts is None else opts[fi])
            if total > best:
                best, witness = total, ("participate", r, j)
        return best, witness

    def kept_roots(self, x, y, vals, scales):
        """Indices of the root alternatives (float excesses ``vals``, error scales ``scales`` at the
        normalised point (x, y)) that may attain the exact maximum with stop."""
        np = self.np
        stop, stop_scale = self._stop(np.array([x]), np.array([y]))
        keep = self._keep(np.concatenate([stop, vals]), np.concatenate([stop_scale, scales]))
        return np.nonzero(keep[1:])[0]

    def _keep(self, values, scales):
        """Which of a node's options (float excesses, error scales) may attain the exact maximum.

        Every float excess is within η·scale of its exact value (floats.py,
        excess), so an exact maximiser a has ê_a >= ê_b − η·(s_a + s_b) for
        every b; the margin is 4η.
        """
        m = self.fl.margin(self.C)
        return values >= values.max() - m * (scales + scales.max())

    def f_exact(self, q, k, j, X, Y, opts=None):
        """F_q((k − j, k); X, Y)·D^(2q+1)."""
        g = self.game
        den = g.D ** (2 * q + 1)
        if X == 0 or Y == 0:
            return (X + Y) * den
        if q <= self.qf:
            return g.f_curve(q, k, j)(X, Y)
        best = max(X, Y) * den
        x, y = self._normalised(X, Y)
        if opts is None:
            _v, _s, o = self.f_float(q, self.np.array([k], dtype=self.np.int64),
                                     self.np.array([j], dtype=self.np.int64), self.np.array([x]), self.np.array([y]),
                                     options=True)
            opts = o[0]
        ok = self.fl.safe(self.C, x, y)
        if ok:
            kept = self._keep(opts[:4], opts[4:])
            keep = [i for i in (1, 2, 3) if kept[i]]
        else:
            keep = [1, 2, 3]
        for i in keep:
            if i == 1:
                total = self._echo_exact(q, k, j, X, Y)
            else:
                total = self._participation_exact(q, k, j, 1 if i == 2 else -1, X, Y, x, y, ok) * g.D
            if total > best:
                best = total
        return best

    def _echo_exact(self, q, k, j, X, Y):
        g = self.game
        key = (q, (g.a * k) % g.B, j, X, Y)
        value = self._echo.get(key)
        if value is None:
            _start, entries = g.pair_entries(k - j, k, 0)
            if q <= self.qg:
                value = self._g_curve_sum(q, entries, X, Y)
            else:
                value = sum((self.g_exact(q, X * p, Y * qq)[0] for _o, p, qq in entries), mpz(0))
            self._echo[key] = value
        return value

    def _participation_exact(self, q, k, j, s, X, Y, x, y, ok):
        g = self.game
        start, entries = g.pair_entries(k - j, k, s)
        child = None
        if q - 1 > self.qf and ok:
            np = self.np
            states = np.array([start + off for off, _p, _q in entries], dtype=np.int64)
            D = self.fl.D
            xs = np.array([x * floats.ratio(p, D) for _o, p, _q in entries])
            ys = np.array([y * floats.ratio(qq, D) for _o, _p, qq in entries])
            _v, _s, child = self.f_float(q - 1, states, np.full(len(states), s, dtype=np.int64), xs, ys,
                                         options=True)
        if q - 1 <= self.qf:
            return self._curve_sum(q - 1, s, start, entries, X, Y)
        total = mpz(0)
        for i, (off, p, qq) in enumerate(entries):
            total += self.f_exact(q - 1, start + off, s, X * p, Y * qq, None if child is None else child[i])
        return total

    def _curve_sum(self, q, s, start, entries, X, Y):
        """Σ f_exact(q, start + off, s, X·p, Y·qq) over the entries, for a curve level q <= qf.

        Each curve is maximised at one of its vertices, so the sum is
        X·Σ p·A_k + Y·Σ qq·B_k over the chosen vertices k (:func:`_vertex`):
        two products with X and Y per sum instead of two per entry.
        """
        g = self.game
        table = g.f_table(q, s)
        mod = len(table)
        den = g.D ** (2 * q + 1)
        t = _ratio(X, Y)
        sa = sb = edge = mpz(0)
        for (off, p, qq), r in zip(entries, self.fl.entry_ratios(entries)):
            if r is None:  # p or qq is 0: F_q(x, 0) = x, F_q(0, y) = y
                edge += X * p + Y * qq
                continue
            i = (start + off) % mod
            curve = table[i]
            if curve is None:
                curve = table[i] = g.f_curve(q, start + off, s)
            k = _vertex(curve, t * r, X, Y, p, qq)
            sa += p * curve.A[k]
            sb += qq * curve.B[k]
        return X * sa + Y * sb + edge * den

    def _g_curve_sum(self, q, entries, X, Y):
        """Σ G_q(X·p, Y·qq) over the entries, for a curve level q <= qg (as :meth:`_curve_sum`)."""
        curve = self.game.g_curve(q)
        t = _ratio(X, Y)
        A, B = curve.A, curve.B
        sa = sb = edge = mpz(0)
        for (_off, p, qq), r in zip(entries, self.fl.entry_ratios(entries)):
            if r is None:
                edge += curve(X * p, Y * qq)
                continue
            k = _vertex(curve, t * r, X, Y, p, qq)
            sa += p * A[k]
            sb += qq * B[k]
        return X * sa + Y * sb + edge


def _ratio(X, Y):
    """float(X/Y) correctly rounded for positive integers, or 0.0 when it would overflow."""
    try:
        return int(X) / int(Y)
    except OverflowError:
        return 0.0


def _vertex(curve, t, X, Y, p, qq):
    """A vertex of ``curve`` attaining its maximum at (X·p, Y·qq), X, Y, p, qq > 0.

    t = fl(fl(X/Y)·fl(p/qq)) is within three roundings (2^-51, relative) of
    X·p/(Y·qq) unless it left the normal range, so the float order decides
    when it is proved (:meth:`TestingCurve.proved_vertex`); otherwise the
    exact gains do.
    """
    k = curve.proved_vertex(t)
    if k < 0:
        k = curve.vertex(X * p, Y * qq)
    return k
