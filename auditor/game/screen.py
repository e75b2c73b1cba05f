"""Integer screening of the root alternatives of a point level (no floats).

At a synchronised node of level c evaluated point by point (F_(c-1) at
points, its participations read from F_(c-2) curves), G_c(1, t) is the
larger of the stop max(1, t) and of A(z, j) over the root alternatives
(B z, j) of :meth:`auditor.game.game.Game.root_alternatives`.  Every root row is
pure (k = B z gives a k = B (a z)), so the transition of (B z, j) has the same
items (u, p, qq) for every z, at the outputs o = u - a z; with t_u = t qq/p,

    A(z, j) = (cx_j + t cy_j) / D + sum_u p_u F_(c-1)((o - j, o); 1, t_u) / D,

cx_j, cy_j the summed p, qq of the items with p qq = 0.  This module encloses
every A(z, j) between two integers over D 2^R (R = 62) with numpy int64
arithmetic, rounding each quantity towards the side it bounds, and returns
the alternatives whose upper end reaches the largest lower end.  An
alternative left out has A < A(b) for some b, so it is not a maximiser and
the maximum over the survivors (evaluated exactly by the caller) is the
maximum over all.  Nothing here decides a value: a bound only discards.

The enclosure of one F node F = max(stop, echo, part_-1, part_+1):

* part_j' = sum_o V_o(p_o, t qq_o) / D over the items of a transition, V_o
  the F_(c-2) residue curve with vertices (A_i, B'_i) over den.  With the
  vertex v maximising A + (t qq/p) B' and P = p/D, X = A_v/den, Y = B'_v/den,
  the term is P X + t Q Y.  In fixed point, ceil/floor(P 2^PB) times
  ceil/floor(X 2^VB) (PB + VB = 62).  Curve coordinates lie in [0, den]
  (checked; a testing curve has V(1, 0) = V(0, 1) = 1) and sum P = 1 over
  a transition's items, so each sum of products is below
  2^62 + n 2^VB < 2^63: no int64 overflows.
* the vertex v is the number of edges with slope < x = (p/qq)/t.  Keys are
  K = floor(slope 2^KB) and X = floor(x 2^KB), clipped to 2^KM - 1, with each
  curve's keys offset by its index times 2^KM so that one searchsorted serves
  all curves.  K_c < X_c implies slope < x and slope < x implies K_c <= X_c,
  so v lies in [i_lo, i_hi] (left and right insertion points).  Along a
  chain A increases and B' decreases, so A_v <= A at i_hi, B'_v <= B' at i_lo
  (upper bound), and vertex i_lo itself gives a lower bound (any vertex does).
* the echo is the exact memoised value where it is cheap (a G_(c-1) curve),
  else the game's sound upper bound and 0 below; the stop is exact.  Both
  depend on the states only through the echo shape (:class:`auditor.game.game.Game`),
  which for (kP, kQ) = (kQ - j, kQ) is a function of a kQ mod B and j.
"""

from gmpy2 import mpz

from auditor.rationals import ceil_div

# numpy is imported inside the methods that use it: most checks never screen,
# and importing it costs about 0.07 s of every auditor run

__all__ = ["screened_alternatives", "SCREEN_MIN"]

# screen only when there are at least this many root alternatives
SCREEN_MIN = 256
# and when the curves read hold at most this many vertices (their fixed-point
# coordinates are made in Python)
MAX_VERTICES = 400_000
# and when the F_(c-2) level has at most this many residue curves (its
# curves are then few and built whole; beyond, the lookup tables and the
# lazily built curves cost more memory than the screening saves time)
MAX_RESIDUES = 1 << 16
# node-sign rows per numpy chunk (memory)
CHUNK = 4096
PB, VB, R = 33, 29, 62
_ONE62 = mpz(1) << 62


def screened_alternatives(game, c, t):
    """The root alternatives of level c at ratio t that may attain the maximum,
    or None when screening does not apply (too few alternatives, too many or
    too large curves, states outside int64 comfort)."""
    if c < 2 or not (c - 1 > game.f_curve_max >= c - 2):
        return None
    if game._power(c) >= 1 << 40:         # states and shifts stay far inside int64
        return None
    if 2 * game._power(c - 1) > MAX_RESIDUES:
        return None
    alts = game.root_alternatives(c)
    if len(alts) < SCREEN_MIN:
        return None
    screen = _Screen(game, c, t, alts)
    return screen.survivors()


