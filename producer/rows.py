"""Hidden-rounding rows: the law of the next hidden state.

(*Exact Compilation and Resource Laws for Hidden Integer Feedback*, §3.1; docs/mechanism.md §2.)

From state k write a·k = B·m + ρ with 0 <= ρ < B (floor division).  Then

    row_k(n) = (1 − ρ/B)·ν(n + m) + (ρ/B)·ν(n + m + 1),

because floor((a·k + U)/B) = m + [U >= B − ρ] for U uniform on {0..B−1}.
Rows are kept as integer numerators over D = B·S.
"""

from gmpy2 import mpz


class Row:
    """Integer numerators ``values[i]`` of row(n) at n = start + i, over D = B·S."""

    __slots__ = ("start", "values")

    def __init__(self, start, values):
        self.start = start
        self.values = values

    def __getitem__(self, n):
        i = n - self.start
        if 0 <= i < len(self.values):
            return self.values[i]
        return mpz(0)

    @property
    def stop(self):
        """One past the last output with a stored entry."""
        return self.start + len(self.values)


def mixture_numerators(law, B, rho):
    """Numerators of row_k(n + m) for n + m = law.low − 1 … law.high, when a·k ≡ ρ (mod B).

    Entry i is (B − ρ)·w_{z} + ρ·w_{z+1} with z = law.low − 1 + i.
    """
    low, high = law.low, law.high
    return tuple((B - rho) * law.weight(z) + rho * law.weight(z + 1)
                 for z in range(low - 1, high + 1))


def hidden_rounding_row(law, gamma, k):
    """The row of state ``k`` under ``gamma`` (numerators over B·S)."""
    m, rho = divmod(gamma.a * k, gamma.B)
    return Row(law.low - 1 - m, mixture_numerators(law, gamma.B, rho))
