"""Work estimates of the finite-game evaluator, from sizes alone.

A check refuses (UNCHECKED) a query whose estimated work is beyond its limit
before any game is built, so these functions must be cheap and must not
under-count by much; they never decide a value.  :func:`estimated_work`
counts curve points built or looked up (one unit is at most about 0.5
microseconds: 0.01-0.35 on the reference games, up to 0.48 on random
asymmetric laws at B = 4..11; the counts themselves are compared with the
estimate in tests/auditor/test_game_work.py) from the support width (:func:`support_width`), the
preparations searched per level (:func:`root_preparation_count`: the
smaller of B^c and the cover of :mod:`auditor.game.cover`) and the groups of root outputs
with one likelihood ratio (:func:`root_ratio_groups`).
"""

from gmpy2 import iroot, mpq, mpz

from auditor.game.cover import cover_size

__all__ = [
    "EAGER_LEVEL", "GBAR_POINTS", "GBAR_UNITS", "estimated_work", "root_point_bound", "root_ratio_groups",
    "support_width", "root_preparation_count",
]

# the evaluator's Routes().eager_level (auditor.game.game; a test holds them
# equal): an F level with at most this many residue curves is built whole
EAGER_LEVEL = 4096
# points of one outer simplification behind the echo bounds: 2 EchoBounds.BOUND_POINTS + 3 (a test holds them
# equal); an echo-bound curve Gbar_c costs at most GBAR_UNITS l B^c (below)
GBAR_POINTS = 2 * 64 + 3
GBAR_UNITS = 4 * GBAR_POINTS


def _level_counts(B, budget, preparations):
    """Upper estimates of the preparations searched at levels 1..budget.

    ``preparations`` is None (B^c, R1), the top level's count (lower levels
    then get min(B^c, P^(c/C)): the cover's size is a product of per-step
    factors that do not shrink from one step to the next), or a sequence of
    per-level counts.
    """
    if preparations is None:
        return [B ** c for c in range(1, budget + 1)]
    if not isinstance(preparations, int):
        counts = [int(n) for n in preparations]
        if len(counts) != budget:
            raise ValueError(f"need {budget} per-level counts, got {len(counts)}")
        return counts
    top = min(int(preparations), B ** budget)
    counts = []
    for c in range(1, budget):
        root, exact = iroot(mpz(top) ** c, budget)
        counts.append(min(B ** c, int(root) + (0 if exact else 1)))
    return counts + [top]


