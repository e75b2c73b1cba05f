"""Work estimates of a hierarchy/1 check, from the certificate's declared sizes alone.

Computed before any work (docs/hierarchy.md, auditor section):

- pending keys <= 2·Σ_{c=0}^{C−1} Σ_{j=1}^{h(c)} B^j with h(c) the longest word at
  level c (min(H, c+1) for P_H; a block length for U_S): *Hidden Integer Feedback* Theorem 6, App. E.2, G.1;
- alternatives <= 3·pending + Σ_c Σ_{ℓ ∈ A(G_c)} 2·B^ℓ;
- outputs per row <= len(weights) + 3;
- work = alternatives × outputs × (M + 1) × ceil((bits(D) + F + K)/64)
  (one limb product per term and prior, sized by the integers involved).

Limits: MAX_WORK (about three minutes of CPU on the 2-core development machine, which
checks about 10^8 units a second; the C8 P_4 reference at 1503 priors is 1.2·10^9), MAX_PENDING
and MAX_WORDS (graph and word tables), MAX_LEVEL_ENTRIES (int64 limb tables of one level).
"""

from auditor.outcomes import Unchecked
from auditor.rationals import ceil_div

__all__ = ["MAX_WORK", "MAX_PENDING", "MAX_WORDS", "MAX_LEVEL_ENTRIES", "estimates", "refuse_beyond_limits"]

MAX_WORK = 15 * 10 ** 9
MAX_PENDING = 200_000
MAX_WORDS = 10 ** 6
MAX_LEVEL_ENTRIES = 10 ** 7


def estimates(model, B, n_weights, grid_points, bits):
    """Dict of the estimated quantities (see the module docstring).

    Cheap sizes first, each compared with its limit before the next is formed,
    so that a huge budget or base never makes the estimate itself expensive.
    """
    C = model.budget
    out = {"pending": 2 * B * C}              # every level has at least 2·B keys
    if out["pending"] > MAX_PENDING:
        return out
    lengths = [model.longest_word(c) for c in range(C)] + [max(model.root_groups(C))]
    longest = max(lengths)
    if longest * (B.bit_length() - 1) > MAX_WORDS.bit_length():
        out["words"] = B ** min(longest, 64)  # surely beyond the limit; kept small
        return out
    out["words"] = B ** longest
    per_level = [2 * sum(B ** j for j in range(1, h + 1)) for h in lengths[:-1]]
    out["pending"] = sum(per_level)
    roots = sum(2 * B ** ell for c in range(1, C + 1) for ell in model.root_groups(c))
    out["level_entries"] = max(per_level) * grid_points
    out["work"] = (3 * out["pending"] + roots) * (n_weights + 3) * grid_points * ceil_div(bits, 64)
    return out


_LIMITS = (
    ("pending", MAX_PENDING, "/input/model", "pending-node bound"),
    ("words", MAX_WORDS, "/input/model", "words of the longest block (B^length)"),
    ("level_entries", MAX_LEVEL_ENTRIES, "/result/grid/numerators", "table entries of one level"),
    ("work", MAX_WORK, "/result/grid/numerators", "estimated work (alternatives × outputs × priors × limbs)"),
)


def refuse_beyond_limits(model, B, n_weights, grid_points, bits):
    """Raise :class:`Unchecked` when an estimate exceeds its limit."""
    est = estimates(model, B, n_weights, grid_points, bits)
    for key, limit, pointer, what in _LIMITS:
        if key in est and est[key] > limit:
            raise Unchecked(pointer, est[key], limit, what)
    return est
