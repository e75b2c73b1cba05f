"""The deadline game of T releases as exact testing curves (docs/paper-claims.md §2).

    W_0 = max(x, y)
    W_n(k_P, k_Q)(x, y) = max( max(x, y),
                               max over j ∈ {−1, 0, +1} of Σ_y W_{n−1}(y − j, y)(x·row_{k_P}(y − j), y·row_{k_Q}(y)) )

Output y is the Q world's new state; a release with difference j has P-mass
row_{k_P}(y − j) (rows counted over the hidden draws, :mod:`auditor.game.rows`) and
leads to the states (y − j, y).  W_n is a chain with integer coordinates over
D^n (rows over D = B·S; one Minkowski sum of scaled child chains per action).

Periodicity ([trusted base] §11): W_n(k_P + B^n·m, k_Q + B^n·m) = W_n(k_P, k_Q),
so W_n is memoised by (k_P − k_Q, k_Q mod B^n); every state pair met has
k_P − k_Q ∈ {−1, 0, +1}.
"""

from gmpy2 import mpz

from auditor.game.curves import Chain, envelope
from auditor.game.sums import sum_scaled
from auditor.game.rows import Law

__all__ = ["DeadlineGame"]


class DeadlineGame:
    """W_n curves of one law and feedback fraction a/B (γ = 0: a = 0, B = 1)."""

    def __init__(self, weights, offset, a, B):
        self.law = Law(weights, offset, a, B)
        self.B, self.D = B, self.law.D
        self._memo = {}

    def curve(self, n, kP, kQ):
        """The chain of W_n(k_P, k_Q) over D^n."""
        period = self.B ** n
        r = kQ % period
        key = (n, kP - kQ, r)
        chain = self._memo.get(key)
        if chain is None:
            chain = self._build(n, r + kP - kQ, r)
            self._memo[key] = chain
        return chain

    def _build(self, n, kP, kQ):
        den = mpz(self.D) ** n
        if n == 0:
            return Chain.stop(1)
        rowP, rowQ = self.law.row(kP), self.law.row(kQ)
        options = [Chain.stop(den)]
        for j in (-1, 0, 1):
            outputs = sorted({y + j for y in rowP} | set(rowQ))
            terms = [(self.curve(n - 1, y - j, y), rowP.get(y - j, 0), rowQ.get(y, 0)) for y in outputs]
            total = sum_scaled(terms, den // self.D)
            options.append(Chain(total.xs, total.ys, den))
        return envelope(options)

    def start_classes(self, k):
        """The 3·B^k start pairs (r + d, r), r ∈ 0..B^k − 1, d ∈ {−1, 0, +1}."""
        return [(r + d, r) for r in range(self.B ** k) for d in (-1, 0, 1)]
