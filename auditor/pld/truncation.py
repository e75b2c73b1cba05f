"""The truncated Poisson sampling of a Gaussian (``truncated_gaussian``, add/remove).

docs/mechanisms/truncated-poisson.md states the mechanism and proves its pair.

Every record of n is kept with probability q and a batch of more than B is cut to a uniform B of it.  With K the
number of kept records among the n − 1 others, K ~ Binomial(n − 1, q) in both neighbours, the step is dominated by
the *labelled* mixture (the label, K >= B or not, seen by the adversary):

* weight 1 − t, t = P[K >= B]: the sampled Gaussian (1 − q)·N(0, σ²) + q·N(1, σ²) against N(0, σ²);
* weight t: the sampled Gaussian of rate p̂ and shift 2, i.e. of noise σ/2 and shift 1, where p̂ >= p̄ and
  p̄ = E[q·B/(K + 1) | K >= B] is the chance that the added record is in a cut batch (its B slots drawn from
  K + 1 kept records).

A labelled mixture's loss is its component's loss, so every bucket mass is (1 − t)·(first) + t·(second).

**p̂**, the rate the stage records: ⌈p̄·2^e⌉/2^e with e = 64 + bits(⌊1/p̄⌋).  The auditor computes p̄ by its own
route: E[1/(K + 1)] = (1 − (1 − q)^n)/(n·q) (the binomial identity C(n − 1, k)/(k + 1) = C(n, k + 1)/n), minus the
short sum over K < B; on the upper side (B > (n − 1)/2, or q = 1) directly as a ratio of two short sums over K >= B,
in which the long power q^B cancels.  The one long power, r = (1 − q)^(n − B) (or q^B for the weight on the upper
side), is enclosed in fixed point by squaring with outward rounding; p̄ is a Möbius function of r, so its ends are at
the ends of r.  When no precision up to :data:`MAX_PRECISION` decides the ceiling (p̄·2^e an integer), the exact
power decides it within :data:`MAX_EXACT_BITS`; beyond, UNCHECKED.

**The long route**, where the short sums would cost more than :data:`EXACT_SUM_WORK` (both B and n − B large,
0 < q < 1): with X ~ Binomial(M, q), M = n − 1, the terms r_k = P[X = k]/P[X = m] around the mode
m = ⌊(M + 1)q⌋ are summed in fixed point with outward rounding, r_{k+1}/r_k = (M − k)·q/((k + 1)(1 − q)) below 1
for k >= m and decreasing, r_{k−1}/r_k = k(1 − q)/((M − k + 1)q) below 1 for k < m and decreasing as k falls; each
side stops at a term below 2^40 units (of 2^-P, the mode's term 1) and bounds the rest by the geometric series of
its last ratio.  Then
t = Σ_{k>=B} r_k / Σ_k r_k, and P[Binomial(n, q) >= B + 1] = t − (1 − q)·P[X = B] (the n-th record is kept or not)
gives p̄ = (B/n)·(1 − (1 − q)·r_B / Σ_{k>=B} r_k), in which the normalisation cancels.  For B >= (M + 1)q the
ratio Σ_{k>=B} r_k / r_B is summed afresh from B (relative to r_B, so that a far tail keeps its precision).
No long power, no logarithm: the precision doubles until the ceiling is decided, up to
:data:`LONG_MAX_PRECISION`; beyond, UNCHECKED.  Its work grows as √((n − 1)q(1 − q)); the tree's samplings on this
route hold at most :data:`MAX_TAIL_ROOTS` of those roots in all.
"""

from fractions import Fraction
from math import comb, isqrt

from gmpy2 import mpq, mpz

from auditor.outcomes import Unchecked
from auditor.pld import families
from auditor.pld.pairs import bits, declared_guard, rescale
from auditor.rationals import ceil_div

__all__ = ["Truncation", "TruncatedGaussian", "truncation", "sum_work", "long_route", "tail_root", "MAX_SUM_WORK",
           "MAX_EXACT_BITS", "EXACT_SUM_WORK", "MAX_TAIL_ROOTS"]

MAX_SUM_WORK = 1 << 36
"""Most bit operations of the short sums, terms²·(2·bits(b) + bits(n)) with terms = min(B, n − B) and q = a/b."""
MAX_EXACT_BITS = 1 << 27
"""Most bits (n − B)·bits(b) of the exact power, needed only when the enclosures cannot decide p̂."""
MAX_PRECISION = 1 << 16
RATE_BITS = 64
EXACT_SUM_WORK = 1 << 34
"""A truncated sampling whose short sums would need more bit operations (and 0 < q < 1) takes the long route."""
MAX_TAIL_ROOTS = 1 << 16
"""Most Σ (⌊√((n − 1)·q·(1 − q))⌋ + 2) over the tree's samplings on the long route (their sums grow as the root)."""
LONG_MAX_PRECISION = 1 << 12
"""Most fixed-point bits of the long route's sums."""
STOP = 1 << 40  # the long route's sums stop at a term below 2^40 units (its roundings stay 2^-40 of it)


