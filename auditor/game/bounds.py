"""Upper bounds that let the evaluator skip an echo (they only discard).

At a node F_q((kP, kQ); 1, t) evaluated at points, the echo
sum_o G_q(row_kP(o), t row_kQ(o)) / D is needed only when it can exceed the
node's other options (stop and the two participations).  Where the echo is
expensive, G_q is evaluated point by point with root participations read
from F_(q-1) curves.  For every root alternative (B z, j),
sum_o p_o F_(q-1)((o - j, o); 1, s q_o/p_o) is at most the same sum over a
curve E_j above every F_(q-1)((r - j, r)) (each term replaced by a bound on
the maximum over residues), so

    G_q(1, s) <= max(1, s, max_j sum_o p_o E_j(1, s q_o/p_o) / D) =: Gbar_q(s),

and echo <= sum_o p_o Gbar_q(t qq_o/p_o) / D.  E_j is the envelope of outer
simplifications of the residue curves (:func:`auditor.game.curves.dominating_chain`:
each run of vertices lies in the triangle of its end edge lines, whose apex,
rounded up, dominates it), so it is above every one of them.  A bound at most
the other options proves the echo cannot raise the maximum; the value is
then exactly the maximum of the others.

:class:`EchoBounds` is a base of :class:`auditor.game.game.Game`; it reads the
game's routes, ``D``, ``g_curve_max``, ``f_curve_max``, its memos and the
methods ``_shape``, ``_echo_sum``, ``_scaled``, ``_vertex_sums``, ``_power``
and ``F_curve``.
"""

from functools import partial
from operator import itemgetter

from gmpy2 import mpq

from auditor.game.curves import Chain, dominating_chain, envelope
from auditor.game.lookups import lookup_entry

__all__ = ["EchoBounds"]


class EchoBounds:
    """The echo upper bounds of :class:`auditor.game.game.Game` (a base class)."""

    __slots__ = ()

    # about this many runs per curve in the outer simplification behind the echo bounds
    BOUND_POINTS = 64

    def _bounds_apply(self, q):
        """Echo bounds at level q need every F_(q-1) residue curve (B^q of each
        sign): only where the level is small enough to be built whole."""
        return self.routes.echo_bounds and 2 * self._power(q) <= self.routes.eager_level

    def _bounded(self, q):
        """Echo bounds apply at level q: its echoes are G_q at points, from F_(q-1) curves."""
        return self._bounds_apply(q) and self.g_curve_max < q <= self.f_curve_max + 1

    def echo_upper(self, q, kP, kQ, t):
        """An upper bound on the echo at (q, kP, kQ, t) (the module docstring's
        sum_o p_o Gbar_q(t qq_o/p_o) / D, memoised by echo shape, or the memoised exact echo), or None
        where the echo is cheap (a G_q curve) or no bound applies (for
        :mod:`auditor.game.screen`)."""
        if not self._bounded(q):
            return None
        key = (q, self._shape(kP, kQ), t)
        bound = self._echo_memo.get(key)
        if bound is None:
            bound = self._echo_bounds.get(key)
        if bound is None:
            # by echo shape, like the echo itself: the nodes of one root share a few
            bound = self._echo_bounds[key] = self._echo_sum(kP, kQ, t, partial(self._G_upper, q))
        return bound

    def echo_refined(self, q, kP, kQ, t, v):
        """The echo at (q, kP, kQ, t) exactly, or None when it is proved at most
        ``v`` (:meth:`auditor.game.game.Game.F_general`'s other options).

        Where bounds apply, the bound sum_o p_o Gbar_q(s_o) / D of
        :meth:`echo_upper` is computed first; while it exceeds v its terms are
        replaced by the exact p_o G_q(1, s_o) one at a time (largest p_o
        first), each partial sum (exact terms plus bounds) again an upper
        bound on the echo, so the last is the exact echo."""
        key = (q, self._shape(kP, kQ), t)
        if key in self._echo_memo or not self._bounded(q):
            return self.echo_ratio(q, kP, kQ, t)
        total = mpq(0)
        terms = []
        for _o, p, qq in self.transition(kP, kQ, 0):
            if p == 0 or qq == 0:
                total += p + t * qq
            else:
                s = t * qq / p
                b = p * self._G_upper(q, s)
                total += b
                terms.append((p, s, b))
        limit = v * self.D
        if total > limit and q == self.g_curve_switch:
            return self.echo_ratio(q, kP, kQ, t)   # counts towards building the G_q curve
        terms.sort(key=itemgetter(0), reverse=True)
        for p, s, b in terms:
            if total <= limit:
                return None
            total += p * self.G_ratio(q, s) - b
        echo = self._echo_memo[key] = total / self.D
        return echo

    def _G_upper(self, c, s):
        """Gbar_c(s) of :meth:`echo_upper` (an upper bound on G_c(1, s)), memoised."""
        key = (c, s)
        v = self._G_bar.get(key)
        if v is None:
            v = max(mpq(1), s)
            for j in (-1, 1):
                v = max(v, self._sum_envelope(c - 1, j, s))
            if len(self._G_bar) > 400000:
                self._G_bar.clear()
            self._G_bar[key] = v
        return v

    def _sum_envelope(self, level, j, s):
        """sum_o p_o E_j(1, s q_o/p_o) / D over a root transition with sign j
        (every root row is pure, so all root states give these items), E_j an
        upper bound on every F_level((r - j, r)) curve (:meth:`_residue_envelope`):
        :meth:`auditor.game.lookups.Lookups._vertex_sums` with that one curve."""
        shift, split = self._scaled(0, 0, j, s)
        entry = self._residue_envelope(level, j)
        den = entry[3].den
        # one curve for every output: a table of period 1
        n = self._vertex_sums((entry,), 1, den, shift, split, s, level, j)
        return mpq(n, s.denominator * den * self.D)

    def _residue_envelope(self, q, j):
        """(floor keys, xs, ys, chain) of a curve above every F_q((r - j, r))
        curve: the envelope of their outer simplifications (:func:`auditor.game.curves.dominating_chain`,
        about BOUND_POINTS runs each)."""
        entry = self._envelopes.get((q, j))
        if entry is None:
            # folded one curve at a time: the same hull, without holding every
            # vertex of the level in one list (memory)
            c = Chain.stop(1)
            for r in range(self._power(q + 1)):
                f = self.F_curve(q, r, j)
                c = envelope([c, dominating_chain(f, max(2, len(f) // self.BOUND_POINTS))])
            entry = lookup_entry(c)
            self._envelopes[(q, j)] = entry
        return entry
