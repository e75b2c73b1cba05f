"""The Gaussian on batches drawn without replacement (producer/pld/without_replacement.py): its symmetrised pair
against mpmath written from the densities of A = (1 − γ)N(0, σ²) + γN(2, σ²) and B = N(0, σ²) alone — bucket
masses, the atom at 0, the tails, inequality (1) in both orders; the one-step δ(ε) = γ·H_{α'}(N(2, σ²)‖N(0, σ²));
the ordering lemma of docs/mechanisms/poisson-subsampling.md on a grid; two steps by quadrature of the
symmetrised loss law; monotonicity; γ = 1 is the unsampled replace-one Gaussian; and (optionally)
dp_accounting's RDP value at noise σ/2 above the certified interval.  The Laplace mechanism on such batches, against
mpmath written from the densities of A = (1 − γ)L(0, b) + γL(2, b) and B = L(0, b): bucket masses, the atom at 0,
the empty tails, one step by quadrature of ∫(a − e^ε·b)₊, two steps from the explicit loss law (three atoms and a
density), monotonicity in γ and b, γ = 1 the unsampled replace-one Laplace (dp_accounting has no peer value)."""

import mpmath as mp
import pytest
from flint import arb
from gmpy2 import mpq

from producer import api
from producer.pld.masses import oriented
from producer.pld.mechanism import ORDERS
from producer.pld.replace_gaussian import ReplaceOneGaussian
from producer.pld.without_replacement import (WithoutReplacementDiscreteGaussian, WithoutReplacementDiscreteLaplace,
                                              WithoutReplacementGaussian, WithoutReplacementLaplace)
from producer.plain.outward import ball_lower, ball_upper
from producer.references.accounting import discrete_gaussian, discrete_laplace, gaussian, repeat
from producer.sources.enclosures import to_arb, working_precision
from tests.producer.pld import accounting_reference as ref
from tests.producer.pld.reference import integer_pmf

BITS = 256
REPLACE = "replace_one"


def _mp(value):
    value = mpq(value)
    return mp.mpf(int(value.numerator)) / int(value.denominator)


def _contains(ball, truth, tol):
    return _mp(ball_lower(ball)) - tol <= truth <= _mp(ball_upper(ball)) + tol


def without_replacement(n, m, event):
    return {"class_name": "SampledWithoutReplacementDpEvent", "source_dataset_size": n, "sample_size": m,
            "event": event}


def _inequality_1_holds(m, h):
    """e^{−(j+1)h}·P_j <= Q_j <= e^{−jh}·P_j on every bucket, in both orders (within 2^−200)."""
    slack = arb(2) ** -200
    for order in ORDERS:
        side = oriented(m, order)
        for k, (p, q) in enumerate(zip(side.P, side.Q)):
            j = side.lo + k
            assert to_arb(-(j + 1) * h).exp() * p <= q + slack, (order, j)
            assert q <= to_arb(-j * h).exp() * p + slack, (order, j)


class _Symmetrised:
    """What the two references share: the atom at 0 and the symmetrised pair's lower tails, from above_ab."""

    def zero_mass(self):
        a, b = self.above_ab(0)
        return 1 - a - b

    def below(self, t):
        """(X(ℓ < t), Y(ℓ < t)) of the symmetrised pair."""
        if t <= 0:
            a, b = self.above_ab(-t)
            return b, a
        a, b = self.above_ab(t)
        return 1 - a, 1 - b


class Pair(_Symmetrised):
    """(A, B) and the symmetrised (X, Y) of docs/accounting.md §4 in mpmath, from the densities only."""

    def __init__(self, gamma, sigma):
        self.g, self.s = _mp(gamma), _mp(sigma)

    def cdf_a(self, x):
        return (1 - self.g) * mp.ncdf(x, 0, self.s) + self.g * mp.ncdf(x, 2, self.s)

    def cdf_b(self, x):
        return mp.ncdf(x, 0, self.s)

    def loss_ab(self, x):
        return mp.log(1 - self.g + self.g * mp.exp(2 * (x - 1) / self.s ** 2))

    def x_ab(self, y):
        """The preimage of the level y under ℓ_AB (−inf at or below its infimum log(1 − γ))."""
        arg = (mp.exp(y) - 1 + self.g) / self.g
        return mp.ninf if arg <= 0 else 1 + self.s ** 2 / 2 * mp.log(arg)

    def above_ab(self, y):
        """(A(ℓ_AB > y), B(ℓ_AB > y))."""
        x = self.x_ab(y)
        if x == mp.ninf:
            return mp.mpf(1), mp.mpf(1)
        return 1 - self.cdf_a(x), 1 - self.cdf_b(x)


    def profile(self, t):
        """H_{e^t}(X‖Y) = X(ℓ > t) − e^t·Y(ℓ > t) for any real t."""
        if t >= 0:
            a, b = self.above_ab(t)
            return a - mp.exp(t) * b
        # ℓ > t (t < 0): everything but {ℓ <= t} = {ℓ_AB >= −t} mirrored
        a, b = self.above_ab(-t)
        return (1 - b) - mp.exp(t) * (1 - a)

    def two_steps(self, eps):
        """H_{e^ε}(X⊗X‖Y⊗Y) = E_X[h(ε − ℓ)]: the atom at 0, A on ℓ_AB > 0 (x > 1), B on the mirror images."""
        def density_a(x):
            return (1 - self.g) * mp.npdf(x, 0, self.s) + self.g * mp.npdf(x, 2, self.s)
        kink = self.x_ab(eps)   # where ε − ℓ_AB(x) crosses 0
        points = [1, kink, mp.inf] if kink > 1 else [1, mp.inf]
        return (self.zero_mass() * self.profile(eps)
                + mp.quad(lambda x: density_a(x) * self.profile(eps - self.loss_ab(x)), points)
                + mp.quad(lambda x: mp.npdf(x, 0, self.s) * self.profile(eps + self.loss_ab(x)), [1, mp.inf]))

    def hockey(self, alpha, order):
        """H_α(A‖B) ("ab") or H_α(B‖A) ("ba") for α > 0, from the half-line where the first density wins."""
        if order == "ab":
            a, b = self.above_ab(mp.log(alpha))
            return a - alpha * b
        x = self.x_ab(-mp.log(alpha))  # {dB/dA > α} = {ℓ_AB < −log α}
        if x == mp.ninf:
            return mp.mpf(0)
        return self.cdf_b(x) - alpha * self.cdf_a(x)


