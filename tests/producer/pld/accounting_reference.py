"""Independent references for accounting/1, in mpmath (no producer code): densities, integrals, sums.

Each mechanism's dominating pair (docs/accounting.md §4) is written here from
its densities alone: P and Q as functions of the output x (or, for
randomized response, as lists of masses), and the privacy loss
ℓ = log(P/Q).  Everything else follows from the definition of the
hockey-stick divergence:

- one step: H_{e^ε}(A‖B) = ∫ (A − e^ε·B)₊ dx = ∫_{ℓ_o > ε} (A − e^ε·B) dx for
  the order's first and second law (A, B) and its loss ℓ_o (ℓ forward, −ℓ
  backward); every loss here is non-decreasing in x, so {ℓ_o > ε} is a
  half-line whose end is found by bisection, and the integral is taken by
  mpmath.quad with the kinks of the densities as breakpoints;
- two steps (independent, any two mechanisms): H_{e^ε}(A₁⊗A₂‖B₁⊗B₂) =
  E_{A₁}[h₂(ε − ℓ_{o,1})], h₂(t) = E_{A₂}[(1 − e^{t − ℓ_{o,2}})₊] the second
  step's profile at any real t (a one-step integral as above), so the
  composition is one more integral over the first step's output, with
  breakpoints where ε − ℓ_{o,1}(x) meets a kink of h₂;
- randomized response: exact sums over the multinomial counts of its three
  loss values.

The two orders are computed separately and δ(ε) is their maximum.
"""

from fractions import Fraction

import mpmath as mp

FORWARD, BACKWARD = "forward", "backward"


def _mp(value):
    value = Fraction(str(value))
    return mp.mpf(value.numerator) / value.denominator


def _normal(x, mu, s):
    return mp.npdf(x, mu, s)


class Continuous:
    """A pair given by densities p(x), q(x) on R and their CDFs, with the kinks of the densities and of ℓ."""

    def __init__(self, p, q, cdf_p, cdf_q, kinks=(), loss_atoms=(), preimage=None):
        self.p, self.q, self.kinks, self.loss_atoms = p, q, sorted(kinks), list(loss_atoms)
        self.cdf_p, self.cdf_q, self.preimage = cdf_p, cdf_q, preimage

    def loss(self, x):
        return mp.log(self.p(x)) - mp.log(self.q(x))

    def first_second(self, order):
        return (self.p, self.q) if order == FORWARD else (self.q, self.p)

    def order_loss(self, x, order):
        return self.loss(x) if order == FORWARD else -self.loss(x)

    def _threshold(self, t, order):
        """The end of the half-line {ℓ_o > t}: forward [x*, ∞), backward (−∞, x*]; ±inf when all or none.

        By the pair's closed-form ``preimage`` of a strictly increasing loss
        (−inf below its range) when it has one, else by bisection.
        """
        if self.preimage is not None:
            return self.preimage(t) if order == FORWARD else self.preimage(-t)
        lo, hi = mp.mpf(-60), mp.mpf(60)
        sign = 1 if order == FORWARD else -1

        def above(x):
            return self.order_loss(x, order) > t
        if sign > 0:
            if above(lo):
                return mp.ninf
            if not above(hi):
                return mp.inf
        else:
            if above(hi):
                return mp.inf
            if not above(lo):
                return mp.ninf
        for _ in range(110):
            mid = (lo + hi) / 2
            if above(mid) == (sign > 0):
                hi = mid
            else:
                lo = mid
        return (lo + hi) / 2

    def _integral(self, f, a, b):
        points = [a] + [k for k in self.kinks if a < k < b] + [b]
        return mp.quad(f, points)

    def profile(self, t, order):
        """h(t) = A(ℓ_o > t) − e^t·B(ℓ_o > t) for any real t, from the CDFs on the half-line."""
        x = self._threshold(t, order)
        if order == FORWARD:
            if x == mp.inf:
                return mp.mpf(0)
            a, b = (1 - self.cdf_p(x), 1 - self.cdf_q(x)) if x != mp.ninf else (mp.mpf(1), mp.mpf(1))
        else:
            if x == mp.ninf:
                return mp.mpf(0)
            a, b = (self.cdf_q(x), self.cdf_p(x)) if x != mp.inf else (mp.mpf(1), mp.mpf(1))
        return a - mp.exp(t) * b

    def profile_by_integral(self, t, order):
        """h(t) = ∫ (A − e^t·B)₊ dx for any real t (the order's first and second law), by quadrature."""
        first, second = self.first_second(order)
        x = self._threshold(t, order)
        a, b = (x, mp.inf) if order == FORWARD else (mp.ninf, x)
        if a == b or a == mp.inf or b == mp.ninf:
            return mp.mpf(0)
        return self._integral(lambda y: first(y) - mp.exp(t) * second(y), a, b)

    def expect(self, function, order, kinks_of_function=()):
        """E_A[function(ℓ_o)] under the order's first law A; ``kinks_of_function`` the values where it kinks."""
        first, _ = self.first_second(order)
        extra = []
        for v in kinks_of_function:
            x = self._threshold(v, order)
            if mp.isfinite(x):
                extra.append(x)
        points = sorted(set([mp.ninf, mp.inf] + self.kinks + extra))
        return mp.quad(lambda y: first(y) * function(self.order_loss(y, order)), points)

    def profile_kinks(self, order):
        """The t where the profile h(t) is not smooth: the loss law's atoms (of the order's loss)."""
        return [a if order == FORWARD else -a for a in self.loss_atoms]


