"""Bucket masses of the pairs with a bounded loss: the Laplace mechanism, randomized response (docs/accounting.md §4–5).

Numbers are integers over 2^W; an enclosure is (lo, hi) with lo <= 2^W·value <= hi.  The loss law of these pairs has
*atoms*: values taken with positive probability.  An atom of loss a belongs to the one bucket [i·h, (i+1)·h) that
holds a, to the low tail when a < lo·h, to the high tail when a >= hi·h; which one is decided exactly
(:func:`grid_count`): the number of grid levels i/N (lo <= i <= hi) with i/N <= a, found by bisection over the
levels (the comparison is monotone in i) with each comparison decided by enclosures, or exactly when a is rational.

**The Laplace mechanism, add/remove** (``laplace`` with sampling q; replace-one reduces to it, below).  P =
(1 − q)·L(0, b) + q·L(1, b), Q = L(0, b), L(μ, b) of density e^{−|x−μ|/b}/(2b).  With c = e^{−1/(2b)}:

* x <= 0 has loss a₋ = log(1 − q + q·c²), P-mass ((1 − q) + q·c²)/2 and Q-mass 1/2;
* x >= 1 has loss a₊ = log(1 − q + q/c²), P-mass ((1 − q)·c² + q)/2 and Q-mass c²/2;
* on (0, 1) the loss is continuous and strictly increasing from a₋ to a₊, and a level y in between has the one
  preimage x(y) = (1 + b·log(v/q))/2 with v = e^y − (1 − q) > 0.  With s = √(v/q) ∈ (c, 1/c), e^{−x/b} = c/s and
  e^{−(1−x)/b} = c·s, so the masses of (0, x(y)) are algebraic in s and c, with no logarithm:

      Q(0, x) = (1 − c/s)/2,      P(0, x) = (1 − q)·(1 − c/s)/2 + q·(c·s − c²)/2,

  both increasing in s, with the total (1 − c²)/2 at x = 1.

A level y <= a₋ has the continuous part's whole mass above it (its CDF value is exactly 0), a level y >= a₊ none
(exactly the total); a bucket between two such levels of the same side holds exactly no continuous mass.  So above the
largest atom every mass is an exact 0, and F(ε) of a composition of bounded losses is exactly 0 beyond the top of its
upper array.

Exactness of the placements: for q = 1 the atoms are ±1/b, rational, compared exactly.  For q < 1 no grid level
equals an atom: 1 − q + q·e^{∓1/b} = e^{i/N} would make e^{1/m} (m a common denominator of 1/b and i/N) a root of a
nonzero polynomial with rational coefficients, and e^{1/m} is transcendental (Lindemann).

Replace-one, q = 1: P = L(1, b), Q = L(−1, b); the substitution x ↦ (x + 1)/2 maps them to L(1, b/2) and
L(0, b/2) and keeps the loss of every output, so the stage has the bucket masses of the add/remove pair of scale
b/2 and q = 1 (atoms ∓2/b).

**The Laplace mechanism, replace-one, 0 < q < 1** (:class:`ReplaceLaplace`): P = (1 − q)·L(0, b) + q·L(1, b),
Q = (1 − q)·L(0, b) + q·L(−1, b).  With K = 1 − q + q·c² (c = e^{−1/(2b)} as above) the loss is

* the atom −ℓ_max on x <= −1 and +ℓ_max on x >= 1, ℓ_max = log((1 − q + q/c²)/K) > 0, of masses
  P(x >= 1) = ((1 − q)·c² + q)/2, Q(x >= 1) = ((1 − q)·c² + q·c⁴)/2, and the two swapped at x <= −1;
* on [0, 1] continuous and strictly increasing from 0 to ℓ_max: a level y in [0, ℓ_max) has the one preimage
  x(y) = (1 + b·log(v/q))/2 with v = e^y·K − (1 − q) >= q·c² > 0.  With s = √(v/q) ∈ [c, 1/c) the masses of
  (0, x(y)) are, as above, algebraic in s and c:

      P(0, x) = (1 − q)·(1 − c/s)/2 + q·(c·s − c²)/2,      Q(0, x) = K·(1 − c/s)/2,

  with the totals (1 − c²)/2 and K·(1 − c²)/2 at x = 1;
* on [−1, 0] the mirror image: x ↦ −x exchanges P and Q and maps the loss ℓ to −ℓ, so a level −y (y > 0) has the
  preimage −x(y), and P(−x(y), 0) = Q(0, x(y)), Q(−x(y), 0) = P(0, x(y)).  Both orders have the same loss law.

The continuous part's mass below a level is then its mass on (−1, 0) plus or minus a mass of (0, x(|y|)).  Atoms
on grid levels: with a = e^{1/m} (m a common denominator of 1/b and i/N, i/N = j/m, 1/b = k/m), e^{i/N} = e^{ℓ_max}
reads a^j·((1 − q)·a^k + q) = (1 − q)·a^k + q·a^{2k}, a polynomial identity in the transcendental a: the terms
a^{j+k} and a^j must cancel against a^k and a^{2k}, which needs j = k and leaves (1 − 2q)·(a^{2k} − a^k) = 0.  So
at q = 1/2 the atoms are exactly ±1/b (rational, compared exactly: (1 + e^{1/b})/(1 + e^{−1/b}) = e^{1/b}), and at
any other q no grid level equals an atom and enclosures decide.

Why this pair dominates every replace-one step of a Poisson-sampled Laplace mechanism of L1 sensitivity 1.  For a
noise law g symmetric and log-concave, the pair ((1 − q)·g + q·g₁, (1 − q)·g + q·g₋₁) (g_μ: g shifted by μ)
dominates every replace-one step of a Poisson-sampled mechanism whose add/remove forward pair (F_v, F_0) is
dominated by (g₁, g₀) at every α >= 0.  The replaced record contributes v or v′; with r_v = dF_v/dF_0,
H_α(M_v‖M_v′) = E_{F_0}[φ(r_v, r_v′)] with φ(s, t) = ((1 − q)·(1 − α) + q·s − q·α·t)₊, submodular and convex in
each argument.  Among couplings of the two marginals the countermonotone one maximises E[φ] (the rearrangement
inequality: "An inequality for rearrangements", Lorentz 1953; "Inequalities on E k(X, Y) when the marginals are
fixed", Cambanis, Simons, Stout 1976); a marginal larger in the convex order raises it (Strassen's martingale
coupling and Jensen's inequality, φ convex in each argument), and the dominating (g₁, g₀) has the larger marginals;
in one dimension (r₁(Y), r₁(−Y)) = (r₁(Y), r₋₁(Y)), Y ~ g symmetric, is that countermonotone coupling (r₁
monotone by log-concavity).  For the Laplace mechanism, (F_v, F_0) with ‖v‖₁ <= 1 is dominated by
(L(1, b), L(0, b)) (docs/mechanisms/laplace.md).

**Randomized response** (replace-one, noise p, k buckets): three atoms, masses rational in p and k: loss
L = log r with r = (k·(1 − p) + p)/p > 1 (P-mass 1 − p + p/k, Q-mass p/k), −L (the masses swapped) and 0 (mass
(k − 2)·p/k under both).  e^{i/N} = r or 1/r is impossible for a rational r ≠ 1 and i ≠ 0.
"""