def sum_work(n, q, B):
    """The short sums' bit operations, compared with :data:`MAX_SUM_WORK`."""
    terms = min(B, n - B) if B < n else 0
    return terms * terms * (2 * mpq(q).denominator.bit_length() + n.bit_length())


def long_route(n, q, B):
    """Whether (n, q, B) takes the long route (module docstring): 0 < q < 1 and short sums beyond EXACT_SUM_WORK."""
    return 0 < q < 1 and sum_work(n, q, B) > EXACT_SUM_WORK


def tail_root(n, q):
    """⌊√((n − 1)·q·(1 − q))⌋ + 2, the long route's measure of work (compared with :data:`MAX_TAIL_ROOTS`)."""
    q = mpq(q)
    variance = (n - 1) * q * (1 - q)
    return isqrt(int(variance.numerator // variance.denominator)) + 2


def _from_mode(M, a, c, B, P):
    """Binomial(M, q), q = a/(a + c) in (0, 1), relative to its mode m (term 2^P), summed outward (module docstring):
    (Z, T, R), (lo, hi) integer pairs enclosing 2^P·Σ_k r_k, 2^P·Σ_{k>=B} r_k and 2^P·r_B."""
    one = 1 << P
    m = (M + 1) * a // (a + c)
    Z, T, R = [0, 0], [0, 0], [0, 0]

    def add(k, lo, hi):
        Z[0] += lo
        Z[1] += hi
        if k >= B:
            T[0] += lo
            T[1] += hi
        if k == B:
            R[0], R[1] = lo, hi

    lo = hi = one
    k = m
    while True:   # upward: r_{k+1} = r_k·(M − k)·a/((k + 1)·c), ratio < 1 from m on
        add(k, lo, hi)
        if k == M:
            break
        num, den = (M - k) * a, (k + 1) * c
        if hi < STOP:
            rest = ceil_div(hi * num, den - num)
            Z[1] += rest
            T[1] += rest
            if B > k:
                R[1] = hi
            break
        lo, hi, k = lo * num // den, ceil_div(hi * num, den), k + 1
    lo = hi = one
    k = m
    while k > 0:  # downward: r_{k−1} = r_k·k·c/((M − k + 1)·a), ratio < 1 below m
        num, den = k * c, (M - k + 1) * a
        lo, hi, k = lo * num // den, ceil_div(hi * num, den), k - 1
        add(k, lo, hi)
        if k > 0 and hi < STOP:
            num, den = k * c, (M - k + 1) * a
            rest = ceil_div(hi * num, den - num)
            Z[1] += rest
            if B < k:
                T[1] += rest
                R[1] = hi
            break
    return Z, T, R


def _from_batch(M, a, c, B, P):
    """(lo, hi) enclosing 2^P·Σ_{k>=B} P[X = k]/P[X = B] for B >= (M + 1)q, summed upward from B."""
    lo = hi = S_lo = S_hi = 1 << P
    k = B
    while k < M:
        num, den = (M - k) * a, (k + 1) * c
        if hi < STOP:
            return S_lo, S_hi + ceil_div(hi * num, den - num)
        lo, hi, k = lo * num // den, ceil_div(hi * num, den), k + 1
        S_lo, S_hi = S_lo + lo, S_hi + hi
    return S_lo, S_hi


def _binomial_sum(M, J, a, c):
    """Σ_{j=0}^{J} C(M, j)·a^j·c^(J−j), summed from j = J down (term_{j−1} = term_j·j·c/((M − j + 1)·a))."""
    term = mpz(comb(M, J)) * mpz(a) ** J
    total = term
    for j in range(J, 0, -1):
        term = term * j * c // ((M - j + 1) * a)
        total += term
    return total


def _tail_sum(M, J, a, c):
    """Σ_{j=J}^{M} C(M, j)·a^(j−J)·c^(M−j), summed from j = J up (term_{j+1} = term_j·(M − j)·a/((j + 1)·c))."""
    if c == 0:   # q = 1: only j = M is left, a^(M−J)
        return mpz(a) ** (M - J)
    term = mpz(comb(M, J)) * mpz(c) ** (M - J)
    total = term
    for j in range(J, M):
        term = term * (M - j) * a // ((j + 1) * c)
        total += term
    return total


def _power(x, e, W):
    """(lo, hi) with lo <= 2^W·x^e <= hi, x in [0, 1] rational, by squaring with outward rounding."""
    one = mpz(1) << W
    base = ((x.numerator << W) // x.denominator, ceil_div(x.numerator << W, x.denominator))
    acc = (one, one)
    while e:
        if e & 1:
            acc = ((acc[0] * base[0]) >> W, ceil_div(acc[1] * base[1], one))
        e >>= 1
        if e:
            base = ((base[0] * base[0]) >> W, ceil_div(base[1] * base[1], one))
    return acc


class Truncation:
    """t and p̂ of (n, q, B), n − 1 >= B >= 1 and q > 0."""

    __slots__ = ("n", "q", "B", "upper", "x", "e", "alpha", "beta", "scale", "conditional", "long", "_window")

    def __init__(self, n, q, B):
        self.n, self.q, self.B = n, mpq(q), B
        a, b = self.q.numerator, self.q.denominator
        c = b - a
        self.long, self._window = long_route(n, self.q, B), None
        if self.long:
            self.conditional = self._decide_long()
            return
        self.upper = c == 0 or B > (n - 1) // 2
        if self.upper:
            # t = q^B·V₁/b^(n−1−B); p̄·t = (B/n)·q^(B+1)·V₂/b^(n−1−B): p̄ = B·a·V₂/(n·b·V₁)
            v1, v2 = _tail_sum(n - 1, B, a, c), _tail_sum(n, B + 1, a, c)
            self.x, self.e = self.q, B
            self.scale = mpq(v1, mpz(b) ** (n - 1 - B))
            self.conditional = _ceiling(mpq(B * a * v2, n * b * v1))
            return
        # r = ((b − a)/b)^(n−B): t = 1 − α·r; p̄·t = (B/n)·(1 − β·r)
        self.x, self.e = mpq(c, b), n - B
        self.alpha = mpq(_binomial_sum(n - 1, B - 1, a, c), mpz(b) ** (B - 1))
        self.beta = mpq(_binomial_sum(n, B, a, c), mpz(b) ** B)
        self.conditional = self._decide()

    def _pbar(self, r):
        return mpq(self.B, self.n) * (1 - self.beta * r) / (1 - self.alpha * r)

    def _decide(self):
        W = 128 + self.alpha.numerator.bit_length() - self.alpha.denominator.bit_length()
        while W <= MAX_PRECISION:
            lo, hi = _power(self.x, self.e, W)
            ends = [self._pbar(mpq(r, mpz(1) << W)) for r in (lo, hi)]
            if 1 - self.alpha * mpq(hi, mpz(1) << W) > 0 and min(ends) > 0:
                rounded = {_ceiling(p) for p in ends}
                if len(rounded) == 1:
                    return rounded.pop()
            W *= 2
        if self.e * self.x.denominator.bit_length() > MAX_EXACT_BITS:
            raise Unchecked("/input/event", self.e * self.x.denominator.bit_length(), MAX_EXACT_BITS,
                            "bits of the exact power that would decide a truncated sampling's rate")
        return _ceiling(self._pbar(self.x ** self.e))

    def _pbar_long(self, P):
        """(lo, hi) enclosing p̄ on the long route at P bits (module docstring)."""
        M, a, b = self.n - 1, self.q.numerator, self.q.denominator
        c, factor, one = b - a, mpq(self.B, self.n), mpz(1) << P
        if self.B * b >= (M + 1) * a:   # p̄ = (B/n)·(1 − (1 − q)/S), S = Σ_{k>=B} r_k/r_B, increasing in S
            S_lo, S_hi = _from_batch(M, a, c, self.B, P)
            return tuple(factor * (1 - (1 - self.q) * mpq(one, S)) for S in (S_lo, S_hi))
        _, (T_lo, T_hi), (R_lo, R_hi) = _from_mode(M, a, c, self.B, P)
        return factor * (1 - (1 - self.q) * mpq(R_hi, T_lo)), factor * (1 - (1 - self.q) * mpq(R_lo, T_hi))

    def _decide_long(self):
        P = 192
        while P <= LONG_MAX_PRECISION:
            lo, hi = self._pbar_long(P)
            if lo > 0 and _ceiling(lo) == _ceiling(hi):
                return _ceiling(hi)
            P *= 2
        raise Unchecked("/input/event", P, LONG_MAX_PRECISION,
                        "bits of the binomial sums that would decide a truncated sampling's rate")

    def _weight_long(self, W):
        """(lo, hi) with lo <= 2^W·t <= hi on the long route: t = Σ_{k>=B} r_k / Σ_k r_k."""
        P = W + 96
        if self._window is None or self._window[0] < P:
            M, a, b = self.n - 1, self.q.numerator, self.q.denominator
            self._window = (P, _from_mode(M, a, b - a, self.B, P))
        _, ((Z_lo, Z_hi), (T_lo, T_hi), _) = self._window
        return (T_lo << W) // Z_hi, min(1 << W, ceil_div(T_hi << W, Z_lo))

    def weight(self, W):
        """(lo, hi) with lo <= 2^W·t <= hi."""
        if self.long:
            return self._weight_long(W)
        factor = self.scale if self.upper else self.alpha
        extra = max(0, factor.numerator.bit_length() - factor.denominator.bit_length() + 2)
        V = W + 16 + extra
        r_lo, r_hi = _power(self.x, self.e, V)
        if self.upper:
            lo, hi = mpq(r_lo, 1) * factor, mpq(r_hi, 1) * factor
        else:
            one = mpz(1) << V
            lo, hi = one - mpq(r_hi, 1) * factor, one - mpq(r_lo, 1) * factor
        shift = mpz(1) << (V - W)
        lo, hi = max(mpq(0), lo), min(mpq(mpz(1) << V), hi)
        return int((lo.numerator) // (lo.denominator * shift)), int(ceil_div(hi.numerator, hi.denominator * shift))


def _ceiling(p):
    """⌈p·2^e⌉/2^e, e = 64 + bits(⌊1/p⌋)."""
    e = RATE_BITS + int(p.denominator // p.numerator).bit_length()
    return mpq(ceil_div(p.numerator << e, p.denominator), mpz(1) << e)


_CACHE = {}


def truncation(n, q, B):
    """The :class:`Truncation` of (n, q, B) (n − 1 >= B >= 1, q > 0), computed once per auditor process."""
    key = (n, mpq(q), B)
    if key not in _CACHE:
        if len(_CACHE) > 16:
            _CACHE.clear()
        _CACHE[key] = Truncation(n, q, B)
    return _CACHE[key]


class TruncatedGaussian:
    """``truncated_gaussian``: the labelled mixture of the sampled Gaussians (q, σ) and (p̂, σ/2), weights 1 − t
    and t: under add/remove (1 − p)·N(0, s²) + p·N(1, s²) against N(0, s²), under replace-one against
    (1 − p)·N(0, s²) + p·N(−1, s²) (docs/mechanisms/truncated-poisson.md: the displaced record makes both
    contributions differ from the one they replace by at most 2, the replace-one proof's ball of radius 2)."""

    __slots__ = ("n", "q", "B", "sigma", "rate", "relation", "first", "second")

    def __init__(self, n, q, B, sigma, rate, relation=families.ADD_OR_REMOVE):
        self.n, self.q, self.B, self.sigma, self.rate = n, mpq(q), B, mpq(sigma), mpq(rate)
        self.relation = relation
        sigma, q, rate = (Fraction(int(x.numerator), int(x.denominator)) for x in (self.sigma, self.q, self.rate))
        self.first = families.gaussian(sigma, q, relation)
        self.second = families.gaussian(sigma / 2, rate, relation)

    def __repr__(self):
        return (f"TruncatedGaussian(n={self.n}, q={self.q}, B={self.B}, sigma={self.sigma}, rate={self.rate}, "
                f"relation={self.relation!r})")

    def guard_bits(self):
        """The guard of p̂ and σ (at least either component's under add/remove: p̂ <= q, σ >= σ/2), or the larger
        component's if more, and 2 bits for the mixing."""
        return max(declared_guard(self.rate, self.sigma), self.first.guard_bits(), self.second.guard_bits()) + 2

    def parts(self):
        return sum(bits(x) for x in (self.n, self.q, self.B, self.sigma, self.rate))

    def mass_work(self, n, W, parts):
        return self.first.mass_work(n, W, parts) + self.second.mass_work(n, W, parts)

    def bucket_masses(self, N, lo, hi, W, pointer):
        one = self.first.bucket_masses(N, lo, hi, W, pointer)
        two = self.second.bucket_masses(N, lo, hi, W, pointer)
        Wt = max(one[0], two[0])
        t_lo, t_hi = truncation(self.n, self.q, self.B).weight(Wt)
        full = 1 << Wt

        def mix(x, y, frm_x, frm_y):
            (x_lo, x_hi), (y_lo, y_hi) = rescale(x, frm_x, Wt), rescale(y, frm_y, Wt)
            x_lo, y_lo = max(0, x_lo), max(0, y_lo)     # masses: the lower ends weighted by the lower weights
            return (((full - t_hi) * x_lo + t_lo * y_lo) >> Wt,
                    ceil_div((full - t_lo) * x_hi + t_hi * y_hi, full))

        def mix_all(xs, ys):
            return [mix(x, y, one[0], two[0]) for x, y in zip(xs, ys)]

        p, q = mix_all(one[1], two[1]), mix_all(one[2], two[2])
        low = tuple(mix(x, y, one[0], two[0]) for x, y in zip(one[3], two[3]))
        high = tuple(mix(x, y, one[0], two[0]) for x, y in zip(one[4], two[4]))
        return Wt, p, q, low, high
