"""The G.6 mean-square identity, recomputed by an exact moment recursion (*Hidden Integer Feedback* §7.4, App. G.6, J).

The chain K_0 = 0, K_t = η_t − floor((a·K_{t−1} + U_t)/B) has rows
row_k(n) (counted hidden draws, :mod:`auditor.game.rows`).  For S_t = Σ_{s<=t} h_s·K_s
the auditor propagates, per state k, the mass m_t(k) = Pr[K_t = k] and the
partial moments M1_t(k) = E[S_t; K_t = k], M2_t(k) = E[S_t²; K_t = k]:

    m_{t}(n)  = Σ_k row_k(n)·m_{t−1}(k)
    M1_{t}(n) = Σ_k row_k(n)·(M1_{t−1}(k) + h_t·n·m_{t−1}(k))
    M2_{t}(n) = Σ_k row_k(n)·(M2_{t−1}(k) + 2h_t·n·M1_{t−1}(k) + h_t²n²·m_{t−1}(k))

so E(S_n)² = Σ_n M2_n(n) exactly — the same number as enumerating every
(η, U) path, without the martingale decomposition the identity asserts.
Independently, c_j = Σ_{t>=j} h_t(−γ)^{t−j}, r_j = {γK_{j−1}} = (a·K_{j−1} mod B)/B
and E[r_j(1 − r_j)] come from the law m_{j−1}.
"""

from fractions import Fraction


def state_laws(law, steps):
    """[m_0, ..., m_steps]: the law of K_t as dict state -> Fraction."""
    laws = [{0: Fraction(1)}]
    for _ in range(steps):
        nxt = {}
        for k, mass in laws[-1].items():
            for n, num in law.row(k).items():
                nxt[n] = nxt.get(n, 0) + mass * Fraction(num, law.D)
        laws.append(nxt)
    return laws


def mean_square(law, h):
    """E(Σ_t h_t K_t)² by the moment recursion."""
    m = {0: (Fraction(1), Fraction(0), Fraction(0))}
    for ht in h:
        nxt = {}
        for k, (m0, m1, m2) in m.items():
            for n, num in law.row(k).items():
                r = Fraction(num, law.D)
                step = ht * n
                a0, a1, a2 = nxt.get(n, (0, 0, 0))
                nxt[n] = (a0 + r * m0, a1 + r * (m1 + step * m0), a2 + r * (m2 + 2 * step * m1 + step * step * m0))
        m = nxt
    return sum(v[2] for v in m.values())


def coefficients(h, gamma):
    """c_j = Σ_{t>=j} h_t·(−γ)^{t−j}, j = 1..n (backward: c_n = h_n, c_j = h_j − γ·c_{j+1})."""
    c = [Fraction(0)] * len(h)
    acc = Fraction(0)
    for j in range(len(h) - 1, -1, -1):
        acc = h[j] - gamma * acc
        c[j] = acc
    return c


def residual_variances(law, laws):
    """E[r_j(1 − r_j)], r_j = (a·K_{j−1} mod B)/B, for j = 1..len(laws) − 1."""
    out = []
    for dist in laws[:-1]:
        total = Fraction(0)
        for k, mass in dist.items():
            r = Fraction((law.a * k) % law.B, law.B)
            total += mass * r * (1 - r)
        out.append(total)
    return out
