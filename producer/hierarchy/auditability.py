"""The auditor's documented limits on a ``hierarchy/1`` certificate, checked before the recursion runs.

docs/certificates.md (``hierarchy/1``) and docs/hierarchy.md §9: from the
declared sizes alone the auditor estimates (docs/hierarchy.md §3; the paper's Appendices E.2, G.1)

- pending keys <= 2·Σ_{c<C} Σ_{j=1}^{h(c)} B^j, h(c) the longest pending word
  at level c (min(H, c+1) for P_H; min(c+1, max_{c<=r<C} ℓ_S(r)) for U_S);
- alternatives <= 3·pending + Σ_{c=1}^{C} Σ_{ℓ ∈ A(G_c)} 2·B^ℓ;
- work = alternatives × (weights + 3) × priors × ⌈(bits(B·S) + F + K)/64⌉;

and answers UNCHECKED when pending > 2·10⁵, B^(longest word) > 10⁶, the
entries of one level (max per-level pending × priors) > 10⁷ or work > 1.5·10¹⁰.
The producer restates the estimate and refuses the same requests, with one
line naming the limit, before the game graph is built.

The file's budget (docs/certificates.md, "The budget of one file") binds
before the work limit: the auditor counts 25 × work units and 1024 bytes per
table entry of one level, so work <= 2.4·10⁹ and <= 1,464,843 entries fit the
default budget.  :func:`budget_cost` restates it; within the limits above it
is at most 7 budgets, which the producer writes with the notice
``auditor verify --budget N`` (:mod:`producer.audit_budget`).
"""

from gmpy2 import mpz

from producer import audit_budget
from producer.errors import LimitError
from producer.hierarchy.models import CutModel, DepthModel, block_length
from producer.laws import parse_gamma

MAX_WORK = 15 * 10 ** 9
MAX_PENDING = 200_000
MAX_WORDS = 10 ** 6
MAX_LEVEL_ENTRIES = 10 ** 7
WORK_UNITS = 25        # budget work units per unit of the work estimate
ENTRY_BYTES = 1024     # budget bytes per table entry of one level
ADVICE = "fewer priors or a smaller model"

__all__ = ["auditor_estimates", "check_auditable_hierarchy", "check_budget", "budget_cost", "certificate_cost"]


def _longest_words(model):
    """h(c) for c = 0..C−1: the longest pending word at level c."""
    C = model.budget
    if isinstance(model, DepthModel):
        return [min(model.depth, c + 1) for c in range(C)]
    suffix_max, running = [0] * C, 0
    for r in range(C - 1, -1, -1):
        running = max(running, block_length(model.cuts, r))
        suffix_max[r] = running
    return [min(c + 1, suffix_max[c]) for c in range(C)]


def auditor_estimates(model, B, n_weights, grid_points, bits):
    """The auditor's estimates (a dict; cheap sizes first, so a huge model stops early)."""
    C = model.budget
    out = {"pending": 2 * B * C}
    if out["pending"] > MAX_PENDING:
        return out
    lengths = _longest_words(model) + [max(model.groups_at_g(C))]
    longest = max(lengths)
    if longest * (B.bit_length() - 1) > MAX_WORDS.bit_length():
        out["words"] = B ** min(longest, 64)
        return out
    out["words"] = B ** longest
    per_level = [2 * sum(B ** j for j in range(1, h + 1)) for h in lengths[:-1]]
    out["pending"] = sum(per_level)
    roots = sum(2 * B ** ell for c in range(1, C + 1) for ell in model.groups_at_g(c))
    out["level_entries"] = max(per_level) * grid_points
    out["work"] = (3 * out["pending"] + roots) * (n_weights + 3) * grid_points * (-(-bits // 64))
    return out


_LIMITS = (("pending", MAX_PENDING, "pending-node bound", "a smaller budget, depth or blocks"),
           ("words", MAX_WORDS, "words of the longest block (B^length)", "shorter blocks or a smaller depth"),
           ("level_entries", MAX_LEVEL_ENTRIES, "table entries of one level", "fewer priors or a smaller model"),
           ("work", MAX_WORK, "work (alternatives × outputs × priors × limbs)", "fewer priors or a smaller model"))


def budget_cost(estimates):
    """The file's budget cost of a hierarchy/1 from :func:`auditor_estimates`: 25 × work, 1024 B an entry."""
    return audit_budget.AuditCost(WORK_UNITS * estimates["work"], ENTRY_BYTES * estimates["level_entries"],
                                  "the hierarchy's tables", ADVICE)


def check_budget(budget, B):
    """LimitError (one line) when C alone puts the auditor's first pending bound 2·B·C above its limit.

    Checked before a model is built: a cut set lists up to C − 1 cuts, so a huge C must stop here.
    """
    if 2 * B * budget > MAX_PENDING:
        largest = MAX_PENDING // (2 * B)
        reach = f"answers C <= {largest}" if largest >= 1 else "answers no C >= 1"
        raise LimitError(f"budget: C = {_shown(budget)} gives the auditor's pending-node bound 2·B·C = "
                         f"{_shown(2 * B * budget)} for γ = a/{_shown(B)}, above its limit {MAX_PENDING}; "
                         f"the hierarchy {reach} for this γ")


def check_auditable_hierarchy(model, B, n_weights, grid_points, scale, scale_bits, grid_bits):
    """The file's budget cost (an :class:`producer.audit_budget.AuditCost`) of the certificate; LimitError (one
    line, naming the estimate and the limit) if the auditor would answer UNCHECKED at any budget it is
    written for."""
    bits = int(mpz(B) * mpz(scale)).bit_length() + scale_bits + grid_bits
    est = auditor_estimates(model, B, n_weights, grid_points, bits)
    for key, limit, what, advice in _LIMITS:
        if key in est and est[key] > limit:
            raise LimitError(f"{model}: the auditor's {what} {_shown(est[key])} exceeds its limit {limit}; "
                             f"use {advice}")
    cost = budget_cost(est)
    audit_budget.check(cost, str(model))
    return cost


def certificate_cost(cert):
    """The file's budget cost of a finished hierarchy/1 certificate (dict), from its declared sizes."""
    inp, res = cert["input"], cert["result"]
    C, model, numerics = inp["budget"], inp["model"], inp["numerics"]
    model = DepthModel(C, model["depth"]) if model["game"] == "depth" else CutModel(C, model["cuts"])
    B = parse_gamma(inp["gamma"]).B
    bits = (int(mpz(B) * mpz(numerics["source_scale"])).bit_length() + res["scale_bits"]
            + res["grid"]["bits"])
    est = auditor_estimates(model, B, len(res["source"]["weights"]), len(res["grid"]["numerators"]), bits)
    return budget_cost(est) if "work" in est else audit_budget.AuditCost(0)


def _shown(n):
    text = str(n)
    return text if len(text) <= 20 else f"{text[:3]}...({len(text)} digits)"
