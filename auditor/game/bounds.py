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

itself a testing curve (the envelope of the stop and two Minkowski sums of
E_j, :mod:`auditor.game.levels`), built once per level, and
echo <= sum_o p_o Gbar_q(t qq_o/p_o) / D.  E_j is the envelope of outer
simplifications of the residue curves (:func:`auditor.game.curves.dominating_chain`:
each run of vertices lies in the triangle of its end edge lines, whose apex,
rounded up, dominates it), so it is above every one of them.  A bound at most
the other options proves the echo cannot raise the maximum; the value is
then exactly the maximum of the others.

:class:`EchoBounds` is a base of :class:`auditor.game.game.Game`; it reads the
game's routes, ``D``, ``g_curve_max``, ``f_curve_max``, its memos and the methods
``_shape``, ``_echo_sum``, ``_sum_curve``, ``transition``, ``_power`` and
``F_curve``.
"""

from functools import partial
from operator import itemgetter

from gmpy2 import mpq

from auditor.game.curves import Chain, dominating_chain, envelope

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
        """Gbar_c(s) of :meth:`echo_upper` (an upper bound on G_c(1, s))."""
        return self._G_bar_curve(c).value_ratio(s)

    def _G_bar_curve(self, c):
        """The curve of Gbar_c, built once: the envelope of the stop and, per
        sign j, the Minkowski sum over the outputs of a root transition of E_j
        scaled by (p_o, q_o) / D (:mod:`auditor.game.levels`; every root row is
        pure, so every root state has these items).  An output with p_o q_o = 0
        adds p_o + t q_o, the value of the stop curve there.  One binary search
        per bound then replaces one per output and sign."""
        curve = self._envelopes.get(c)
        if curve is None:
            parts = [Chain.stop(1)]
            for j in (-1, 1):
                e = self._residue_envelope(c - 1, j)
                stop = Chain.stop(e.den)
                parts.append(self._sum_curve([(e if p and qq else stop, p, qq)
                                              for _o, p, qq in self.transition(0, 0, j)]))
            curve = self._envelopes[c] = envelope(parts)
        return curve

    def _residue_envelope(self, q, j):
        """A curve E_j above every F_q((r - j, r)) curve: the envelope of their
        outer simplifications (:func:`auditor.game.curves.dominating_chain`,
        about BOUND_POINTS runs each), folded one curve at a time (the same
        hull, without every vertex of the level in one list: memory)."""
        c = Chain.stop(1)
        for r in range(self._power(q + 1)):
            f = self.F_curve(q, r, j)
            c = envelope([c, dominating_chain(f, max(2, len(f) // self.BOUND_POINTS))])
        return c
