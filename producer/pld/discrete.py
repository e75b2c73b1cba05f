"""Noise on the integers: the discrete Laplace and discrete Gaussian mechanisms, Poisson-subsampled under add/remove
neighbours, or unsampled under replace-one (sampled under replace-one: :mod:`producer.pld.replace_discrete`).

N is the noise law centred at 0 and N_d the same law centred at the
integer d (d = s under add/remove, d = 2s under replace-one at q = 1).  The forward pair is

    P = (1 − q)·N + q·N_d,   Q = N,   ℓ(x) = log(1 − q + q·e^{ℓ₁(x)}),   ℓ₁(x) = log(N_d(x)/N(x)),

on the integers x (Poisson subsampling: "Optimal Accounting of Differential
Privacy via Characteristic Function", Zhu, Dong, Wang 2022, Theorem 11).

**Discrete Laplace** DLap(a), pmf tanh(a/2)·e^{−a|x|}: ℓ₁(x) = a·(|x| − |x − d|) is
−a·d for x <= 0, a·(2x − d) for 0 <= x <= d and a·d for x >= d, so the loss law
has the d + 1 atoms v_j = log(1 − q + q·e^{a(2j − d)}), j = 0..d, with Q-masses

    N(x <= 0) = 1/(1 + e^{−a}),   N(x = j) = tanh(a/2)·e^{−aj} (0 < j < d),   N(x >= d) = e^{−ad}/(1 + e^{−a}),

and N_d's mass of atom j is N's mass of atom d − j (the reflection x ↦ d − x).
Each atom is summed into its bucket directly (no CDF differences, no
cancellation); the range runs from the lowest atom's bucket to one past
the highest one's, so both tails are empty.

**Exact buckets.**  An atom's bucket is ⌊v/h⌋.  At q = 1 every v = a·(2j − d)
is rational and compared with the grid exactly.  At q < 1 the atom with
ℓ₁ = 0 (2j = d) has v = 0 exactly, in bucket 0; every other v is never a
grid level: e^{ih} = 1 − q + q·e^{c} with c rational and nonzero is, with D a
common denominator and t = e^{1/D}, the equation t^m − q·t^n − (1 − q) = 0
(m = ihD, n = cD); for m ≠ n (m = n forces t^m = 1, so m = 0 = n) its constant
term −(1 − q) does not cancel, and t is transcendental (Lindemann), so it
fails.  The sign is then settled by arb (:mod:`producer.pld.decide`).
"""

import functools
import math

import flint
from flint import arb
from gmpy2 import mpq

from producer.pld.decide import floor_guess, last_true, log_guess, sign
from producer.pld.masses import StepMasses
from producer.pld.mechanism import DominatingPair
from producer.pld.normal import normal_quantile_float
from producer.sources.enclosures import to_arb, working_precision


