"""Rows of the resource-law certificates, rebuilt from the source by counting the hidden draw U.

From hidden state k the step is K' = η − floor((a·k + U)/B), η ~ ν, U uniform
on {0, …, B−1}; :func:`auditor.game.rows.row` gives Pr(K' = n | k) as integer
numerators over D = B·S (S the source scale).  Three kinds of rows:

- residue rows (``rate/1``): P_N(t|s) = Pr(K' ≡ t mod N | k = s) for
  s ∈ [0, B·N).  The same for every k ≡ s mod B·N, since
  floor((a(s + BNq) + u)/B) = floor((as + u)/B) + aNq ≡ floor((as + u)/B) mod N;
- window rows (``frontier/1``, ``window-request/1``, ``finite-budget/1``):
  K(x, y) = Pr(c_M(K') = y | k = x), x, y ∈ [−M, M], c_M the clamp to [−M, M];
- descent rows (``rate/1`` at γ = 1/2): P(e, e') = Pr(K' = e' | k = 1 + e),
  e, e' ∈ [−W, W], the mass outside [−W, W] dropped.

Every row is a list (or a dict of its nonzero entries) of integer numerators over D.
"""

from auditor.game.rows import row

__all__ = ["denominator", "residue_rows", "window_rows", "descent_rows"]


def denominator(source, B):
    """D = B·S, the common denominator of every row."""
    return B * source.scale


def residue_rows(source, a, B, N):
    """[{t: numerator}] for s = 0 … B·N − 1."""
    out = []
    for s in range(B * N):
        folded = {}
        for n, w in row(source.weights, source.offset, a, B, s).items():
            folded[n % N] = folded.get(n % N, 0) + w
        out.append(folded)
    return out


def window_rows(source, a, B, M):
    """[[K(x, y) numerator for y = −M … M] for x = −M … M]."""
    out = []
    for x in range(-M, M + 1):
        line = [0] * (2 * M + 1)
        for n, w in row(source.weights, source.offset, a, B, x).items():
            line[min(M, max(-M, n)) + M] += w
        out.append(line)
    return out


def descent_rows(source, W):
    """[{e' + W: numerator} for e = −W … W]: the γ = 1/2 row of hidden state 1 + e, cut to [−W, W]."""
    out = []
    for e in range(-W, W + 1):
        out.append({n + W: w for n, w in row(source.weights, source.offset, 1, 2, 1 + e).items() if -W <= n <= W})
    return out
