"""Exact likelihood tests of a fixed sign suffix from a synchronised state (*Hidden Integer Feedback* §7.1, App. D.1).

A suffix π = (j_1..j_m) from states (k, k) has transcripts o = (y_1..y_m) with

    P_k(o) = Π_t row_{kP_{t−1}}(y_t − j_t),   Q_k(o) = Π_t row_{kQ_{t−1}}(y_t),
    (kP_t, kQ_t) = (y_t − j_t, y_t),          (kP_0, kQ_0) = (k, k),

rows rebuilt by counting hidden draws (:mod:`auditor.game.rows`).  The likelihood
test at λ accepts A = {o : P_k(o) > λ·Q_k(o)}; p = P_k(A), q = Q_k(A) and
h = Σ_o max(P_k(o) − λQ_k(o), 0) = p − λq.

Route.  The first m − d steps (d = min(m, 2)) are enumerated; each such prefix
(mass X in P, Y in Q, states (kP, kQ)) is completed by the last d steps, an
experiment whose atoms (P(o'), Q(o')) are sorted once by likelihood ratio,
descending, with prefix sums.  The prefix's accepted atoms are those with
X·P(o') > λ·Y·Q(o'): a leading run of the sorted list, found by bisection with
exact cross-multiplication.  Experiments are shared between prefixes by the
translation lemma

    the last-d-steps experiment from (kP + B^d·u, kQ + B^d·u) has the same
    atoms as from (kP, kQ) (its transcripts are translated),

which follows from row_{k+B}(n) = row_k(n + a) (count(z + aB, h) =
count(z, h − a)) by induction on d: shifting both states by B^d·u shifts the
first output by a·B^{d−1}·u and both next states by the same multiple of
B^{d−1}.  Every number is an integer numerator over D^m, D = B·S.
"""

from fractions import Fraction


def ratio_order_key(bits):
    """Sort key putting atoms (P, Q) in descending order of P/Q, Q = 0 first.

    For Q >= 1 the key is floor(P·2^K/Q) with 2^K > Q·Q' for all Q, Q' (K = 2·bits):
    two different ratios differ by at least 1/(Q·Q') > 2^−K, so their keys
    differ and are ordered like the ratios; equal ratios get equal keys.
    """
    K = 2 * bits

    def key(atom):
        P, Q = atom
        if Q == 0:
            return (0, 0)
        return (1, -((P << K) // Q))
    return key


class Experiment:
    """Atoms of the last d steps, sorted by ratio, with prefix sums of P and Q."""

    __slots__ = ("P", "Q", "cumP", "cumQ")

    def __init__(self, atoms):
        atoms = [t for t in atoms if t[0] or t[1]]
        bits = max((Q.bit_length() for _, Q in atoms), default=1)
        atoms.sort(key=ratio_order_key(bits))
        self.P = [P for P, _ in atoms]
        self.Q = [Q for _, Q in atoms]
        self.cumP = [0]
        self.cumQ = [0]
        for P, Q in atoms:
            self.cumP.append(self.cumP[-1] + P)
            self.cumQ.append(self.cumQ[-1] + Q)

    def accepted(self, X, Y):
        """Number of leading atoms with X·P > Y·Q (a monotone predicate along the order)."""
        P, Q = self.P, self.Q
        lo, hi = 0, len(P)
        while lo < hi:
            mid = (lo + hi) // 2
            if X * P[mid] > Y * Q[mid]:
                lo = mid + 1
            else:
                hi = mid
        return lo


def transcript_atoms(law, kP, kQ, signs):
    """All (P, Q) numerators (over D^len(signs)) of the steps ``signs`` from (kP, kQ)."""
    if not signs:
        return [(1, 1)]
    j, rest = signs[0], signs[1:]
    rowP, rowQ = law.row(kP), law.row(kQ)
    out = []
    for y in sorted(set(n + j for n in rowP) | set(rowQ)):
        a, b = rowP.get(y - j, 0), rowQ.get(y, 0)
        if a == 0 and b == 0:
            continue
        for P, Q in transcript_atoms(law, y - j, y, rest):
            out.append((a * P, b * Q))
    return out


def prefixes(law, k, signs):
    """(X, Y, kP, kQ) after the steps ``signs`` from (k, k), over D^len(signs); X > 0 only.

    Prefixes with X = 0 are dropped: none of their transcripts can satisfy
    P > λQ, so they add nothing to A.
    """
    level = [(1, 1, k, k)]
    for j in signs:
        nxt = []
        for X, Y, kP, kQ in level:
            rowP, rowQ = law.row(kP), law.row(kQ)
            for n, a in rowP.items():
                y = n + j
                nxt.append((X * a, Y * rowQ.get(y, 0), y - j, y))
        level = nxt
    return level


class SuffixTests:
    """h, p, q of suffix patterns at threshold λ = lam_num/lam_den, from any start state."""

    def __init__(self, law, lam):
        self.law = law
        self.lam = Fraction(lam)
        self._experiments = {}

    def experiment(self, kP, kQ, signs):
        period = self.law.B ** len(signs)
        u = kQ // period
        key = (kP - period * u, kQ - period * u, tuple(signs))
        e = self._experiments.get(key)
        if e is None:
            e = self._experiments[key] = Experiment(transcript_atoms(self.law, key[0], key[1], list(signs)))
        return e

    def numerators(self, k, pattern):
        """(p_num, q_num) over D^m with p = P_k(A), q = Q_k(A), A = {P > λQ}."""
        m = len(pattern)
        d = min(m, 2)
        head, tail = list(pattern[:m - d]), tuple(pattern[m - d:])
        ln, lden = self.lam.numerator, self.lam.denominator
        p = q = 0
        for X, Y, kP, kQ in prefixes(self.law, k, head):
            e = self.experiment(kP, kQ, tail)
            i = e.accepted(X * lden, Y * ln)
            p += X * e.cumP[i]
            q += Y * e.cumQ[i]
        return p, q

    def numerators_and_count(self, k, pattern):
        """(p_num, q_num, |A|): the accepted transcripts counted as well."""
        m = len(pattern)
        d = min(m, 2)
        head, tail = list(pattern[:m - d]), tuple(pattern[m - d:])
        ln, lden = self.lam.numerator, self.lam.denominator
        p = q = count = 0
        for X, Y, kP, kQ in prefixes(self.law, k, head):
            e = self.experiment(kP, kQ, tail)
            i = e.accepted(X * lden, Y * ln)
            p += X * e.cumP[i]
            q += Y * e.cumQ[i]
            count += i
        return p, q, count

    def values(self, k, pattern):
        """(h, p, q) as Fractions: P_k(A), Q_k(A) and h = p − λq."""
        p_num, q_num = self.numerators(k, pattern)
        Dm = self.law.D ** len(pattern)
        p, q = Fraction(p_num, Dm), Fraction(q_num, Dm)
        return p - self.lam * q, p, q


def brute_force(law, k, pattern, lam):
    """(h, p, q) by listing every complete transcript (tests only; exponential)."""
    Dm = law.D ** len(pattern)
    h = p = q = Fraction(0)
    for P, Q in transcript_atoms(law, k, k, list(pattern)):
        Pf, Qf = Fraction(P, Dm), Fraction(Q, Dm)
        if Pf > lam * Qf:
            p += Pf
            q += Qf
        h += max(Pf - lam * Qf, Fraction(0))
    return h, p, q
