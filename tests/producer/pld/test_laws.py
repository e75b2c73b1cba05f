"""The dominating pairs of docs/accounting.md §4 as the engine sees them: bucket masses against mpmath, atoms in
their half-open buckets, inequality (1) on every bucket of both orders, exact range decisions, tails."""

import math

import mpmath as mp
import pytest
from flint import arb
from gmpy2 import mpq

from producer.pld.laplace import ReplaceOneLaplace, SubsampledLaplace
from producer.pld.masses import oriented
from producer.pld.mechanism import ORDERS, Stage
from producer.pld.mixture import GaussianMixture
from producer.pld.one_step import OneStep
from producer.pld.randomized_response import RandomizedResponse
from producer.pld.replace_gaussian import ReplaceOneGaussian
from producer.pld.subsampled_gaussian import SubsampledGaussian
from producer.plain.outward import ball_lower, ball_upper
from producer.sources.enclosures import to_arb, working_precision
from tests.producer.pld import accounting_reference as ref

BITS = 256
TOL = mp.mpf(10) ** -30


def _mp(v):
    v = mpq(v)
    return mp.mpf(int(v.numerator)) / int(v.denominator)


def _contains(ball, truth, tol=TOL):
    return _mp(ball_lower(ball)) - tol <= truth <= _mp(ball_upper(ball)) + tol


# (engine law, mpmath pair) with no atom of the loss on the grid h = 1/N used below
PAIRS = [
    (lambda: SubsampledLaplace(mpq(1, 2), mpq(1, 10)), lambda: ref.laplace("1/2", "1/10")),
    (lambda: SubsampledLaplace(mpq(7, 2), mpq(1)), lambda: ref.laplace("7/2")),
    (lambda: ReplaceOneLaplace(mpq(7, 3)), lambda: ref.laplace("7/3", 1, "replace_one")),
    (lambda: ReplaceOneGaussian(mpq(1, 4), mpq(1)), lambda: ref.gaussian(1, "1/4", "replace_one")),
    (lambda: ReplaceOneGaussian(mpq(1), mpq(3, 2)), lambda: ref.gaussian("3/2", 1, "replace_one")),
    (lambda: GaussianMixture(mpq(1), [0, 1, 2], [mpq(1, 2), mpq(1, 4), mpq(1, 4)], mpq(1)),
     lambda: ref.mixture(1, [0, 1, 2], ["1/2", "1/4", "1/4"])),
    (lambda: GaussianMixture(mpq(2), [mpq(1, 2), 3], [mpq(2, 3), mpq(1, 3)], mpq(1, 5)),
     lambda: ref.mixture(2, ["1/2", 3], ["2/3", "1/3"], "1/5")),
]
N = 30


def _above(pair, t):
    """(P(ℓ > t), Q(ℓ > t)) of the mpmath pair (no atom at t)."""
    x = pair._threshold(t, ref.FORWARD)
    if x == mp.ninf:
        return mp.mpf(1), mp.mpf(1)
    if x == mp.inf:
        return mp.mpf(0), mp.mpf(0)
    return 1 - pair.cdf_p(x), 1 - pair.cdf_q(x)


