"""The auditor's documented limits on a ``finite-game/1`` certificate, restated and refused before the work.

docs/certificates.md (``finite-game/1``): the auditor answers UNCHECKED
beyond 10,000 queries, or when its estimated work for one query (curve
look-ups of the root preparations it actually searches) times the number of
queries exceeds 1.5·10⁸.  The producer's own limit is per root solve (its
engine memoises curves across queries, so more queries cost it little), so a
request with many queries could pass the producer's limit and still be beyond
the auditor's: :func:`check_auditable_game` refuses it, with one line naming
the limit, before any game is solved.

The estimate follows the auditor's documented model (one query at level
c = C, or C + 1 for a whole curve; a pending query costs ℓ times a root
query), with ℓ = support width + 2 outputs per transition and P_c the root
preparations searched at level c: min(B^c, the carry-cell vertex count
Π|T_i|, and for a symmetric law at c <= 2 the support reduction's
|K0|·|K2|):

- curve levels: 2·P_c·ℓ^(c+1) for c <= g (g = C − 1 for C <= 3, else C − 2),
  plus P_c·ℓ^(c+2) from c = 2 on (the participation sums G_c folds in),
  R_q·ℓ^(q+2) for 1 <= q <= C − 2, R_0·ℓ, with R_q = B^(q+1) for q >= 1 when
  2·B^(q+1) <= 4096 (a level built whole, one curve per transposed pair;
  for a symmetric law, whose mirror pairs the keys too, R_q = (B^(q+1) + 1) // 2
  there), else R_q = min(B^(q+1), 2·P_(q+1)·ℓ);
- the root: 2·P_C·ℓ memo look-ups plus E distinct F_(C−1) point values
  (E = Σ over the groups of root outputs with one likelihood ratio of
  min(n·P_C, B^C), at most 2·P_C·ℓ), each 3ℓ look-ups for C <= 3; from
  C = 4 on 2ℓ each plus min(2·P_C·ℓ, 2Bℓ) echoes of 2ℓ·P_(C−1)·ℓ;
- C = 1: R_0·ℓ + 2·P_1·ℓ + E·ℓ (each F_0 point value an echo of ℓ look-ups);
- the echo-bound curve of level C − 1 (C >= 3, 2·B^(C−1) <= 4096): 524·ℓ·B^(C−1).

Lower levels use P_c = min(B^c, ⌈P_C^(c/C)⌉).

The file's budget (docs/certificates.md, "The budget of one file"): a
``dg-interval/1`` (and every embedded one) counts 400 × the estimated work of
its one query (so the query limit above is one whole budget) and no memory;
:func:`dg_interval_cost` restates it for :mod:`producer.audit_budget`.
"""

from gmpy2 import iroot, mpq, mpz

from producer.audit_budget import AuditCost
from producer.errors import LimitError, ReachError
from producer.game.work import ADVICE
from producer.laws import FiniteLaw, parse_gamma

MAX_WORK = 15 * 10 ** 7
MAX_QUERIES = 10_000
MAX_LEVEL = 64
EAGER_LEVEL = 4096        # an F level with at most this many residue keys is built whole by the auditor
GBAR_UNITS = 4 * (2 * 64 + 3)   # per output and residue of a level with echo bounds: the curve Gbar_c
DG_INTERVAL_UNITS = 400   # budget work units per unit of the game's estimate, for a dg-interval/1

__all__ = ["auditor_work", "check_auditable_game", "dg_interval_cost", "MAX_WORK", "MAX_QUERIES"]


def _support(law):
    nonzero = [i for i, w in enumerate(law.weights) if w]
    return law.offset + nonzero[0], law.offset + nonzero[-1]


def support_width(law):
    lo, hi = _support(law)
    return hi - lo + 1


