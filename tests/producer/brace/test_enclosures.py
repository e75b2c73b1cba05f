"""arb enclosures against mpmath, and the relative roundings."""

import mpmath
from gmpy2 import mpq
from hypothesis import given, settings
from hypothesis import strategies as st

from producer.brace.calibration import Calibration
from producer.brace.enclosures import (exp_neg_bounds, log_bounds, round_down_relative,
                                       round_up_relative, sqrt_bounds)



def setup_function(_):
    mpmath.mp.prec = 400  # other modules change the global precision


def teardown_function(_):
    mpmath.mp.prec = 53
pos = st.fractions(min_value=mpq(1, 1000), max_value=50, max_denominator=10 ** 6).map(
    lambda f: mpq(f.numerator, f.denominator))


def _m(x):
    return mpmath.mpf(int(x.numerator)) / int(x.denominator)


@settings(max_examples=50, deadline=None)
@given(pos)
def test_exp_log_sqrt_enclose_mpmath(x):
    lo, hi = exp_neg_bounds(x)
    assert _m(lo) < mpmath.exp(-_m(x)) < _m(hi) and hi - lo < mpq(1, 2 ** 120)
    lo, hi = log_bounds(x)
    assert _m(lo) < mpmath.log(_m(x)) < _m(hi)
    lo, hi = sqrt_bounds(x)
    assert lo * lo <= x <= hi * hi and hi - lo <= mpq(1, 2 ** 127)


def test_sqrt_exact_for_squares():
    assert sqrt_bounds(mpq(16, 25)) == (mpq(4, 5), mpq(4, 5))


@settings(max_examples=100, deadline=None)
@given(pos)
def test_relative_rounding(x):
    up, down = round_up_relative(x, 40), round_down_relative(x, 40)
    assert x <= up < x * (1 + mpq(1, 2 ** 40))
    assert x * (1 - mpq(1, 2 ** 40)) < down <= x


def test_calibration_matches_mpmath():
    c = Calibration(128, mpq(1, 100000), 5, 2)
    L = mpmath.log(100000)
    rho = (mpmath.sqrt(L + 128) - mpmath.sqrt(L)) ** 2
    alpha = 1 + mpmath.sqrt(L / rho)
    F = (alpha * mpmath.log(alpha) - (alpha - 1) * mpmath.log(alpha - 1)) / (
        (alpha - 1) * (8 * alpha * (alpha - 1) * rho + 5 * 5 * 2))
    for (lo, hi), v in ((c.rho, rho), (c.alpha, alpha), (c.bound_divergence, F),
                        (c.bound_alpha, 1 / (8 * (alpha - 1)))):
        assert _m(lo) < v < _m(hi)
    # epsilon = rho + 2 sqrt(rho L) (paper App. C.2)
    assert abs(rho + 2 * mpmath.sqrt(rho * L) - 128) < mpmath.mpf(10) ** -100
