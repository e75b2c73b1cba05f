"""The instance of an envelope certificate, read from its ``input``, and its combinatorics.

Histograms: count vectors h with Σ h = n, in lexicographic order.  Two
databases with histograms h, g are at Hamming distance at least
Σ_d max(h(d) − g(d), 0) (records of a value in surplus must change), and that
many changes suffice; this equals ‖h − g‖₁ / 2.  Replacing one record moves
one unit of count, so neighbouring databases have histograms at distance 1.
"""

import itertools
from fractions import Fraction

from auditor.certificate import Malformed
from auditor.common import bounded_binomial, bounded_power  # sizes by formula
from auditor.rationals import read_rational


def _integer(value, pointer, minimum):
    if not isinstance(value, int) or isinstance(value, bool) or value < minimum:
        raise Malformed(f"{pointer}: expected a JSON integer >= {minimum}")
    return value


class Model:
    """T, n, queries (Fractions), J, γ, η, ε, variant; immutable."""

    __slots__ = ("T", "n", "queries", "J", "gamma", "eta", "eps", "variant")

    def __init__(self, doc):
        self.T = _integer(doc["universe"], "/input/universe", 1)
        self.n = _integer(doc["records"], "/input/records", 1)
        _integer(doc["rounds"], "/input/rounds", 1)
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

    def histogram_count(self, cap):
        """H = C(n + T − 1, T − 1), or cap + 1 when larger (never enumerates)."""
        return bounded_binomial(self.n + self.T - 1, self.T - 1, cap)

    def transcript_count(self, cap):
        """N = (2k)^J, or cap + 1 when larger (never builds a large power)."""
        return bounded_power(2 * self.k, self.J, cap)

    def histograms(self):
        """All count vectors of n records on T values, lexicographically (H items, H·T work)."""
        return list(_compositions(self.n, self.T))

    def transcripts(self):
        return list(itertools.product(range(2 * self.k), repeat=self.J))

    def signed(self, s, d):
        """Value at d of signed query s (2j: +q_j, 2j+1: −q_j)."""
        v = self.queries[s // 2][d]
        return v if s % 2 == 0 else -v

    def answers(self, h):
        """F_q(h) = Σ_d h(d)·q(d) / n, exactly."""
        return [sum(Fraction(c) * v for c, v in zip(h, q)) / self.n for q in self.queries]


def _compositions(n, parts):
    """Count vectors of length ``parts`` summing to n, in lexicographic order.

    Successor of h: with j the last index >= 1 where h is positive, move one
    unit to position j − 1 and put the rest of h[j] at the end (the smallest
    tail with that sum).  The last vector is (n, 0, ..., 0).
    """
    h = [0] * parts
    h[-1] = n
    while True:
        yield tuple(h)
        j = next((i for i in range(parts - 1, 0, -1) if h[i]), 0)
        if j == 0:
            return
        rest = h[j] - 1
        h[j] = 0
        h[j - 1] += 1
        h[-1] = rest


def hamming(h, g):
    return sum(max(a - b, 0) for a, b in zip(h, g))


def neighbour_pairs(hists):
    """Ordered pairs (i, j) of histogram indices at distance exactly 1."""
    return [(i, j) for i, h in enumerate(hists) for j, g in enumerate(hists) if hamming(h, g) == 1]
