"""Allowed group lengths of the games of *Hidden Integer Feedback* (27), App. G.1 (docs/hierarchy.md §2).

    P_H:  A(G_c) = {1..min(H, c)},   A(R_{c,d}) = {1..min(H, c+1)}
    U_S:  A(G_c) = {ℓ_S(c−1)},       A(R_{c,d}) = {ℓ_S(c)},
          ℓ_S(r) = r − max({b ∈ S : b < r} ∪ {−1})   (cuts by remaining budget, 0-based)
"""

__all__ = ["Model", "block_length"]


def block_length(cuts, r):
    """ℓ_S(r): the positions r−1 … down to the next cut below r (sentinel −1)."""
    below = [b for b in cuts if b < r]
    return r - max(below, default=-1)


class Model:
    """A game above G_C given by its allowed group lengths."""

    __slots__ = ("budget", "depth", "cuts", "_suffix_longest")

    def __init__(self, budget, depth=None, cuts=None):
        self.budget = budget
        self.depth = depth
        self.cuts = None if cuts is None else tuple(cuts)
        self._suffix_longest = None

    @classmethod
    def from_json(cls, budget, model):
        if model["game"] == "depth":
            return cls(budget, depth=model["depth"])
        return cls(budget, cuts=model["cuts"])

    def root_groups(self, c):
        """A(G_c) for c >= 1."""
        if self.depth is not None:
            return tuple(range(1, min(self.depth, c) + 1))
        return (block_length(self.cuts, c - 1),)

    def free_groups(self, c):
        """A(R_{c,d})."""
        if self.depth is not None:
            return tuple(range(1, min(self.depth, c + 1) + 1))
        return (block_length(self.cuts, c),)

    def longest_word(self, c):
        """An upper bound on the length of a pending word at level c (for estimates)."""
        if self.depth is not None:
            return min(self.depth, c + 1)
        if self._suffix_longest is None:
            self._suffix_longest = self._block_suffix_maxima()
        return min(c + 1, self._suffix_longest[c])

    def _block_suffix_maxima(self):
        """max_{c <= r < C} ℓ_S(r) for every c, in one pass over r."""
        cuts = set(self.cuts)
        last, lengths = -1, []
        for r in range(self.budget):
            lengths.append(r - last)         # ℓ_S(r) = r − max{b ∈ S : b < r} (−1 if none)
            if r in cuts:
                last = r
        out = [0] * self.budget
        running = 0
        for r in range(self.budget - 1, -1, -1):
            running = max(running, lengths[r])
            out[r] = running
        return out
