"""The Laplace mechanism: Poisson-subsampled under add/remove neighbours, unsampled under replace-one.

L(μ, b) is the law of density e^{−|x−μ|/b}/(2b), with CDF ½e^{(x−μ)/b} below
μ and 1 − ½e^{−(x−μ)/b} above.

**add/remove** (scale b, sampling q ∈ (0, 1]): P = (1 − q)·L(0, b) + q·L(1, b),
Q = L(0, b) (a query of L1 sensitivity 1 is dominated by the shift by 1, and
Poisson subsampling as in "Optimal Accounting of Differential Privacy via
Characteristic Function", Zhu, Dong, Wang 2022, Theorem 11).  With
ℓ₁(x) = (|x| − |x − 1|)/b the loss is ℓ(x) = log(1 − q + q·e^{ℓ₁(x)}):
constant on (−∞, 0] and on [1, ∞), where the loss law has two atoms, at

    ℓ_min = log(1 − q + q·e^{−1/b}),    ℓ_max = log(1 − q + q·e^{1/b}),

and strictly increasing on [0, 1], where a level y has the preimage
x(y) = (1 + b·log((e^y − 1 + q)/q))/2 (x(y) = (1 + b·y)/2 when q = 1).  So
P(ℓ < y) is 0 for y <= ℓ_min, 1 for y > ℓ_max, and P(X < x(y)) between (the
atom at x <= 0 included, the one at x >= 1 not), where

    P(X < x) = (1 − q)·(1 − ½e^{−x/b}) + q·½e^{(x−1)/b},   Q(X < x) = 1 − ½e^{−x/b}    (0 <= x <= 1).

**replace-one** (q = 1): P = L(1, b), Q = L(−1, b); ℓ(x) = (|x + 1| − |x − 1|)/b,
atoms at ∓2/b (x <= −1, x >= 1), x(y) = b·y/2 between, and for −1 <= x <= 1

    P(X < x) = ½e^{(x−1)/b},    Q(X < x) = 1 − ½e^{−(x+1)/b}.

**Exact range.**  The loss is bounded, so the buckets run from the atom
ℓ_min's, i_min = ⌊ℓ_min/h⌋, to the atom ℓ_max's, i_max = ⌊ℓ_max/h⌋, and
hi = i_max + 1 leaves both tails empty.  At q = 1 the atoms ±1/b (±2/b) are
rationals, compared with the grid exactly; at q < 1, e^{ih} = 1 − q + q·e^{±1/b}
never holds (with D a common denominator of ih and 1/b and a = e^{1/D},
it is a polynomial equation in the transcendental a whose constant term
−(1 − q) does not cancel), so the sign of e^{ih} − (1 − q + q·e^{±1/b}) is
settled by arb (:mod:`producer.pld.decide`).
"""

import math

from flint import arb
from gmpy2 import mpq

from producer.pld.decide import floor_guess, last_true, sign
from producer.pld.masses import StepMasses
from producer.pld.mechanism import DominatingPair
from producer.pld.normal import trapezoid_moments
from producer.sources.enclosures import to_arb, working_precision


