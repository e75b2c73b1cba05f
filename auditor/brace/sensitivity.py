"""The count envelope of the BRACE sensitivity (SPEC 5, universal non-activation).

When (2t+1)^2 <= κT no bank activates a correction, L_t(B) = 2r/max(1, |I(B, y)|)
and, with m = |I(D, y_{t-1})|,

    Δ̄_t = max(2r/n, max_{0<=k<=n} e^{-γk} 2r / max(1, m-k)).

The auditor evaluates the envelope for any rational stand-ins of r and e^{-γ}
(every term is increasing in both, so upper / lower stand-ins give upper /
lower bounds of Δ̄_t), over all k = 0..n without the producer's shortcut.
"""

from fractions import Fraction


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
    """(value, first maximising k or -1 for the floor)."""
    best, arg = 2 * r / n, -1
    power = Fraction(1)
    for k in range(n + 1):
        term = power * 2 * r / max(1, m - k)
        if term > best:
            best, arg = term, k
        if k >= m and e < 1:
            break  # later terms are e^k 2r, decreasing in k
        power *= e
    return best, arg
