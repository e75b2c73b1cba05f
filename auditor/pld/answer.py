"""From the composed arrays to bounds of δ(ε) (docs/dpsgd.md §7).

Upper.  With k* = ⌊ε/h⌋ + 1 (the least index with k·h > ε; h = 1/N, or r_1·r_2·…/N after regrids of factors
r_1, r_2, …),

    F(ε) = 2^−K·( Σ_{k >= k*} U[k]·(1 − e^{ε − kh}) + U_∞ )

bounds the order's hockey-stick divergence from above.  :class:`UpperTail`
keeps the suffix sums A_k = Σ_{j>=k} U[j] (exact) and lower bounds
S_k <= 2^G·Σ_{j>=k} U[j]·e^{−(j−k)h}, by S_k = 2^G·U[k] + ⌊S_{k+1}·r⁻/2^G⌋
with r⁻ <= 2^G·e^{−h} (monotone: nonnegative terms, bounds from below).
Then, with k0 = max(k*, first index) and E⁻ <= 2^G·e^{ε − k0·h},
F(ε) <= 2^−K·(A_{k0} + U_∞ − E⁻·S_{k0}/2^{2G}): an upper bound.

Lower.  L(ε) = max_k 2^−K·P_L([k, ∞)) − e^ε·2^−K′·(Q_L([k, ∞)) + X) bounds
δ(ε) from below for every k (Claim L).  With λ⁺ >= e^ε the expression is
smaller still, so still a lower bound.  :class:`LowerEvents` takes the
maximum over all k exactly: the points (x_k, y_k) = (Q suffix + X, P suffix)
are maximised along a linear functional y − λ·x (λ = λ⁺·2^{K−K′} > 0), whose
maximum over a finite set is attained at a vertex of the upper convex hull;
along that hull the edge slopes decrease, so a binary search finds it.
"""

from fractions import Fraction

from auditor.enclosures import exp_bounds
from auditor.rationals import floor

__all__ = ["UpperTail", "LowerEvents"]


def _floor_fixed(x, bits):
    y = Fraction(x) * (1 << bits)
    return floor(y)


MAX_DAMPING = 4096
"""Beyond k0·h − ε > this, F⁺ takes e^{ε − k0·h} >= 0 (below 2^−5900, far under any answer's precision)."""


class UpperTail:
    """Upper bounds F(ε) of one order's composed connect-the-dots array, on the grid h = ``factor``/N (the
    product of the regrids' factors, docs/dpsgd.md §6; 1 without regrids)."""

    __slots__ = ("offset", "suffix", "damped", "atom", "K", "h", "G")

    def __init__(self, array, K, N, G, factor=1):
        self.offset, self.atom, self.K, self.h, self.G = array.offset, array.atom, K, Fraction(factor, N), G
        r = _floor_fixed(exp_bounds(-self.h, G + 16)[0], G)
        values = array.values
        suffix, damped = [0] * (len(values) + 1), [0] * (len(values) + 1)
        a = s = 0
        for k in range(len(values) - 1, -1, -1):
            u = values[k]
            a += u
            s = (u << G) + ((s * r) >> G)
            suffix[k], damped[k] = a, s
        self.suffix, self.damped = suffix, damped

    def bound(self, epsilon):
        """A rational F⁺ >= F(ε) (docs/dpsgd.md §7)."""
        h, G = self.h, self.G
        star = (epsilon.numerator * h.denominator) // (epsilon.denominator * h.numerator) + 1
        position = max(star - self.offset, 0)
        if position >= len(self.suffix) - 1:
            return Fraction(self.atom, 1 << self.K)
        k0 = self.offset + position
        # e^{ε − k0·h} rounded down; 0 (a valid lower end) when the array starts far above ε, where an enclosure of
        # e^x would cost about 1.44·|x| bits (a window recorded at a huge index must not hang the check)
        far = k0 * h - epsilon > MAX_DAMPING
        e_lo = 0 if far else _floor_fixed(exp_bounds(epsilon - k0 * h, G + 16)[0], G)
        total = (self.suffix[position] + self.atom) << (2 * G)
        return Fraction(total - e_lo * self.damped[position], 1 << (self.K + 2 * G))


class LowerEvents:
    """Lower bounds L(ε) from one order's composed bucket-index arrays, maximised over the events."""

    __slots__ = ("hull", "K", "K_q")

    def __init__(self, lower_p, lower_q, K, K_q):
        self.K, self.K_q = K, K_q
        p_values, q_values = lower_p.values, lower_q.values
        x, y = lower_q.atom, 0
        hull = []
        # k from the top down: x (Q suffix + X) and y (P suffix) both grow
        for k in range(len(p_values), -1, -1):
            if k < len(p_values):
                x += q_values[k]
                y += p_values[k]
            if hull and hull[-1][0] == x:
                if hull[-1][1] >= y:
                    continue
                hull.pop()
            while len(hull) >= 2:
                (ox, oy), (ax, ay) = hull[-2], hull[-1]
                if (ax - ox) * (y - oy) - (ay - oy) * (x - ox) >= 0:
                    hull.pop()
                else:
                    break
            hull.append((x, y))
        self.hull = hull

    def bound(self, lam):
        """max_k 2^−K·P([k, ∞)) − lam·2^−K′·(Q([k, ∞)) + X) for a rational lam > 0 (exact)."""
        hull = self.hull
        # slope of edge i > λ·2^{K−K′}  <=>  (y1 − y0)·den·2^{K′} > num·2^K·(x1 − x0)
        num, den = lam.numerator << self.K, lam.denominator << self.K_q
        lo, hi = 0, len(hull) - 1
        while lo < hi:
            mid = (lo + hi) // 2
            (x0, y0), (x1, y1) = hull[mid], hull[mid + 1]
            if (y1 - y0) * den > num * (x1 - x0):
                lo = mid + 1
            else:
                hi = mid
        x, y = hull[lo]
        return Fraction(y, 1 << self.K) - lam * Fraction(x, 1 << self.K_q)