class Discrete:
    """A pair given by masses: [(loss value, P-mass, Q-mass)] (randomized response)."""

    def __init__(self, atoms):
        self.atoms = atoms

    def _oriented(self, order):
        return [(l, p, q) if order == FORWARD else (-l, q, p) for l, p, q in self.atoms]

    def profile(self, t, order):
        return sum((a - mp.exp(t) * b for l, a, b in self._oriented(order) if l > t), mp.mpf(0))

    profile_by_integral = profile

    def expect(self, function, order, kinks_of_function=()):
        return sum((a * function(l) for l, a, b in self._oriented(order)), mp.mpf(0))

    def profile_kinks(self, order):
        return [l for l, _, _ in self._oriented(order)]


# ---- the pairs of docs/accounting.md §4 ----------------------------------------------------------

def _mix(parts, density):
    """The mixture Σ w·density(x, μ) of parts [(μ, w)] as a function of x."""
    return lambda x: sum(w * density(x, mu) for mu, w in parts)


def _pair(p_parts, q_parts, density, cdf, **kw):
    """The pair of mixtures, with their CDFs."""
    return Continuous(_mix(p_parts, density), _mix(q_parts, density), _mix(p_parts, cdf), _mix(q_parts, cdf), **kw)


def gaussian(sigma, q=1, relation="add_or_remove_one"):
    s, q = _mp(sigma), _mp(q)
    density, cdf = (lambda x, mu: _normal(x, mu, s)), (lambda x, mu: mp.ncdf(x, mu, s))
    if relation == "add_or_remove_one":
        def preimage(t):  # ℓ(x) = log(1 − q + q·e^{(2x−1)/(2σ²)}) = t
            arg = mp.exp(t) - 1 + q
            return mp.ninf if arg <= 0 else mp.mpf(1) / 2 + s * s * mp.log(arg / q)
        return _pair([(0, 1 - q), (1, q)], [(0, 1)], density, cdf, preimage=preimage)

    def replace_preimage(t):  # q·c·u² + (1 − q)(1 − e^t)·u − e^t·q·c = 0, u = e^{x/σ²}, c = e^{−1/(2σ²)}
        c, e = mp.exp(-1 / (2 * s * s)), mp.exp(t)
        a, b, k = q * c, (1 - q) * (1 - e), -e * q * c
        u = (-b + mp.sqrt(b * b - 4 * a * k)) / (2 * a)
        return s * s * mp.log(u)
    return _pair([(0, 1 - q), (1, q)], [(0, 1 - q), (-1, q)], density, cdf, preimage=replace_preimage)


def _laplace(x, mu, b):
    return mp.exp(-abs(x - mu) / b) / (2 * b)


def _laplace_cdf(x, mu, b):
    return mp.exp((x - mu) / b) / 2 if x < mu else 1 - mp.exp(-(x - mu) / b) / 2


