"""The capped-preparation witness (*Exact Compilation and Resource Laws for Hidden Integer Feedback*, Appendix K.2).

Program: from K_0 = 0 (the mechanism's start), common zero inputs until the public state first
equals ``target``, at most ``cap`` releases (reject on failure); then the
suffix ``signs`` from (target, target); pad to T releases.  Event: the
likelihood test of the suffix at λ_E (accept o iff P(o) > λ_E·Q(o)).

On ν: P(A) = hit·P_target(A), Q(A) = hit·Q_target(A), where hit is the
first-passage probability of the killed zero-input chain.  Coupling B with T
draws: p⁻ = P(A) − r, q⁺ = Q(A) + r, r = 1 − (1 − τ)^T.
"""

from gmpy2 import mpq

from producer.lower.suffix import SuffixTest
from producer.lower.waiting import invariant_window


def first_hit_probability(rows, start, target, cap):
    """Pr[the zero-input chain from ``start`` visits ``target`` within ``cap`` steps] (exact)."""
    low, high = invariant_window(rows, start)
    if not low <= target <= high:
        return mpq(0), (low, high)
    D = rows.denominator
    mass = {start: mpq(1)}
    hit = mpq(0)
    for _ in range(cap):
        new = {}
        for k, m in mass.items():
            row = rows(k)
            for i, w in enumerate(row.values):
                if w:
                    n = row.start + i
                    new[n] = new.get(n, mpq(0)) + m * mpq(w, D)
        hit += new.pop(target, mpq(0))
        mass = new
    return hit, (low, high)


def suffix_event(rows, target, signs, lam_e):
    """(P_target(A), Q_target(A), number of accepted transcripts) of the likelihood test at λ_E."""
    lam_e = mpq(lam_e)
    test = SuffixTest(rows, signs, lam_e.numerator, lam_e.denominator)
    p, q = test.evaluate(target)
    scale = rows.denominator ** len(signs)
    return mpq(p, scale), mpq(q, scale), test.atoms