@pytest.mark.parametrize("make,reference", PAIRS)
def test_bucket_masses_match_mpmath(make, reference):
    law, pair = make(), reference()
    h = mpq(1, N)
    lo, hi = law.index_range(N, 1e-40)
    masses = law.masses(h, lo, hi, BITS)
    with mp.workdps(40):
        picks = sorted({lo, lo + 1, (lo + hi) // 2, 0, hi - 2, hi - 1} & set(range(lo, hi)))
        for i in picks:
            (p0, q0), (p1, q1) = _above(pair, _mp(mpq(i, N))), _above(pair, _mp(mpq(i + 1, N)))
            assert _contains(masses.p[i - lo], p0 - p1), (i, masses.p[i - lo], p0 - p1)
            assert _contains(masses.q[i - lo], q0 - q1), (i, masses.q[i - lo], q0 - q1)
        p_hi, q_hi = _above(pair, _mp(mpq(hi, N)))
        assert _contains(masses.p_high, p_hi) and _contains(masses.q_high, q_hi)
        p_lo, q_lo = _above(pair, _mp(mpq(lo, N)))
        assert _contains(masses.p_low, 1 - p_lo) and _contains(masses.q_low, 1 - q_lo)


@pytest.mark.parametrize("make,reference", PAIRS)
def test_both_laws_sum_to_one_and_the_tails_are_small(make, reference):
    law = make()
    lo, hi = law.index_range(N, 1e-40)
    m = law.masses(mpq(1, N), lo, hi, BITS)
    for masses, low, high in ((m.p, m.p_low, m.p_high), (m.q, m.q_low, m.q_high)):
        assert (sum(masses, low) + high).contains(1)
    with working_precision(BITS):
        assert float(m.p_high.mid()) < 1e-30 and float(m.q_low.mid()) < 1e-30


def _inequality_holds(side, h):
    """e^{−(j+1)h}·P_j <= Q_j <= e^{−jh}·P_j on every bucket, up to the balls' radii."""
    slack = arb(2) ** -200
    for k, (p, q) in enumerate(zip(side.P, side.Q)):
        j = side.lo + k
        if not (to_arb(-(j + 1) * h).exp() * p <= q + slack or (to_arb(-(j + 1) * h).exp() * p - q).contains(0)):
            return False
        if not (q <= to_arb(-j * h).exp() * p + slack or (q - to_arb(-j * h).exp() * p).contains(0)):
            return False
    return True


@pytest.mark.parametrize("law,grid", [(SubsampledLaplace(mpq(1), mpq(1)), 20),
                                      (SubsampledLaplace(mpq(1, 2), mpq(1)), 4), (ReplaceOneLaplace(mpq(1)), 4),
                                      (RandomizedResponse(mpq(1, 2), 5), 7)])
def test_atoms_land_in_their_half_open_bucket_and_inequality_1_holds_in_both_orders(law, grid):
    """Laplace at q = 1 with 1/b on the grid: the atom at ℓ_max = ih is bucket i's (and the backward order's
    bucket −i − 1, at its closed upper end); every bucket of both orders keeps inequality (1)."""
    h = mpq(1, grid)
    lo, hi = law.index_range(grid, 1e-40)
    masses = law.masses(h, lo, hi, BITS)
    if isinstance(law, SubsampledLaplace) and law.scale == 1:
        assert (lo, hi) == (-20, 21)
        with working_precision(BITS):
            # bucket 20 = [1, 1 + h): exactly the atom x >= 1 (P-mass 1/2, Q-mass e^-1/2), and no high tail
            assert masses.p[20 - lo].contains(arb(1) / 2) and masses.q[20 - lo].contains(arb(-1).exp() / 2)
            assert masses.p_high.contains(0) and masses.q_high.contains(0)
            # bucket −20 = [−1, −1 + h): the atom x <= 0 (P-mass e^-1/2, Q-mass 1/2) and a sliver of (0, 1)
            assert float((masses.q[0] - arb(1) / 2).mid()) > 0 and float((masses.p[0] - arb(-1).exp() / 2).mid()) > 0
        backward = oriented(masses, "backward")
        assert (backward.lo, backward.hi) == (-21, 20)
        with working_precision(BITS):  # the atom at ℓ = 20h is backward bucket −21 = [−21h, −20h): its closed end
            assert backward.P[0].contains(arb(-1).exp() / 2) and backward.Q[0].contains(arb(1) / 2)
    for order in ORDERS:
        with working_precision(BITS):
            assert _inequality_holds(oriented(masses, order), h), order


def test_randomized_response_has_three_atoms_with_rational_masses():
    law = RandomizedResponse(mpq(1, 2), 5)
    h = mpq(1, 7)
    lo, hi = law.index_range(7, 1e-40)
    L = math.log((1 - 0.5 + 0.1) / 0.1)
    assert (lo, hi) == (-math.floor(L * 7) - 1, math.floor(L * 7) + 1)
    m = law.masses(h, lo, hi, BITS)
    nonzero = {lo + k: (p, q) for k, (p, q) in enumerate(zip(m.p, m.q)) if not (p.contains(0) and q.contains(0))}
    assert sorted(nonzero) == [lo, 0, hi - 1]
    with working_precision(BITS):
        expected = {lo: (mpq(1, 10), mpq(6, 10)), 0: (mpq(3, 10), mpq(3, 10)), hi - 1: (mpq(6, 10), mpq(1, 10))}
        for i, (p, q) in expected.items():
            assert nonzero[i][0].overlaps(to_arb(p)) and nonzero[i][1].overlaps(to_arb(q))
            assert float(nonzero[i][0].rad()) < 1e-70


def test_exact_range_decisions_against_mpmath():
    with mp.workdps(50):
        for q, b, grid in ((mpq(1, 10), mpq(1, 2), 30), (mpq(1, 1000), mpq(1), 400), (mpq(99, 100), mpq(2), 7)):
            lo, hi = SubsampledLaplace(b, q).index_range(grid, 1e-40)
            qm, bm = _mp(q), _mp(b)
            low, high = mp.log(1 - qm + qm * mp.exp(-1 / bm)), mp.log(1 - qm + qm * mp.exp(1 / bm))
            assert lo <= low * grid < lo + 1 and hi - 1 <= high * grid < hi
        law = GaussianMixture(mpq(1), [0, 1], [mpq(1, 3), mpq(2, 3)], mpq(1, 2))
        i0 = law.lowest_index(mpq(1, 50))
        assert i0 <= mp.log(mp.mpf(1) / 2 + mp.mpf(1) / 6) * 50 < i0 + 1
        rr = RandomizedResponse(mpq(1, 3), 3)
        top = rr.top_index(mpq(1, 100))
        assert top <= mp.log((1 - mp.mpf(1) / 3 + mp.mpf(1) / 9) / (mp.mpf(1) / 9)) * 100 < top + 1


@pytest.mark.parametrize("gap", [mpq(1, 10**17), mpq(1, 2**80), mpq(1, 2**1100)])
def test_the_infimums_bucket_when_q_is_within_a_float_of_one(gap):
    """1 − q too close to 0 (or below the floats) for float(q) to tell q from 1: the hint comes from the
    rational, and the bucket is still ⌊log(1 − q)/h⌋."""
    q, h = 1 - gap, mpq(1, 50)
    expected = math.floor(-math.log(int(gap.denominator)) * 50)   # log(1 − q) = −log(den): irrational, never on a point
    assert SubsampledGaussian(q, mpq(1)).lowest_index(h) == expected
    assert GaussianMixture(mpq(1), [0, 1], [gap, q], mpq(1)).lowest_index(h) == expected   # w_0 = gap


@pytest.mark.parametrize("q,sigma", [("1/10", "1"), ("1/100", "1/2"), ("1/2", "2"), ("1/10000000", "1"),
                                     ("87/1250000000", "407/100")])
def test_the_sampled_gaussian_is_the_mixture_with_one_more_component(q, sigma):
    """Sampled Gaussian (closed-form preimages) and the mixture {0: 1 − q, 1: q} (bracketed preimages) agree,
    also at rates so small that e^y − (1 − q) loses most of its bits to cancellation (the bracket then widens by
    the excess's own radius; before, no precision bracketed it)."""
    q, sigma = mpq(q), mpq(sigma)
    gauss, mix = SubsampledGaussian(q, sigma), GaussianMixture(sigma, [1], [1], q)
    h = mpq(1, 100)
    lo, hi = gauss.index_range(100, 1e-30)
    a, b = gauss.masses(h, lo, hi, BITS), mix.masses(h, lo, hi, BITS)
    for x, y in zip(a.p + a.q + [a.p_high, a.q_high], b.p + b.q + [b.p_high, b.q_high]):
        assert x.overlaps(y) and float(y.rad()) < 2.0 ** -(BITS - 40)


def test_a_mixture_preimage_at_a_precision_beyond_the_float_range_is_bracketed():
    """The Newton loop's convergence test compares exact balls: at 1200 bits 2^(bits − 12) is no float."""
    law = GaussianMixture(mpq(4), [mpq(1), mpq(1, 2)], [mpq(3, 5), mpq(2, 5)], mpq(1))
    with working_precision(1200), mp.workdps(400):
        pair = ref.mixture(4, [1, "1/2"], ["3/5", "2/5"])  # its probabilities read at this precision
        for y in (mpq(-1, 3), mpq(0), mpq(1, 19)):
            x = law.preimage(y)
            assert float(x.rad()) < 2.0 ** -1000
            assert abs(pair.loss(_mp(ball_upper(x))) - _mp(y)) < mp.mpf(10) ** -300


@pytest.mark.parametrize("q,sigma", [("1/3", "1"), ("1", "1/2"), ("1/50", "3")])
def test_replace_one_preimage_inverts_the_loss(q, sigma):
    law = ReplaceOneGaussian(mpq(q), mpq(sigma))
    pair = ref.gaussian(sigma, q, "replace_one")
    with working_precision(200), mp.workdps(50):
        for y in (mpq(-7, 2), mpq(-1, 100), mpq(0), mpq(1, 3), mpq(5)):
            x = law.preimage(y)
            assert abs(pair.loss(_mp(ball_upper(x))) - _mp(y)) < mp.mpf(10) ** -40


@pytest.mark.parametrize("make,reference", PAIRS + [(lambda: RandomizedResponse(mpq(1, 4), 3),
                                                     lambda: ref.randomized_response("1/4", 3))])
def test_one_step_delta_of_every_law_matches_the_integral(make, reference):
    """The single-step prediction's δ of each order (a sizing hint) is the mpmath integral of the densities."""
    step, pair = OneStep(Stage(make(), 1)), reference()
    with mp.workdps(30):
        for eps in (mpq(0), mpq(1, 3), mpq(1)):
            for order in ORDERS:
                truth = pair.profile_by_integral(_mp(eps), order)
                assert abs(step.delta(order, eps) - float(truth)) <= 1e-9 * float(truth) + 1e-15, (eps, order)
