"""Independent exact evaluator of the finite-law game G_C / F_q (*Hidden Integer Feedback* §3.1).

Definitions (x, y >= 0; rows from :mod:`auditor.game.rows`):

    G_0(x, y) = max(x, y)
    G_c(x, y) = max(max(x, y),
                    max_{k in Z, j = +-1} sum_o F_{c-1}((o-j, o); x row_k(o-j), y row_k(o)))
    F_q((kP, kQ); x, y) = x + y                                       if x*y == 0
                        = max(max(x, y),
                              sum_o G_q(x row_kP(o), y row_kQ(o)),                     [echo]
                              q >= 1: sum_o F_{q-1}((o-j, o); x row_kP(o-j), y row_kQ(o))) [participate j]

Facts used, as *Hidden Integer Feedback* §3–4 states them:
  R1  at a synchronised node with c participations left the maximum over k may
      be restricted to k = B*z, 0 <= z < B^c (both signs);
  R2  F_q((k-j, k); .) depends on k only through k mod B^(q+1) (and j).
Where it is smaller than B^c, the z of R1 range only over the closed-carry-cell
cover of :mod:`auditor.game.cover` (derived and proved there), which contains an
optimal preparation; ``Routes.roots`` chooses ("auto", the default: the
smaller set), or forces "cover" / "all" for tests (every route is fixed when
the Game is built).  The paper's support reduction for symmetric laws at
c <= 2 (*Hidden Integer Feedback* §4) is not used: its sets contain the
carried cover vertices (they were derived from them) and are never smaller
than the smaller of the cover grid and B^c.

Route.  Every value is positively homogeneous, so V(x, y) = x * V(1, t)
with t = y/x.  For a query at budget C the low levels are whole testing
curves (:mod:`auditor.game.levels`; :meth:`Game.use_curves_below` says
which), the levels above are evaluated by direct recursion at the ratios the
query reaches, memoised by (level, residue, sign, ratio), echoes by (level,
echo shape, ratio).  Sound bounds skip work without changing a value (echo
bounds, :mod:`auditor.game.bounds`; root screening,
:mod:`auditor.game.screen`), exact invariances merge equal sub-problems (see
:class:`Game`), and sums over residue curves are integer vertex searches
(:mod:`auditor.game.lookups`).  Which levels use curves only changes the
speed, never a value (the tests compare the routes).

All arithmetic is exact (gmpy2 mpz/mpq internally, Fraction at the API).
"""

from functools import partial
from typing import NamedTuple

from gmpy2 import mpq, mpz

from auditor.game.bounds import EchoBounds
from auditor.game.cover import root_cover
from auditor.game.curves import Chain
from auditor.game.levels import CurveLevels
from auditor.game.lookups import Lookups
from auditor.game.screen import screened_alternatives

__all__ = ["Game", "Routes"]


_ONE = mpq(1)


ROOT_MODES = ("auto", "cover", "all")


class Routes(NamedTuple):
    """How a :class:`Game` evaluates, fixed when it is built (immutable).

    Every route is exact and gives the same values (the tests compare them);
    they only change the speed.  ``roots``: the preparations searched at a
    root (:meth:`Game.root_preparations`); ``screening``: discard root
    alternatives by :mod:`auditor.game.screen`; ``echo_bounds``: skip echoes
    proved below the other options (:mod:`auditor.game.bounds`); ``lazy_echo``:
    explore large sums (echo, second participation) by slope (:func:`auditor.game.sums.envelope_with_sums`);
    ``eager_level``: build a whole F level at once when it has at most this
    many residue curves; ``mirror``: use the mirror invariance of symmetric
    laws and ``transpose``: use the transposition of every law (both in
    :class:`Game`); ``preset_roots``: ((level, preparations), ...) to
    search instead (tests that must be able to fail); ``g_curves``: read G
    curves up to this level at every budget instead of the choice of
    :meth:`Game.use_curves_below` (tests compare the point and curve levels).
    """

    roots: str = "auto"
    screening: bool = True
    echo_bounds: bool = True
    lazy_echo: bool = True
    eager_level: int = 4096
    mirror: bool = True
    transpose: bool = True
    preset_roots: tuple = ()
    g_curves: int | None = None