from fractions import Fraction
from math import isqrt

from auditor.enclosures import exp_bounds
from auditor.outcomes import NotEstablished
from auditor.pld.pairs import bits, work
from auditor.pld.preimages import exp_fixed, exp_grid, fixed
from auditor.rationals import ceil, ceil_div

__all__ = ["grid_count", "laplace_masses", "replace_laplace_masses", "randomized_response_masses", "ReplaceLaplace",
           "MAX_SIGN_BITS", "REPLACE_LAPLACE_NS"]

MAX_SIGN_BITS = 1 << 14
"""Most bits spent comparing one grid level with one atom."""


def grid_count(N, lo, hi, compare):
    """(#levels with i/N <= a, #levels with i/N < a) among i = lo, ..., hi, for ``compare(i)`` = the sign of
    i/N − a (−1, 0 or +1), nondecreasing in i."""
    def first(predicate):
        a, b = lo, hi + 1            # the first i in [lo, hi + 1] with predicate(i) (hi + 1: none)
        while a < b:
            m = (a + b) // 2
            if predicate(m):
                b = m
            else:
                a = m + 1
        return a - lo
    at_most = first(lambda i: compare(i) > 0)
    below = first(lambda i: compare(i) >= 0)
    return at_most, below


def _compare_exp(i, N, target, pointer, what):
    """The sign of e^{i/N} − target for a ``target(bits)`` -> (lo, hi) enclosure of a number never equal to it."""
    bits = 64
    while bits <= MAX_SIGN_BITS:
        e_lo, e_hi = exp_bounds(Fraction(i, N), bits)
        t_lo, t_hi = target(bits)
        if e_hi < t_lo:
            return -1
        if e_lo > t_hi:
            return +1
        bits *= 2
    raise NotEstablished(pointer, f"undecided at {MAX_SIGN_BITS} bits",
                         f"the recipe's grid level {i}/{N} is too close to the loss atom {what} to place")


