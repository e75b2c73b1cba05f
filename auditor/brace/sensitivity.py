"""The count envelope of the BRACE sensitivity (universal non-activation;
*BRACE: Differential Privacy for Dense Associative Memory with LSR Energy*, the sensitivity function).

When (2t+1)^2 <= κT no bank activates a correction, L_t(B) = 2r/max(1, |I(B, y)|)
and, with m = |I(D, y_{t-1})|,

    Δ̄_t = max(2r/n, max_{0<=k<=n} e^{-γk} 2r / max(1, m-k)).

The auditor evaluates the envelope for any rational stand-ins of r and e^{-γ}
(every term is increasing in both, so upper / lower stand-ins give upper /
lower bounds of Δ̄_t), at the only three k that can attain the maximum over
k = 0..n (:func:`envelope`: the terms are log-convex in k), its own proof
rather than the producer's shortcut.
"""

from fractions import Fraction

from gmpy2 import mpq


def inactive_everywhere(t, kappa, horizon):
    return (2 * t + 1) ** 2 <= Fraction(kappa) * horizon


def inactive_at_history(history, q, r2, kappa, horizon):
    """Every s <= t: (s+1) r + ||y_{s-1} - q|| <= sqrt(κT) r, for every bank
    (||R_s|| is at most the left side).  Exact: with u = ||y_{s-1} - q||^2/r^2,
    c = s+1, it is κT - u - c^2 >= 0 and 4c^2 u <= (κT - u - c^2)^2."""
    K = Fraction(kappa) * horizon
    for s, y in enumerate(history, start=1):
        u = sum(((a - b) ** 2 for a, b in zip(y, q)), Fraction(0)) / r2
        c = s + 1
        rest = K - u - c * c
        if rest < 0 or 4 * c * c * u > rest * rest:
            return False
    return True


def envelope(m, n, r, e):
    """(value, first maximising k or -1 for the floor) of
    max(2r/n, max_{0<=k<=n} t_k), t_k = e^k 2r / max(1, m − k), for 0 <= m <= n and e > 0.

    Only k = 0, m − 1 and n need evaluating.  For k + 1 <= m − 1 the ratio
    t_{k+1}/t_k = e·(m − k)/(m − k − 1) strictly increases with k, so log t_k is
    strictly convex on 0..m−1: every interior term lies strictly below the larger
    end, which is the first maximiser there (t_0 on a tie).  For k >= m − 1 (all
    k when m = 0), max(1, m − k) = 1 and t_k = 2r·e^k is non-increasing when
    e <= 1 (its first maximiser is its first k) and strictly increasing when e > 1
    (its maximiser is n).  A term replaces the floor only when strictly above it.
    Three exact terms, one power each, whatever m and n; the powers (up to
    millions of bits) are formed in gmpy2 rationals, whose normalisation is
    subquadratic, and handed back as a Fraction without a second gcd.
    """
    if e <= 0:
        raise ValueError("the stand-in of e^-gamma must be positive")
    e, two_r = mpq(e.numerator, e.denominator), mpq(2 * r.numerator, r.denominator)
    candidates = [0]
    if m >= 1:
        candidates.append(m - 1)
    if e > 1:
        candidates.append(n)
    best, arg = two_r / n, -1
    for k in sorted(set(candidates)):
        term = e ** k * two_r / max(1, m - k)
        if term > best:
            best, arg = term, k
    return Fraction(best), arg