class _Screen:
    __slots__ = ("g", "c", "t", "alts", "a", "B", "D", "period", "roots", "ts")

    def __init__(self, game, c, t, alts):
        self.g, self.c, self.t, self.alts = game, c, t, alts
        self.a, self.B, self.D = game.law.a, game.B, game.D
        self.period = game._power(c)          # F_(c-1) residues (R2)
        # root items per sign: (us, ps, qqs) with p qq != 0, and the exact rest
        self.roots = {}
        self.ts = []                          # the distinct t_u, by id
        tid_of = {}
        for j in (-1, 1):
            _shift, items = game._relative(0, 0, j)
            cx = cy = mpz(0)
            us, ps, tids = [], [], []
            for u, p, qq, _r in items:
                if p == 0 or qq == 0:
                    cx += p
                    cy += qq
                    continue
                us.append(u)
                ps.append(p)
                tu = t * qq / p
                tid = tid_of.get(tu)
                if tid is None:
                    tid = tid_of[tu] = len(self.ts)
                    self.ts.append(tu)
                tids.append(tid)
            self.roots[j] = (us, ps, tids, cx, cy)

    # -- the alternatives' node indices ------------------------------------
    def _nodes(self):
        """(node keys (residue, j, tid), per alternative the indices of its
        nodes): the root outputs o = u - a z, nodes deduplicated by R2."""
        node_of = []
        keys = []
        index = {}
        for k, j in self.alts:
            us, _ps, tids, _cx, _cy = self.roots[j]
            base = self.a * (k // self.B)
            row = []
            for u, tid in zip(us, tids):
                key = ((u - base) % self.period, j, tid)
                i = index.get(key)
                if i is None:
                    i = index[key] = len(keys)
                    keys.append(key)
                row.append(i)
            node_of.append(row)
        return keys, node_of

    def survivors(self):
        """The alternatives whose upper end reaches the best lower end (over D 2^R)."""
        keys, node_of = self._nodes()
        bounds = self._node_bounds(keys)
        if bounds is None:
            return None
        n_hi, n_lo = bounds
        D, t = self.D, self.t
        rest = {}                                # per sign: (cx + t cy)/D, rounded both ways
        for j, (_us, _ps, _tids, cx, cy) in self.roots.items():
            const = (cx + t * cy) / D
            c_num = const.numerator * D * _ONE62
            rest[j] = (ceil_div(c_num, const.denominator), c_num // const.denominator)
        hi, lo = [], []
        for (_k, j), row in zip(self.alts, node_of):
            ps = self.roots[j][1]
            c_hi, c_lo = rest[j]
            hi.append(c_hi + sum(map(mpz.__mul__, ps, [n_hi[i] for i in row]), mpz(0)))
            lo.append(c_lo + sum(map(mpz.__mul__, ps, [n_lo[i] for i in row]), mpz(0)))
        best_lo = max(lo)
        return [alt for alt, h in zip(self.alts, hi) if h >= best_lo]

    # -- F nodes ------------------------------------------------------------
    def _node_bounds(self, keys):
        """Per node, integers N_lo <= F 2^R <= N_hi, or None (no screening)."""
        import numpy as np
        a, B = self.a, self.B
        q = self.c - 1
        level = q - 1
        states = []           # (kP, kQ) per node
        splits = {}           # (rP, rQ, d, tid) -> split index
        split_list = []       # (kP, kQ, j', tid, relative shape)
        rows = []             # per node-sign: (split index, shift)
        for (o, j, tid) in keys:
            kP, kQ = o - j, o
            states.append((kP, kQ))
            mP, rP = divmod(a * kP, B)
            mQ, rQ = divmod(a * kQ, B)
            for jj in (-1, 1):
                sk = (rP, rQ, mP - jj - mQ, tid)
                s = splits.get(sk)
                if s is None:
                    s = splits[sk] = len(split_list)
                    split_list.append((kP, kQ, jj, tid, sk[:3]))
                rows.append((s, -mQ))
        rows = (np.fromiter((s for s, _h in rows), dtype=np.int64, count=len(rows)),
                np.fromiter((h for _s, h in rows), dtype=np.int64, count=len(rows)),
                np.tile(np.array([0, 1], dtype=np.int64), len(rows) // 2))
        items = self._split_items(split_list)
        if items is None:
            return None
        curves = self._curves(items, rows, level)
        if curves is None:
            return None
        sums = self._part_sums(items, rows, curves)
        return self._combine(keys, states, sums, q)

    def _split_items(self, split_list):
        """Padded per-split arrays (u, P hi/lo, Q hi/lo, 64-bit floor keys) and the
        exact rest (cx, cy over 2^R, hi and lo).  P and Q depend only on the
        relative shape (cached by it); the keys also on t."""
        import numpy as np
        g, D = self.g, self.D
        raw, rels, rel_of = [], {}, []
        n_max = 1
        for kP, kQ, jj, tid, key in split_list:
            _shift, (cx, cy, us, ps, qs, _rs, ixs) = g._scaled(kP, kQ, jj, self.ts[tid])
            r = rels.get(key)
            if r is None:
                if us and max(map(abs, us)) >= 1 << 40:
                    return None
                r = rels[key] = (len(rels), us, ps, qs, cx, cy)
                n_max = max(n_max, len(us))
            rel_of.append(r[0])
            raw.append(ixs)
        n_rel = len(rels)
        U = np.zeros((n_rel, n_max), dtype=np.int64)
        PH, PL, QH, QL = (np.zeros((n_rel, n_max), dtype=np.int64) for _ in range(4))
        valid = np.zeros((n_rel, n_max), dtype=bool)
        rest = np.zeros((4, n_rel), dtype=np.int64)
        for i, us, ps, qs, cx, cy in rels.values():
            m = len(us)
            U[i, :m] = us
            PH[i, :m] = [ceil_div(p << PB, D) for p in ps]
            PL[i, :m] = [(p << PB) // D for p in ps]
            QH[i, :m] = [ceil_div(qq << PB, D) for qq in qs]
            QL[i, :m] = [(qq << PB) // D for qq in qs]
            valid[i, :m] = True
            rest[:, i] = (ceil_div(cx << R, D), (cx << R) // D, ceil_div(cy << R, D), (cy << R) // D)
        return np.array(rel_of, dtype=np.int64), raw, n_max, (U, PH, PL, QH, QL, valid, rest)

    def _curves(self, items, rows, level):
        """The F_level residue curves the items reach, as flat int64 arrays:
        (lookup code -> curve, global keys, edge and vertex offsets, X hi/lo,
        Y hi/lo, key bits), or None."""
        import numpy as np
        g = self.g
        rel_of, _raw, _n_max, (U, _PH, _PL, _QH, _QL, valid, _rest) = items
        table_m, period, den, _full = g._F_table(level, -1)
        table_p = g._F_table(level, 1)[0]
        sid, shift, sign = rows
        # every (residue, sign) reached: mark them (O(n), no sort)
        mark = np.zeros(2 * period, dtype=bool)
        for start in range(0, len(sid), CHUNK):
            rel = rel_of[sid[start:start + CHUNK]]
            code = ((U[rel] + shift[start:start + CHUNK, None]) % period) * 2 + sign[start:start + CHUNK, None]
            mark[code[valid[rel]]] = True
        used = np.flatnonzero(mark)
        entries = []
        total = 0
        for cv in used.tolist():
            r, sgn = divmod(cv, 2)
            jj = 1 if sgn else -1
            e = (table_p if jj == 1 else table_m)[r]
            if e is None or e[4]:           # an entry of its own, not a transpose's data
                e = g._fill_F_table(level, r, jj, share=False)
            entries.append(e)
            total += len(e[1])
            if total > MAX_VERTICES:
                return None
        n_curves = len(entries)
        km = 62 - max(1, n_curves.bit_length())
        kb = km // 2
        kmax = (1 << km) - 1
        lookup = np.zeros(2 * period, dtype=np.int64)
        lookup[used] = np.arange(n_curves, dtype=np.int64)
        gkeys, eoff, voff = [], [], []
        xh, xl, yh, yl = [], [], [], []
        nv = ne = 0
        drop = 64 - kb
        for ci, (ikeys, xs, ys, _chain, _flip, _c) in enumerate(entries):
            if xs[0] < 0 or ys[-1] < 0 or xs[-1] > den or ys[0] > den:
                return None
            eoff.append(ne)
            voff.append(nv)
            base = ci << km
            gkeys.extend(base + min(int(k >> drop), kmax) for k in ikeys[:-1])
            xh.extend(ceil_div(x << VB, den) for x in xs)
            xl.extend((x << VB) // den for x in xs)
            yh.extend(ceil_div(y << VB, den) for y in ys)
            yl.extend((y << VB) // den for y in ys)
            ne += len(ikeys) - 1
            nv += len(xs)
        def arr(v):
            return np.array(v, dtype=np.int64)

        return (lookup, arr(gkeys), arr(eoff), arr(voff), arr(xh), arr(xl), arr(yh), arr(yl),
                km, drop, kmax, period)

    def _part_sums(self, items, rows, curves):
        """Per chunk of node-sign rows (CHUNK, even: whole nodes), the lists
        (Sx hi, Sx lo, Sy hi, Sy lo) over 2^62."""
        import numpy as np
        rel_of, raw, n_max, (U, PH, PL, QH, QL, valid, rest) = items
        lookup, gkeys, eoff, voff, xh, xl, yh, yl, km, drop, kmax, period = curves
        XK = np.zeros((len(raw), n_max), dtype=np.int64)
        for s, ixs in enumerate(raw):
            XK[s, :len(ixs)] = [min(int(k >> drop), kmax) for k in ixs]
        sid_all, shift_all, sign_all = rows
        for start in range(0, len(sid_all), CHUNK):
            sid = sid_all[start:start + CHUNK]
            rel = rel_of[sid]
            res = (U[rel] + shift_all[start:start + CHUNK, None]) % period
            ci = lookup[res * 2 + sign_all[start:start + CHUNK, None]]
            qk = (ci << km) + XK[sid]
            ilo = np.searchsorted(gkeys, qk, side="left") - eoff[ci]
            ihi = np.searchsorted(gkeys, qk, side="right") - eoff[ci]
            vo = voff[ci]
            ilo += vo
            ihi += vo
            # padded items have P = Q = 0 and add nothing; the rest is exact
            r = rest[:, rel]
            sums = ((PH[rel] * xh[ihi]).sum(axis=1) + r[0], (PL[rel] * xl[ilo]).sum(axis=1) + r[1],
                    (QH[rel] * yh[ilo]).sum(axis=1) + r[2], (QL[rel] * yl[ilo]).sum(axis=1) + r[3])
            yield [v.tolist() for v in sums]

    def _combine(self, keys, states, sums, q):
        """N_lo <= 2^R F_q(node) <= N_hi from the stop, echo and participations."""
        g = self.g
        cheap_echo = q <= g.g_curve_max
        n_hi, n_lo = [], []
        chunks = iter(sums)
        # the echo's ends, by its shape: with kP = kQ - j that depends on a kQ mod B and j only
        echoes = {}
        for n, ((_o, j, tid), (kP, kQ)) in enumerate(zip(keys, states)):
            a = 2 * n % CHUNK
            b = a + 1
            if a == 0:
                sx_h, sx_l, sy_h, sy_l = next(chunks)
            t = self.ts[tid]
            tn, td = t.numerator, t.denominator
            stop = max(tn, td) << R
            hi = max(stop, sx_h[a] * td + sy_h[a] * tn, sx_h[b] * td + sy_h[b] * tn)
            lo = max(stop, sx_l[a] * td + sy_l[a] * tn, sx_l[b] * td + sy_l[b] * tn)
            ek = ((self.a * kQ) % self.B, j, tid)
            if ek not in echoes:
                e = g.echo_ratio(q, kP, kQ, t) if cheap_echo else g.echo_upper(q, kP, kQ, t)
                if e is None:
                    return None
                e_num = e.numerator * td << R
                echoes[ek] = (ceil_div(e_num, e.denominator), e_num // e.denominator if cheap_echo else 0)
            e_hi, e_lo = echoes[ek]
            hi = max(hi, e_hi)
            lo = max(lo, e_lo)
            n_hi.append(ceil_div(hi, td))
            n_lo.append(lo // td)
        return n_hi, n_lo
