"""The instance of an envelope certificate, read from its ``input``, and its combinatorics.

Histograms: count vectors h with Σ h = n, in lexicographic order.  Two
databases with histograms h, g are at Hamming distance at least
Σ_d max(h(d) − g(d), 0) (records of a value in surplus must change), and that
many changes suffice; this equals ‖h − g‖₁ / 2.  Replacing one record moves
one unit of count, so neighbouring databases have histograms at distance 1.
"""

import itertools
from fractions import Fraction

from auditor.rationals import read_rational


class Model:
    """T, n, queries (Fractions), J, γ, η, ε, variant; immutable."""

    __slots__ = ("T", "n", "queries", "J", "gamma", "eta", "eps", "variant")

    def __init__(self, doc):
        self.T = doc["universe"]
        self.n = doc["records"]
        self.queries = tuple(tuple(read_rational(v, f"/input/queries/{j}/{d}") for d, v in enumerate(row))
                             for j, row in enumerate(doc["queries"]))
        self.J = doc["rounds"]
        self.gamma = read_rational(doc["hedge"], "/input/hedge")
        self.eta = read_rational(doc["select"], "/input/select")
        self.eps = read_rational(doc["epsilon"], "/input/epsilon")
        self.variant = doc["variant"]

    @property
    def k(self):
        return len(self.queries)

    def problems(self):
        """Reasons the input is not a valid instance (empty list when valid)."""
        out = []
        for j, q in enumerate(self.queries):
            if len(q) != self.T:
                out.append((f"/input/queries/{j}", f"{len(q)} values for a universe of {self.T}"))
            if any(v < 0 or v > 1 for v in q):
                out.append((f"/input/queries/{j}", "a value outside [0, 1]"))
        if self.gamma <= 0:
            out.append(("/input/hedge", "gamma must be positive"))
        if self.eps <= 0:
            out.append(("/input/epsilon", "epsilon must be positive"))
        return out

    def histograms(self):
        """All count vectors of n records on T values, lexicographically."""
        return [h for h in itertools.product(range(self.n + 1), repeat=self.T) if sum(h) == self.n]

    def transcripts(self):
        return list(itertools.product(range(2 * self.k), repeat=self.J))

    def signed(self, s, d):
        """Value at d of signed query s (2j: +q_j, 2j+1: −q_j)."""
        v = self.queries[s // 2][d]
        return v if s % 2 == 0 else -v

    def answers(self, h):
        """F_q(h) = Σ_d h(d)·q(d) / n, exactly."""
        return [sum(Fraction(c) * v for c, v in zip(h, q)) / self.n for q in self.queries]


def hamming(h, g):
    return sum(max(a - b, 0) for a, b in zip(h, g))


def neighbour_pairs(hists):
    """Ordered pairs (i, j) of histogram indices at distance exactly 1."""
    return [(i, j) for i, h in enumerate(hists) for j, g in enumerate(hists) if hamming(h, g) == 1]