def _floor(value, h):
    """⌊value/h⌋ of a rational value."""
    ratio = mpq(value) / mpq(h)
    return int(ratio.numerator // ratio.denominator)


class _BoundedLaplace(DominatingPair):
    """What both Laplace pairs share: a loss with an atom at each end, linear in between."""

    __slots__ = ()

    def audit_mass_units(self):
        return 80

    def _ends(self, h):
        """(i_min, i_max): the buckets of the two atoms, decided exactly."""
        return self._index_of(-1, h), self._index_of(+1, h)

    def _index_of(self, side, h):
        """⌊a/h⌋ for the atom a = ℓ_min (side −1) or ℓ_max (+1): rational at q = 1, else never a grid level."""
        rational = self._atom_rational(side)
        if rational is not None:
            return _floor(rational, h)
        value_at = self._atom_exp(side)
        return last_true(lambda i: sign(lambda: to_arb(i * h).exp() - value_at()) < 0,
                         floor_guess(self._atom_float(side), h))

    def _atom_float(self, side):
        """The atom's loss value in floats (hint)."""
        with working_precision(64):
            return math.log(float(self._atom_exp(side)().mid()))

    def _atom_exp(self, side):
        """A function returning e^{ℓ_min} (side −1) or e^{ℓ_max} (+1) as a ball at the current precision."""
        raise NotImplementedError

    def _atom_rational(self, side):
        """The atom's loss value when it is rational (q = 1), else None."""
        raise NotImplementedError

    def masses(self, h, lo, hi, bits):
        i_min, i_max = self._ends(h)
        with working_precision(bits):
            cdf_p, cdf_q = [], []
            for i in range(lo, hi + 1):
                p, q = self._cdf_level(i, h, i_min, i_max)
                cdf_p.append(p)
                cdf_q.append(q)
            return StepMasses.from_cdf(lo, hi, cdf_p, cdf_q, *self._survival_level(hi, h, i_min, i_max))

    def _cdf_level(self, i, h, i_min, i_max):
        """(P(ℓ < ih), Q(ℓ < ih)) as balls."""
        if i <= i_min:
            return arb(0), arb(0)
        if i > i_max:
            return arb(1), arb(1)
        return self._cdf(self._preimage(i * h))

    def _survival_level(self, i, h, i_min, i_max):
        """(P(ℓ >= ih), Q(ℓ >= ih)) as balls, computed as themselves."""
        if i <= i_min:
            return arb(1), arb(1)
        if i > i_max:
            return arb(0), arb(0)
        return self._survival(self._preimage(i * h))

    def index_range(self, grid, allowance):
        i_min, i_max = self._ends(mpq(1, grid))
        return i_min, i_max + 1

    # the single-step prediction (hints): comparisons at the current precision, floats when undecided
    def _compare(self, y, side):
        """The sign of y − (the atom's loss value) (0 only for a rational tie)."""
        rational = self._atom_rational(side)
        if rational is not None:
            return (mpq(y) > rational) - (mpq(y) < rational)
        diff = to_arb(mpq(y)).exp() - self._atom_exp(side)()
        if diff > 0:
            return 1
        if diff < 0:
            return -1
        return 1 if float(mpq(y)) > self._atom_float(side) else -1

    def upper_tail(self, y):
        if self._compare(y, -1) <= 0:
            return arb(1), arb(1)
        if self._compare(y, +1) > 0:
            return arb(0), arb(0)
        return self._survival(self._preimage(y))

    def lower_tail(self, y):
        if self._compare(y, -1) < 0:
            return arb(0), arb(0)
        if self._compare(y, +1) >= 0:
            return arb(1), arb(1)
        return self._cdf(self._preimage(y))


class SubsampledLaplace(_BoundedLaplace):
    """(1 − q)·L(0, b) + q·L(1, b) against L(0, b): ``scale`` b > 0, ``rate`` q ∈ (0, 1] (add/remove)."""

    __slots__ = ("scale", "rate")

    def __init__(self, scale, rate):
        self._set(scale=mpq(scale), rate=mpq(rate))

    def parameters(self):
        return (self.scale, self.rate)

    def audit_scale(self):
        return self.rate, self.scale

    def describe(self):
        return f"subsampled Laplace b = {float(self.scale):g}, q = {float(self.rate):g}"

    def _atom_rational(self, side):
        return side / self.scale if self.rate == 1 else None

    def _atom_exp(self, side):
        def value():
            q = to_arb(self.rate)
            return 1 - q + q * to_arb(side / self.scale).exp()
        return value

    def _preimage(self, y):
        """x(y) on [0, 1] as a ball (ℓ_min < y <= ℓ_max)."""
        b = self.scale
        if self.rate == 1:
            return to_arb((1 + b * mpq(y)) / 2)
        q = to_arb(self.rate)
        return (1 + to_arb(b) * ((to_arb(mpq(y)).exp() - 1 + q) / q).log()) / 2

    def _cdf(self, x):
        q, b = to_arb(self.rate), to_arb(self.scale)
        below = (-x / b).exp() / 2
        return (1 - q) * (1 - below) + q * ((x - 1) / b).exp() / 2, 1 - below

    def _survival(self, x):
        q, b = to_arb(self.rate), to_arb(self.scale)
        above = (-x / b).exp() / 2
        return (1 - q) * above + q * (1 - ((x - 1) / b).exp() / 2), above

    def loss_float(self, x):
        q, b = float(self.rate), float(self.scale)
        l1 = (abs(x) - abs(x - 1)) / b
        return l1 if q == 1 else math.log1p(q * math.expm1(l1))

    def moments(self):
        q, b = float(self.rate), float(self.scale)
        low, high = self.loss_float(0.0), self.loss_float(1.0)
        p_low = (1 - q) / 2 + q * math.exp(-1 / b) / 2
        p_high = (1 - q) * math.exp(-1 / b) / 2 + q / 2

        def density(x):
            return ((1 - q) * math.exp(-x / b) + q * math.exp((x - 1) / b)) / (2 * b)
        mid_mass = max(1.0 - p_low - p_high, 0.0)
        mean_mid, var_mid = trapezoid_moments(density, self.loss_float, 0.0, 1.0, points=401)
        return _combine([(p_low, low, 0.0), (p_high, high, 0.0), (mid_mass, mean_mid, var_mid)])


class ReplaceOneLaplace(_BoundedLaplace):
    """L(1, b) against L(−1, b): ``scale`` b > 0 (replace-one, unsampled)."""

    __slots__ = ("scale",)

    def __init__(self, scale):
        self._set(scale=mpq(scale))

    def parameters(self):
        return (self.scale,)

    def audit_scale(self):
        return mpq(1), self.scale

    def describe(self):
        return f"replace-one Laplace b = {float(self.scale):g}"

    def _atom_rational(self, side):
        return 2 * side / self.scale

    def _atom_exp(self, side):
        return lambda: to_arb(2 * side / self.scale).exp()

    def _preimage(self, y):
        return to_arb(self.scale * mpq(y) / 2)

    def _cdf(self, x):
        b = to_arb(self.scale)
        return ((x - 1) / b).exp() / 2, 1 - (-(x + 1) / b).exp() / 2

    def _survival(self, x):
        b = to_arb(self.scale)
        return 1 - ((x - 1) / b).exp() / 2, (-(x + 1) / b).exp() / 2

    def loss_float(self, x):
        return (abs(x + 1) - abs(x - 1)) / float(self.scale)

    def moments(self):
        b = float(self.scale)
        p_low, p_high = math.exp(-2 / b) / 2, 0.5

        def density(x):
            return math.exp((x - 1) / b) / (2 * b)
        mean_mid, var_mid = trapezoid_moments(density, self.loss_float, -1.0, 1.0, points=401)
        return _combine([(p_low, -2 / b, 0.0), (p_high, 2 / b, 0.0), (max(1 - p_low - p_high, 0.0), mean_mid, var_mid)])


class ReplaceOneSampledLaplace(_BoundedLaplace):
    """(1 − q)·L(0, b) + q·L(1, b) against (1 − q)·L(0, b) + q·L(−1, b): ``scale`` b > 0, ``rate`` q ∈ (0, 1)
    (replace-one, Poisson-sampled; docs/mechanisms/poisson-subsampling.md proves that it dominates).

    With r₊ = e^{(|x| − |x − 1|)/b} and r₋ = e^{(|x| − |x + 1|)/b} the loss is
    ℓ = log((1 − q + q·r₊)/(1 − q + q·r₋)): the atom −ℓ_max on x <= −1, +ℓ_max on
    x >= 1, ℓ_max = log((1 − q + q·e^{1/b})/(1 − q + q·e^{−1/b})), odd in x, and
    on [0, 1] (r₋ = e^{−1/b}) strictly increasing from 0, a level y >= 0 having
    the preimage x(y) = (1 + b·log(v/q))/2, v = e^y·(1 − q + q·e^{−1/b}) − (1 − q).
    A level y < 0 is read through the symmetry x ↦ −x, which exchanges P and Q:
    P(ℓ < y) = Q(X >= x(−y)).  So every CDF formula is evaluated on x >= 0, the
    side its branch of |x| is proved for.  ℓ_max is a rational grid candidate
    only at q = 1/2, where it is 1/b exactly (e^{1/b}·(1 + e^{−1/b}) = 1 + e^{1/b});
    otherwise e^{ih} = e^{ℓ_max} is a nonzero polynomial identity in a
    transcendental number, never true, and arb settles the sign.
    """

    __slots__ = ("scale", "rate")

    def __init__(self, scale, rate):
        scale, rate = mpq(scale), mpq(rate)
        if not 0 < rate < 1 or scale <= 0:
            raise ValueError(f"a sampling probability in (0, 1) (q = 1 is the unsampled replace-one Laplace) and a "
                             f"positive b are needed, got q = {rate}, b = {scale}")
        self._set(scale=scale, rate=rate)

    def parameters(self):
        return (self.scale, self.rate)

    def audit_scale(self):
        return self.rate, self.scale

    def audit_mass_units(self):
        return 250   # the auditor's constant for this pair (docs/certificates.md, the budget of one file)

    def describe(self):
        return f"replace-one subsampled Laplace b = {float(self.scale):g}, q = {float(self.rate):g}"

    def _atom_rational(self, side):
        return side / self.scale if self.rate == mpq(1, 2) else None

    def _atom_exp(self, side):
        def value():
            q, c = to_arb(self.rate), to_arb(1 / self.scale).exp()
            top, bottom = 1 - q + q * c, 1 - q + q / c
            return top / bottom if side > 0 else bottom / top
        return value

    def _preimage(self, y):
        """(sign of y, x(|y|) as a ball on [0, 1]) for ℓ_min < y <= ℓ_max."""
        y = mpq(y)
        q, b = to_arb(self.rate), to_arb(self.scale)
        v = to_arb(abs(y)).exp() * (1 - q + q * (-1 / b).exp()) - (1 - q)
        return (1 if y >= 0 else -1), (1 + b * (v / q).log()) / 2

    def _halves(self, x):
        """(P(X < x), Q(X < x), P(X >= x), Q(X >= x)) for x in [0, 1]."""
        q, b = to_arb(self.rate), to_arb(self.scale)
        above_zero = (-x / b).exp() / 2                # L(0, b) above x
        below_one = ((x - 1) / b).exp() / 2            # L(1, b) below x
        above_minus_one = (-(x + 1) / b).exp() / 2     # L(−1, b) above x
        p_above = (1 - q) * above_zero + q * (1 - below_one)
        q_above = (1 - q) * above_zero + q * above_minus_one
        return 1 - p_above, 1 - q_above, p_above, q_above

    def _cdf(self, point):
        side, x = point
        p_below, q_below, p_above, q_above = self._halves(x)
        return (p_below, q_below) if side > 0 else (q_above, p_above)

    def _survival(self, point):
        side, x = point
        p_below, q_below, p_above, q_above = self._halves(x)
        return (p_above, q_above) if side > 0 else (q_below, p_below)

    def loss_float(self, x):
        q, b = float(self.rate), float(self.scale)
        up, down = (abs(x) - abs(x - 1)) / b, (abs(x) - abs(x + 1)) / b
        return math.log1p(q * math.expm1(up)) - math.log1p(q * math.expm1(down))

    def moments(self):
        q, b = float(self.rate), float(self.scale)
        top = self.loss_float(1.0)
        c = math.exp(-1 / b)
        p_high, p_low = (1 - q) * c / 2 + q / 2, (1 - q) * c / 2 + q * c * c / 2

        def density(x):
            return ((1 - q) * math.exp(-abs(x) / b) + q * math.exp(-abs(x - 1) / b)) / (2 * b)
        mid_mass = max(1.0 - p_low - p_high, 0.0)
        mean_mid, var_mid = trapezoid_moments(density, self.loss_float, -1.0, 1.0, points=801)
        return _combine([(p_low, -top, 0.0), (p_high, top, 0.0), (mid_mass, mean_mid, var_mid)])


def _combine(parts):
    """(mean, variance) of a mixture of parts (weight, mean, variance), in floats (hint)."""
    total = sum(w for w, _, _ in parts)
    mean = sum(w * m for w, m, _ in parts) / total
    second = sum(w * (v + m * m) for w, m, v in parts) / total
    return mean, max(second - mean * mean, 1e-300)