def gaussian_hockey(alpha, sigma):
    """H_α(N(2, σ²)‖N(0, σ²)) by the closed form of "Gaussian Differential Privacy" (Corollary 2.13), μ = 2/σ."""
    mu, e = 2 / _mp(sigma), mp.log(alpha)
    return mp.ncdf(-e / mu + mu / 2) - alpha * mp.ncdf(-e / mu - mu / 2)


# ---- the masses ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("gamma,sigma,grid", [("1/100", "1", 40), ("1/3", "3/2", 25), ("9/10", "1/2", 30)])
def test_bucket_masses_tails_and_the_atom_at_zero_match_mpmath(gamma, sigma, grid):
    law, pair = WithoutReplacementGaussian(mpq(gamma), mpq(sigma)), Pair(gamma, sigma)
    lo, hi = law.index_range(grid, 1e-40)
    assert lo == -hi and hi > 0
    m = law.masses(mpq(1, grid), lo, hi, BITS)
    with mp.workdps(40):
        for i in sorted({lo, lo + 1, -2, -1, 0, 1, hi // 2, hi - 1}):
            (x0, y0), (x1, y1) = pair.below(_mp(mpq(i, grid))), pair.below(_mp(mpq(i + 1, grid)))
            # the atom at ℓ = 0 is bucket 0's: below(h) counts it, below(0) does not
            for ball, truth in ((m.p[i - lo], x1 - x0), (m.q[i - lo], y1 - y0)):
                assert _contains(ball, truth, mp.mpf(10) ** -30), (i, ball, truth)
        # tails: {ℓ < lo·h} and {ℓ >= hi·h}
        x_lo, y_lo = pair.below(_mp(mpq(lo, grid)))
        x_hi, y_hi = pair.below(_mp(mpq(hi, grid)))
        for ball, truth in ((m.p_low, x_lo), (m.q_low, y_lo), (m.p_high, 1 - x_hi), (m.q_high, 1 - y_hi)):
            assert _contains(ball, truth, mp.mpf(10) ** -30)
        g, s = _mp(gamma), _mp(sigma)
        closed = (1 - g) * (mp.ncdf(1 / s) - mp.ncdf(-1 / s))
        assert closed > 0 and abs(pair.zero_mass() - closed) < mp.mpf(10) ** -35
        with working_precision(BITS):
            assert _contains(law.zero_mass(), closed, mp.mpf(10) ** -35)
    # the mirror image: bucket −i − 1 holds bucket i's masses swapped (i > 0: no atom)
    for i in (1, 2, hi - 1):
        assert m.p[-i - 1 - lo].overlaps(m.q[i - lo]) and m.q[-i - 1 - lo].overlaps(m.p[i - lo])
    assert m.p_low.overlaps(m.q_high) and m.q_low.overlaps(m.p_high)


@pytest.mark.parametrize("gamma,sigma,grid", [("1/50", "1", 20), ("1/2", "1/2", 7)])
def test_both_laws_sum_to_one_and_inequality_1_holds_in_both_orders(gamma, sigma, grid):
    law = WithoutReplacementGaussian(mpq(gamma), mpq(sigma))
    h = mpq(1, grid)
    lo, hi = law.index_range(grid, 1e-40)
    m = law.masses(h, lo, hi, BITS)
    with working_precision(BITS):
        for masses, low, high in ((m.p, m.p_low, m.p_high), (m.q, m.q_low, m.q_high)):
            assert (sum(masses, low) + high).contains(1)
        _inequality_1_holds(m, h)


def test_a_range_that_is_not_symmetric_is_assembled_from_the_same_buckets():
    law = WithoutReplacementGaussian(mpq(1, 10), mpq(1))
    h = mpq(1, 20)
    wide, narrow = law.masses(h, -60, 60, BITS), law.masses(h, -25, 40, BITS)
    assert all(a.overlaps(b) for a, b in zip(wide.p[35:100], narrow.p))
    with working_precision(BITS):
        assert (narrow.p_low - sum(wide.p[:35], wide.p_low)).contains(0)
        assert (narrow.q_high - sum(wide.q[100:], wide.q_high)).contains(0)
    with pytest.raises(ValueError, match="must hold bucket 0"):
        law.masses(h, 1, 10, BITS)


def test_the_single_step_tails_are_those_of_the_symmetrised_law():
    law, pair = WithoutReplacementGaussian(mpq(1, 5), mpq(1)), Pair("1/5", "1")
    with working_precision(BITS), mp.workdps(30):
        for y in (mpq(-3, 2), mpq(-1, 7), mpq(0), mpq(1, 9), mpq(2)):
            (xu, yu), (xl, yl) = law.upper_tail(y), law.lower_tail(y)
            below, below_next = pair.below(_mp(y)), pair.below(_mp(y) + mp.mpf(10) ** -25)
            # no atom but at 0: X(ℓ >= y) = 1 − X(ℓ < y), X(ℓ <= y) = X(ℓ < y) plus the atom when y = 0
            for ball, truth in ((xu, 1 - below[0]), (yu, 1 - below[1]), (xl, below_next[0]), (yl, below_next[1])):
                assert _contains(ball, truth, mp.mpf(10) ** -20), (y, ball, truth)


def test_the_moments_hint_is_the_mean_and_variance_of_the_symmetrised_loss():
    law, pair = WithoutReplacementGaussian(mpq(1, 4), mpq(1)), Pair("1/4", "1")
    with mp.workdps(20):
        def dens_a(x):
            return (1 - pair.g) * mp.npdf(x, 0, pair.s) + pair.g * mp.npdf(x, 2, pair.s)
        first = mp.quad(lambda x: (dens_a(x) - mp.npdf(x, 0, pair.s)) * pair.loss_ab(x), [1, 4, mp.inf])
        second = mp.quad(lambda x: (dens_a(x) + mp.npdf(x, 0, pair.s)) * pair.loss_ab(x) ** 2, [1, 4, mp.inf])
    mean, variance = law.moments()
    assert abs(mean - float(first)) < 1e-6 and abs(variance - float(second - first ** 2)) < 1e-6


def test_gamma_one_is_the_unsampled_replace_one_gaussian():
    h = mpq(1, 30)
    wor, plain = WithoutReplacementGaussian(1, mpq(3, 2)), ReplaceOneGaussian(1, mpq(3, 2))
    lo, hi = plain.index_range(30, 1e-40)
    a, b = wor.masses(h, lo, hi, BITS), plain.masses(h, lo, hi, BITS)
    for x, y in zip(a.p + a.q + [a.p_low, a.q_low, a.p_high, a.q_high],
                    b.p + b.q + [b.p_low, b.q_low, b.p_high, b.q_high]):
        assert x.overlaps(y)
    assert wor.dominating_mu2 == plain.dominating_mu2 == mpq(16, 9)


# ---- the proof's steps, numerically ------------------------------------------------------------------------

@pytest.mark.parametrize("gamma", ["1/1000", "1/20", "1/3", "4/5"])
@pytest.mark.parametrize("sigma", ["1/2", "1", "3"])
def test_the_ordering_lemma_on_a_grid(gamma, sigma):
    """For α >= 1: H_α(A‖B) >= H_α(B‖A) (δ of f_γ at least δ of f_γ^{-1}), and the proof's two formulas:
    H_α(A‖B) = γ·H_{α'}(N(2)‖N(0)), α' = 1 + (α − 1)/γ; H_α(B‖A) = c·H_{αγ/c}(N(2)‖N(0)), c = 1 − α(1 − γ) > 0
    (else 0); and γ >= c, α' <= αγ/c."""
    pair, g = Pair(gamma, sigma), _mp(gamma)
    with mp.workdps(30):
        for eps in (0, mp.mpf(1) / 100, mp.mpf(1) / 10, mp.mpf(1) / 2, 1, 2, 5):
            alpha = mp.exp(eps)
            forward, backward = pair.hockey(alpha, "ab"), pair.hockey(alpha, "ba")
            assert forward >= backward - mp.mpf(10) ** -25, (eps, forward, backward)
            alpha_1 = 1 + (alpha - 1) / g
            assert abs(forward - g * gaussian_hockey(alpha_1, sigma)) < mp.mpf(10) ** -25
            c = 1 - alpha * (1 - g)
            if c <= 0:
                assert backward == 0
                continue
            assert abs(backward - c * gaussian_hockey(alpha * g / c, sigma)) < mp.mpf(10) ** -25
            assert g >= c * (1 - mp.mpf(10) ** -25) and alpha_1 <= alpha * g / c * (1 + mp.mpf(10) ** -25)


@pytest.mark.parametrize("gamma,sigma", [("1/10", "1"), ("1/2", "2"), ("1/1000", "7/10")])
def test_one_step_against_the_mixture_identity(gamma, sigma):
    """T = 1: δ(ε) = H_{e^ε}(A‖B) = γ·H_{α'}(N(2, σ²)‖N(0, σ²)), α' = 1 + (e^ε − 1)/γ, for ε >= 0."""
    g = _mp(gamma)
    event = without_replacement(10**6, int(mpq(gamma) * 10**6), gaussian(sigma))

    def truth(eps):
        return g * gaussian_hockey(1 + (mp.exp(_mp(eps)) - 1) / g, sigma)
    cert = api.account(event, epsilons="0,1/4,1,3", neighboring_relation=REPLACE)
    assert cert.result["stages"] == [{"mechanism": {"mechanism": "gaussian_without_replacement", "sigma": sigma,
                                                    "sampling": gamma}, "count": 1}]
    with mp.workdps(30):
        for p in cert.result["points"]:
            assert _mp(p["lower"]) <= truth(p["epsilon"]) <= _mp(p["upper"]), p
    cert = api.account(event, delta="1e-5", neighboring_relation=REPLACE)
    with mp.workdps(30):
        assert truth(cert.result["epsilon_hi"]) <= mp.mpf(10) ** -5
        if mpq(cert.result["epsilon_lo"]) > 0:
            assert truth(cert.result["epsilon_lo"]) > mp.mpf(10) ** -5


@pytest.mark.parametrize("gamma,sigmas", [("1/10", ["1", "2"]), ("1/2", ["3/2", "3/2", "7"]),
                                          ("1/1000", ["11/10", "10"])])
def test_a_composition_at_one_step_against_the_composition_of_gaussian_tradeoffs(gamma, sigmas):
    """T = 1, several Gaussians on one batch: on the batch each is G_{2/σ_i}, and G_μ1 ⊗ G_μ2 = G_√(μ1² + μ2²)
    ("Gaussian Differential Privacy", Corollary 3.3), so δ(ε) = γ·H_{α'}(G_μ), μ² = Σ 4/σ_i²,
    α' = 1 + (e^ε − 1)/γ: a route with no whitening and no symmetrised masses."""
    g = _mp(gamma)
    event = without_replacement(10**6, int(mpq(gamma) * 10**6), {"class_name": "ComposedDpEvent",
                                                                 "events": [gaussian(s) for s in sigmas]})

    def truth(eps):
        alpha = 1 + (mp.exp(_mp(eps)) - 1) / g
        mu = mp.sqrt(sum(4 / _mp(s) ** 2 for s in sigmas))
        e = mp.log(alpha)
        return g * (mp.ncdf(-e / mu + mu / 2) - alpha * mp.ncdf(-e / mu - mu / 2))
    cert = api.account(event, epsilons="0,1/4,1,3", neighboring_relation=REPLACE)
    assert cert.result["stages"][0]["mechanism"]["mechanism"] == "gaussian_composition_without_replacement"
    with mp.workdps(30):
        for p in cert.result["points"]:
            assert _mp(p["lower"]) <= truth(p["epsilon"]) <= _mp(p["upper"]), p


@pytest.mark.parametrize("gamma,sigma,epsilons", [("1/4", "1", ["1/2", "3/2"]), ("1/20", "1/2", ["1", "3"])])
def test_two_steps_against_quadrature_of_the_symmetrised_law(gamma, sigma, epsilons):
    """T = 2: H_{e^ε}(X⊗X‖Y⊗Y) = E_X[h(ε − ℓ)], h the one-step profile at any real t, by mpmath quadrature
    over the atom at 0, A on the positive losses and B on their mirror images.  It lies strictly above the
    larger order of the unsymmetrised pair composed twice (T(X, Y) lies below both T(A, B) and T(B, A)): composing
    the two orders separately would not be a bound."""
    pair = Pair(gamma, sigma)
    cert = api.account(repeat(2, without_replacement(1000, int(mpq(gamma) * 1000), gaussian(sigma))),
                       epsilons=",".join(epsilons), neighboring_relation=REPLACE)
    unsymmetrised = ref.gaussian(mpq(sigma) / 2, gamma)   # (A, B) mapped by x ↦ x/2: the same losses
    with mp.workdps(20):
        for p in cert.result["points"]:
            truth = pair.two_steps(_mp(p["epsilon"]))
            assert _mp(p["lower"]) * (1 - mp.mpf(10) ** -12) <= truth <= _mp(p["upper"]) * (1 + mp.mpf(10) ** -12), \
                (p["epsilon"], p["lower_display"], mp.nstr(truth, 12), p["upper_display"])
            separate = ref.two_steps(unsymmetrised, unsymmetrised, p["epsilon"])
            assert truth > separate * (1 + mp.mpf(10) ** -3), (p["epsilon"], truth, separate)


# ---- monotonicity, γ = 1, dp_accounting -----------------------------------------------------------------

def _interval(n, m, sigma, count=20):
    cert = api.account(repeat(count, without_replacement(n, m, gaussian(sigma))), delta="1e-5",
                       neighboring_relation=REPLACE)
    return mpq(cert.result["epsilon_lo"]), mpq(cert.result["epsilon_hi"])


def test_a_larger_batch_or_less_noise_never_lowers_epsilon():
    small, large = _interval(1000, 10, "1"), _interval(1000, 50, "1")
    assert small[1] < large[0]
    noisy, quiet = _interval(1000, 10, "2"), _interval(1000, 10, "1")
    assert noisy[1] < quiet[0]
    assert _interval(1000, 50, "1") == _interval(100, 5, "1")  # only γ = m/n counts


def test_gamma_one_certifies_the_unsampled_replace_one_gaussian():
    for tree, other in ((repeat(10, without_replacement(500, 500, gaussian("3/2"))), repeat(10, gaussian("3/2"))),):
        a = api.account(tree, delta="1e-5", neighboring_relation=REPLACE)
        b = api.account(other, delta="1e-5", neighboring_relation=REPLACE)
        assert a.result == b.result and a.result["route"] == "gaussian"


def test_dp_accountings_rdp_value_at_half_the_noise_is_above_the_certified_interval():
    """dp_accounting's RDP accountant (Wang, Balle, Kasiviswanathan 2019, Theorem 27) takes the base Gaussian with
    a shift of 1; at noise σ/2 it accounts the shift of 2 of this kind's replace-one Gaussian: an upper bound."""
    dp_accounting = pytest.importorskip("dp_accounting")
    from dp_accounting import dp_event
    from dp_accounting.rdp import rdp_privacy_accountant
    for n, m, sigma, count in ((60000, 256, "1.1", 100), (1000, 100, "2", 20)):
        lo, hi = _interval(n, m, sigma, count)
        accountant = rdp_privacy_accountant.RdpAccountant(
            neighboring_relation=dp_accounting.NeighboringRelation.REPLACE_ONE)
        accountant.compose(dp_event.SampledWithoutReplacementDpEvent(n, m, dp_event.GaussianDpEvent(
            float(mpq(sigma)) / 2)), count)
        rdp = accountant.get_epsilon(1e-5)
        assert rdp >= float(lo), (n, m, sigma, count, rdp, float(lo), float(hi))


# ---- the Laplace mechanism on batches drawn without replacement ---------------------------------------------

class LaplacePair(_Symmetrised):
    """A = (1 − γ)L(0, b) + γL(2, b), B = L(0, b) and the symmetrised (X, Y) in mpmath, from the densities only."""

    def __init__(self, gamma, scale):
        self.g, self.b = _mp(gamma), _mp(scale)

    def _cdf(self, x, mu):
        return mp.exp((x - mu) / self.b) / 2 if x < mu else 1 - mp.exp(-(x - mu) / self.b) / 2

    def cdf_a(self, x):
        return (1 - self.g) * self._cdf(x, 0) + self.g * self._cdf(x, 2)

    def cdf_b(self, x):
        return self._cdf(x, 0)

    def dens_a(self, x):
        return ((1 - self.g) * mp.exp(-abs(x) / self.b) + self.g * mp.exp(-abs(x - 2) / self.b)) / (2 * self.b)

    def dens_b(self, x):
        return mp.exp(-abs(x) / self.b) / (2 * self.b)

    @property
    def loss_max(self):
        return mp.log(1 - self.g + self.g * mp.exp(2 / self.b))

    def x_ab(self, y):
        """The preimage of y under ℓ_AB on [0, 2] (ℓ_min <= y <= ℓ_max)."""
        return 1 + self.b / 2 * mp.log((mp.exp(y) - 1 + self.g) / self.g)

    def slope(self, y):
        """dx_ab/dy."""
        return self.b / 2 * mp.exp(y) / (mp.exp(y) - 1 + self.g)

    def above_ab(self, y):
        """(A(ℓ_AB > y), B(ℓ_AB > y)) for y >= 0: 0 at or above the atom ℓ_max."""
        if y >= self.loss_max:
            return mp.mpf(0), mp.mpf(0)
        x = self.x_ab(y)
        return 1 - self.cdf_a(x), 1 - self.cdf_b(x)


    def one_step(self, eps):
        """H_{e^ε}(A‖B) = ∫(a − e^ε·b)₊ dx by quadrature, split at 0, 1, 2 and where a = e^ε·b."""
        alpha, points = mp.exp(eps), [mp.ninf, 0, 1, 2, mp.inf]
        if 0 < eps < self.loss_max:
            points = sorted(points + [self.x_ab(eps)])
        return mp.quad(lambda x: max(self.dens_a(x) - alpha * self.dens_b(x), 0), points)

    def pld(self):
        """The law of ℓ under X, built explicitly: three atoms [(value, mass)] and the density on (−ℓ_max, ℓ_max)
        (A's image of x in (1, 2) above 0, B's mirrored below)."""
        top, tail = self.loss_max, mp.exp(-2 / self.b) / 2
        atoms = [(top, (1 - self.g) * tail + self.g / 2), (-top, tail),
                 (mp.mpf(0), (1 - self.g) * (1 - mp.exp(-1 / self.b)))]

        def density(y):
            if y > 0:
                return self.dens_a(self.x_ab(y)) * self.slope(y)
            return self.dens_b(self.x_ab(-y)) * self.slope(-y)
        return atoms, density

    def two_steps(self, eps):
        """δ(ε) of (X⊗X, Y⊗Y) = E[(1 − e^{ε − ℓ₁ − ℓ₂})₊] over two independent draws of ℓ under X:
        atoms × atoms, atoms × density (twice), and density × density as an iterated integral."""
        atoms, f = self.pld()
        top = self.loss_max

        def tail(c):
            """∫_{ℓ > c} f(ℓ)(1 − e^{c − ℓ}) dℓ: the density against a fixed partner."""
            lo = max(c, -top)
            if lo >= top:
                return mp.mpf(0)
            points = [lo, 0, top] if lo < 0 else [lo, top]
            return mp.quad(lambda y: f(y) * (1 - mp.exp(c - y)), points)
        total = sum(wi * wj * max(1 - mp.exp(eps - vi - vj), 0) for vi, wi in atoms for vj, wj in atoms)
        total += 2 * sum(w * tail(eps - v) for v, w in atoms)
        splits = sorted({-top, top} | {p for p in (mp.mpf(0), eps, eps + top) if -top < p < top})
        return total + mp.quad(lambda y: f(y) * tail(eps - y), splits)


def laplace(scale):
    return {"class_name": "LaplaceDpEvent", "noise_multiplier": scale}


@pytest.mark.parametrize("gamma,scale,grid", [("1/100", "1", 400), ("1/3", "3/2", 25), ("9/10", "1/2", 30)])
def test_laplace_bucket_masses_the_atom_at_zero_and_the_empty_tails_match_mpmath(gamma, scale, grid):
    law, pair = WithoutReplacementLaplace(mpq(gamma), mpq(scale)), LaplacePair(gamma, scale)
    lo, hi = law.index_range(grid, 1e-40)
    with mp.workdps(40):
        assert -lo == hi == int(mp.floor(pair.loss_max * grid)) + 1   # the atom ℓ_max in bucket hi − 1
    m = law.masses(mpq(1, grid), lo, hi, BITS)
    with mp.workdps(40):
        for i in range(lo, hi):
            (x0, y0), (x1, y1) = pair.below(_mp(mpq(i, grid))), pair.below(_mp(mpq(i + 1, grid)))
            for ball, truth in ((m.p[i - lo], x1 - x0), (m.q[i - lo], y1 - y0)):
                assert _contains(ball, truth, mp.mpf(10) ** -30), (i, ball, truth)
        g, b = _mp(gamma), _mp(scale)
        closed = (1 - g) * (1 - mp.exp(-1 / b))
        assert abs(pair.zero_mass() - closed) < mp.mpf(10) ** -35
        with working_precision(BITS):
            assert _contains(law.zero_mass(), closed, mp.mpf(10) ** -35)
        # the atoms at ±ℓ_max, alone in the end buckets with their share of the density
        top = pair.loss_max
        assert _contains(m.p[-1], (1 - g) * mp.exp(-2 / b) / 2 + g / 2 + pair.above_ab(_mp(mpq(hi - 1, grid)))[0]
                         - pair.above_ab(top - mp.mpf(10) ** -38)[0], mp.mpf(10) ** -30)
    for tail in (m.p_low, m.q_low, m.p_high, m.q_high):
        assert tail == 0
    for i in range(1, hi):   # the mirror image: bucket −i − 1 holds bucket i's masses swapped
        assert m.p[-i - 1 - lo].overlaps(m.q[i - lo]) and m.q[-i - 1 - lo].overlaps(m.p[i - lo])


@pytest.mark.parametrize("gamma,scale,grid", [("1/50", "1", 200), ("1/2", "1/2", 7), ("2/3", "1/10", 3)])
def test_laplace_laws_sum_to_one_and_inequality_1_holds_in_both_orders(gamma, scale, grid):
    law = WithoutReplacementLaplace(mpq(gamma), mpq(scale))
    h = mpq(1, grid)
    lo, hi = law.index_range(grid, 1e-40)
    m = law.masses(h, lo, hi, BITS)
    with working_precision(BITS):
        for masses in (m.p, m.q):
            assert sum(masses, arb(0)).contains(1)
        _inequality_1_holds(m, h)


def test_a_laplace_range_wider_or_narrower_than_its_own_is_assembled_from_the_same_buckets():
    law = WithoutReplacementLaplace(mpq(1, 10), mpq(1))
    h = mpq(1, 50)
    lo, hi = law.index_range(50, 0)
    own, wide, narrow = law.masses(h, lo, hi, BITS), law.masses(h, lo - 5, hi + 7, BITS), law.masses(h, -3, 4, BITS)
    assert all(a.overlaps(b) for a, b in zip(wide.p[5:5 + hi - lo], own.p)) and wide.p[:5] == [0] * 5
    with working_precision(BITS):
        # narrow's tails: {ℓ < −3h} and {ℓ >= 4h}, own buckets lo .. −4 and 4 .. hi − 1
        assert (narrow.p_low - sum(own.p[:-3 - lo], arb(0))).contains(0)
        assert (narrow.q_high - sum(own.q[4 - lo:], arb(0))).contains(0)


def test_the_laplace_pair_refuses_gamma_one_and_bad_parameters():
    for gamma, scale in ((1, 1), (0, 1), (mpq(1, 2), 0), (mpq(3, 2), 1)):
        with pytest.raises(ValueError, match="a batch fraction in \\(0, 1\\)"):
            WithoutReplacementLaplace(gamma, scale)


def test_the_laplace_single_step_tails_are_those_of_the_symmetrised_law():
    law, pair = WithoutReplacementLaplace(mpq(1, 5), mpq(1)), LaplacePair("1/5", "1")
    with working_precision(BITS), mp.workdps(30):
        top = pair.loss_max
        for y in (mpq(-3), mpq(-1, 2), mpq(-1, 7), mpq(0), mpq(1, 9), mpq(1, 2), mpq(3)):
            (xu, yu), (xl, yl) = law.upper_tail(y), law.lower_tail(y)
            below, below_next = pair.below(_mp(y)), pair.below(_mp(y) + mp.mpf(10) ** -25)
            for ball, truth in ((xu, 1 - below[0]), (yu, 1 - below[1]), (xl, below_next[0]), (yl, below_next[1])):
                assert _contains(ball, truth, mp.mpf(10) ** -20), (y, ball, truth)
        assert float(top) > 1 / 2   # y = 1/2 lies inside the loss's range, ±3 beyond it


def test_the_laplace_moments_hint_is_the_mean_and_variance_of_the_symmetrised_loss():
    law, pair = WithoutReplacementLaplace(mpq(1, 4), mpq(1)), LaplacePair("1/4", "1")
    with mp.workdps(20):
        atoms, f = pair.pld()
        first = sum(w * v for v, w in atoms) + mp.quad(lambda y: f(y) * y, [-pair.loss_max, 0, pair.loss_max])
        second = sum(w * v * v for v, w in atoms) + mp.quad(lambda y: f(y) * y * y,
                                                            [-pair.loss_max, 0, pair.loss_max])
    mean, variance = law.moments()
    assert abs(mean - float(first)) < 1e-5 and abs(variance - float(second - first ** 2)) < 1e-5


def test_the_explicit_laplace_loss_law_is_a_symmetric_pair():
    """The test's own PLD (three atoms and a density): both laws have mass 1 (Y's is E_X[e^{−ℓ}]), and
    ω(−y) = e^{−y}·ω(y) on the atoms."""
    pair = LaplacePair("1/4", "1")
    with mp.workdps(25):
        atoms, f = pair.pld()
        top = pair.loss_max
        x_mass = sum(w for _, w in atoms) + mp.quad(f, [-top, 0, top])
        y_mass = sum(w * mp.exp(-v) for v, w in atoms) + mp.quad(lambda y: f(y) * mp.exp(-y), [-top, 0, top])
        assert abs(x_mass - 1) < mp.mpf(10) ** -20 and abs(y_mass - 1) < mp.mpf(10) ** -20
        assert abs(atoms[1][1] - mp.exp(-top) * atoms[0][1]) < mp.mpf(10) ** -22


@pytest.mark.parametrize("gamma,scale", [("1/10", "1"), ("1/2", "2"), ("1/1000", "1/2"), ("3/4", "1/10")])
def test_laplace_one_step_against_quadrature(gamma, scale):
    """T = 1: δ(ε) = H_{e^ε}(A‖B) = ∫(a − e^ε·b)₊ dx (mpmath quadrature), inside the certified interval."""
    pair = LaplacePair(gamma, scale)
    event = without_replacement(10**6, int(mpq(gamma) * 10**6), laplace(scale))
    with mp.workdps(30):
        top = pair.loss_max
    epsilons = [mpq(0), mpq(1, 100), mpq(int(top * 1000), 2000), mpq(int(top * 1000) - 1, 1000)]
    cert = api.account(event, epsilons=",".join(str(e) for e in epsilons), neighboring_relation=REPLACE)
    assert cert.result["stages"] == [{"mechanism": {"mechanism": "laplace_without_replacement", "sampling": gamma,
                                                    "scale": scale}, "count": 1}]
    with mp.workdps(30):
        for p in cert.result["points"]:
            truth = pair.one_step(_mp(p["epsilon"]))
            assert truth > 0 and _mp(p["lower"]) <= truth <= _mp(p["upper"]), (p, truth)
        assert pair.one_step(top) < mp.mpf(10) ** -25   # nothing beyond the atom ℓ_max
    cert = api.account(event, delta="1e-5", neighboring_relation=REPLACE)
    with mp.workdps(30):
        assert pair.one_step(_mp(cert.result["epsilon_hi"])) <= mp.mpf(10) ** -5
        if mpq(cert.result["epsilon_lo"]) > 0:
            assert pair.one_step(_mp(cert.result["epsilon_lo"])) > mp.mpf(10) ** -5


@pytest.mark.slow
@pytest.mark.parametrize("gamma,scale,epsilons", [("1/4", "1", ["1/4", "1"]), ("1/20", "1/2", ["1/2", "2"])])
def test_laplace_two_steps_against_the_explicit_symmetrised_loss_law(gamma, scale, epsilons):
    """T = 2: δ(ε) of the 2-fold composition of the test's own PLD (three atoms and a density), by mpmath."""
    pair = LaplacePair(gamma, scale)
    cert = api.account(repeat(2, without_replacement(1000, int(mpq(gamma) * 1000), laplace(scale))),
                       epsilons=",".join(epsilons), neighboring_relation=REPLACE)
    with mp.workdps(15):
        for p in cert.result["points"]:
            truth = pair.two_steps(_mp(p["epsilon"]))
            assert truth > 0
            assert _mp(p["lower"]) * (1 - mp.mpf(10) ** -9) <= truth <= _mp(p["upper"]) * (1 + mp.mpf(10) ** -9), \
                (p["epsilon"], p["lower_display"], mp.nstr(truth, 12), p["upper_display"])


def _laplace_interval(n, m, scale, count=20):
    cert = api.account(repeat(count, without_replacement(n, m, laplace(scale))), delta="1e-5",
                       neighboring_relation=REPLACE)
    return mpq(cert.result["epsilon_lo"]), mpq(cert.result["epsilon_hi"])


def test_a_larger_laplace_batch_or_less_noise_never_lowers_epsilon():
    intervals = [_laplace_interval(1000, m, "1") for m in (1, 10, 50, 200)]
    assert all(a[1] < b[0] for a, b in zip(intervals, intervals[1:]))
    intervals = [_laplace_interval(1000, 10, b) for b in ("4", "2", "1", "1/2")]
    assert all(a[1] < b[0] for a, b in zip(intervals, intervals[1:]))
    assert _laplace_interval(1000, 50, "1") == _laplace_interval(100, 5, "1")  # only γ = m/n counts


def test_a_laplace_batch_is_below_the_unsampled_replace_one_laplace_and_gamma_one_is_it():
    plain = api.account(repeat(20, laplace("2")), delta="1e-5", neighboring_relation=REPLACE)
    for m in (1, 100, 999):
        assert _laplace_interval(1000, m, "2")[1] < mpq(plain.result["epsilon_lo"])
    whole = api.account(repeat(20, without_replacement(500, 500, laplace("2"))), delta="1e-5",
                        neighboring_relation=REPLACE)
    assert whole.result == plain.result


def test_the_laplace_batch_certificate_names_its_stage_in_the_claim():
    cert = api.account(repeat(10, without_replacement(60000, 256, laplace("2"))), delta="1e-5",
                       neighboring_relation=REPLACE)
    assert "Laplace b = 2 on batches drawn without replacement, γ = 8/1875 ×10" in cert.claim


# ---- the discrete Laplace and discrete Gaussian on such batches --------------------------------------------
#
# The reference builds the symmetrised pair from the pmfs of A = (1 − γ)N + γN_{2s} and B = N on the integers alone:
# the outputs with A(x) > B(x) carry their loss log(A/B) under (A, B), mirrored under (B, A), and what is left of
# either law is the atom at 0 (the outputs with A(x) = B(x), x = s, included).

def _symmetrised_atoms(family, parameter, s, gamma):
    """[(X-mass, Y-mass, loss)] of the symmetrised pair, the atom at 0 last."""
    f, width = integer_pmf(family, _mp(parameter))
    g = _mp(gamma)
    atoms, used_x, used_y = [], mp.mpf(0), mp.mpf(0)
    for x in range(-width, width + 2 * s + 1):
        a, b = (1 - g) * f(x) + g * f(x - 2 * s), f(x)
        if a > b * (1 + mp.mpf(10) ** -40):
            loss = mp.log(a / b)
            atoms += [(a, b, loss), (b, a, -loss)]
            used_x, used_y = used_x + a + b, used_y + b + a
    return atoms + [(1 - used_x, 1 - used_y, mp.mpf(0))]


def _discrete_batches_delta(family, parameter, s, gamma, count, epsilon):
    one, total = _symmetrised_atoms(family, parameter, s, gamma), {mp.nstr(0, 20): (mp.mpf(1), mp.mpf(1), 0)}
    for _ in range(count):
        grouped = {}
        for p0, q0, l0 in total.values():
            for p1, q1, l1 in one:
                key = mp.nstr(l0 + l1, 25)
                a, b, _ = grouped.get(key, (mp.mpf(0), mp.mpf(0), 0))
                grouped[key] = (a + p0 * p1, b + q0 * q1, l0 + l1)
        total = grouped
    e = mp.exp(_mp(epsilon))
    return mp.fsum(max(p - e * q, 0) for p, q, _ in total.values())


def _discrete_leaf(family, parameter, s):
    return (discrete_laplace if family == "laplace" else discrete_gaussian)(parameter, s)


@pytest.mark.parametrize("family,parameter,s,n,m,count", [
    ("laplace", "1/2", 1, 10, 1, 1), ("laplace", "1", 2, 4, 1, 2), ("laplace", "1/3", 1, 10, 9, 2),
    ("gaussian", "1", 1, 10, 3, 1), ("gaussian", "4", 2, 2, 1, 2), ("gaussian", "1/4", 1, 100, 7, 2)])
def test_discrete_batches_enclose_the_symmetrised_pair_built_from_the_pmfs(family, parameter, s, n, m, count):
    event = repeat(count, without_replacement(n, m, _discrete_leaf(family, parameter, s)))
    cert = api.account(event, epsilons="0,1/4,1,2", neighboring_relation=REPLACE, rel_width="1/1000")
    with mp.workdps(40):
        for point in cert.result["points"]:
            truth = _discrete_batches_delta(family, parameter, s, mpq(m, n), count, point["epsilon"])
            lower, upper = _mp(point["lower"]), _mp(point["upper"])
            assert lower * (1 - mp.mpf(10) ** -25) - mp.mpf(10) ** -35 <= truth, (point, truth)
            assert truth <= upper * (1 + mp.mpf(10) ** -25) + mp.mpf(10) ** -35, (point, truth)


@pytest.mark.parametrize("family,parameter,s,gamma", [("laplace", "1/2", 2, "1/10"), ("gaussian", "2", 1, "1/3")])
def test_discrete_batches_one_step_is_the_larger_order_of_the_mixture_pair(family, parameter, s, gamma):
    """At one step and ε >= 0, δ = H_{e^ε}(A‖B), summed over the integers (the ordering lemma)."""
    f, width = integer_pmf(family, _mp(parameter))
    g = _mp(gamma)
    event = without_replacement(int(mpq(gamma).denominator), int(mpq(gamma).numerator),
                                _discrete_leaf(family, parameter, s))
    cert = api.account(event, epsilons="0,1/2,1", neighboring_relation=REPLACE, rel_width="1/1000")
    with mp.workdps(40):
        for point in cert.result["points"]:
            e = mp.exp(_mp(point["epsilon"]))
            forward = mp.fsum(max((1 - g) * f(x) + g * f(x - 2 * s) - e * f(x), 0)
                              for x in range(-width, width + 2 * s + 1))
            assert _mp(point["lower"]) - mp.mpf(10) ** -30 <= forward <= _mp(point["upper"]) + mp.mpf(10) ** -30


def test_discrete_batches_masses_sum_to_one_and_inequality_1_holds():
    for law, grid in ((WithoutReplacementDiscreteLaplace(mpq(1, 3), mpq(1, 2), 2), 9),
                      (WithoutReplacementDiscreteGaussian(mpq(1, 10), 4, 1), 13)):
        lo, hi = law.index_range(grid, 1e-30)
        h = mpq(1, grid)
        masses = law.masses(h, lo, hi, BITS)
        with working_precision(BITS):
            for ps in ((masses.p, masses.p_low, masses.p_high), (masses.q, masses.q_low, masses.q_high)):
                total = sum(ps[0], ps[1]) + ps[2]
                assert total.contains(1) and total.rad() < arb(10) ** -60
            _inequality_1_holds(masses, h)


def test_discrete_batches_refuse_gamma_one_and_read_gamma_one_as_the_unsampled_pair():
    with pytest.raises(ValueError, match="batch fraction"):
        WithoutReplacementDiscreteLaplace(1, 1, 1)
    whole = api.account(without_replacement(5, 5, _discrete_leaf("gaussian", "2", 1)), delta="1e-5",
                        neighboring_relation=REPLACE)
    plain = api.account(_discrete_leaf("gaussian", "2", 1), delta="1e-5", neighboring_relation=REPLACE)
    assert whole.result["epsilon_lo"] == plain.result["epsilon_lo"]


def test_a_larger_discrete_batch_never_lowers_epsilon():
    eps = [api.account(repeat(50, without_replacement(1000, m, _discrete_leaf("laplace", "1", 1))), delta="1e-5",
                       neighboring_relation=REPLACE, rel_width="1/100").result for m in (10, 50)]
    assert mpq(eps[0]["epsilon_hi"]) <= mpq(eps[1]["epsilon_lo"])
