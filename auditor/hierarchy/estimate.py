"""Work estimates of a hierarchy/1 check, from the certificate's declared sizes alone.

Computed before any work (docs/hierarchy.md, auditor section):

- pending keys <= 2·Σ_{c=0}^{C−1} Σ_{j=1}^{h(c)} B^j with h(c) the longest word at
  level c (min(H, c+1) for P_H; a block length for U_S): SPEC-hierarchy 8.6;
- alternatives <= 3·pending + Σ_c Σ_{ℓ ∈ A(G_c)} 2·B^ℓ;
- outputs per row <= len(weights) + 3;
- work = alternatives × outputs × (M + 1) × ceil((bits(D) + F + K)/64)
  (one limb product per term and prior, sized by the integers involved).

Limits: MAX_WORK (about three minutes on the 2-core development machine), MAX_PENDING
and MAX_WORDS (graph and word tables), MAX_LEVEL_ENTRIES (int64 limb tables of one level).
"""

__all__ = ["MAX_WORK", "MAX_PENDING", "MAX_WORDS", "MAX_LEVEL_ENTRIES", "estimates"]

MAX_WORK = 4 * 10 ** 9
MAX_PENDING = 200_000
MAX_WORDS = 10 ** 6
MAX_LEVEL_ENTRIES = 4 * 10 ** 7


def estimates(model, B, n_weights, grid_points, bits):
    """Dict of the estimated quantities (see the module docstring)."""
    C = model.budget
    per_level = [2 * sum(B ** j for j in range(1, model.longest_word(c) + 1)) for c in range(C)]
    pending = sum(per_level)
    roots = sum(2 * B ** ell for c in range(1, C + 1) for ell in model.root_groups(c))
    longest = max([model.longest_word(c) for c in range(C)] + [max(model.root_groups(C))])
    alternatives = 3 * pending + roots
    return {
        "pending": pending,
        "words": B ** longest,
        "level_entries": max(per_level) * grid_points,
        "work": alternatives * (n_weights + 3) * grid_points * (-(-bits // 64)),
    }
