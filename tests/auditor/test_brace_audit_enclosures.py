"""The auditor's rational exp / log / sqrt enclosures and its calibration
constants, cross-checked against mpmath at high precision."""

from fractions import Fraction

import mpmath
from hypothesis import given, settings
from hypothesis import strategies as st

from auditor.brace.calibration import Enclosures
from auditor.brace.enclosures import decide, exp_bounds, log_bounds, sqrt_bounds
from auditor.brace.sensitivity import envelope



def setup_function(_):
    mpmath.mp.prec = 800  # other modules change the global precision


def teardown_function(_):
    mpmath.mp.prec = 53


def _m(x):
    return mpmath.mpf(x.numerator) / x.denominator


args = st.fractions(min_value=-30, max_value=30, max_denominator=10 ** 9)
pos = st.fractions(min_value=Fraction(1, 10 ** 9), max_value=10 ** 9, max_denominator=10 ** 9)


@settings(max_examples=80, deadline=None)
@given(args, st.sampled_from([64, 160, 300]))
def test_exp_encloses(x, bits):
    lo, hi = exp_bounds(x, bits)
    v = mpmath.exp(_m(x))
    assert _m(lo) <= v <= _m(hi)
    assert (hi - lo) / lo < Fraction(1, 2 ** (bits - 4))


@settings(max_examples=80, deadline=None)
@given(pos, st.sampled_from([64, 160, 300]))
def test_log_encloses(x, bits):
    lo, hi = log_bounds(x, bits)
    assert _m(lo) <= mpmath.log(_m(x)) <= _m(hi)
    assert hi - lo < Fraction(1, 2 ** (bits - 6))


@settings(max_examples=80, deadline=None)
@given(st.fractions(min_value=0, max_value=10 ** 6, max_denominator=10 ** 9))
def test_sqrt_encloses(x):
    lo, hi = sqrt_bounds(x, 100)
    assert lo * lo <= x <= hi * hi


def test_calibration_constants_against_mpmath():
    for eps, T in ((16, 3), (64, 7), (128, 5), (Fraction(1, 2), 1)):
        e = Enclosures(eps, Fraction(1, 100000), T, 2, 160)
        L = mpmath.log(100000)
        rho = (mpmath.sqrt(L + _m(Fraction(eps))) - mpmath.sqrt(L)) ** 2
        alpha = 1 + mpmath.sqrt(L / rho)
        F = (alpha * mpmath.log(alpha) - (alpha - 1) * mpmath.log(alpha - 1)) / (
            (alpha - 1) * (8 * alpha * (alpha - 1) * rho + 5 * T * 2))
        for (lo, hi), v in ((e.L, L), (e.rho, rho), (e.alpha, alpha), (e.bound_divergence, F),
                            (e.bound_alpha, 1 / (8 * (alpha - 1)))):
            assert _m(lo) <= v <= _m(hi)
            assert hi - lo < Fraction(1, 2 ** 140)


def test_paper_gamma_is_not_admissible_for_mnist():
    """The paper used gamma = 0.25 with eps in {16, 32, 64}, T in {3, 5, 7}."""
    for eps in (16, 32, 64):
        for T in (3, 5, 7):
            e = Enclosures(eps, Fraction(1, 100000), T, 2, 160)
            assert e.bound_divergence[1] < Fraction(1, 4)


def test_decide_escalates_precision():
    seen = []
    assert decide(lambda b: seen.append(b) or b >= 640)
    assert seen == [160, 320, 640]
    assert not decide(lambda b: False)


def test_envelope_brute_force():
    r, e = Fraction(4, 5), Fraction(9, 10)
    for n in (1, 3, 7):
        for m in range(n + 1):
            brute = max([2 * r / n] + [e ** k * 2 * r / max(1, m - k) for k in range(n + 1)])
            assert envelope(m, n, r, e)[0] == brute


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=0, max_value=2 ** 53 - 1), st.integers(min_value=0, max_value=2 ** 53 - 1))
def test_box_muller_enclosures(a, b):
    from auditor.brace.draws import normal_pair_bounds
    u1, u2 = Fraction(a + 1, 2 ** 53), Fraction(b, 2 ** 53)
    (lo1, hi1), (lo2, hi2) = normal_pair_bounds(u1, u2)
    rad = mpmath.sqrt(-2 * mpmath.log(_m(u1)))
    th = 2 * mpmath.pi * _m(u2)
    assert _m(lo1) <= rad * mpmath.cos(th) <= _m(hi1)
    assert _m(lo2) <= rad * mpmath.sin(th) <= _m(hi2)
    assert hi1 - lo1 < Fraction(1, 2 ** 100)


def test_pi_enclosure():
    from auditor.brace.draws import pi_bounds
    lo, hi = pi_bounds(200)
    assert _m(lo) <= mpmath.pi <= _m(hi) and hi - lo < Fraction(1, 2 ** 190)


def test_seeded_draws_recognised_and_forgeries_rejected():
    from auditor.brace.draws import draws_match, normal_bounds
    seed = 123
    mids = [(lo + hi) / 2 for lo, hi in normal_bounds(seed, 6)]
    steps = [mids[0:2], mids[2:4], mids[4:6]]
    assert draws_match(seed, steps)
    assert not draws_match(seed + 1, steps)
    steps[1][0] += Fraction(1, 2 ** 40)
    assert not draws_match(seed, steps)
