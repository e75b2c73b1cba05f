"""The loss-grid preimages, the bucket masses and the single-step arrays (auditor/pld/) against mpmath.

The independent reference for one step (T = 1) is the closed form of
:func:`tests.auditor.dpsgd_reference.delta_single`: the single-step upper array
must bound it from above (connect-the-dots dominates) and the lower arrays from
below (events of the bucket index), closely, in both orders.
"""

from fractions import Fraction
from math import isqrt

import mpmath
import pytest

from auditor.pld import answer, masses, pairs, preimages
from auditor.pld.composition import Array
from tests.auditor.dpsgd_reference import delta_single, mp, preimage, tail

ORDERS = ("remove", "add")   # dpsgd/1's names of the forward and backward orders

CASES = [  # (q, σ, N, lo, hi)
    (Fraction(1, 100), Fraction(1), 400, -5, 1500),
    (Fraction(1, 2), Fraction(1), 60, -42, 300),
    (Fraction(9, 10), Fraction(7, 3), 100, -231, 400),
    (Fraction(1, 100000), Fraction(100), 50, -1, 40),
    (Fraction(1), Fraction(2), 50, -120, 120),
    (Fraction(1, 50), Fraction(1, 2), 80, -2, 1200),
]


def test_exp_grid_contains_the_exponentials():
    W = 120
    for N, first, last in [(7, -600, 600), (1220, -13, 600)]:
        grid = preimages.exp_grid(N, first, last, W)
        for j in list(range(first, last + 1, 37)) + [last]:
            lo, hi = grid[j - first]
            assert mpmath.mpf(lo) / 2 ** W <= mpmath.exp(mpmath.mpf(j) / N) <= mpmath.mpf(hi) / 2 ** W
            assert hi - lo <= 2 ** 12 * max(1, hi >> W)


@pytest.mark.parametrize("q, sigma, N, lo, hi", CASES)
def test_preimages_contain_x_over_sigma(q, sigma, N, lo, hi):
    W = 160
    z, zp = preimages.arguments(q, sigma * sigma, N, lo, hi, W)
    assert len(z) == len(zp) == hi - lo + 1
    s = mp(sigma)
    for k, i in enumerate(range(lo, hi + 1)):
        if k % 7 and k > 20 and i != hi:
            continue
        x = preimage(Fraction(i, N), q, sigma)
        if x is None:
            assert z[k] is None and zp[k] is None
            continue
        assert mpmath.mpf(z[k][0]) / 2 ** W <= x / s <= mpmath.mpf(z[k][1]) / 2 ** W
        assert mpmath.mpf(zp[k][0]) / 2 ** W <= (x - 1) / s <= mpmath.mpf(zp[k][1]) / 2 ** W


IRRATIONAL = [  # (q, σ², N, lo, hi): σ = √σ² irrational, the sampled Gaussian of a composition of Gaussian events
    (Fraction(1, 100), Fraction(1, 2), 400, -5, 1500),
    (Fraction(1, 2), Fraction(2), 60, -42, 300),
    (Fraction(9, 10), Fraction(7, 3), 100, -231, 400),
    (Fraction(1, 100000), Fraction(10 ** 8, 3), 50, -1, 40),
    (Fraction(1), Fraction(2), 50, -120, 120),
    (Fraction(1), Fraction(1, 99), 7, -30, 900),
    (Fraction(1, 50), Fraction(101, 10000), 80, -2, 1200),     # σ just above 1/10
]


