"""δ(ε) of the C-fold plain composition of the discrete Gaussian, through the law of the sum.

Let N(n) = f(n)/Z with f(n) = exp(−n²/(2σ²)), Z = Σ_n f(n), P = N and
Q = N(· − 1).  For x ∈ Z^C with S = Σ x_i,

    P(x_i)/Q(x_i) = exp((1 − 2x_i)/(2σ²)),   so   P^C(x)/Q^C(x) = exp((C − 2S)/(2σ²)),

and the product ratio depends on x only through S.  Hence P^C(x) > e^ε Q^C(x)
exactly when C − 2S > 2σ²ε, i.e. S <= s* with

    s* = ⌈(C − 2σ²ε)/2⌉ − 1          (an exact rational computation),

and on that region e^ε Q^C(x) = P^C(x)·g(S) with g(s) = exp(ε − (C − 2s)/(2σ²)) < 1
(points with equality contribute zero).  So δ(ε) = Σ_{x: S(x) <= s*} P^C(x)(1 − g(S(x))).

Enclosure.  Let R ⊂ Z^C be any finite set and V_s = P^C(R ∩ {S = s}).  Every
term of the last sum is >= 0, so

    lower := Σ_{s <= s*} V_s (1 − g(s))  <=  δ(ε)  <=  lower + P^C(Z^C ∖ R)
                                                  =  lower + 1 − Σ_s V_s .

R is built by a C-fold power of the truncated law u(n) = N(n), |n| <= L, by
repeated squaring; after each product the coefficients at both ends whose
total mass is certainly below a small allowance are dropped.  Dropping a
coefficient removes from R the points x whose partial sum (over the block of
coordinates multiplied so far) lands there, so the result is still exactly
V_s = P^C(R ∩ {S = s}) for one set R - whatever was dropped - and the
enclosure above holds; the dropped mass only widens it, through 1 − Σ_s V_s.
Everything is arb ball arithmetic (Z enclosed with its certified tail, see
:func:`producer.sources.discrete_gaussian.normaliser_ball`), so the balls
contain the true V_s.  The sum is evaluated as A − c·B with the prefix sums
A = Σ_{s<=s*} V_s and B = Σ_{s<=s*} V_s e^{s/σ²} and c = e^{ε − C/(2σ²)}; all
terms are positive, so the ball radii stay relative to the terms.

L is the smallest radius with C·P(|X| > L) <= W/16 by the certified tail
bound (:func:`producer.sources.discrete_gaussian.tail_mass_upper`); the
pruning allowance totals W/16; the precision starts at log2(1/W) + 40 bits
plus the bits of the length and doubles until every point is narrower than W.
"""

from math import isqrt

import flint
from flint import arb, arb_poly
from gmpy2 import mpq

from producer.errors import LimitError
from producer.sources.discrete_gaussian import kernel_ball, normaliser_ball, tail_mass_upper
from producer.sources.enclosures import to_arb, working_precision

MAX_RADIUS = 200_000
MAX_WORK = 4 * 10**7          # estimated peak length of the pruned power × starting bits
TRUNCATION_SHARE = 16         # C·P(|X| > L) <= W/16
PRUNING_SHARE = 16            # all pruned mass <= W/16


