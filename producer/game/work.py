"""The estimated-work model of the finite game and its limits (refuse before computing).

Units: one unit is about 0.26 µs of CPU on the 2-core development machine
(5·10⁸ units, the limit, about two minutes); memory in bytes.  The model
follows the structure of the engine, with ℓ = support length + 2 (outputs per
row) and R_c the number of root alternatives of the cover at level c:

- budgets C <= 2 (curves G_q for q < C, the root at points):
  max(C, 1)·R_C·ℓ² + Σ_{q<C} R_q·ℓ^(q+2)  (the support reduction:
  (2B + roots)·ℓ²·max(C, 1): it tabulates one F_0 curve per residue mod B);
- budgets C >= 3 (producer/game/points.py: curves G_q, q <= qg = C − 2, and
  F_q, q <= qf = max(1, C − 3); the other levels at points, screened):
    G_q curves       4·R_q·ℓ^(q+1)                       (|G_q| ≈ ℓ^(q+1))
    F_q curves       2·N_q·ℓ^(q+2),  N_q = 2·min(B^(q+1), R_{q+1}·ℓ)
    float screening  min(R_C, B)·R_{C−1}·ℓ³·(C − 2)/4    (×3 when F_{C−2} is a point level)
    exact values     16·ℓ^h, h = (C − qg) + (C − 1 − qf) point levels on a path;
  memory: the float echo curves of point-level F_q (2B curves of ℓ·|G_q|
  entries), the F_q curves, the G_qg alternatives before their hull, and the
  vectorised blocks;
- a pending query F_C evaluates G_C at ℓ points: ℓ times the C <= 2 formula;
  a whole root curve G_C is built like the curves of budget C + 1.
The constants were fitted to whole-process measurements (docs/benchmarks.md);
the model only has to be right within a small factor, and it is evaluated in
well under a second for any request.
"""

from producer.errors import InputError, ReachError

MAX_BUDGET = 6
MAX_WORK = 5 * 10**8           # units of about 0.26 µs: about two minutes here
MAX_MEMORY = 5 * 2**28         # 1.25 GiB
BASE_MEMORY = 80 * 2**20       # interpreter, gmpy2, flint, numpy
BLOCK_MEMORY = 160 * 2**20     # vectorised float blocks (points.CHUNK elements)
EXACT_VERTEX = 300             # bytes of one exact curve vertex (two big integers and a slope)
FLOAT_ENTRY = 24               # bytes of one float curve entry (slope, A, B)
ADVICE = "reduce the budget, the support or B"  # what a refused game request may change


class Estimate:
    """Estimated work units and peak memory (bytes) of one request."""

    __slots__ = ("work", "memory")

    def __init__(self, work, memory):
        self.work, self.memory = int(work), int(memory)

    def __repr__(self):
        return f"Estimate(work={_sci(self.work)}, memory={_sci(self.memory / 2**20)} MiB)"


def _gib(n):
    return f"{n / 2**30:.2f}" if int(n).bit_length() < 1000 else _sci(int(n) >> 30)


def _sci(n):
    """``n`` as 1.08e+20, also beyond the float range (B = 10^400 makes estimates of 10^800)."""
    n = int(n)
    if n.bit_length() < 1000:
        return f"{n:.3g}"
    return f"about 10^{int(n.bit_length() * 0.30103)}"


def support_terms(law):
    return len(law.trimmed().weights) + 2


def root_estimate(law, gamma, budget, cover):
    """The estimate of G_budget at one point with the given root cover."""
    law = law.trimmed()
    ell = support_terms(law)
    if budget <= 2:
        screened = gamma.B * ell if budget == 2 and cover.name != "reduced" else 0
        return Estimate(_small_budget_work(law, gamma, budget, cover) + SCREEN_UNITS * screened,
                        BASE_MEMORY + _small_budget_memory(law, ell, budget) + SCREEN_BYTES * screened)
    return _point_levels_estimate(law, gamma, budget, cover, ell)


def _small_budget_work(law, gamma, budget, cover):
    ell = support_terms(law)
    if cover.name == "reduced":
        roots = cover.size(law, gamma, budget) if budget else 1
        return (2 * gamma.B + roots) * ell ** 2 * max(budget, 1)
    sizes = {c: _residues(cover, law, gamma, c) for c in range(1, budget + 1)}
    work = max(budget, 1) * sizes.get(budget, 1) * ell ** 2
    return work + sum(sizes[q] * ell ** (q + 2) for q in range(1, budget))