DEFAULT_ROUTES = Routes()


class Game(CurveLevels, Lookups, EchoBounds):
    """Evaluator for one law and feedback fraction; caches curves and values.

    Whole curves are built by :class:`auditor.game.levels.CurveLevels`, the
    integer curve look-ups come from :class:`auditor.game.lookups.Lookups`,
    the echo bounds from :class:`auditor.game.bounds.EchoBounds`.

    Besides R1/R2 two exact invariances shrink the work (tests compare every
    route with a brute force):

    * echo shapes: with a*k = B*m + rho, row_k(n) = f_rho(n + m)
      (:meth:`auditor.game.rows.Law.shifted_row`), and G_q does not depend on
      states, so an echo from (kP, kQ) depends only on (rho_P, rho_Q,
      m_P - m_Q): relabelling the outputs by the common shift m_Q changes no
      probability.  Echo curves and echo point values are keyed by this shape.
    * mirror (symmetric laws only, nu(z) = nu(-z)): row_{-k}(-n) = row_k(n),
      so negating every state and output (and every sign) maps runs to runs
      with the same probabilities: F_q((kP, kQ)) = F_q((-kP, -kQ)), the root
      alternative (k, j) has the value of (-k, -j), and shapes of (kP, kQ)
      and (-kP, -kQ) give equal echoes.  Keys are canonicalised to the smaller
      of a pair and twin root alternatives are searched once.
    * transposition (every law): F_q((kP, kQ); x, y) = F_q((kQ, kP); y, x)
      and G_c(x, y) = G_c(y, x).  By induction on the level: G_0 = max(x, y)
      and x + y are symmetric; the echo terms G_q(y row_kQ(o), x row_kP(o))
      equal G_q(x row_kP(o), y row_kQ(o)); and the participation with sign j
      from (kQ, kP) at (y, x) has the terms
      F_(q-1)((o - j, o); y row_kQ(o - j), x row_kP(o)) =
      F_(q-1)((o', o' + j); ...) read at o' = o - j, i.e. the terms
      F_(q-1)((o' + j, o'); x row_kP(o' + j), y row_kQ(o')) of the
      participation with sign -j from (kP, kQ) (and the same with kP = kQ = k
      for the root alternatives (k, j) and (k, -j), both of which are
      searched).  So the F_q curve of (r, r - j) is the transpose of that of
      (r - j, r) (:meth:`auditor.game.curves.Chain.transposed`), built once
      for both, and the G_c curve is the envelope of the sign +1
      alternatives' curves and their transposes.
    """

    __slots__ = ("law", "B", "D", "g_curve_max", "f_curve_max", "symmetric",
                 "_F_curves", "_G_curves", "_F_memo", "_G_memo",
                 "_echo_memo", "_echo_bounds", "_echo_curves", "_F_bounds_memo", "_powers", "routes", "_root_sets",
                 "_rel", "_split", "_F_tables",
                 "_envelopes", "g_curve_switch", "_point_echoes")

    def __init__(self, law, routes=DEFAULT_ROUTES):
        if routes.roots not in ROOT_MODES:
            raise ValueError(f"unknown root mode {routes.roots!r}")
        self.routes = routes
        self.law = law
        self.B = law.B
        self.D = mpz(law.D)
        self.g_curve_max = 0
        self.f_curve_max = -1
        self.symmetric = routes.mirror and law.is_symmetric()
        self._F_curves = {}
        self._G_curves = {0: Chain.stop(1)}
        self._F_memo = {}
        self._F_bounds_memo = {}
        self._G_memo = {}
        self._echo_memo = {}
        self._echo_bounds = {}
        self._echo_curves = {}
        self._rel = {}
        self._split = {}
        self._F_tables = {}
        self.g_curve_switch = None
        self._point_echoes = 0
        self._envelopes = {}
        self._powers = [1]
        self._root_sets = {c: tuple(zs) for c, zs in routes.preset_roots}

    def use_curves_below(self, budget):
        """Point queries at ``budget`` read curves for F_{<budget-1} and for
        G_{<budget} (budget <= 2) or G_{<budget-1} (budget >= 3).

        G_{budget-1} is needed only at the points of the echoes of F_{budget-1}
        (memoised by shape: a few thousand), and most of those echoes are
        proved below the other options without their value (:meth:`echo_refined`).
        From budget four on, the G_{budget-1} curve would be an envelope of
        Minkowski sums of F_{budget-2} curves with ~10^6 vertices, and the
        points are far cheaper.  At budget three the G_2 curve is affordable:
        it is built once l exact point echoes have been needed (l outputs per
        transition; each point echo costs about 1/l of the curve), so the
        route costs at most about twice the cheaper of the two.  Which levels
        use curves only changes the speed, never a value.
        """
        self.g_curve_max = max(0, budget - 1) if budget <= 3 else budget - 2
        self.f_curve_max = budget - 2
        self.g_curve_switch = None
        if budget == 3 and self._bounds_apply(2) and 2 not in self._G_curves:
            # G_2 at points, its curve built once the exact point echoes cost
            # about as much as the curve would (see :meth:`echo_ratio`)
            self.g_curve_switch = 2
            self.g_curve_max = 1
        if self.routes.g_curves is not None:
            self.g_curve_max = self.routes.g_curves
            self.g_curve_switch = None

    def root_preparations(self, c):
        """The z (root state k = B*z) searched at a synchronised node of level c.

        ``Routes.roots`` = "all": every 0 <= z < B^c (R1); "cover": the cover of
        :mod:`auditor.game.cover`; "auto": the smaller of the two
        (:func:`auditor.game.cover.root_cover`).  ``Routes.preset_roots``
        overrides a level.
        """
        zs = self._root_sets.get(c)
        if zs is None:
            mode = self.routes.roots
            zs = range(self.B ** c) if mode == "all" else root_cover(self.law, c, force=mode == "cover")
            self._root_sets[c] = zs
        return zs

    def root_alternatives(self, c, signs=(-1, 1)):
        """(k, j) root participations searched at level c: k = B*z for the
        preparations z and the ``signs``, one of each twin pair of a symmetric
        law: (k, j) and (-k, -j) (the mirror), or, with the sign +1 alone,
        (k, 1) and (-k, 1) (the mirror of the transpose, :meth:`G_curve`)."""
        period = self._power(c)
        seen = set()
        alts = []
        for z in self.root_preparations(c):
            for j in signs:
                key = (z % period, j)
                if self.symmetric:
                    key = min(key, ((-z) % period, j if len(signs) == 1 else -j))
                if key not in seen:
                    seen.add(key)
                    alts.append((self.B * z, j))
        return alts

    # -- keys -----------------------------------------------------------------
    def _f_key(self, q, k, j):
        """Canonical (r, j) of F_q((k - j, k)): r = k mod B^(q+1) (R2), mirrored."""
        period = self._power(q + 1)
        r = k % period
        if self.symmetric:
            rm = (-r) % period
            if (rm, -j) < (r, j):
                return rm, -j
        return r, j

    def _shape(self, kP, kQ):
        """Echo shape (rho_P, rho_Q, m_P - m_Q) of a state pair, mirrored."""
        a, B = self.law.a, self.B
        mP, rP = divmod(a * kP, B)
        mQ, rQ = divmod(a * kQ, B)
        key = (rP, rQ, mP - mQ)
        if self.symmetric:
            mP, rP = divmod(-a * kP, B)
            mQ, rQ = divmod(-a * kQ, B)
            key = min(key, (rP, rQ, mP - mQ))
        return key

    # -- one transition -----------------------------------------------------
    def _relative(self, kP, kQ, j):
        """(shift, items): the outputs of one transition relative to a shift.

        With a*k = B*m + rho, row_kP(o - j) = f_rhoP[u + mP - j - mQ] and
        row_kQ(o) = f_rhoQ[u] for u = o + mQ, so the items (u, p, qq, p/qq)
        depend only on (rho_P, rho_Q, mP - j - mQ) and are cached by it; the
        output is o = u + shift with shift = -mQ.  p/qq is None when p*qq = 0.
        """
        a, B = self.law.a, self.B
        mP, rP = divmod(a * kP, B)
        mQ, rQ = divmod(a * kQ, B)
        d = mP - j - mQ
        key = (rP, rQ, d)
        items = self._rel.get(key)
        if items is None:
            fP = self.law.shifted_row(kP)[1]
            fQ = self.law.shifted_row(kQ)[1]
            us = sorted({u - d for u in fP} | set(fQ))
            items = []
            for u in us:
                p = mpz(fP.get(u + d, 0))
                qq = mpz(fQ.get(u, 0))
                items.append((u, p, qq, mpq(p, qq) if p and qq else None))
            items = tuple(items)
            if len(self._rel) > 200000:
                self._rel.clear()
            self._rel[key] = items
        return -mQ, items

    def transition(self, kP, kQ, j):
        """Outputs o with (P numerator row_kP(o - j), Q numerator row_kQ(o)) over D.

        j = 0 is an echo, j = +-1 a participation with that sign.
        """
        shift, items = self._relative(kP, kQ, j)
        return [(u + shift, p, qq) for u, p, qq, _r in items]

    # -- point values at ratio t = y/x (x = 1) -------------------------------
    def G_ratio(self, c, t):
        """G_c(1, t)."""
        if c == 0 or t == 0:
            return max(mpq(1), t)
        if c <= self.g_curve_max:
            return self.G_curve(c).value_ratio(t)
        key = (c, t)
        v = self._G_memo.get(key)
        if v is None:
            alts = screened_alternatives(self, c, t) if self.routes.screening else None
            v = self._best_alternative(c, t, self.root_alternatives(c) if alts is None else alts)
            self._G_memo[key] = v
        return v

    def _best_alternative(self, c, t, alts):
        """max(1, t, the values of the root alternatives ``alts`` at t).

        Where the F_(c-1) nodes have echo bounds, every alternative is first
        enclosed from its nodes' enclosures (:meth:`_F_bounds`); then
        alternatives are valued exactly in order of decreasing upper end,
        starting from the largest lower end, until the next upper end is at
        most the best value (an alternative left has a value at most its
        upper end, so at most the best; the largest lower end is at most the
        maximum)."""
        v = max(_ONE, t)
        if not (self._bounded(c - 1) and c - 1 > self.f_curve_max):
            for k, j in alts:
                v = max(v, self.participate_ratio(c, k, k, j, t))
            return v
        bounds = [(self._participate_bounds(c, k, j, t), k, j) for k, j in alts]
        v = max([v] + [lo for (lo, _hi), _k, _j in bounds])
        for (_lo, hi), k, j in sorted(bounds, key=lambda b: b[0][1], reverse=True):
            if hi <= v:
                break
            v = max(v, self.participate_ratio(c, k, k, j, t))
        return v

    def _participate_bounds(self, c, k, j, t):
        """(lo, hi) around the root participation (k, k, j) at t: its sum with
        each F_(c-1) node replaced by the ends of :meth:`_F_bounds`."""
        lo = hi = mpq(0)
        for o, p, qq in self.transition(k, k, j):
            if p == 0 or qq == 0:
                lo += p + t * qq
                hi += p + t * qq
            else:
                a, b = self._F_bounds(c - 1, o, j, t * qq / p)
                lo += p * a
                hi += p * b
        return lo / self.D, hi / self.D

    def _F_bounds(self, q, k, j, t):
        """(lo, hi) around F_q((k - j, k); 1, t) at a level with echo bounds:
        lo the stop and participations, hi the larger of lo and the echo's
        upper bound (both the exact value once it is known), memoised."""
        r, j = self._f_key(q, k, j)
        key = (q, r, j, t)
        v = self._F_memo.get(key)
        if v is not None:
            return v, v
        b = self._F_bounds_memo.get(key)
        if b is None:
            lo = self._F_options(q, r - j, r, t)
            b = self._F_bounds_memo[key] = (lo, max(lo, self.echo_upper(q, r - j, r, t)))
        return b

    def F_ratio(self, q, k, j, t):
        """F_q((k - j, k); 1, t), keyed by k mod B^(q+1) (R2) and the mirror."""
        if t == 0:
            return mpq(1)
        r, j = self._f_key(q, k, j)
        if q <= self.f_curve_max:
            return self.F_curve(q, r, j).value_ratio(t)
        key = (q, r, j, t)
        v = self._F_memo.get(key)
        if v is None:
            b = self._F_bounds_memo.pop(key, None)
            if b is not None and b[0] == b[1]:
                v = b[0]              # the echo's bound is below the other options
            else:
                v = self.F_general(q, r - j, r, t, None if b is None else b[0])
            self._F_memo[key] = v
        return v

    def F_general(self, q, kP, kQ, t, options=None):
        """F_q((kP, kQ); 1, t) for any pair of states, by one recursion step
        (``options``: the value of :meth:`_F_options` when known)."""
        if t == 0:
            return mpq(1)
        v = self._F_options(q, kP, kQ, t) if options is None else options
        echo = self.echo_refined(q, kP, kQ, t, v)
        return v if echo is None else max(v, echo)   # None: the echo cannot raise the maximum

    def _F_options(self, q, kP, kQ, t):
        """max of the stop and the two participations of F_q((kP, kQ); 1, t), t > 0."""
        v = max(_ONE, t)
        if q >= 1:
            if q - 1 <= self.f_curve_max:
                # both participations and the stop over one denominator td D^(2q)
                full = self._F_table(q - 1, 1)[3]
                td = t.denominator
                n = max(max(td, t.numerator) * full,
                        self._sum_F_num(q - 1, kP, kQ, -1, t), self._sum_F_num(q - 1, kP, kQ, 1, t))
                v = mpq(n, td * full)
            else:
                for j in (-1, 1):
                    v = max(v, self.participate_ratio(q, kP, kQ, j, t))
        return v

    def _echo_sum(self, kP, kQ, t, value):
        """sum_o V(row_kP(o), t row_kQ(o)) / D over the echo outputs, with
        V(p, s p) = p value(s) and V(p, tq) = p + tq when p q = 0."""
        total = mpq(0)
        for _u, p, qq, r in self._relative(kP, kQ, 0)[1]:
            total += p + t * qq if r is None else p * value(t / r)   # r = p/qq
        return total / self.D

    def echo_ratio(self, q, kP, kQ, t):
        """sum_o G_q(row_kP(o), t row_kQ(o)) / D, memoised by echo shape."""
        key = (q, self._shape(kP, kQ), t)
        v = self._echo_memo.get(key)
        if v is not None:
            return v
        if q == self.g_curve_switch:
            self._point_echoes += 1
            if self._point_echoes > len(self._relative(0, 0, 0)[1]):
                self.g_curve_max = q
                self.g_curve_switch = None
        if q <= self.g_curve_max:
            v = self._sum_at(self.G_curve(q), kP, kQ, 0, t)
        else:
            v = self._echo_sum(kP, kQ, t, partial(self.G_ratio, q))
        self._echo_memo[key] = v
        return v

    def participate_ratio(self, q, kP, kQ, j, t):
        """sum_o F_{q-1}((o-j, o); row_kP(o-j), t row_kQ(o)) / D, budget q >= 1."""
        if q - 1 <= self.f_curve_max:
            return self._sum_F_table(q - 1, kP, kQ, j, t)
        total = mpq(0)
        for o, p, qq in self.transition(kP, kQ, j):
            if p == 0:
                total += t * qq
            elif qq == 0:
                total += p
            else:
                total += p * self.F_ratio(q - 1, o, j, t * qq / p)
        return total / self.D

    def _power(self, e):
        pw = self._powers
        while len(pw) <= e:
            pw.append(pw[-1] * self.B)
        return pw[e]