class _Atom:
    """One atom of the loss law: its masses (P, Q) as enclosures and its level counts on the grid."""

    __slots__ = ("p", "q", "at_most", "below")

    def __init__(self, p, q, counts):
        self.p, self.q = p, q
        self.at_most, self.below = counts


def _add(x, y):
    return x[0] + y[0], x[1] + y[1]


def _assemble(n, atoms, continuous):
    """(p_list, q_list, low, high) of the n − 1 buckets between n levels and the two tails.

    ``continuous``: None (no continuous part) or (states, values, total) with states[j] in {"below", "inside",
    "above"} at level j (0-based), values[j] the enclosures ((P lo, P hi), (Q lo, Q hi)) of the continuous part's
    mass below level j where "inside", and total its whole mass.
    """
    zero = (0, 0)
    p_list, q_list = [zero] * (n - 1), [zero] * (n - 1)
    p_low = q_low = p_high = q_high = zero
    if continuous is not None:
        states, values, total = continuous

        def below(j):     # the continuous mass below level j: exact at the ends of its range
            s = states[j]
            return (zero, zero) if s == "below" else (total, total) if s == "above" else values[j]

        p_list, q_list = [], []
        for j in range(n - 1):
            if states[j] == states[j + 1] and states[j] != "inside":
                p_list.append(zero)
                q_list.append(zero)
                continue
            (pa, qa), (pb, qb) = below(j), below(j + 1)
            p_list.append((max(0, pb[0] - pa[1]), max(0, pb[1] - pa[0])))
            q_list.append((max(0, qb[0] - qa[1]), max(0, qb[1] - qa[0])))
        p_low, q_low = below(0)
        if states[n - 1] != "above":
            (pa, qa) = below(n - 1)
            p_high = (max(0, total[0] - pa[1]), max(0, total[1] - pa[0]))
            q_high = (max(0, total[0] - qa[1]), max(0, total[1] - qa[0]))
    for atom in atoms:
        j = atom.at_most - 1          # the last level at or below the atom: its bucket (−1: the low tail)
        if j < 0:
            p_low, q_low = _add(p_low, atom.p), _add(q_low, atom.q)
        elif j >= n - 1:
            p_high, q_high = _add(p_high, atom.p), _add(q_high, atom.q)
        else:
            p_list[j], q_list[j] = _add(p_list[j], atom.p), _add(q_list[j], atom.q)
    return p_list, q_list, (p_low, q_low), (p_high, q_high)


