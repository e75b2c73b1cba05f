"""Bellman and Poisson rows of a window potential, evaluated exactly.

For a potential h, a reward table g (by residue k mod B) and a price u, the
row of (x, d, j) is

    g(x mod B, d, j) − u·|j| + Σ_y K(x, y)·h(y, j) − h(x, d),

K the clamped window rows over D (:func:`auditor.resource.rows.window_rows`).
"""

from auditor.resource.model import SIGNS, state
from auditor.resource.potentials import layer_sums

__all__ = ["bellman_rows", "policy_rows"]


def bellman_rows(K, D, h, M, B, reward, u, pointer):
    """{(x, d, j): row} over every window state and action (h listed everywhere)."""
    sums = layer_sums(K, D, h, M, SIGNS, pointer)
    rows = {}
    for x in range(-M, M + 1):
        k = x % B
        for d in SIGNS:
            here = h[state(x, d, M)]
            for j in SIGNS:
                rows[(x, d, j)] = reward(k, d, j) - u * abs(j) + sums[j][x + M] - here
    return rows


def policy_rows(K, D, phi, M, B, actions, states, reward, u, pointer):
    """{s: row of (x, d, π(s))} over the states ``s`` of S*(π) (phi listed on S*(π))."""
    used = sorted({actions[s] for s in states})
    sums = layer_sums(K, D, phi, M, used, pointer)
    rows = {}
    for s in sorted(states):
        x, d = s // 3 - M, s % 3 - 1
        j = actions[s]
        rows[s] = reward(x % B, d, j) - u * abs(j) + sums[j][x + M] - phi[s]
    return rows
