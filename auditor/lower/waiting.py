"""The waiting recursion of the finite-deadline witness (*Hidden Integer Feedback* §7.1, App. D.1).

States k in an invariant window K = [low, high] (row_k(n) > 0, k ∈ K imply
n ∈ K).  With h, p, q the suffix test values of each state,

    V_0(k) = h(k),   cont_s(k) = Σ_n row_k(n)·V_{s−1}(n),   V_s(k) = max(h(k), cont_s(k)),

and the program with s waits left in k starts the suffix ('S') iff
h(k) >= cont_s(k), else releases commonly ('W').  Its event probabilities
follow the same table:

    P_0 = p,  P_s(k) = p(k) on 'S', Σ_n row_k(n)·P_{s−1}(n) on 'W'   (same for Q),

and V_s = P_s − λQ_s by linearity (h = p − λq), so only P and Q are
propagated.  All numbers are integer numerators: P_s over D^{m+s}.
"""

from operator import mul


def window_rows(law, low, high):
    """Rows of every window state as (first index into the window, numerator list).

    Returns (rows, escapes): ``escapes`` lists (k, n) with row_k(n) > 0 and n
    outside the window (the invariance claim fails there).
    """
    rows, escapes = [], []
    for k in range(low, high + 1):
        r = law.row(k)
        outside = [n for n in r if n < low or n > high]
        escapes.extend((k, n) for n in outside)
        first, last = min(r), max(r)
        rows.append((first - low, [r.get(n, 0) for n in range(first, last + 1)]))
    return rows, escapes


class Waiting:
    """Runs the recursion for s = 1..max_waits and yields each step's decisions and vectors."""

    def __init__(self, law, rows, p_num, q_num, lam):
        self.D = law.D
        self.rows = rows
        self.p = p_num          # over D^m
        self.q = q_num
        self.ln, self.ld = lam.numerator, lam.denominator

    def steps(self, max_waits):
        """Yield (s, decisions string, P_s list, Q_s list) for s = 0..max_waits (s = 0: no decisions)."""
        P, Q = list(self.p), list(self.q)
        yield 0, "", P, Q
        hv = [pk * self.ld - self.ln * qk for pk, qk in zip(self.p, self.q)]   # λ-denominator times h·D^m
        scale = 1                                                             # D^s
        for s in range(1, max_waits + 1):
            scale *= self.D
            newP, newQ, chars = [], [], []
            for i, (start, r) in enumerate(self.rows):
                end = start + len(r)
                cP = sum(map(mul, r, P[start:end]))
                cQ = sum(map(mul, r, Q[start:end]))
                if hv[i] * scale >= cP * self.ld - self.ln * cQ:
                    chars.append("S")
                    newP.append(self.p[i] * scale)
                    newQ.append(self.q[i] * scale)
                else:
                    chars.append("W")
                    newP.append(cP)
                    newQ.append(cQ)
            P, Q = newP, newQ
            yield s, "".join(chars), P, Q