def _rational_atoms(N, a):
    """(compare_minus, compare_plus) for :func:`grid_count`: the signs of i/N + a and i/N − a, exactly (the atoms
    −a and a, a rational)."""
    return (lambda i: _sign(Fraction(i, N) + a)), (lambda i: _sign(Fraction(i, N) - a))


def laplace_masses(q, b, N, lo, hi, W, pointer):
    """(p_list, q_list, low, high) of the add/remove Laplace pair of scale b, sampling q, as enclosures over 2^W."""
    one = 1 << W
    n_, d_ = q.numerator, q.denominator
    c = exp_fixed(-1 / (2 * b), W)
    c2 = exp_fixed(-1 / b, W)
    # the atoms: (P, Q) masses over 2^W
    p_minus = (((d_ - n_) * one + n_ * c2[0]) // (2 * d_), ceil_div((d_ - n_) * one + n_ * c2[1], 2 * d_))
    q_minus = (one >> 1, one >> 1)
    p_plus = (((d_ - n_) * c2[0] + n_ * one) // (2 * d_), ceil_div((d_ - n_) * c2[1] + n_ * one, 2 * d_))
    q_plus = (c2[0] >> 1, ceil_div(c2[1], 2))
    if q == 1:
        compare_minus, compare_plus = _rational_atoms(N, 1 / b)
    else:
        def minus_value(bits):
            lo_, hi_ = exp_bounds(-1 / b, bits)
            return 1 - q + q * lo_, 1 - q + q * hi_

        def plus_value(bits):
            lo_, hi_ = exp_bounds(1 / b, bits)
            return 1 - q + q * lo_, 1 - q + q * hi_

        def compare_minus(i):
            return _compare_exp(i, N, minus_value, pointer, "log(1 - q + q e^(-1/b))")

        def compare_plus(i):
            return _compare_exp(i, N, plus_value, pointer, "log(1 - q + q e^(1/b))")
    minus = _Atom(p_minus, q_minus, grid_count(N, lo, hi, compare_minus))
    plus = _Atom(p_plus, q_plus, grid_count(N, lo, hi, compare_plus))
    # levels at or below a₋: "below"; at or above a₊: "above"; between: the continuous part's preimage
    n = hi - lo + 1
    first_inside, first_above = minus.at_most, plus.below
    states = ["below"] * first_inside + ["inside"] * max(0, first_above - first_inside) + ["above"] * (n - first_above)
    total = ((one - c2[1]) >> 1, ceil_div(one - c2[0], 2))
    values = [None] * n
    if first_above > first_inside:
        values[first_inside:first_above] = _continuous(q, c, c2, N, lo + first_inside, lo + first_above - 1, W)
    return _assemble(n, [minus, plus], (states, values, total))


def _sign(x):
    return (x > 0) - (x < 0)


def _continuous(q, c, c2, N, first, last, W):
    """[((P lo, P hi), (Q lo, Q hi))] of the continuous masses of (0, x(i/N)) for i = first, ..., last (levels
    strictly between the atoms)."""
    one = 1 << W
    n_, d_ = q.numerator, q.denominator
    c_lo, c_hi = c
    cq_lo, cq_hi = fixed(1 - q, W, -1), fixed(1 - q, W, +1)
    s_cap = ceil_div(one << W, c_lo)                 # s < 1/c <= 2^W/c_lo
    out = []
    for e_lo, e_hi in exp_grid(N, first, last, W):
        v_lo, v_hi = e_lo - cq_hi, e_hi - cq_lo       # 2^W·v, v = e^y − (1 − q) > 0
        s_lo = max(c_lo, isqrt((max(v_lo, 0) * d_ << W) // n_))          # 2^W·√(v/q), and s > c
        s_hi = min(s_cap, isqrt(ceil_div(v_hi * d_ << W, n_)) + 1)        # and s < 1/c
        r_lo, r_hi = (c_lo << W) // s_hi, min(one, ceil_div(c_hi << W, s_lo))   # c/s < 1
        cs_lo, cs_hi = (c_lo * s_lo) >> W, ceil_div(c_hi * s_hi, one)
        g_lo, g_hi = max(0, cs_lo - c2[1]), max(0, cs_hi - c2[0])          # c·s − c²
        q_mass = ((one - r_hi) >> 1, ceil_div(one - r_lo, 2))
        p_mass = (((d_ - n_) * (one - r_hi) + n_ * g_lo) // (2 * d_),
                  ceil_div((d_ - n_) * (one - r_lo) + n_ * g_hi, 2 * d_))
        out.append((p_mass, q_mass))
    return out


def _ratio_value(q, b, sign):
    """``target(bits)`` -> (lo, hi): an enclosure of e^{±ℓ_max} = ((1 − q + q·e^{±1/b})/(1 − q + q·e^{∓1/b}))."""
    def value(bits_):
        up, down = exp_bounds(sign / b, bits_), exp_bounds(-sign / b, bits_)
        return (1 - q + q * up[0]) / (1 - q + q * down[1]), (1 - q + q * up[1]) / (1 - q + q * down[0])
    return value


def replace_laplace_masses(q, b, N, lo, hi, W, pointer):
    """(p_list, q_list, low, high) of the replace-one Laplace pair of scale b, sampling q in (0, 1), as enclosures
    over 2^W (module docstring)."""
    one = 1 << W
    n_, d_ = q.numerator, q.denominator
    c = exp_fixed(-1 / (2 * b), W)
    c2 = exp_fixed(-1 / b, W)
    c4 = exp_fixed(-2 / b, W)
    big = (((d_ - n_) * c2[0] + n_ * one) // (2 * d_), ceil_div((d_ - n_) * c2[1] + n_ * one, 2 * d_))
    small = (((d_ - n_) * c2[0] + n_ * c4[0]) // (2 * d_), ceil_div((d_ - n_) * c2[1] + n_ * c4[1], 2 * d_))
    if q == Fraction(1, 2):
        compare_minus, compare_plus = _rational_atoms(N, 1 / b)
    else:
        def compare_minus(i):
            return _compare_exp(i, N, _ratio_value(q, b, -1), pointer, "-log((1 - q + q e^(1/b))/(1 - q + q e^(-1/b)))")

        def compare_plus(i):
            return _compare_exp(i, N, _ratio_value(q, b, +1), pointer, "log((1 - q + q e^(1/b))/(1 - q + q e^(-1/b)))")
    minus = _Atom(small, big, grid_count(N, lo, hi, compare_minus))     # x <= −1: P(x >= 1) and Q(x >= 1) swapped
    plus = _Atom(big, small, grid_count(N, lo, hi, compare_plus))
    n = hi - lo + 1
    first_inside, first_above = minus.at_most, plus.below
    states = ["below"] * first_inside + ["inside"] * max(0, first_above - first_inside) + ["above"] * (n - first_above)
    k = (((d_ - n_) * one + n_ * c2[0]) // d_, ceil_div((d_ - n_) * one + n_ * c2[1], d_))    # K = 1 − q + q·c²
    p_half = ((one - c2[1]) >> 1, ceil_div(one - c2[0], 2))                          # P(0, 1) = (1 − c²)/2
    q_half = ((k[0] * (one - c2[1])) >> (W + 1), ceil_div(k[1] * (one - c2[0]), 2 * one))   # Q(0, 1) = K·P(0, 1)
    total = (p_half[0] + q_half[0], p_half[1] + q_half[1])
    values = [None] * n
    if first_above > first_inside:
        values[first_inside:first_above] = _replace_continuous(
            q, c, c2, k, (p_half, q_half), N, lo + first_inside, lo + first_above - 1, W)
    return _assemble(n, [minus, plus], (states, values, total))


def _replace_continuous(q, c, c2, k, halves, N, first, last, W):
    """[((P lo, P hi), (Q lo, Q hi))] of the continuous masses of (−1, x(i/N)) for i = first, ..., last (levels
    strictly between the atoms), each from the masses of (0, x(|i|/N)) and those of (−1, 0), P(−1, 0) = Q(0, 1)
    and Q(−1, 0) = P(0, 1) (the mirror)."""
    one = 1 << W
    n_, d_ = q.numerator, q.denominator
    c_lo, c_hi = c
    k_lo, k_hi = k
    p_half, q_half = halves
    cq_lo, cq_hi = fixed(1 - q, W, -1), fixed(1 - q, W, +1)
    s_cap = ceil_div(one << W, c_lo)                 # s < 1/c <= 2^W/c_lo
    j_first = 0 if first <= 0 <= last else min(abs(first), abs(last))
    j_last = max(abs(first), abs(last))
    positive = {0: ((0, 0), (0, 0))}                 # x(0) = 0: the masses of (0, 0) are exactly 0
    for j, (e_lo, e_hi) in zip(range(j_first, j_last + 1), exp_grid(N, j_first, j_last, W)):
        if j == 0:
            continue
        v_lo = ((e_lo * k_lo) >> W) - cq_hi                                 # 2^W·v, v = e^y·K − (1 − q) > 0
        v_hi = ceil_div(e_hi * k_hi, one) - cq_lo
        s_lo = max(c_lo, isqrt((max(v_lo, 0) * d_ << W) // n_))             # 2^W·√(v/q), and s > c
        s_hi = min(s_cap, isqrt(ceil_div(v_hi * d_ << W, n_)) + 1)           # and s < 1/c
        r_lo, r_hi = (c_lo << W) // s_hi, min(one, ceil_div(c_hi << W, s_lo))   # c/s <= 1
        cs_lo, cs_hi = (c_lo * s_lo) >> W, ceil_div(c_hi * s_hi, one)
        g_lo, g_hi = max(0, cs_lo - c2[1]), max(0, cs_hi - c2[0])          # c·s − c²
        q_mass = ((k_lo * (one - r_hi)) >> (W + 1), ceil_div(k_hi * (one - r_lo), 2 * one))
        p_mass = (((d_ - n_) * (one - r_hi) + n_ * g_lo) // (2 * d_),
                  ceil_div((d_ - n_) * (one - r_lo) + n_ * g_hi, 2 * d_))
        positive[j] = (p_mass, q_mass)
    out = []
    for i in range(first, last + 1):
        p_mass, q_mass = positive[abs(i)]
        if i >= 0:      # (−1, x): (−1, 0) and (0, x)
            out.append(((q_half[0] + p_mass[0], q_half[1] + p_mass[1]), (p_half[0] + q_mass[0], p_half[1] + q_mass[1])))
        else:           # (−1, −x(|y|)): (−1, 0) less the mirror of (0, x(|y|)), whose P is Q(0, x) and Q is P(0, x)
            out.append(((max(0, q_half[0] - q_mass[1]), max(0, q_half[1] - q_mass[0])),
                        (max(0, p_half[0] - p_mass[1]), max(0, p_half[1] - p_mass[0]))))
    return out


def randomized_response_masses(p, k, N, lo, hi, W, pointer):
    """(p_list, q_list, low, high) of randomized response with noise p and k buckets (the outputs of two buckets),
    as enclosures over 2^W."""
    small = p / k
    large = 1 - p + small
    middle = (k - 2) * small

    def enclose(x):
        return fixed(x, W, -1), fixed(x, W, +1)

    r = large / small

    def compare_up(i):
        return _compare_exp(i, N, lambda bits: (r, r), pointer, f"log {r}")

    def compare_down(i):
        return _compare_exp(i, N, lambda bits: (1 / r, 1 / r), pointer, f"-log {r}")

    atoms = [_Atom(enclose(large), enclose(small), grid_count(N, lo, hi, compare_up)),
             _Atom(enclose(small), enclose(large), grid_count(N, lo, hi, compare_down))]
    if middle > 0:
        atoms.append(_Atom(enclose(middle), enclose(middle), grid_count(N, lo, hi, _sign)))
    return _assemble(hi - lo + 1, atoms, None)


def special_response_masses(p, k, N, lo, hi, W, pointer):
    """(p_list, q_list, low, high) of randomized response with noise p and k buckets against the special record's
    uniform output (replace_special), as enclosures over 2^W: the input's bucket has P-mass 1 − p + p/k and
    Q-mass 1/k, so loss log(k − (k − 1)·p) > 0; the other k − 1 have P-mass (k − 1)·p/k, Q-mass (k − 1)/k and
    loss log p < 0.  Neither loss is a grid level (e^{i/N} is irrational for i ≠ 0, and p < 1)."""
    hit = 1 - p + p / k
    ratio_hit, ratio_miss = k * hit, p

    def enclose(x):
        return fixed(x, W, -1), fixed(x, W, +1)

    def compare(target):
        return lambda i: _compare_exp(i, N, lambda bits: (target, target), pointer, f"log {target}")

    atoms = [_Atom(enclose(hit), enclose(Fraction(1, k)), grid_count(N, lo, hi, compare(ratio_hit))),
             _Atom(enclose(1 - hit), enclose(Fraction(k - 1, k)), grid_count(N, lo, hi, compare(ratio_miss)))]
    return _assemble(hi - lo + 1, atoms, None)


REPLACE_LAPLACE_NS = 250
"""Work units per bucket and unit of W + W²/1024 + parts/4 (W the declared working bits) of :class:`ReplaceLaplace`:
the whole single step, both orders with their lower arrays (a square root per level |i|, the levels of both signs
from one run, the mirror by subtraction, no tail table).  Measured (CPU time, 2-core development machine) 16 to 52
per unit at N >= 100 (q = 1/1000 to 999/1000, b = 1/100 to 100, 8,959 to 71,049 buckets, W = 121 to 1056, up to
2.4 s), 67 to 133 at N = 16 to 50 (b = 1/100: the pair works 148 bits above the declared guard), 230 to 245 at
N = 2 to 10 (below N = 16 every level is an anchor of e^{j/N}; 253 to 1593 buckets, up to 0.12 s) and 75 to 95 there
at W = 1196 to 3196; runs of a millisecond cost more per unit (331 at 21 buckets)."""


class ReplaceLaplace:
    """``laplace`` under replace-one with 0 < q < 1: (1 − q)·L(0, b) + q·L(1, b) against (1 − q)·L(0, b) +
    q·L(−1, b) (module docstring: its loss, masses, atoms and why it dominates)."""

    __slots__ = ("q", "scale")

    def __init__(self, q, scale):
        self.q, self.scale = Fraction(q), Fraction(scale)
        if not 0 < self.q < 1:
            raise ValueError(f"ReplaceLaplace takes a sampling q in (0, 1), not {self.q}")

    def __repr__(self):
        return f"ReplaceLaplace(q={self.q}, scale={self.scale})"

    def guard_bits(self):
        """v = e^y·K − (1 − q) >= q·e^{−1/b} and v's error is at most a few units of e^y: relative to v at most
        e^{1/b}/q units, bits(1/q) + log2 e/b < 3/(2b) bits (as the add/remove Laplace pair's)."""
        q = self.q
        return 24 + (q.denominator // q.numerator).bit_length() + ceil(Fraction(3, 2) / self.scale)

    def parts(self):
        return bits(self.q) + bits(self.scale)

    def mass_work(self, n, W, parts):
        return work(n, W, parts, REPLACE_LAPLACE_NS)

    def bucket_masses(self, N, lo, hi, W, pointer):
        return (W,) + replace_laplace_masses(self.q, self.scale, N, lo, hi, W, pointer)