def threshold_sum(budget, sigma2, epsilon):
    """s* = the largest integer s with C − 2s > 2σ²ε (exact)."""
    m = (mpq(budget) - 2 * mpq(sigma2) * mpq(epsilon)) / 2
    ceiling = -((-m.numerator) // m.denominator)
    return int(ceiling) - 1


def truncation_radius(sigma2, budget, target):
    """The smallest L >= 1 with C·tail(L) <= target, tail(L) >= P(|X| > L) certified."""
    def fits(radius):
        return budget * tail_mass_upper(sigma2, radius) <= target
    lo, hi = 0, 1
    while not fits(hi):
        lo, hi = hi, 2 * hi
        if lo > MAX_RADIUS:
            raise LimitError(f"sigma2: the discrete-Gaussian tail needs a radius above {MAX_RADIUS}")
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if fits(mid):
            hi = mid
        else:
            lo = mid
    return hi


def estimated_length(radius, budget):
    """Peak length of the pruned power: the sum stays within about √C·L of 0 (a size estimate)."""
    unpruned = budget * 2 * radius + 1
    spread = 2 * radius * (isqrt(budget) + 2) + 1
    return min(unpruned, spread)


class SumLaw:
    """Balls V_j ⊇ P^C(R ∩ {S = offset + j}) for one set R, and the missing mass 1 − Σ V_j."""

    __slots__ = ("coefficients", "offset", "missing")

    def __init__(self, coefficients, offset, missing):
        self.coefficients, self.offset, self.missing = coefficients, offset, missing


def _prune(coefficients, offset, allowance):
    """Drop end coefficients whose total mass is certainly <= allowance/2 at each end."""
    half = allowance / 2
    start, mass = 0, arb(0)
    while start < len(coefficients) - 1 and mass + coefficients[start] <= half:
        mass += coefficients[start]
        start += 1
    stop, mass = len(coefficients), arb(0)
    while stop - 1 > start and mass + coefficients[stop - 1] <= half:
        mass += coefficients[stop - 1]
        stop -= 1
    return coefficients[start:stop], offset + start


def _multiply(a, a_offset, b, b_offset, allowance):
    product = (arb_poly(a) * arb_poly(b)).coeffs()
    return _prune(product, a_offset + b_offset, allowance)


def sum_law(sigma2, budget, radius, prune_total):
    """:class:`SumLaw` of the C-fold pruned power of N truncated to [−L, L] (current precision).

    A mass d dropped from the k-th power is lost about C/k times over in the
    C-th power (each later squaring doubles a deficit), so the allowance at
    the k-th power is prune_total·k/(C·steps): the losses add up to about
    prune_total at most.  (This only steers the width: the enclosure's
    soundness rests on 1 − Σ V_s, whatever was dropped.)
    """
    bits = flint.ctx.prec
    z = normaliser_ball(sigma2, bits)
    base = [kernel_ball(n, sigma2) / z for n in range(-radius, radius + 1)]
    steps = 2 * max(1, budget.bit_length())

    def allowance(power):
        return to_arb(mpq(prune_total) * power / (budget * steps))
    coefficients, offset, power = base, -radius, 1
    for bit in bin(budget)[3:]:
        power *= 2
        coefficients, offset = _multiply(coefficients, offset, coefficients, offset, allowance(power))
        if bit == "1":
            power += 1
            coefficients, offset = _multiply(coefficients, offset, base, -radius, allowance(power))
    total = arb(0)
    for c in coefficients:
        total += c
    return SumLaw(coefficients, offset, 1 - total)


class RegionSums:
    """Prefix sums A_J = Σ_{j<=J} V_j and B_J = Σ_{j<=J} V_j·ρ^{offset+j}, for any number type.

    With ρ = e^{1/σ²} and c = e^{ε − C/(2σ²)}: Σ_{s<=s*} V_s (1 − g(s)) = A_J − c·B_J
    for J = s* − offset.  ``first`` is ρ^{offset}.  Generic in the numbers (arb
    balls here, exact rationals in the tests).
    """

    def __init__(self, coefficients, first, ratio, zero):
        self.coefficients, self.ratio = coefficients, ratio
        self.a, self.b = [], []
        self._power, self._sum_a, self._sum_b = first, zero, zero

    def extend(self, last):
        """Make the prefix sums available up to index ``last`` (clipped to the coefficients)."""
        last = min(last, len(self.coefficients) - 1)
        while len(self.a) <= last:
            v = self.coefficients[len(self.a)]
            self._sum_a += v
            self._sum_b += v * self._power
            self._power *= self.ratio
            self.a.append(self._sum_a)
            self.b.append(self._sum_b)

    def value(self, last, scale):
        """A_J − scale·B_J for J = last (None when J < 0: the region holds no coefficient)."""
        if last < 0:
            return None
        self.extend(last)
        last = min(last, len(self.a) - 1)
        return self.a[last] - scale * self.b[last]


class SumEnclosures:
    """The sum's law built once at ``bits`` bits; :meth:`at` gives the balls of one ε at a time.

    The balls of an ε do not depend on which other ε were asked before (the
    prefix sums are extended in order, each value computed once), so one ε here
    is the same as that ε in any list given to :func:`enclosures`.
    """

    def __init__(self, sigma2, budget, width, bits, radius):
        self.sigma2, self.budget, self.bits = mpq(sigma2), budget, bits
        with working_precision(bits):
            self.law = sum_law(sigma2, budget, radius, mpq(width) / PRUNING_SHARE)
            ratio = to_arb(1 / self.sigma2).exp()
            first = to_arb(mpq(self.law.offset) / self.sigma2).exp()
            self.sums = RegionSums(self.law.coefficients, first, ratio, arb(0))

    def at(self, epsilon):
        """(lower ball, missing mass ball) at ε: δ(ε) ∈ [lower.lower, lower.upper + missing.upper]."""
        with working_precision(self.bits):
            last = threshold_sum(self.budget, self.sigma2, epsilon) - self.law.offset
            scale = to_arb(mpq(epsilon) - mpq(self.budget) / (2 * self.sigma2)).exp()
            value = self.sums.value(last, scale)
            return (arb(0) if value is None else value, self.law.missing)


def enclosures(sigma2, budget, epsilons, width, bits, radius):
    """[(lower ball, missing mass ball)] for each ε at ``bits`` bits (δ ∈ [lower, lower.upper + missing])."""
    balls = SumEnclosures(sigma2, budget, width, bits, radius)
    return [balls.at(epsilon) for epsilon in epsilons]
