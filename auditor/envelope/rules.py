"""Decision rules for envelope claims (the auditor's own statement of them).

- "v ≤ b" from enclosures: proved when hi(v) ≤ lo(b); refuted when
  lo(v) > hi(b); unresolved otherwise.
- Many items: refuted if any is refuted, else proved if all are proved,
  else unresolved.
- Ratio maxima: for ρ = (v_h(ω)·s_g) / (v_g(ω)·s_h) over neighbouring ordered
  pairs (h, g) and transcripts ω, max ρ lies in
  [max lo(v_h)·lo(s_g)/(hi(v_g)·hi(s_h)), max hi(v_h)·hi(s_g)/(lo(v_g)·lo(s_h))]
  (no finite upper end when some lower end in a denominator is 0).
"""

from fractions import Fraction

PROVED, REFUTED, UNRESOLVED = "proved", "refuted", "unresolved"


def at_most(value, bound):
    if value.hi <= bound.lo:
        return PROVED
    if value.lo > bound.hi:
        return REFUTED
    return UNRESOLVED


def combine(statuses):
    statuses = list(statuses)
    if REFUTED in statuses:
        return REFUTED
    return PROVED if all(s == PROVED for s in statuses) else UNRESOLVED


def ratio_range(pairs, values, scales=None):
    """(lower, upper) enclosing the max ratio; upper None if unbounded; (None, None) without pairs.

    Ratios are kept as integer pairs (numerator, denominator) and compared by
    cross-multiplication: the same exact comparisons as with Fractions, without
    normalising every intermediate.
    """
    if not pairs:
        return None, None
    one = Fraction(1)
    best_lo = best_hi = None       # (num, den) with den > 0
    bounded = True
    for i, j in pairs:
        sg_lo, sg_hi = (scales[j].lo, scales[j].hi) if scales else (one, one)
        sh_lo, sh_hi = (scales[i].lo, scales[i].hi) if scales else (one, one)
        # lower ratio a.lo·sg_lo / (b.hi·sh_hi); upper ratio a.hi·sg_hi / (b.lo·sh_lo)
        lo_num_s = sg_lo.numerator * sh_hi.denominator
        lo_den_s = sg_lo.denominator * sh_hi.numerator
        hi_num_s = sg_hi.numerator * sh_lo.denominator
        hi_den_s = sg_hi.denominator * sh_lo.numerator
        for a, b in zip(values[i], values[j]):
            n = a.lo.numerator * b.hi.denominator * lo_num_s
            d = a.lo.denominator * b.hi.numerator * lo_den_s
            if best_lo is None or n * best_lo[1] > best_lo[0] * d:
                best_lo = (n, d)
            if b.lo == 0 or sh_lo == 0:
                bounded = False
                continue
            n = a.hi.numerator * b.lo.denominator * hi_num_s
            d = a.hi.denominator * b.lo.numerator * hi_den_s
            if best_hi is None or n * best_hi[1] > best_hi[0] * d:
                best_hi = (n, d)
    lower = Fraction(*best_lo)
    upper = Fraction(*best_hi) if bounded and best_hi is not None else None
    return lower, upper


def ratio_status(lower, upper, bound):
    if lower is None:
        return PROVED
    if lower > bound.hi:
        return REFUTED
    if upper is not None and upper <= bound.lo:
        return PROVED
    return UNRESOLVED
