"""The C2 support reduction (*Hidden Integer Feedback* §4, App. A, C), re-derived from the carry-cell cover.

*Hidden Integer Feedback* §4, App. A, C states: for a law symmetric around 0 with support in [-L, L] and a
root with c <= 2 participations left, the root phase beta may be restricted to

    K0 = {-m*gamma mod 1 : -L-1 <= m <= L+1}

and the second phase chi to

    K2 = {n*gamma mod 1 : -2L-3 <= n <= 2L+4}.

Phases as the auditor defines them.  Use the preparation word of
:mod:`auditor.game.cover`: k = B*z, beta_1 = -a*z, d_1 = a*beta_1 mod B,
beta_2 = -floor(a*beta_1 / B), d_2 = a*beta_2 mod B.  The root output leaves a
world in state w + beta_1 (w its own innovation), whose first phase is
frac(gamma*(w + beta_1)) = frac(w*gamma + d_1/B); the root phase is therefore
beta = d_1/B.  With a*beta_1 = B*m + d_1 the next step's common base is
beta_2 = -m, and its phase frac(m*gamma) = frac(-d_2/B) is the second phase
chi = ((-d_2) mod B)/B.  So the pair (beta, chi) is the word
(d_1, d_2) = (B*beta, (-B*chi) mod B), and z -> (d_1, d_2) is a bijection of
Z/B^2 (:func:`auditor.game.cover.preparation_for_word` inverts it).

Why K0 x K2 contains an optimal preparation.  :mod:`auditor.game.cover` proves
that the words carried from the grid T_1 x T_2 attain the maximum over all
0 <= z < B^c, with T_i = {0, B} u {(-a*w) mod B : w in W_i},
W_1 = [lo, hi] (the support) and
W_2 = [lo - ceil(a*hi/B) - 1, hi - floor(a*lo/B)].  The carry of a vertex
(theta_1, theta_2) is phi_1 = theta_1 mod B, q = floor(theta_1 / B) in {0, 1},
phi_2 = (theta_2 - a*q) mod B.  Let the support lie in [-L, L]; as
0 < a < B, ceil(a*L/B) <= L, so W_1 u {0} is within [-L, L] and
W_2 u {0} within [-2L-1, 2L].  Hence

    phi_1 in {(-a*w) mod B : |w| <= L}                 (theta_1 = B gives 0),
    phi_2 in {(-a*w) mod B : -2L-1 <= w <= 2L+1}       (q = 1 adds one to w).

In phases: beta = phi_1/B = frac(-w*gamma) with |w| <= L, in K0; and
chi = ((-phi_2) mod B)/B = frac(w*gamma) with -2L-1 <= w <= 2L+1, in K2.
So every carried cover word is a pair of K0 x K2, and the maximum over
K0 x K2 equals the maximum over all preparations (it is a subset of them
containing an optimal one).  For c = 1 only beta matters (K0 alone).  The
containment argument needs only the support bound; like the paper we use it
only for symmetric laws (lo = -hi) and c <= 2.  The sets are slightly
larger than the cover's (the paper's margins), so the evaluator uses them
only when they are smaller than the cover it would otherwise search.
"""

from auditor.game.cover import preparation_for_word

__all__ = ["radius", "root_phases", "second_phases", "reduced_size", "reduced_preparations"]


def radius(law):
    """L = max |w| over the support (the law's nonzero weights)."""
    support = [law.offset + i for i, w in enumerate(law.weights) if w]
    if not support:
        raise ValueError("weights must not all be zero")
    return max(-support[0], support[-1])


def root_phases(a, B, L):
    """B * K0: the numerators (-m*a) mod B, -L-1 <= m <= L+1, sorted."""
    return tuple(sorted({(-m * a) % B for m in range(-L - 1, L + 2)}))


def second_phases(a, B, L):
    """B * K2: the numerators (n*a) mod B, -2L-3 <= n <= 2L+4, sorted."""
    return tuple(sorted({(n * a) % B for n in range(-2 * L - 3, 2 * L + 5)}))


def _check(law, c):
    if c not in (1, 2):
        raise ValueError(f"the support reduction is for c = 1 or 2, not {c}")
    if not law.is_symmetric():
        raise ValueError("the support reduction is used only for laws symmetric around 0")


def reduced_size(law, c):
    """|K0| (c = 1) or |K0| * |K2| (c = 2): the number of preparations searched."""
    _check(law, c)
    L = radius(law)
    n = len(root_phases(law.a, law.B, L))
    return n if c == 1 else n * len(second_phases(law.a, law.B, L))


def reduced_preparations(law, c, beta_shift=0, chi_shift=0):
    """Sorted z in [0, B^c) whose phases (beta, chi) lie in K0 (x K2).

    ``beta_shift`` / ``chi_shift`` move every candidate numerator by that many
    steps of 1/B: a deliberately wrong set, for tests that must be able to fail.
    """
    _check(law, c)
    a, B = law.a, law.B
    L = radius(law)
    d1s = [(d + beta_shift) % B for d in root_phases(a, B, L)]
    if c == 1:
        return tuple(sorted({preparation_for_word((d1,), a, B) for d1 in d1s}))
    d2s = [(-(e + chi_shift)) % B for e in second_phases(a, B, L)]
    return tuple(sorted({preparation_for_word((d1, d2), a, B) for d1 in d1s for d2 in d2s}))