def laplace(scale, q=1, relation="add_or_remove_one"):
    b, q = _mp(scale), _mp(q)
    density, cdf = (lambda x, mu: _laplace(x, mu, b)), (lambda x, mu: _laplace_cdf(x, mu, b))
    if relation == "add_or_remove_one":
        low, high = mp.log(1 - q + q * mp.exp(-1 / b)), mp.log(1 - q + q * mp.exp(1 / b))

        def preimage(t):  # {ℓ > t} = (x, ∞): ℓ is flat below 0 and above 1, log(1 − q + q·e^{(2x−1)/b}) between
            if t < low:
                return mp.ninf
            if t >= high:
                return mp.inf
            return (1 + b * mp.log((mp.exp(t) - 1 + q) / q)) / 2
        return _pair([(0, 1 - q), (1, q)], [(0, 1)], density, cdf, kinks=[mp.mpf(0), mp.mpf(1)],
                     loss_atoms=[low, high], preimage=preimage)

    if q == 1:
        def replace_preimage(t):  # ℓ = (|x + 1| − |x − 1|)/b: flat beyond ±1, 2x/b between
            return mp.ninf if t < -2 / b else mp.inf if t >= 2 / b else b * t / 2
        return _pair([(1, 1)], [(-1, 1)], density, cdf, kinks=[mp.mpf(-1), mp.mpf(1)], loss_atoms=[-2 / b, 2 / b],
                     preimage=replace_preimage)
    base = 1 - q + q * mp.exp(-1 / b)      # the Q-side factor on [0, 1]
    top = mp.log((1 - q + q * mp.exp(1 / b)) / base)

    def sampled_preimage(t):  # ℓ odd, flat beyond ±1; on [0, 1] log((1 − q + q·e^{(2x−1)/b})/base)
        if t < -top:
            return mp.ninf
        if t >= top:
            return mp.inf
        if t < 0:
            return -sampled_preimage(-t)
        return (1 + b * mp.log((mp.exp(t) * base - (1 - q)) / q)) / 2
    return _pair([(0, 1 - q), (1, q)], [(0, 1 - q), (-1, q)], density, cdf,
                 kinks=[mp.mpf(-1), mp.mpf(0), mp.mpf(1)], loss_atoms=[-top, top], preimage=sampled_preimage)


def mixture(sigma, sensitivities, probabilities, q=1):
    s, q = _mp(sigma), _mp(q)
    density, cdf = (lambda x, mu: _normal(x, mu, s)), (lambda x, mu: mp.ncdf(x, mu, s))
    parts = [(0, 1 - q)] + [(_mp(d), q * _mp(p)) for d, p in zip(sensitivities, probabilities)]
    return _pair(parts, [(0, 1)], density, cdf)


def randomized_response(noise, buckets):
    p, k = _mp(noise), buckets
    keep, other = 1 - p + p / k, p / k
    L = mp.log(keep / other)
    return Discrete([(L, keep, other), (mp.mpf(0), (k - 2) * other, (k - 2) * other), (-L, other, keep)])


# ---- δ(ε) ------------------------------------------------------------------------------------------

def one_step(law, epsilon, integral=True):
    """δ(ε) of one step: the larger order (``integral``: by quadrature of the densities, else from the CDFs)."""
    eps = _mp(epsilon)
    return max((law.profile_by_integral if integral else law.profile)(eps, order) for order in (FORWARD, BACKWARD))


def two_steps(first, second, epsilon):
    """δ(ε) of the composition of two independent steps (any two pairs above)."""
    eps = _mp(epsilon)
    out = []
    for order in (FORWARD, BACKWARD):
        kinks = [eps - k for k in second.profile_kinks(order)]
        out.append(first.expect(lambda l, o=order: second.profile(eps - l, o), order, kinks))
    return max(out)


def laplace_closed_form(scale, epsilon):
    """One Laplace step (sensitivity 1): δ(ε) = 1 − e^{(ε − 1/b)/2} for ε < 1/b, else 0."""
    b, eps = _mp(scale), _mp(epsilon)
    return 1 - mp.exp((eps - 1 / b) / 2) if eps < 1 / b else mp.mpf(0)


def randomized_response_composed(noise, buckets, count, epsilon):
    """δ(ε) of ``count`` randomized responses (replace-one), an exact trinomial sum (the pair is symmetric)."""
    p, k, eps = _mp(noise), buckets, _mp(epsilon)
    keep, other, same = 1 - p + p / k, p / k, (k - 2) * p / k
    L = mp.log(keep / other)
    total = mp.mpf(0)
    for up in range(count + 1):
        for down in range(count - up + 1):
            rest = count - up - down
            ways = mp.factorial(count) / (mp.factorial(up) * mp.factorial(down) * mp.factorial(rest))
            if up - down > 0 and (up - down) * L > eps:
                P = keep ** up * other ** down * same ** rest
                Q = other ** up * keep ** down * same ** rest
                total += ways * (P - mp.exp(eps) * Q)
    return total


def randomized_response_binary(noise, count, epsilon):
    """k = 2: the binomial sum (no zero-loss outcome)."""
    return randomized_response_composed(noise, 2, count, epsilon)
