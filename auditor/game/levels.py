"""Whole testing curves of the low levels of the game (built, not evaluated at points).

With the curves of :mod:`auditor.game.curves` (a curve is the support
function of a convex chain, *Hidden Integer Feedback* Appendix A.5):

* a participation from (kP, kQ) with sign j is the Minkowski sum over the
  outputs o of the F_(q-1) residue curve at (o - j, o) scaled by
  (row_kP(o - j), row_kQ(o)) / D (:meth:`CurveLevels.participate_curve`);
* an echo is the same sum of the G_q curve over the echo rows
  (:meth:`CurveLevels.echo_curve`, cached by echo shape, when it is built);
* F_q((kP, kQ); .) is the envelope (hull of the union) of stop, the echo and
  the two participations (:meth:`CurveLevels.general_curve`), keyed by
  residue (R2) in :meth:`CurveLevels.F_curve`;
* G_c is the envelope over the root alternatives (B z, j) of their
  participation curves (:meth:`CurveLevels.G_curve`), folded one
  alternative at a time so that one participation curve is alive.

The support function of a Minkowski sum is the sum of the support functions
and that of a hull of a union is the maximum, so these curves are exactly
the recursion of :mod:`auditor.game.game`.  :class:`CurveLevels` is a base of
:class:`auditor.game.game.Game`; it reads the game's ``D``, routes, curve
caches and the methods ``_shape``, ``_f_key``, ``transition``, ``_power``
and ``root_alternatives``.
"""

from auditor.game import curves
from auditor.game.curves import Chain, envelope
from auditor.game.sums import envelope_with_sums, sum_scaled

__all__ = ["CurveLevels"]


class CurveLevels:
    """The whole-curve levels of :class:`auditor.game.game.Game` (a base class)."""

    __slots__ = ()

    # echo curves of one level are large; a few suffice (shapes recur in order)
    ECHO_CURVE_CACHE = 64

    def _sum_curve(self, terms):
        """Curve of sum_o V_o(p_o x / D, q_o y / D) for (chain, p, q) terms of one level."""
        s = sum_scaled(terms, terms[0][0].den)
        return Chain(s.xs, s.ys, s.den * self.D)

    def participate_terms(self, q, kP, kQ, j):
        """The (F_(q-1) residue curve, p, qq) terms of a participation."""
        return [(self.F_curve(q - 1, *self._f_key(q - 1, o, j)), p, qq)
                for o, p, qq in self.transition(kP, kQ, j)]

    def participate_curve(self, q, kP, kQ, j):
        return self._sum_curve(self.participate_terms(q, kP, kQ, j))

    def general_curve(self, q, kP, kQ):
        """Curve of F_q((kP, kQ); .) for any pair of states.

        Stop and one participation are built whole; the other participation
        and the echo, when their Minkowski sums are large (at least
        :data:`auditor.game.curves.PRUNE_MIN` edges), are not:
        :func:`auditor.game.sums.envelope_with_sums` explores them by slope
        and builds only the parts outside the region of the built curves (the
        same envelope, exactly).  Which participation is built changes only
        the speed: the one with sign kQ - kP, which on the references
        contains the other."""
        G = self.G_curve(q)
        den = G.den * self.D
        sums = []
        if q >= 1:
            first = 1 if kQ > kP else -1
            sums = [self.participate_terms(q, kP, kQ, j) for j in (first, -first)]
        sums.append([(G, p, qq) for _o, p, qq in self.transition(kP, kQ, 0)])
        rest = [Chain.stop(den)]
        lazy = []
        for terms in sums:
            f, r = divmod(den, terms[0][0].den * self.D)
            if r:
                raise AssertionError(f"a level-{q} sum over {terms[0][0].den * self.D}, not a divisor of {den}")
            big = (self.routes.lazy_echo and len(rest) > 1
                   and sum(len(c) for c, _p, _q in terms) >= curves.PRUNE_MIN)
            if terms is sums[-1] and not big:
                rest.append(self.echo_curve(q, kP, kQ, terms))      # over den (f = 1)
                continue
            terms = [(c, p * f, qq * f) for c, p, qq in terms]    # over den: the weights scaled
            if big:
                lazy.append(terms)
            else:
                s = sum_scaled(terms, terms[0][0].den)
                rest.append(Chain(s.xs, s.ys, den))
        return envelope_with_sums(lazy, rest, den) if lazy else envelope(rest)

    def echo_curve(self, q, kP, kQ, terms):
        """Curve of the echo sum_o G_q(x row_kP(o), y row_kQ(o)) (its ``terms``), cached by shape."""
        key = (q, self._shape(kP, kQ))
        c = self._echo_curves.get(key)
        if c is None:
            c = self._sum_curve(terms)
            if len(self._echo_curves) >= self.ECHO_CURVE_CACHE:
                self._echo_curves.clear()
            self._echo_curves[key] = c
        return c

    def F_curve(self, q, r, j):
        """Curve of F_q((r - j, r); .) for a residue r mod B^(q+1)."""
        r, j = self._f_key(q, r, j)
        key = (q, r, j)
        c = self._F_curves.get(key)
        if c is None:
            if q >= 1 and 2 * self._power(q + 1) <= self.routes.eager_level:
                self._build_F_level(q)
                return self._F_curves[key]
            c = self._transposed_twin(key) or self.general_curve(q, r - j, r)
            self._F_curves[key] = c
        return c

    def _transposed_twin(self, key):
        """The curve at ``key`` = (q, r, j) as the transpose of its already
        built twin F_q((r, r - j)) (the transposition of :class:`auditor.game.game.Game`),
        or None."""
        if not self.routes.transpose:
            return None
        q, r, j = key
        twin = self._F_curves.get((q,) + self._f_key(q, r - j, -j))
        return None if twin is None else twin.transposed()

    def _build_F_level(self, q):
        """Every F_q residue curve, grouped by echo shape so that only one
        (large) echo curve is alive at a time; a curve whose transposed twin
        is built already is its transpose."""
        period = self._power(q + 1)
        groups = {}
        for r in range(period):
            for j in (-1, 1):
                key = self._f_key(q, r, j)
                if (q,) + key not in self._F_curves:
                    groups.setdefault(self._shape(key[0] - key[1], key[0]), set()).add(key)
        for keys in groups.values():
            for r, j in sorted(keys):
                key = (q, r, j)
                self._F_curves[key] = self._transposed_twin(key) or self.general_curve(q, r - j, r)
            self._echo_curves.clear()

    def G_curve(self, c):
        """Curve of G_c, the envelope of the root alternatives' participation
        curves, folded one alternative at a time (only the running envelope
        and one participation curve are alive: memory).  With the
        transposition the curve of (k, -j) is the transpose of that of (k, j),
        so the sign +1 suffices when the transpose of the envelope joins it."""
        curve = self._G_curves.get(c)
        if curve is None:
            curve = Chain.stop(1)
            for k, j in self.root_alternatives(c, (1,) if self.routes.transpose else (-1, 1)):
                curve = envelope([curve, self.participate_curve(c, k, k, j)])
            if self.routes.transpose:
                curve = envelope([curve, curve.transposed()])
            self._G_curves[c] = curve
        return curve
