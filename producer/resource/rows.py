"""Rows of the common rational source, by counting the hidden draw U.

From hidden state k the next state is K' = η − floor((a·k + U)/B), η ~ ν and
U uniform on {0, …, B−1}.  With a·k = B·m + ρ, floor((a·k + U)/B) is m for
B − ρ values of U and m + 1 for ρ values, so

    Pr(K' = n) = [(B − ρ)·w_{n+m} + ρ·w_{n+m+1}] / (B·S).

Every row here is a list of (target, numerator) pairs over the common
denominator D = B·S.
"""

from producer.rows import hidden_rounding_row


def state_row(law, gamma, k):
    """Pr(K' = n | k) as [(n, numerator)] over B·S (zero entries dropped)."""
    row = hidden_rounding_row(law, gamma, k)
    return [(row.start + i, v) for i, v in enumerate(row.values) if v]


def window_rows(law, gamma, radius):
    """x ∈ [−M, M] -> Pr(c_M(K') = y | x) as [(y, numerator)], c_M the clamp to [−M, M]."""
    rows = {}
    for x in range(-radius, radius + 1):
        folded = {}
        for n, v in state_row(law, gamma, x):
            y = max(-radius, min(radius, n))
            folded[y] = folded.get(y, 0) + v
        rows[x] = sorted(folded.items())
    return rows


def residue_rows(law, gamma, period):
    """s ∈ [0, B·N) -> Pr(K' ≡ t mod N | k ≡ s mod B·N) as [(t, numerator)].

    The row depends on k only through k mod B·N: floor((a(s + BNq) + u)/B) =
    floor((as + u)/B) + aNq, which is the same modulo N.
    """
    rows = {}
    for s in range(gamma.B * period):
        folded = {}
        for n, v in state_row(law, gamma, s):
            folded[n % period] = folded.get(n % period, 0) + v
        rows[s] = sorted(folded.items())
    return rows


def descent_rows(law, gamma, window):
    """e ∈ [−W, W] -> Pr(E' = e' | e) for e' ∈ [−W, W] (mass outside dropped), E' = η − floor((e + 1 + U)/2).

    This is the row of the hidden state k = e + 1 at γ = 1/2 (the residual
    chain of the descent program).
    """
    return {e: [(n, v) for n, v in state_row(law, gamma, e + 1) if -window <= n <= window]
            for e in range(-window, window + 1)}


def representative(state):
    """The quotient representative: (x, +1), or (x, 0) with x >= 0."""
    x, d = state
    if d < 0 or (d == 0 and x < 0):
        return (-x, -d), True
    return (x, d), False
