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

Replace-one (q = 1 only): P = L(1, b), Q = L(−1, b); the substitution x ↦ (x + 1)/2 maps them to L(1, b/2) and
L(0, b/2) and keeps the loss of every output, so the stage has the bucket masses of the add/remove pair of scale
b/2 and q = 1 (atoms ∓2/b).

**Randomized response** (replace-one, noise p, k buckets): three atoms, masses rational in p and k: loss
L = log r with r = (k·(1 − p) + p)/p > 1 (P-mass 1 − p + p/k, Q-mass p/k), −L (the masses swapped) and 0 (mass
(k − 2)·p/k under both).  e^{i/N} = r or 1/r is impossible for a rational r ≠ 1 and i ≠ 0.
"""

from fractions import Fraction
from math import isqrt

from auditor.enclosures import exp_bounds
from auditor.outcomes import NotEstablished
from auditor.pld.preimages import exp_fixed, exp_grid, fixed
from auditor.rationals import ceil_div

__all__ = ["grid_count", "laplace_masses", "randomized_response_masses", "MAX_SIGN_BITS"]

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
        def compare_minus(i):
            return _sign(Fraction(i, N) + 1 / b)

        def compare_plus(i):
            return _sign(Fraction(i, N) - 1 / b)
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
