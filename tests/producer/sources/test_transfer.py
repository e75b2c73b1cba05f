"""producer.sources.transfer and producer.sources.moment: exact transfer arithmetic and the envelope."""

import mpmath
import pytest
from gmpy2 import mpq
from hypothesis import given, strategies as st

from producer.sources.moment import envelope_upper
from producer.sources.transfer import dg_interval, tau_budget, transfer_term, width_bound

mpmath.mp.prec = 300
fractions = st.fractions(min_value=0, max_value=1, max_denominator=10**9).map(lambda f: mpq(f.numerator, f.denominator))


def test_transfer_term_formula():
    assert transfer_term(mpq(1, 10), 1, mpq(3)) == 4 * (1 - mpq(9, 10) ** 2)
    assert transfer_term(0, 3, mpq(7)) == 0
    assert transfer_term(mpq(1, 2), 0, mpq(7)) == 0
    with pytest.raises(ValueError):
        transfer_term(mpq(-1, 10), 1, 2)


def test_interval_is_clipped_to_unit_interval():
    assert dg_interval(mpq(1, 100), 2, 3, mpq(1, 10)) == (0, mpq(11, 100))
    assert dg_interval(mpq(99, 100), 2, 2, mpq(1, 10)) == (mpq(89, 100), 1)
    assert dg_interval(mpq(1, 2), mpq(2), mpq(2) + mpq(1, 100), mpq(1, 100)) == (mpq(48, 100), mpq(51, 100))


@given(fractions, st.integers(min_value=0, max_value=6), fractions, fractions, fractions)
def test_width_bound_bounds_width(v, budget, tau, lam, gap):
    lam_lo, lam_hi = 1 + lam, 1 + lam + gap
    b = transfer_term(tau, budget, lam_hi)
    lower, upper = dg_interval(v, lam_lo, lam_hi, b)
    assert 0 <= lower <= v <= upper <= 1
    assert upper - lower <= width_bound(tau, budget, lam_lo, lam_hi)


@given(st.fractions(min_value=0, max_value=1, max_denominator=10**6),
       st.integers(min_value=1, max_value=6), fractions)
def test_tau_below_budget_meets_width(w, budget, lam):
    W = mpq(w.numerator, w.denominator)
    if W == 0:
        return
    lam_lo, lam_hi = 1 + lam, 1 + lam + W / 64
    tmax = tau_budget(W, budget, lam_lo, lam_hi)
    for tau in (tmax * mpq(999, 1000), tmax / 7):
        assert width_bound(tau, budget, lam_lo, lam_hi) < W


@pytest.mark.parametrize("sigma2, budget, delta", [(9, 2, mpq(1, 10**4)), (1, 4, mpq(1, 10**4)),
                                                   (mpq(9, 4), 1, mpq(1, 2)), (100, 3, mpq(1, 10**9))])
def test_moment_envelope_is_an_upper_bound(sigma2, budget, delta):
    s, d = mpmath.mpf(mpq(sigma2).numerator) / mpq(sigma2).denominator, mpmath.mpf(delta.numerator) / delta.denominator
    true = mpmath.log(1 + (mpmath.exp(8 * budget / s) - 1) / (4 * d))
    e = envelope_upper(sigma2, budget, delta)
    assert true <= mpmath.mpf(e.numerator) / e.denominator <= true + mpmath.mpf(2) ** -30
    assert envelope_upper(sigma2, 0, delta) == 0