def vertex_count(law, gamma, c):
    """Π|T_i| over the closed carry cells of levels 1..c (own offsets from the law's support)."""
    a, B = gamma.a, gamma.B
    lo, hi = _support(law)
    ranges = [(lo, hi)]
    while len(ranges) < c:
        low, high = ranges[-1]
        ranges.append((lo - (-(-a * high // B)) - 1, hi - (a * low) // B))
    count = 1
    for low, high in ranges[:c]:
        count *= B + 1 if high - low + 1 >= B else len({0, B} | {(-a * w) % B for w in range(low, high + 1)})
    return count


def _symmetric(law):
    weights = {law.offset + i: w for i, w in enumerate(law.weights) if w}
    return all(weights.get(-z) == w for z, w in weights.items())


def reduced_count(law, gamma, c):
    """|K0| (c = 1) or |K0|·|K2| (c = 2) of the support reduction."""
    a, B = gamma.a, gamma.B
    lo, hi = _support(law)
    L = max(-lo, hi)
    k0 = len({(-m * a) % B for m in range(-L - 1, L + 2)})
    return k0 if c == 1 else k0 * len({(n * a) % B for n in range(-2 * L - 3, 2 * L + 5)})


def preparations(law, gamma, c):
    """The root preparations the auditor searches at level c."""
    if c <= 0:
        return 1
    n = min(gamma.B ** c, vertex_count(law, gamma, c))
    if c <= 2 and _symmetric(law):
        n = min(n, reduced_count(law, gamma, c))
    return n


def root_ratio_groups(law):
    """Sizes of the groups of root outputs (both signs) with one likelihood ratio w_u / w_(u−j)."""
    weights = {law.offset + i: w for i, w in enumerate(law.weights) if w}
    sizes = []
    for j in (-1, 1):
        groups = {}
        for u, q in weights.items():
            p = weights.get(u - j, 0)
            if p:
                ratio = mpq(q, p)
                groups[ratio] = groups.get(ratio, 0) + 1
        sizes.extend(groups.values())
    return sizes


def _level_counts(B, C, top):
    top = min(int(top), B ** C)
    counts = []
    for c in range(1, C):
        root, exact = iroot(mpz(top) ** c, C)
        counts.append(min(B ** c, int(root) + (0 if exact else 1)))
    return counts + [top]


def query_work(law, gamma, level, pending=False):
    """The auditor's estimated work of one query at ``level`` (see the module docstring)."""
    if level == 0:
        return 1
    B, C, ell = gamma.B, level, support_width(law) + 2
    symmetric = law.is_symmetric()
    P = [None] + _level_counts(B, C, preparations(law, gamma, level))

    def residues(q):
        # one F_q curve per transposed pair of residue keys; a level of at most EAGER_LEVEL keys is built whole
        if q >= 1 and 2 * B ** (q + 1) <= EAGER_LEVEL:
            return (B ** (q + 1) + 1) // 2 if symmetric else B ** (q + 1)
        return min(B ** (q + 1), 2 * P[q + 1] * ell)

    top_points = min(2 * P[C] * ell, sum(min(n * P[C], B ** C) for n in root_ratio_groups(law)))
    work = residues(0) * ell
    if C == 1:
        work += 2 * P[1] * ell + top_points * ell   # each F_0 point value is an echo of ell look-ups
    else:
        for c in range(1, (C - 1 if C <= 3 else C - 2) + 1):
            # G_c's Minkowski sums, and from c = 2 on the participation sums of ell F_(c-1) curves it folds in
            work += 2 * P[c] * ell ** (c + 1) + (P[c] * ell ** (c + 2) if c >= 2 else 0)
        for q in range(1, C - 1):
            work += residues(q) * ell ** (q + 2)
        if C <= 3:
            work += 2 * P[C] * ell + top_points * 3 * ell
        else:
            echoes = min(2 * P[C] * ell, 2 * B * ell)
            work += 2 * P[C] * ell + top_points * 2 * ell + echoes * ell * 2 * P[C - 1] * ell
    if C >= 3 and 2 * B ** (C - 1) <= EAGER_LEVEL:   # the echo-bound curve Gbar_(C-1)
        work += GBAR_UNITS * ell * B ** (C - 1)
    return work * ell if pending else work


def auditor_work(law, gamma, budget, queries, curve=False, pending=False):
    """The auditor's estimate for the whole certificate: one query's work times the number of queries."""
    return query_work(law, gamma, budget + (1 if curve else 0), pending) * max(1, queries)


def check_auditable_game(law, gamma, budget, queries, curve=False, pending=False):
    """LimitError (one line) for a finite-game request the auditor would answer UNCHECKED."""
    if queries > MAX_QUERIES:
        raise LimitError(f"queries: {queries} thresholds and points exceed the auditor's limit {MAX_QUERIES}")
    level = budget + (1 if curve else 0)
    if level > MAX_LEVEL:
        raise ReachError(f"budget: C = {budget} exceeds the auditor's limit {MAX_LEVEL}")
    one = query_work(law, gamma, level, pending)
    if one > MAX_WORK:
        raise ReachError(f"estimated work {one} of the auditor for one query (B = {gamma.B}, support width "
                         f"{support_width(law)}, C = {level}) exceeds its limit {MAX_WORK}", ADVICE)
    work = one * max(1, queries)
    if work > MAX_WORK:
        raise ReachError(f"estimated work {work} of the auditor ({queries} queries × {one}) exceeds its limit "
                         f"{MAX_WORK} for one certificate", f"ask at most {MAX_WORK // one} queries per certificate")


def dg_interval_cost(certificate):
    """The auditor's budget estimate of a ``dg-interval/1`` certificate (dict): 400 × its one query's work."""
    inp, source = certificate["input"], certificate["result"]["source"]
    law = FiniteLaw([int(w) for w in source["weights"]], source["offset"])
    work = query_work(law, parse_gamma(inp["gamma"]), inp["budget"])
    return AuditCost(DG_INTERVAL_UNITS * work, 0, "the finite game", "a smaller C, width or source")
