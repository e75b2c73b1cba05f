"""Deciding claims from enclosures: ``proved``, ``refuted`` or ``unresolved``.

Every rule compares exact rational ends, so the same enclosures always give the
same verdict (the auditor applies the same rules, see docs/envelope.md):

- value ≤ bound:  proved if value.hi ≤ bound.lo, refuted if value.lo > bound.hi.
- ratio check for pure DP on (h, h', ω) with h' a neighbour of h:
  the true ratio ρ = p̃_h(ω)·Z_{h'} / (p̃_{h'}(ω)·Z_h) lies in
  [lo·lo / (hi·hi), hi·hi / (lo·lo)]; the enclosure of max ρ over all checks
  is [max of lower ends, max of upper ends]; the claim ρ ≤ e^ε for all checks
  is decided by "value ≤ bound" applied to that enclosure.
- A claim over many items is refuted if any item is refuted, proved if all
  are proved, and unresolved otherwise.
"""

from gmpy2 import mpq

from producer.envelope.enclosures import round_down, round_up
from producer.envelope.histograms import neighbours

PROVED, REFUTED, UNRESOLVED = "proved", "refuted", "unresolved"


def at_most(value, bound):
    """Status of the claim value ≤ bound."""
    if value.hi <= bound.lo:
        return PROVED
    if value.lo > bound.hi:
        return REFUTED
    return UNRESOLVED


def combine(statuses):
    statuses = list(statuses)
    if REFUTED in statuses:
        return REFUTED
    if all(s == PROVED for s in statuses):
        return PROVED
    return UNRESOLVED


def max_ratio(hists, values, scales=None):
    """Enclosure of max over neighbouring (h, h') and ω of values_h(ω)·s_{h'} / (values_{h'}(ω)·s_h).

    ``scales`` (the normalisers) may be None for the plain ratio p_h(ω)/p_{h'}(ω).
    Returns (lower, upper, checks, witness): max ρ ∈ [lower, upper], with
    upper None when some denominator's lower end is 0 (no finite bound) and
    both None when there is no neighbouring pair (T = 1).
    """
    index = {h: i for i, h in enumerate(hists)}
    bits = values[0][0].bits
    best_lo, best_hi, witness, checks = None, None, None, 0
    unbounded = False
    for i, h in enumerate(hists):
        for g in neighbours(h):
            j = index[g]
            if scales is None:
                num_lo = num_hi = den_lo = den_hi = mpq(1)
            else:
                num_lo, num_hi = scales[j].lo, scales[j].hi   # Z_{h'}
                den_lo, den_hi = scales[i].lo, scales[i].hi   # Z_h
            for w, (a, b) in enumerate(zip(values[i], values[j])):
                checks += 1
                lower = a.lo * num_lo / (b.hi * den_hi)
                if b.lo == 0 or den_lo == 0:
                    unbounded = True
                    upper = None
                else:
                    upper = a.hi * num_hi / (b.lo * den_lo)
                if best_lo is None or lower > best_lo:
                    best_lo = lower
                if upper is not None and (best_hi is None or upper > best_hi):
                    best_hi, witness = upper, {"from": i, "to": j, "transcript": w}
    if checks == 0:
        return None, None, 0, None
    upper = None if unbounded else round_up(best_hi, bits)
    return round_down(best_lo, bits), upper, checks, witness


def ratio_status(lower, upper, bound):
    """Status of max ρ ≤ bound from max ρ ∈ [lower, upper] (upper None: no finite bound)."""
    if lower is None:  # no neighbouring pair at all
        return PROVED
    if lower > bound.hi:
        return REFUTED
    if upper is not None and upper <= bound.lo:
        return PROVED
    return UNRESOLVED
