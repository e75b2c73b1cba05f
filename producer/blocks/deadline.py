"""Exact testing curves of n physical releases of the hidden integer feedback mechanism from a state pair.

A release from the worlds' states (k_P, k_Q) with input difference j ∈ {−1, 0, +1}
(chosen before the output) has output y (the Q world's new state) with
P-probability row_{k_P}(y − j) and Q-probability row_{k_Q}(y), and leads to
(y − j, y) (*Exact Compilation and Resource Laws for Hidden Integer Feedback*,
§3.1; docs/mechanism.md).  With n releases left and no budget constraint
(every release may be a participation: T = C),

    W_0 = max(x, y),
    W_n(k_P, k_Q) = max( max(x, y), max_j Σ_y W_{n−1}(y − j, y)(x·row_{k_P}(y − j), y·row_{k_Q}(y)) ),

every maximum before the output sum it precedes.  Curves are
:class:`producer.curves.TestingCurve` chains with integer coordinates over
D^n, D = B·S.

**Periodicity** (used to share work, proved here): shifting both states by
B^n leaves W_n unchanged.  row_{k+B·m}(y) = row_k(y + a·m), so shifting both
states by B·M relabels the outputs by a·M and shifts the next states by −a·M;
with M = B^(n−1)·m that is a shift by B^(n−1)·(−a·m), under which W_{n−1} is
unchanged by induction (W_0 does not depend on the state).  So W_n depends on
(k_P − k_Q, k_Q mod B^n) only.
"""

from gmpy2 import mpz

from producer.curves import TestingCurve, hull_envelope, minkowski_sum
from producer.rows import hidden_rounding_row

ACTIONS = (-1, 0, 1)


class DeadlineCurves:
    """W_n(k_P, k_Q) for one law and γ, memoised per (n, k_P − k_Q, k_Q mod B^n)."""

    def __init__(self, law, gamma, progress=None):
        self.law, self.gamma = law, gamma
        self.D = gamma.B * mpz(law.total)
        self._rows, self._curves = {}, {}
        self.progress = progress or (lambda message: None)

    def row(self, k):
        row = self._rows.get(k)
        if row is None:
            row = self._rows[k] = hidden_rounding_row(self.law, self.gamma, k)
        return row

    def stop(self, n):
        unit = self.D ** n
        return TestingCurve.from_vertices([(mpz(0), unit), (unit, mpz(0))])

    def curve(self, n, k_p, k_q):
        """W_n(k_P, k_Q) (coordinates over D^n)."""
        period = self.gamma.B ** n
        base = k_q % period
        key = (n, k_p - k_q, base)
        found = self._curves.get(key)
        if found is None:
            found = self._curves[key] = self._build(n, base + (k_p - k_q), base)
        return found

    def _build(self, n, k_p, k_q):
        if n == 0:
            return self.stop(0)
        alternatives = [self.stop(n)]
        rp, rq = self.row(k_p), self.row(k_q)
        for j in ACTIONS:
            terms = []
            for y in range(min(rp.start + j, rq.start), max(rp.stop + j, rq.stop)):
                p, q = rp[y - j], rq[y]
                if p or q:
                    terms.append(self.curve(n - 1, y - j, y).scaled(p, q))
            alternatives.append(minkowski_sum(terms))
        return hull_envelope(alternatives)

    def start_states(self, n):
        """Representatives (k_P, k_Q) of every class a block of n releases can start in after a release."""
        return [(r + d, r) for d in (-1, 0, 1) for r in range(self.gamma.B ** n)]

    def dominating(self, n, start):
        """The block's dominating curve: W_n(0, 0) for ``start`` "zero", else the upper envelope over
        every start class (the smallest curve above every state a later block can start in)."""
        if start == "zero":
            return self.curve(n, 0, 0)
        self.progress(f"block of {n} from every state ({3 * self.gamma.B ** n} classes)")
        return hull_envelope([self.curve(n, k_p, k_q) for k_p, k_q in self.start_states(n)])
