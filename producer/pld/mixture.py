"""A (Poisson-subsampled) mixture of Gaussians under add/remove neighbours.

Given D′ the output is N(0, σ²), given D it is Σ_i p_i·N(Δ_i, σ²) ("Privacy
Amplification for Matrix Mechanisms", Choquette-Choo, Ganesh, Steinke,
Thakurta 2023, the mixture-of-Gaussians mechanism); Poisson subsampling
with probability q adds the component Δ = 0 with weight 1 − q.  So the
forward pair is P = Σ_k w_k·N(Δ_k, σ²) and Q = N(0, σ²), with the weights
w_k of the distinct Δ_k (w_0 = (1 − q) + q·p(Δ = 0) at Δ = 0, q·p_i at the
others).  With a_k = Δ_k/σ² and c_k = Δ_k²/(2σ²) the privacy loss

    ℓ(x) = log S(x),    S(x) = Σ_k w_k·e^{a_k·x − c_k},

is increasing (every Δ_k >= 0, one positive) and convex, with range
(log w_0, ∞) (w_0 the weight at Δ = 0; −∞ when there is none).

**Preimages.**  A level y > log w_0 has one preimage x(y), the root of
S(x) = e^y, in no closed form.  It is carried as an interval [x₋, x₊] on
whose ends the sign of S(x) − e^y is decided (S(x₋) < e^y < S(x₊), arb balls
that exclude e^y), so x(y) lies between them, and a mass at x(y) is
enclosed by the CDF evaluated on the ball [x₋, x₊].  The ends come from
Newton's method on the well-conditioned form
log Σ_{Δ_k > 0} w_k·e^{a_k·x − c_k} = log(e^y − w_0) (its slope lies between
the smallest and the largest positive a_k) at the working precision, with
more bits for a level whose ends are not decided.

**Masses.**  P(X < x) = Σ_k w_k·Φ((x − Δ_k)/σ), Q(X < x) = Φ(x/σ), the high
tail through 1 − Φ.  The bucket of the infimum, ⌊log(w_0)/h⌋, is decided
exactly: e^{ih} = w_0 would make e^{ih} rational, so ih = 0 and w_0 = 1,
which is no mixture at all (every Δ_i = 0: such a leaf is dropped).
"""

import math

import flint
from flint import arb
from gmpy2 import mpq

from producer.pld.connect_dots import PrecisionError
from producer.pld.decide import floor_guess, last_true, log_guess, sign
from producer.pld.masses import StepMasses, power_of_two
from producer.pld.mechanism import DominatingPair
from producer.pld.normal import normal_quantile_float, phi, phi_bar, trapezoid_moments
from producer.sources.enclosures import to_arb, working_precision

ROOT_ATTEMPTS = 6  # precision doublings for one preimage before the caller's precision goes up


def _log_sum_exp(values):
    big = max(values)
    return big + math.log(sum(math.exp(v - big) for v in values))