@pytest.mark.parametrize("q, variance, N, lo, hi", IRRATIONAL)
def test_preimages_of_an_irrational_sigma_contain_x_over_sigma(q, variance, N, lo, hi):
    """σ enclosed by integer square roots: z = x/σ and z′ = (x − 1)/σ, σ = √σ² in mpmath, inside enclosures at
    most a few units of 2^−160 wider than those of the rational σ′ = ⌈10^6·σ⌉/10^6 > σ (the same logarithms,
    times a larger σ)."""
    W = 160
    assert preimages.exact_root(variance) is None
    z, zp = preimages.arguments(q, variance, N, lo, hi, W)
    assert len(z) == len(zp) == hi - lo + 1
    above = Fraction(isqrt(variance.numerator * 10 ** 12 // variance.denominator) + 1, 10 ** 6)
    near, near_p = preimages.arguments(q, above * above, N, lo, hi, W)
    s = mpmath.sqrt(mp(variance))
    scale = mpmath.mpf(2) ** W
    for k, i in enumerate(range(lo, hi + 1)):
        if k % 7 and k > 20 and i != hi:
            continue
        v = mpmath.exp(mp(Fraction(i, N))) - (1 - mp(q))
        if v <= 0:
            assert z[k] is None and zp[k] is None, i
            continue
        x = mpmath.mpf(1) / 2 + mp(variance) * mpmath.log(v / mp(q))
        assert z[k][0] / scale <= x / s <= z[k][1] / scale, i
        assert zp[k][0] / scale <= (x - 1) / s <= zp[k][1] / scale, i
        assert z[k][1] - z[k][0] <= near[k][1] - near[k][0] + 4, (i, z[k], near[k])
        assert zp[k][1] - zp[k][0] <= near_p[k][1] - near_p[k][0] + 4, (i, zp[k], near_p[k])


@pytest.mark.parametrize("q, sigma, N, lo, hi", CASES)
def test_preimages_of_a_square_use_the_rational_sigma(q, sigma, N, lo, hi, monkeypatch):
    """σ² the square of a rational: σ's numerator and denominator, never the enclosures."""
    monkeypatch.setattr(preimages, "_enclosed_arguments", lambda *args: pytest.fail("enclosed a rational σ"))
    assert preimages.exact_root(sigma * sigma) == sigma
    preimages.arguments(q, sigma * sigma, N, lo, min(hi, lo + 30), 100)


@pytest.mark.parametrize("x", [Fraction(2), Fraction(1, 2), Fraction(7, 3), Fraction(10 ** 8, 3), Fraction(1, 99),
                               Fraction(9, 4), Fraction(0), Fraction(2 ** 255 + 1, 3 ** 100)])
def test_root_fixed_encloses_the_square_root(x):
    for W in (0, 1, 64, 300):
        lo, hi = preimages.root_fixed(x, W)
        assert hi == lo + 1 and Fraction(lo) ** 2 <= x * 4 ** W < Fraction(hi) ** 2, W


def test_exact_root():
    assert preimages.exact_root(Fraction(9, 4)) == Fraction(3, 2)
    assert preimages.exact_root(Fraction(0)) == 0
    assert preimages.exact_root(Fraction(2)) is None and preimages.exact_root(Fraction(4, 3)) is None
    assert preimages.exact_root(Fraction(3, 12)) == Fraction(1, 2)     # reduced first: 1/4


def test_minus_infinity_exactly_below_the_infimum_of_the_loss():
    # e^{i/N} <= 1 − q  <=>  x_i = −∞; q = 1/2, N = 60: ⌊60·log(1/2)⌋ = −42
    z, _ = preimages.arguments(Fraction(1, 2), 1, 60, -45, -40, 100)
    assert [p is None for p in z] == [True, True, True, True, False, False]


def _masses(q, sigma, N, lo, hi, W=130):
    stage = masses.Stage(pairs.SampledGaussian(q, sigma), 1, lo, hi)
    return masses._order_masses(stage, N, W)


@pytest.mark.parametrize("q, sigma, N, lo, hi", CASES[:4])
def test_bucket_masses_contain_the_true_ones(q, sigma, N, lo, hi):
    Wt, p_list, q_list, (p_low, q_low), (p_high, q_high) = _masses(q, sigma, N, lo, hi)
    s = mp(sigma)

    def cdfs(i):
        x = preimage(Fraction(i, N), q, sigma)
        if x is None:
            return mpmath.mpf(1), mpmath.mpf(1)
        return tail(x / s), tail((x - 1) / s)

    for k in list(range(0, hi - lo, 53)) + [hi - lo - 1]:
        (a, ap), (b, bp) = cdfs(lo + k), cdfs(lo + k + 1)
        true_q = a - b
        true_p = (1 - mp(q)) * true_q + mp(q) * (ap - bp)
        for (m_lo, m_hi), true in ((q_list[k], true_q), (p_list[k], true_p)):
            assert mpmath.mpf(m_lo) / 2 ** Wt <= true <= mpmath.mpf(m_hi) / 2 ** Wt
            assert m_hi - m_lo < 2 ** (Wt - 125)
    a, ap = cdfs(hi)
    assert mpmath.mpf(q_high[0]) / 2 ** Wt <= a <= mpmath.mpf(q_high[1]) / 2 ** Wt
    assert mpmath.mpf(p_high[0]) / 2 ** Wt <= (1 - mp(q)) * a + mp(q) * ap <= mpmath.mpf(p_high[1]) / 2 ** Wt


@pytest.mark.parametrize("q, sigma, N, lo, hi", CASES)
def test_single_step_arrays_have_the_stated_totals(q, sigma, N, lo, hi):
    K, K_q = 64, 80
    arrays = masses.single_step(masses.Stage(pairs.SampledGaussian(q, sigma), 1, lo, hi), N, K, K_q,
                                names=ORDERS, lower=ORDERS)
    for order, one in arrays.items():
        n = one.HI - one.LO + 1
        assert len(one.upper) == len(one.lower_p) == len(one.lower_q) == n
        assert (one.LO, one.HI) == ((lo, hi) if order == "remove" else (-hi, -lo))
        # upper and Q arrays round up (total at least the scale), P arrays down
        assert 2 ** K <= sum(one.upper) + one.upper_atom <= 2 ** K + n + 2
        assert 2 ** K_q <= sum(one.lower_q) + one.lower_atom <= 2 ** K_q + n + 2
        # the P array drops its order's low tail: the remove order's (−∞, x_lo), the add order's [x_hi, ∞)
        x = preimage(Fraction(lo if order == "remove" else hi, N), q, sigma)
        s = mp(sigma)
        if order == "remove":
            dropped = 0 if x is None else (1 - mp(q)) * (1 - tail(x / s)) + mp(q) * (1 - tail((x - 1) / s))
        else:
            dropped = tail(x / mp(sigma))
        assert 2 ** K - n - 2 - dropped * 2 ** K <= sum(one.lower_p) <= 2 ** K
        assert one.lower_q[-1] == 0


ONE_STEP = [  # (q, σ, N, lo, hi, ε list)
    (Fraction(1, 2), Fraction(1), 600, -416, 6000, ["0", "1/2", "1", "2", "3"]),
    (Fraction(1, 10), Fraction(1, 2), 300, -32, 6000, ["0", "1", "4"]),
    (Fraction(1, 100), Fraction(1), 2000, -21, 12000, ["0", "1/5", "1"]),
    (Fraction(1), Fraction(3, 2), 400, -4000, 4000, ["0", "1", "2"]),
]


@pytest.mark.parametrize("q, sigma, N, lo, hi, epsilons", ONE_STEP)
def test_one_step_bounds_enclose_the_closed_form(q, sigma, N, lo, hi, epsilons):
    """T = 1: L_o(ε) <= δ_o(ε) <= F_o(ε), both orders, against the closed form at 50 digits."""
    K, K_q = 96, 120
    arrays = masses.single_step(masses.Stage(pairs.SampledGaussian(q, sigma), 1, lo, hi), N, K, K_q,
                                names=ORDERS, lower=ORDERS)
    for order, one in arrays.items():
        upper = answer.UpperTail(Array(one.LO, one.upper, one.upper_atom), K, N, 160)
        lower = answer.LowerEvents(Array(one.LO, one.lower_p), Array(one.LO, one.lower_q, one.lower_atom), K, K_q)
        for e in epsilons:
            e = Fraction(e)
            true = delta_single(q, sigma, e, order)
            f = upper.bound(e)
            lam = Fraction(mpmath.nstr(mpmath.exp(mp(e)) * (1 + mpmath.mpf(10) ** -40), 48))
            assert lam >= Fraction(mpmath.nstr(mpmath.exp(mp(e)), 48))
            ell = lower.bound(lam)
            assert mp(ell) <= true <= mp(f), (order, e, ell, true, f)
            # tight: within a few grid steps of the loss (relative h·e^ε) or a negligible absolute amount
            slack = 8 * mpmath.exp(mp(e)) / N * max(true, mpmath.mpf(10) ** -12) + mpmath.mpf(10) ** -20
            assert mp(f) - true <= slack and true - mp(ell) <= slack