def _floor(value, h):
    """⌊value/h⌋ of rationals."""
    ratio = mpq(value) / mpq(h)
    return int(ratio.numerator // ratio.denominator)


# ---- a loss value against a level, exactly ------------------------------------------------------

def exp_loss(rate, l1):
    """e^{v} = 1 − q + q·e^{ℓ₁} as a ball at the current precision (ℓ₁ rational)."""
    q = to_arb(rate)
    return 1 - q + q * to_arb(l1).exp()


def below(rate, l1, level):
    """True when v = log(1 − q + q·e^{ℓ₁}) < ``level`` (rationals q ∈ (0, 1], ℓ₁, level), decided exactly."""
    rate, l1, level = mpq(rate), mpq(l1), mpq(level)
    if rate == 1:
        return l1 < level
    if l1 == 0:  # v = 0 exactly
        return level > 0
    if level == 0:  # v has the sign of ℓ₁
        return l1 < 0
    return sign(lambda: to_arb(level).exp() - exp_loss(rate, l1)) > 0


def loss_float(rate, l1):
    """v = log(1 − q + q·e^{ℓ₁}) in floats (a hint)."""
    q, l1 = float(rate), float(l1)
    if q == 1:
        return l1
    if l1 > 700:
        return math.log(q) + l1
    return math.log1p(q * math.expm1(l1)) if l1 < 30 else math.log(1 - q + q * math.exp(l1))


ATOM_UNITS, SAMPLED_ATOM_UNITS, PLACE_UNITS = 25, 60, 2000


def atom_work(atoms, w, parts, rate):
    """The auditor's work units for ``atoms`` atoms at w bits (docs/certificates.md, accounting/1: 25·A·u at
    sampling 1, 60·A·(u + 2000) below, u = w + w²/1024 + parts/4)."""
    u = w + w * w // 1024 + parts // 4
    return atoms * (u + PLACE_UNITS) * SAMPLED_ATOM_UNITS if rate != 1 else atoms * u * ATOM_UNITS


def audited_radius(sigma_squared, w):
    """m, the least integer >= 1 with m² >= 1.4·σ²·(w + 64): the auditor's atoms −m … d + m at w bits."""
    need = mpq(14, 10) * mpq(sigma_squared) * (w + 64)
    need = int(-(-need.numerator // need.denominator))
    m = math.isqrt(need)
    return max(1, m if m * m >= need else m + 1)


def bucket(rate, l1, h):
    """⌊v/h⌋ for the loss value v of ℓ₁ (exactly: rational at q = 1, v = 0 at ℓ₁ = 0, else by enclosures)."""
    rate, l1, h = mpq(rate), mpq(l1), mpq(h)
    if rate == 1:
        return _floor(l1, h)
    if l1 == 0:
        return 0
    return last_true(lambda i: not below(rate, l1, i * h), floor_guess(loss_float(rate, l1), h))


def side_hint(rate, l1, y):
    """The sign of y − v at the current precision, floats when undecided (the single-step prediction: a hint)."""
    rate, l1, y = mpq(rate), mpq(l1), mpq(y)
    if rate == 1 or l1 == 0:
        v = l1 if rate == 1 else mpq(0)
        return (y > v) - (y < v)
    if y == 0:
        return -1 if l1 > 0 else 1
    diff = to_arb(y).exp() - exp_loss(rate, l1)
    if diff > 0:
        return 1
    if diff < 0:
        return -1
    return 1 if float(y) > loss_float(rate, l1) else -1


# ---- the discrete Laplace mechanism -------------------------------------------------------------------

@functools.lru_cache(maxsize=64)
def _laplace_buckets(parameter, shift, rate, h):
    """The bucket ⌊v_j/h⌋ of every atom j = 0..d (non-decreasing in j)."""
    return tuple(bucket(rate, parameter * (2 * j - shift), h) for j in range(shift + 1))


class DiscreteLaplace(DominatingPair):
    """(1 − q)·DLap(a) + q·DLap(a) shifted by d against DLap(a): ``parameter`` a > 0, ``sensitivity`` s >= 1,
    ``shift`` d (s under add/remove, 2s under replace-one), ``rate`` q ∈ (0, 1] (exact)."""

    __slots__ = ("parameter", "sensitivity", "shift", "rate")

    def __init__(self, parameter, sensitivity, shift, rate):
        self._set(parameter=mpq(parameter), sensitivity=int(sensitivity), shift=int(shift), rate=mpq(rate))

    def parameters(self):
        return (self.parameter, mpq(self.sensitivity), self.rate)

    def key(self):
        return (type(self).__name__, self.parameter, self.sensitivity, self.shift, self.rate)

    def audit_mass_units(self):
        return 80

    def audit_atom_work(self, w, parts):
        return atom_work(self.shift + 1, w, parts, self.rate)

    def audit_scale(self):
        return self.rate, mpq(self.sensitivity)

    def describe(self):
        sampled = "" if self.rate == 1 else f", q = {float(self.rate):g}"
        return f"discrete Laplace a = {float(self.parameter):g}, shift {self.shift}{sampled}"

    def losses(self):
        """ℓ₁ = a·(2j − d) of every atom j = 0..d (rationals)."""
        a, d = self.parameter, self.shift
        return [a * (2 * j - d) for j in range(d + 1)]

    def atom_masses(self):
        """[(P-mass, Q-mass)] of the atoms j = 0..d as balls at the current precision."""
        a, d, q = self.parameter, self.shift, to_arb(self.rate)
        norm = 1 + to_arb(-a).exp()
        inner = (1 - to_arb(-a).exp()) / norm  # tanh(a/2)
        noise = [1 / norm] + [inner * to_arb(-a * j).exp() for j in range(1, d)] + [to_arb(-a * d).exp() / norm]
        return [((1 - q) * noise[j] + q * noise[d - j], noise[j]) for j in range(d + 1)]

    def buckets(self, h):
        return _laplace_buckets(self.parameter, self.shift, self.rate, mpq(h))

    def masses(self, h, lo, hi, bits):
        places = self.buckets(h)
        with working_precision(bits):
            p, q = [arb(0)] * (hi - lo), [arb(0)] * (hi - lo)
            low, high = [arb(0), arb(0)], [arb(0), arb(0)]
            for i, (pm, qm) in zip(places, self.atom_masses()):
                if i < lo:
                    low = [low[0] + pm, low[1] + qm]
                elif i >= hi:
                    high = [high[0] + pm, high[1] + qm]
                else:
                    p[i - lo] += pm
                    q[i - lo] += qm
            return StepMasses(lo, hi, p, q, low[0], low[1], high[0], high[1])

    def index_range(self, grid, allowance):
        places = self.buckets(mpq(1, grid))
        return places[0], places[-1] + 1

    # the single-step prediction (hints)
    def _side(self, loss, y):
        """The sign of y − v for the atom whose loss is ``loss`` (a hint)."""
        return side_hint(self.rate, loss, y)

    def _loss_float(self, loss):
        return loss_float(self.rate, loss)

    def _tail(self, y, keep):
        kept = [m for loss, m in zip(self.losses(), self.atom_masses()) if keep(self._side(loss, y))]
        return sum((m[0] for m in kept), arb(0)), sum((m[1] for m in kept), arb(0))

    def upper_tail(self, y):
        return self._tail(y, lambda s: s <= 0)

    def lower_tail(self, y):
        return self._tail(y, lambda s: s >= 0)

    def moments(self):
        with working_precision(64):
            parts = [(float(pm.mid()), self._loss_float(loss)) for loss, (pm, _) in zip(self.losses(),
                                                                                      self.atom_masses())]
        total = sum(w for w, _ in parts)
        mean = sum(w * v for w, v in parts) / total
        return mean, max(sum(w * v * v for w, v in parts) / total - mean * mean, 1e-300)


# ---- the discrete Gaussian mechanism ---------------------------------------------------------------

class DiscreteGaussian(DominatingPair):
    """(1 − q)·N_Z(0, σ²) + q·N_Z(d, σ²) against N_Z(0, σ²) on the integers: ``sigma_squared`` σ² > 0,
    ``sensitivity`` s >= 1, ``shift`` d (s under add/remove, 2s under replace-one), ``rate`` q ∈ (0, 1] (exact).

    N_Z(μ, σ²) has the pmf g(x − μ)/Z, g(x) = e^{−x²/(2σ²)}, Z = Σ_k g(k); the
    unsampled loss is ℓ₁(x) = (2dx − d²)/(2σ²), one atom per integer.  The
    masses are sums of g over the *bulk* [−M, M + d], M from the working
    precision, enclosed exactly; every sum beyond the bulk, for either law,
    is at most T = g(M + 1)/(1 − e^{−(2M+3)/(2σ²)}) (the terms beyond M + 1
    fall at least geometrically with that ratio), carried as a ball [0, T],
    and Z as the bulk's sum of g over [−M, M] plus [0, 2T] (Z >= 1, so a
    mass divided by Z stays within [0, T]).  A level y's preimage is the
    first integer x with v(x) >= y, decided exactly (:func:`below`).
    """

    __slots__ = ("sigma_squared", "sensitivity", "shift", "rate")

    def __init__(self, sigma_squared, sensitivity, shift, rate):
        self._set(sigma_squared=mpq(sigma_squared), sensitivity=int(sensitivity), shift=int(shift),
                  rate=mpq(rate))

    def parameters(self):
        return (self.sigma_squared, mpq(self.sensitivity), self.rate)

    def key(self):
        return (type(self).__name__, self.sigma_squared, self.sensitivity, self.shift, self.rate)

    def audit_atom_work(self, w, parts):
        return atom_work(2 * audited_radius(self.sigma_squared, w) + self.shift + 1, w, parts, self.rate)

    def audit_scale(self):
        return self.rate, mpq(self.sensitivity)

    def describe(self):
        sampled = "" if self.rate == 1 else f", q = {float(self.rate):g}"
        return f"discrete Gaussian σ² = {float(self.sigma_squared):g}, shift {self.shift}{sampled}"

    def l1(self, x):
        """ℓ₁(x) = (2dx − d²)/(2σ²), a rational."""
        d = self.shift
        return mpq(2 * d * x - d * d) / (2 * self.sigma_squared)

    def _below(self, x, y):
        """True when v(x) < y, decided exactly."""
        return below(self.rate, self.l1(x), y)

    def _ends(self, M):
        """(first, last): the bulk's atoms first <= x < last."""
        return -M, M + self.shift + 1

    def _span(self, g, a, b, rq):
        """(P-, Q-mass) of the bulk atoms a <= x < b, unnormalised (g(|x|) balls, rq the rate's ball)."""
        if a >= b:
            return arb(0), arb(0)
        d = self.shift
        sq = sum((g[abs(x)] for x in range(a, b)), arb(0))
        sd = sum((g[abs(x - d)] for x in range(a, b)), arb(0))
        return (1 - rq) * sq + rq * sd, sq

    # ---- exact: where a level meets the atoms ------------------------------------------------

    def lowest_index(self, h):
        """⌊log(1 − q)/h⌋ (q < 1): the bucket of the infimum, decided exactly (e^{ih} = 1 − q would make e^{ih}
        rational, so ih = 0 and q = 0)."""
        w0, h = 1 - self.rate, mpq(h)
        return last_true(lambda i: sign(lambda: to_arb(i * h).exp() - to_arb(w0)) < 0,
                         floor_guess(log_guess(w0), h))

    def _above_infimum(self, y):
        """True when y > inf v = log(1 − q) (always at q = 1), decided exactly."""
        if self.rate == 1:
            return True
        y = mpq(y)
        if y >= 0:
            return True
        return sign(lambda: to_arb(y).exp() - to_arb(1 - self.rate)) > 0

    def _x_float(self, y):
        """The real x with v(x) = y, in floats (a start for the search)."""
        q, s2, d = float(self.rate), float(self.sigma_squared), self.shift
        if q == 1:
            t = float(y)
        else:
            e = math.expm1(float(y)) + q
            t = math.log(e / q) if e > 0 else -1e300
        return d / 2 + s2 * t / d

    def first_at_or_above(self, y, low, high):
        """The first integer x with v(x) >= y, clamped to [low, high]: None when y <= inf v (every atom is at or
        above y), ``low`` when v(low) >= y, ``high`` when v(high − 1) < y (decided exactly)."""
        if not self._above_infimum(y):
            return None
        if not self._below(low, y):
            return low
        if self._below(high - 1, y):
            return high
        # v(lo) < y <= v(hi): bisect from a bracket around the float guess
        guess = self._x_float(y)
        guess = int(min(max(guess, low), high - 1)) if math.isfinite(guess) else low
        lo, hi, step = guess, guess + 1, 1
        while lo > low and not self._below(lo, y):
            lo, step = max(low, lo - step), 2 * step
        step = 1
        while hi < high - 1 and self._below(hi, y):
            hi, step = min(high - 1, hi + step), 2 * step
        while hi - lo > 1:
            mid = (lo + hi) // 2
            lo, hi = (mid, hi) if self._below(mid, y) else (lo, mid)
        return hi

    # ---- the masses ---------------------------------------------------------------------------------

    def _bulk(self, bits):
        """M, the bulk's lowest atom −M, with T < 2^-(bits + 30) or so (a choice: T is enclosed, whatever M)."""
        s2 = float(self.sigma_squared)
        return math.ceil(math.sqrt(2 * math.log(2) * s2 * (bits + 30 + math.log2(s2 + 1)))) + 1

    def _weights(self, M):
        """g(y) for y = 0..M + d (balls), the tail ball [0, T] and Z, at the current precision."""
        s2 = to_arb(2 * self.sigma_squared)
        g = [(-(to_arb(y) * to_arb(y)) / s2).exp() for y in range(M + self.shift + 1)]
        ratio = (-to_arb(2 * M + 3) / s2).exp()
        tail = (-(to_arb(M + 1) ** 2) / s2).exp() / (1 - ratio)
        out = arb(0).union(arb(tail.upper()))
        z = g[0] + 2 * sum(g[1:M + 1], arb(0)) + 2 * out
        return g, out, z

    def masses(self, h, lo, hi, bits):
        h = mpq(h)
        M = self._bulk(bits)
        first, last = self._ends(M)  # the bulk: first <= x < last
        levels = [self.first_at_or_above(i * h, first - 1, last) for i in range(lo, hi + 1)]
        with working_precision(bits + 24 + (M + self.shift).bit_length()):
            g, out, z = self._weights(M)
            rq = to_arb(self.rate)

            def span(a, b):
                return self._span(g, a, b, rq)

            p, w = [], []
            for k in range(hi - lo):
                a, b = levels[k], levels[k + 1]
                left = a is None or a == first - 1  # atoms below the bulk may lie here
                pm, qm = span(first if a is None else max(a, first), min(b, last))
                pm, qm = pm / z, qm / z
                if left:
                    pm, qm = pm + out, qm + out
                if b == last:  # atoms above the bulk may lie here
                    pm, qm = pm + out, qm + out
                p.append(pm)
                w.append(qm)
            if levels[0] is None:
                p_low = q_low = arb(0)
            else:
                p_low, q_low = span(first, max(levels[0], first))
                p_low, q_low = p_low / z + out, q_low / z + out
            p_high, q_high = span(levels[-1] if levels[-1] is not None else first, last)
            p_high, q_high = p_high / z + out, q_high / z + out
            return StepMasses(lo, hi, p, w, p_low, q_low, p_high, q_high)

    def index_range(self, grid, allowance):
        """From the infimum's bucket (q < 1; −hi at q = 1) to where P's high tail is about ``allowance``."""
        s2, d = float(self.sigma_squared), self.shift
        x = d + normal_quantile_float(allowance) * math.sqrt(s2) + 1  # P's tail beyond x: about the allowance
        hi = max(math.ceil(loss_float(self.rate, (2 * d * x - d * d) / (2 * s2)) * grid) + 1, 1)
        if self.rate == 1:
            return -hi, hi
        lo = self.lowest_index(mpq(1, grid))
        return lo, max(hi, lo + 2)

    # ---- the single-step prediction (hints) -----------------------------------------------------

    def _tails(self, x):
        """(P(X >= x), Q(X >= x)) and (P(X < x), Q(X < x)) at the current precision (x None: −∞)."""
        M = self._bulk(flint.ctx.prec)
        first, last = self._ends(M)
        g, out, z = self._weights(M)
        rq = to_arb(self.rate)
        a = first if x is None else min(max(x, first), last)
        up_p, up_q = self._span(g, a, last, rq)
        up = up_p / z + out, up_q / z + out
        if x is None:
            return up, (arb(0), arb(0))
        low_p, low_q = self._span(g, first, a, rq)
        return up, (low_p / z + out, low_q / z + out)

    def _first_at(self, y):
        first, last = self._ends(self._bulk(flint.ctx.prec))
        return self.first_at_or_above(y, first - 1, last)

    def upper_tail(self, y):
        return self._tails(self._first_at(y))[0]

    def lower_tail(self, y):
        return self._tails(self._first_at(y))[1]

    def moments(self):
        s2, d, q = float(self.sigma_squared), self.shift, self.rate
        width = int(12 * math.sqrt(s2)) + 2
        parts = []
        for x in range(-width, d + width + 1):
            weight = (1 - float(q)) * math.exp(-x * x / (2 * s2)) + float(q) * math.exp(-(x - d) ** 2 / (2 * s2))
            if weight > 0:
                parts.append((weight, loss_float(q, (2 * d * x - d * d) / (2 * s2))))
        total = sum(w for w, _ in parts)
        mean = sum(w * v for w, v in parts) / total
        return mean, max(sum(w * v * v for w, v in parts) / total - mean * mean, 1e-300)