class GaussianMixture(DominatingPair):
    """Σ_k w_k·N(Δ_k, σ²) against N(0, σ²): ``noise`` σ, ``sensitivities`` Δ_i (distinct, increasing),
    ``probabilities`` p_i (positive, summing to 1), ``rate`` q ∈ (0, 1] (exact)."""

    __slots__ = ("noise", "sensitivities", "probabilities", "rate", "components")

    def __init__(self, noise, sensitivities, probabilities, rate):
        sensitivities = tuple(mpq(d) for d in sensitivities)
        probabilities = tuple(mpq(p) for p in probabilities)
        rate = mpq(rate)
        weights = {mpq(0): 1 - rate} if rate < 1 else {}
        for d, p in zip(sensitivities, probabilities):
            weights[d] = weights.get(d, mpq(0)) + rate * p
        components = tuple(sorted((d, w) for d, w in weights.items() if w > 0))
        self._set(noise=mpq(noise), sensitivities=sensitivities, probabilities=probabilities, rate=rate,
                  components=components)

    def parameters(self):
        return (self.noise,) + self.sensitivities + self.probabilities + (self.rate,)

    def audit_mass_units(self):
        positive = sum(1 for d in self.sensitivities if d > 0)
        return 160 if positive == 1 else 5000 * positive   # one positive Δ: a sampled Gaussian with σ/Δ

    def audit_scale(self):
        return self.rate, self.noise

    @property
    def zero_weight(self):
        """w_0, the weight of the component at Δ = 0 (0 when there is none)."""
        d, w = self.components[0]
        return w if d == 0 else mpq(0)

    @property
    def dominating_mu2(self):
        # P mixes N(Δ_k) and Q = N(0) mixes N(0) with the same weights: by joint convexity the worst
        # component, N(Δ_max) against N(0), dominates in both orders and in products
        top = self.components[-1][0]
        return top * top / (self.noise * self.noise)

    def describe(self):
        return (f"mixture of {len(self.components)} Gaussians σ = {float(self.noise):g}, "
                f"Δ <= {float(self.components[-1][0]):g}, q = {float(self.rate):g}")

    # ---- exact: the infimum, the preimages ------------------------------------------------

    def lowest_index(self, h):
        """⌊log(w_0)/h⌋ (w_0 > 0), decided exactly."""
        w0, h = self.zero_weight, mpq(h)
        return last_true(lambda i: sign(lambda: to_arb(i * h).exp() - to_arb(w0)) < 0,
                         floor_guess(log_guess(w0), h))

    def _positive(self):
        s2 = self.noise * self.noise
        return [(w, d / s2, d * d / (2 * s2)) for d, w in self.components if d > 0]

    def _excess(self, x, terms):
        """Σ_{Δ_k > 0} w_k·e^{a_k x − c_k} and its derivative, as balls (x a ball)."""
        values = [to_arb(w) * (to_arb(a) * x - to_arb(c)).exp() for w, a, c in terms]
        total = sum(values[1:], values[0])
        slope = sum((to_arb(a) * v for (_, a, _), v in zip(terms[1:], values[1:])), to_arb(terms[0][1]) * values[0])
        return total, slope

    def root_float(self, target, start=None):
        """The root x of log Σ_{Δ_k > 0} w_k·e^{a_k x − c_k} = target, in floats (a start for Newton)."""
        terms = [(math.log(float(w)), float(a), float(c)) for w, a, c in self._positive()]
        if start is None:
            lw, a, c = terms[-1]
            start = (target - lw + c) / a
        x = start
        for _ in range(200):
            values = [lw + a * x - c for lw, a, c in terms]
            big = max(values)
            weights = [math.exp(v - big) for v in values]
            total = sum(weights)
            g = big + math.log(total) - target
            slope = sum(w * a for w, (_, a, _) in zip(weights, terms)) / total
            step = g / slope
            x -= step
            if abs(step) <= 1e-15 * (1 + abs(x)):
                break
        return x

    def preimage(self, y, start=None):
        """A ball containing x(y) for a level y above the infimum (its ends decided exactly).

        ``start`` is a float near the root (the previous level's); a level
        whose ends are not decided at the working precision is retried with
        twice the bits, up to :data:`ROOT_ATTEMPTS` times.
        """
        terms, bits = self._positive(), flint.ctx.prec
        for _ in range(ROOT_ATTEMPTS):
            with working_precision(bits):
                excess = to_arb(mpq(y)).exp() - to_arb(self.zero_weight)
                if excess > 0:
                    ball = self._bracket(excess, terms, bits, start)
                    if ball is not None:
                        return ball
            bits *= 2
        raise PrecisionError("a mixture preimage not bracketed")

    def _bracket(self, excess, terms, bits, start):
        """[x₋, x₊] as a ball, with the sign of S(x) − e^y decided at both ends; None when undecided."""
        target = excess.log()
        x = arb(self.root_float(float(target.mid()), start))
        for _ in range(2 + bits.bit_length()):  # quadratic convergence from about 50 correct bits
            total, slope = self._excess(x, terms)
            step = ((total.log() - target) * total / slope).mid()
            x = (x - step).mid()
            # converged to about bits − 12 bits (exact midpoints against a power of two: no float overflow at
            # the precisions beyond 1035 bits a wide loss range asks for)
            if step == 0 or abs(step) * power_of_two(bits - 12) <= 1 + abs(x):
                break
        # The bracket must also clear the Newton residual and the excess's own radius, which cancellation in
        # e^y − w_0 widens when the mixture's mass above w_0 is small (a tiny sampling rate): in units of x,
        # their sum over the slope.  Without it the radius shrinks with the precision as fast as the excess's
        # own error does, and no precision decides the ends.
        total, slope = self._excess(x, terms)
        residual = (abs(total - excess).upper() + excess.rad()) / slope.lower()
        radius = (1 + abs(x)) * arb(2) ** (24 - bits) + 2 * residual
        left, right = (x - radius).mid(), (x + radius).mid()
        if not (self._excess(left, terms)[0] < excess < self._excess(right, terms)[0]):
            return None
        return left.union(right)

    def _cdf(self, x):
        s = to_arb(self.noise)
        p = sum((to_arb(w) * phi((x - to_arb(d)) / s) for d, w in self.components), arb(0))
        return p, phi(x / s)

    def _survival(self, x):
        s = to_arb(self.noise)
        p = sum((to_arb(w) * phi_bar((x - to_arb(d)) / s) for d, w in self.components), arb(0))
        return p, phi_bar(x / s)

    def masses(self, h, lo, hi, bits):
        infimum = self.lowest_index(h) if self.zero_weight > 0 else lo - 1
        with working_precision(bits):
            cdf_p, cdf_q, start = [], [], None
            for i in range(lo, hi + 1):
                if i <= infimum:
                    cdf_p.append(arb(0))
                    cdf_q.append(arb(0))
                    continue
                x = self.preimage(i * h, start)
                start = float(x.mid())
                p, q = self._cdf(x)
                cdf_p.append(p)
                cdf_q.append(q)
            top = None if hi <= infimum else self.preimage(hi * h, start)
            p_high, q_high = (arb(1), arb(1)) if top is None else self._survival(top)
            return StepMasses.from_cdf(lo, hi, cdf_p, cdf_q, p_high, q_high)

    # ---- the single-step prediction (hints) -----------------------------------------------

    def _x_hint(self, y):
        """x(y) as a ball, or None for −∞ (y at or below the infimum; undecided counts as below: a hint)."""
        if not to_arb(mpq(y)).exp() > to_arb(self.zero_weight):
            return None
        return self.preimage(y)

    def upper_tail(self, y):
        x = self._x_hint(y)
        return (arb(1), arb(1)) if x is None else self._survival(x)

    def lower_tail(self, y):
        x = self._x_hint(y)
        return (arb(0), arb(0)) if x is None else self._cdf(x)

    # ---- float hints ------------------------------------------------------------------------

    def loss_float(self, x):
        s2 = float(self.noise) ** 2
        return _log_sum_exp([math.log(float(w)) + (2 * float(d) * x - float(d) ** 2) / (2 * s2)
                             for d, w in self.components])

    def moments(self):
        s = float(self.noise)
        comps = [(float(d), float(w)) for d, w in self.components]

        def density(x):
            return sum(w * math.exp(-(x - d) ** 2 / (2 * s * s)) for d, w in comps)
        return trapezoid_moments(density, self.loss_float, -12 * s, comps[-1][0] + 12 * s)

    def index_range(self, grid, allowance):
        """From the infimum's bucket (or where Q's low tail is ``allowance``) to where P's high tail is."""
        s, top = float(self.noise), float(self.components[-1][0])
        z = normal_quantile_float(allowance)
        hi = math.ceil(self.loss_float(top + z * s) * grid) + 1
        if self.zero_weight > 0:
            lo = self.lowest_index(mpq(1, grid))
        else:
            lo = math.floor(self.loss_float(-z * s) * grid) - 1
        return lo, max(hi, lo + 2)