def estimated_work(n_weights, B, budget, preparations=None, pending=False, root_ratios=None, symmetric=False):
    """Upper-bound-ish count of work units (curve points built or looked up)
    for one query at this budget, from sizes alone (used to refuse huge
    requests before any work).  One unit is at most about 0.5 microseconds.

    With l = n_weights + 2 outputs per transition (n_weights: the support
    width, :func:`support_width`), P_c the preparations at
    level c (:func:`root_preparation_count`; B^c without ``preparations``)
    and R_q the F_q residue curves built: F_q((r - j, r)) and
    F_q((r, r - j)) are transposes of each other (the transposition of
    :class:`auditor.game.game.Game`), so one curve is built per pair of the
    2 B^(q+1) keys (the other is its transpose, a copy), every one of the
    B^(q+1) pairs on a level built whole (q >= 1 and 2 B^(q+1) <=
    :data:`EAGER_LEVEL`; the echo bounds need them all), else at most one
    per key reached: R_q = B^(q+1) there, else min(B^(q+1), 2 P_(q+1) l).
    For a ``symmetric`` law the mirror of :class:`auditor.game.game.Game`
    also identifies the keys (r, j) and (-r mod B^(q+1), -j), so a level
    built whole has one curve per orbit of the four maps that mirror and
    transposition generate: by Burnside's lemma, with 2 B^(q+1) keys, no key
    fixed by the transposition or by the mirror and those with 2 r = j mod
    B^(q+1) fixed by both (two keys when B is odd, none when it is even),
    R_q = (B^(q+1) + 1) // 2 there (tests/auditor/test_game_work.py counts
    the curves built):

    * curve levels: each G_c curve (c <= C-1 for C <= 3, else c <= C-2)
      merges 2 P_c Minkowski sums of about l^(c+1) points, and from c = 2 on
      the P_c participation sums it folds in (sign +1; the other sign is
      their transpose) add l F_(c-1) residue curves of about l^(c+1) points
      each: P_c l^(c+2) more; each F_q curve (q <= C-2) about l^(q+2)
      points (its echo), F_0 about l;
    * the top: 2 P_C root participations with l outputs each, reaching at
      most E distinct F_(C-1) point values (memoised by (residue mod B^C,
      sign, ratio)), E = 2 P_C l in general; each costs l look-ups (C = 1:
      its echo of G_0) or 3 l look-ups (C = 2, 3); from C = 4 on, 2 l
      look-ups plus the echoes of F_(C-1), memoised by shape (at most
      min(2 P_C l, 2 B l) of them), each l points of G_(C-1) at 2 P_(C-1) l
      look-ups;
    * ``root_ratios`` (:func:`root_ratio_groups`): the sizes n of the groups
      of root outputs with one likelihood ratio.  Every root row is pure
      (k = B z gives a k = B (a z)), so a root transition with sign j has the
      same (P, Q) items for every preparation, only shifted; the outputs of
      one group reach the ratio t q/p alike, and the memo then holds at most
      min(n P_C, B^C) values per group (B^C residues): E = sum of those,
      which is never more than 2 P_C l;
    * the echo bounds (:mod:`auditor.game.bounds`, the one level c = C-1
      between the G curves and the top, from C = 3 on, when the F_(c-1)
      residue level is built whole: 2 B^c <= :data:`EAGER_LEVEL`): the curve
      Gbar_c, per sign E_j the envelope of B^c simplifications of at most
      :data:`GBAR_POINTS` points each and the Minkowski sum of l scaled copies
      of it (at most l B^c GBAR_POINTS points), then the envelope of the two
      sums and the stop: at most GBAR_UNITS l B^c in all;
    * ``pending``: F_C at a given pair needs G_C at about l points: times l.
    """
    if budget < 0:
        raise ValueError("budget must be >= 0")
    if budget == 0:
        return 1
    if budget > 64:  # far beyond any limit; avoid building giant powers
        return 2 ** 256
    l = n_weights + 2
    C = budget
    P = [None] + _level_counts(B, C, preparations)

    def residues(q):
        # R_q: one curve per transposed pair, every pair on a level built whole
        if q >= 1 and 2 * B ** (q + 1) <= EAGER_LEVEL:
            return (B ** (q + 1) + 1) // 2 if symmetric else B ** (q + 1)
        return min(B ** (q + 1), 2 * P[q + 1] * l)

    top_points = root_point_bound(l, B, C, P[C], root_ratios)
    top_lookups = 0 if root_ratios is None else 2 * P[C] * l      # memo hits at the root
    work = residues(0) * l
    if C == 1:
        work += 2 * P[1] * l + top_points * l
    else:
        g_top = C - 1 if C <= 3 else C - 2
        for c in range(1, g_top + 1):
            work += 2 * P[c] * l ** (c + 1) + (P[c] * l ** (c + 2) if c >= 2 else 0)
        for q in range(1, C - 1):
            work += residues(q) * l ** (q + 2)
        if C <= 3:
            work += top_lookups + top_points * 3 * l
        else:
            echoes = min(2 * P[C] * l, 2 * B * l)
            work += top_lookups + top_points * 2 * l + echoes * l * 2 * P[C - 1] * l
    if C >= 3 and 2 * B ** (C - 1) <= EAGER_LEVEL:
        work += GBAR_UNITS * l * B ** (C - 1)
    return work * l if pending else work


def root_point_bound(l, B, budget, preparations, root_ratios=None):
    """At most this many distinct F_(budget-1) point values are evaluated for
    one query at a synchronised root (``l`` outputs per transition, that many
    ``preparations``): 2 P l, or with ``root_ratios`` the sum over the ratio
    groups of min(n P, B^budget) (see :func:`estimated_work`)."""
    bound = 2 * preparations * l
    if root_ratios is not None:
        bound = min(bound, sum(min(int(n) * preparations, B ** budget) for n in root_ratios))
    return bound


def root_ratio_groups(law):
    """Sizes of the groups of equal likelihood ratio q/p among the outputs of
    the root transitions (both signs) with p*q != 0 (those with p*q = 0 need
    no look-up).  Every root state k = B z has a pure row (phase 0), so this
    does not depend on the preparation (see :func:`estimated_work`)."""
    _m, f = law.shifted_row(0)
    sizes = []
    for j in (-1, 1):
        groups = {}
        for u, qq in f.items():
            p = f.get(u - j, 0)   # P row of state -j: f[u - j] at output u (d = -j)
            if p and qq:
                r = mpq(qq, p)
                groups[r] = groups.get(r, 0) + 1
        sizes.extend(groups.values())
    return tuple(sizes)


def support_width(weights):
    """hi - lo + 1 over the nonzero weights: zeros outside the support produce
    no outputs, so the work estimate counts this width, not len(weights)."""
    nz = [i for i, w in enumerate(weights) if w]
    return nz[-1] - nz[0] + 1 if nz else 0


def root_preparation_count(law, c):
    """How many preparations the evaluator searches at a level-c root:
    min(B^c, cover)."""
    if c <= 0:
        return 1
    B = law.B
    if c > 64:
        return B ** 64
    return min(B ** c, cover_size(law, c))