def _small_budget_memory(law, ell, budget):
    # the G_{C−1} curve and its F curves: about ℓ^C vertices each
    return 4 * ell ** max(budget, 1) * EXACT_VERTEX


# The float screening of G_2's root alternatives (producer.game.screening) tabulates every residue
# 0 <= ρ < B: two F_0 curves and three row pairs of about ℓ entries each.  Measured at B = 3·10^4 and
# 10^5, ℓ = 6..13: 130-150 µs and 8-11 KB per residue (γ = 1/10^6 used to run for minutes into 8 GB).
SCREEN_UNITS = 80      # work units per residue and support term
SCREEN_BYTES = 1200    # bytes per residue and support term


def _residues(cover, law, gamma, c):
    """Residues per level (the old model counts residues, not signs)."""
    signs = 1 if law.is_symmetric() else 2
    return max(1, cover.size(law, gamma, c) // signs)


def _point_levels_estimate(law, gamma, C, cover, ell):
    B = gamma.B
    R = {c: cover.size(law, gamma, c) for c in range(1, C + 1)}
    qg, qf = C - 2, max(1, C - 3)
    work = sum(4 * R[q] * ell ** (q + 1) for q in range(1, qg + 1))
    memory = BASE_MEMORY + BLOCK_MEMORY
    for q in range(1, qf + 1):
        n_curves = 2 * min(B ** (q + 1), R[q + 1] * ell)
        work += 2 * n_curves * ell ** (q + 2)
        memory += n_curves * ell ** (q + 1) * (EXACT_VERTEX + FLOAT_ENTRY)
    float_factor = 3 if C - 2 > qf else 1
    work += min(R[C], B) * R[C - 1] * ell ** 3 * (C - 2) * float_factor // 4
    work += 16 * ell ** ((C - qg) + (C - 1 - qf))
    for q in range(qf + 1, qg + 1):   # float echo curves of point-level F_q
        memory += 2 * B * ell * ell ** (q + 1) * FLOAT_ENTRY
    memory += R[qg] * ell ** (qg + 1) * EXACT_VERTEX   # G_qg alternatives before their hull
    return Estimate(work, memory)


def pending_estimate(law, gamma, budget):
    """F_budget at one pending pair: G_budget at about ℓ points, all roots (the plain engine)."""
    ell = support_terms(law)
    B = gamma.B
    work = max(budget, 1) * B ** budget * ell ** 2 + sum(B ** q * ell ** (q + 2) for q in range(1, budget))
    return Estimate(work * ell, BASE_MEMORY + _small_budget_memory(law, ell, budget))


def curve_estimate(law, gamma, budget):
    """Building the whole G_budget (or F_budget) curve: curves of every level up to budget."""
    ell = support_terms(law)
    B = gamma.B
    work = (max(budget + 1, 1) * B ** (budget + 1) * ell ** 2
            + sum(B ** q * ell ** (q + 2) for q in range(1, budget + 1)))
    return Estimate(work, BASE_MEMORY + _small_budget_memory(law, ell, budget + 1))


def check_budget(budget):
    if budget < 0:
        raise InputError(f"budget: must be >= 0, got {budget}")
    if budget > MAX_BUDGET:
        raise ReachError(f"budget: C = {budget} exceeds the limit C <= {MAX_BUDGET}")


def check_estimate(estimate, law, gamma, budget, what):
    """Refuse a request whose estimate exceeds MAX_WORK or MAX_MEMORY, stating both."""
    B = gamma.B if gamma.B < 10**15 else _sci(gamma.B)
    size = f"B = {B}, support length {len(law.trimmed().weights)}, C = {budget}"
    if estimate.work > MAX_WORK:
        raise ReachError(f"estimated work {_sci(estimate.work)} units for {what} ({size}) exceeds the limit "
                         f"{MAX_WORK:.0e}", ADVICE)
    if estimate.memory > MAX_MEMORY:
        raise ReachError(f"estimated memory {_gib(estimate.memory)} GiB for {what} ({size}) exceeds the "
                         f"limit {MAX_MEMORY / 2**30:.2f} GiB", ADVICE)
