"""Games above G_C: which block lengths may be committed where.

(*Exact Compilation and Resource Laws for Hidden Integer Feedback*, §5.1 and Appendix G.1.)

| game | A(G_c) | A(R_{c,d}) |
|---|---|---|
| G_C | {c} | never reached |
| U_S (cut set S ⊆ {0..C−2}) | {ℓ_S(c−1)} | {ℓ_S(c)} |
| P_H (depth H >= 1) | {1..min(H,c)} | {1..min(H,c+1)} |
| fixed selector σ | {σ(G_c)} | {σ(R_{c,d})} |

ℓ_S(r) = r − max({b ∈ S : b < r} ∪ {−1}): cuts are indexed by the remaining
budget, 0-based (a cut b separates positions b+1 | b).
"""

from producer.errors import InputError


def block_length(cuts, r):
    """ℓ_S(r) = r − max({b ∈ S : b < r} ∪ {−1})."""
    return r - max([b for b in cuts if b < r] + [-1])


class DepthModel:
    """P_H: every block length up to H is allowed; Cvx where several are."""

    def __init__(self, budget, depth):
        self.budget, self.depth = int(budget), int(depth)
        if self.budget < 1:
            raise InputError(f"budget: C must be >= 1, got {self.budget}")
        if self.depth < 1:
            raise InputError(f"depth: H must be >= 1, got {self.depth}")

    def groups_at_g(self, c):
        return tuple(range(1, min(self.depth, c) + 1))

    def groups_at_r(self, c, d):
        return tuple(range(1, min(self.depth, c + 1) + 1))

    def as_json(self):
        return {"game": "depth", "depth": self.depth}

    def __str__(self):
        return f"P_{self.depth}"


SHOWN_CUTS = 12     # a longer cut set is named by its ends and its size (messages stay one short line)


class CutModel:
    """U_S: the blocks between consecutive cuts of S are committed in one go."""

    def __init__(self, budget, cuts):
        self.budget = int(budget)
        if self.budget < 1:
            raise InputError(f"budget: C must be >= 1, got {self.budget}")
        cuts = [int(b) for b in cuts]
        if cuts != sorted(set(cuts)):
            raise InputError(f"cuts: must be strictly increasing, got {cuts}")
        if cuts and (cuts[0] < 0 or cuts[-1] > self.budget - 2):
            raise InputError(f"cuts: must lie in 0..{self.budget - 2} (C = {self.budget}), got {cuts}")
        self.cuts = tuple(cuts)

    def groups_at_g(self, c):
        return (block_length(self.cuts, c - 1),)

    def groups_at_r(self, c, d):
        return (block_length(self.cuts, c),)

    def as_json(self):
        return {"game": "cuts", "cuts": list(self.cuts)}

    def __str__(self):
        cuts = self.cuts
        if len(cuts) <= SHOWN_CUTS:
            return f"U_{{{','.join(map(str, cuts))}}}"
        return (f"U_{{{','.join(map(str, cuts[:4]))},…,{','.join(map(str, cuts[-2:]))}}} "
                f"({len(cuts)} cuts of 0..{self.budget - 2})")


class SelectorModel:
    """A fixed selector: one block length per free state, default the largest allowed by depth H.

    ``choice`` maps ("G", c) or ("R", c, d) to ℓ.
    """

    def __init__(self, budget, depth, choice):
        self.base = DepthModel(budget, depth)
        self.budget, self.choice = self.base.budget, dict(choice)

    def _pick(self, node, allowed):
        ell = self.choice.get(node, allowed[-1])
        if ell not in allowed:
            raise InputError(f"selector: {ell} is not allowed at {node} (allowed {allowed})")
        return (ell,)

    def groups_at_g(self, c):
        return self._pick(("G", c), self.base.groups_at_g(c))

    def groups_at_r(self, c, d):
        return self._pick(("R", c, d), self.base.groups_at_r(c, d))


def all_cuts(budget):
    """S_all = {0..C−2}: one digit per block (U_{S_all} = P_1)."""
    return tuple(range(budget - 1))


def parse_cuts(text, budget):
    """``--cuts``: a comma list, or ``all``, ``all-minus:1,3`` or ``all-minus-mod:4:1`` (b ≡ 1 mod 4 removed)."""
    text = text.strip()
    everything = list(all_cuts(budget))
    try:
        if text == "all":
            return everything
        if text in ("", "none"):
            return []
        if text.startswith("all-minus-mod:"):
            m, r = (int(s) for s in text.split(":")[1:3])
            return [b for b in everything if b % m != r]
        if text.startswith("all-minus:"):
            removed = {int(s) for s in text.split(":", 1)[1].split(",") if s.strip()}
            return [b for b in everything if b not in removed]
        return sorted({int(s) for s in text.split(",")})
    except ValueError:
        raise InputError(f"cuts: cannot read {text!r} "
                         "(write 0,2,5 or all or all-minus:1 or all-minus-mod:4:1)") from None
