"""The grid of priors t_i = g_i/2^K and what depends only on (row, output, prior).

For a term with X = g_i·P_n, Y = (2^K − g_i)·Q_n (both >= 0) the prior seen by
the child is s = X/(X + Y).  Its interval is the largest j in 0..M−1 with
t_j <= s, i.e. g_j <= 2^K·X/(X + Y); g_j being an integer this is
g_j <= floor(2^K·X/(X + Y)), found by bisection (j = 0 when X + Y = 0: the
term is zero whatever j is).

One-step excess of a row at prior i (integer, over 2^K·D):
T_i = Σ_n max(g_i·P_n, ḡ_i·Q_n) − D·max(g_i, ḡ_i).
"""

import numpy as np

__all__ = ["Grid", "grid_problems"]


def grid_problems(numerators, K):
    """Why ``numerators`` is not a valid grid at 2^K (empty list when it is)."""
    top = 1 << K
    problems = []
    if numerators[0] != 0:
        problems.append("g_0 must be 0")
    if numerators[-1] != top:
        problems.append("g_M must be 2^K")
    if any(b <= a for a, b in zip(numerators, numerators[1:])):
        problems.append("the numerators must be strictly increasing")
    if (top >> 1) not in set(numerators):
        problems.append("t = 1/2 (2^(K-1)) must be a grid prior")
    return problems


class Grid:
    """A valid grid: numerators g_0 = 0 < … < g_M = 2^K containing 2^(K−1)."""

    __slots__ = ("K", "g", "gbar", "side", "M", "top", "_g_obj", "_gbar_obj")

    def __init__(self, numerators, K):
        self.K = K
        self.top = 1 << K
        self.g = [int(x) for x in numerators]
        self.gbar = [self.top - x for x in self.g]
        self.side = [max(x, y) for x, y in zip(self.g, self.gbar)]
        self.M = len(self.g) - 1
        self._g_obj = np.array(self.g, dtype=object)
        self._gbar_obj = np.array(self.gbar, dtype=object)

    def locations(self, P, Q):
        """Matrix (M+1) × len(P) of interval indices j_n(i) (numpy intp).

        Column n: keys floor(2^K·X/(X + Y)) over the priors (0 where X + Y = 0),
        then the largest j <= M − 1 with g_j <= key (bisection on the exact integers).
        """
        out = np.empty((self.M + 1, len(P)), dtype=np.intp)
        for col, (p, q) in enumerate(zip(P, Q)):
            X = self._g_obj * p
            total = X + self._gbar_obj * q
            empty = total == 0
            keys = (X * self.top) // np.where(empty, 1, total)
            j = np.searchsorted(self._g_obj, keys, side="right") - 1
            out[:, col] = np.minimum(np.where(empty, 0, j), self.M - 1)
        return out

    def one_step_excess(self, P, Q, D):
        """T_i for i = 0..M (list of Python ints)."""
        out = []
        for gi, hi, side in zip(self.g, self.gbar, self.side):
            out.append(sum(max(gi * p, hi * q) for p, q in zip(P, Q)) - D * side)
        return out
