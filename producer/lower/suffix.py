"""Fixed-suffix likelihood tests from a synchronised state.

(*Exact Compilation and Resource Laws for Hidden Integer Feedback*, §7.1 and Appendix D.1.)

A suffix is a sign pattern (j_1, ..., j_m).  From (k, k) a transcript
o = (y_1..y_m) has

    P_k(o) = Π_t row_{kP_{t−1}}(y_t − j_t),   Q_k(o) = Π_t row_{kQ_{t−1}}(y_t),

with (kP_t, kQ_t) = (y_t − j_t, y_t).  The likelihood test at λ accepts
A = {o : P_k(o) > λ·Q_k(o)} and h(k) = P_k(A) − λ·Q_k(A) is the largest
payoff of any event after this fixed suffix.

The last step is summed by one binary search: the outputs of the final row
pair are sorted by likelihood ratio (descending) with prefix sums of P and Q,
so the accepted outputs for a prefix of masses (Pp, Qp) are the first ones
with Pp·rP > λ·Qp·rQ.  Everything is exact integers: rows over D = B·S, λ =
Λ/N, a suffix value over N·D^m.
"""

from functools import cmp_to_key

from gmpy2 import mpz

from producer.rows import hidden_rounding_row


class RowCache:
    """Rows row_k (numerators over D = B·S) of one law and γ, computed once."""

    def __init__(self, law, gamma):
        self.law, self.gamma = law, gamma
        self.denominator = mpz(gamma.B) * law.total
        self._rows = {}

    def __call__(self, k):
        row = self._rows.get(k)
        if row is None:
            row = self._rows[k] = hidden_rounding_row(self.law, self.gamma, k)
        return row

    def support(self, k):
        """The outputs n with row_k(n) > 0."""
        row = self(k)
        return [row.start + i for i, v in enumerate(row.values) if v > 0]


class EchoTable:
    """The last step's outputs of one pair (kP, kQ) with sign j, sorted by likelihood ratio."""

    __slots__ = ("p", "q", "prefix_p", "prefix_q")

    def __init__(self, rows, k_p, k_q, sign):
        row_p, row_q = rows(k_p), rows(k_q)
        outputs = set(n + sign for n in rows.support(k_p)) | set(rows.support(k_q))
        pairs = [(row_p[y - sign], row_q[y]) for y in outputs]
        # descending P/Q (Q = 0 first): compare a/b > c/d as a·d > c·b
        pairs.sort(key=cmp_to_key(lambda u, v: int(v[0] * u[1] - u[0] * v[1])))
        self.p = [a for a, _ in pairs]
        self.q = [b for _, b in pairs]
        self.prefix_p, self.prefix_q = [mpz(0)], [mpz(0)]
        for a, b in pairs:
            self.prefix_p.append(self.prefix_p[-1] + a)
            self.prefix_q.append(self.prefix_q[-1] + b)

    def accepted(self, weight_p, weight_q):
        """Number of leading outputs with weight_p·rP > weight_q·rQ (binary search)."""
        lo, hi = 0, len(self.p)
        while lo < hi:
            mid = (lo + hi) // 2
            if weight_p * self.p[mid] > weight_q * self.q[mid]:
                lo = mid + 1
            else:
                hi = mid
        return lo


class SuffixTest:
    """P_k(A), Q_k(A) of the likelihood test at λ = Λ/N for one sign pattern.

    ``evaluate(k)`` returns integers (P, Q) over D^m; h(k) = (N·P − Λ·Q)/(N·D^m).
    """

    def __init__(self, rows, pattern, lam_num, lam_den):
        if not pattern:
            raise ValueError("a suffix needs at least one step")
        self.rows, self.pattern = rows, tuple(int(j) for j in pattern)
        self.lam_num, self.lam_den = mpz(lam_num), mpz(lam_den)
        self._echo = {}
        self.atoms = 0  # accepted transcripts counted over all evaluations

    def _table(self, k_p, k_q):
        key = (k_p, k_q)
        table = self._echo.get(key)
        if table is None:
            table = self._echo[key] = EchoTable(self.rows, k_p, k_q, self.pattern[-1])
        return table

    def evaluate(self, k):
        return self._descend(k, k, mpz(1), mpz(1), 0)

    def _descend(self, k_p, k_q, mass_p, mass_q, step):
        if step == len(self.pattern) - 1:
            table = self._table(k_p, k_q)
            n = table.accepted(self.lam_den * mass_p, self.lam_num * mass_q)
            self.atoms += n
            return mass_p * table.prefix_p[n], mass_q * table.prefix_q[n]
        sign = self.pattern[step]
        row_p, row_q = self.rows(k_p), self.rows(k_q)
        outputs = set(n + sign for n in self.rows.support(k_p)) | set(self.rows.support(k_q))
        total_p = total_q = mpz(0)
        for y in sorted(outputs):
            a, b = row_p[y - sign], row_q[y]
            if a == 0:
                continue  # P-mass zero: never accepted (ratio 0 < λ for λ > 0)
            p, q = self._descend(y - sign, y, mass_p * a, mass_q * b, step + 1)
            total_p += p
            total_q += q
        return total_p, total_q
