"""The Gaussian closed form's tail bound: δ(ε) <= 10^-k decided on rationals (the Chernoff bound), against mpmath."""

import mpmath as mp
import pytest
from gmpy2 import mpq

from producer.pld.gaussian import LN10_UPPER, delta_enclosure, proves_below
from tests.producer.pld import reference as ref


def test_the_rational_above_log_10_is_above_it():
    with mp.workdps(40):
        assert mp.log(10) < mp.mpf(int(LN10_UPPER.numerator)) / int(LN10_UPPER.denominator) < mp.log(10) + 1e-9


@pytest.mark.parametrize("mu2,digits", [(mpq(1), 100), (mpq(3, 10**4), 100), (mpq(4000), 30), (mpq(1, 10**4), 1000)])
def test_a_proof_holds_and_is_near_the_chernoff_threshold(mu2, digits):
    """True only where δ(ε) <= 10^-digits (mpmath); and it holds from a = √(2k·log 10) on (a = ε/μ − μ/2)."""
    with mp.workdps(60):
        mu = mp.sqrt(mp.mpf(int(mu2.numerator)) / int(mu2.denominator))
        a = mp.sqrt(2 * digits * mp.log(10))
        for factor, expected in ((mp.mpf("0.999"), False), (mp.mpf("1.001"), True), (mp.mpf(3), True)):
            eps = (factor * a + mu / 2) * mu
            rational = mpq(int(mp.floor(eps * 10**30)), 10**30) if expected else mpq(int(mp.ceil(eps * 10**30)), 10**30)
            assert proves_below(mu2, rational, digits) is expected
            if expected and digits <= 1000:
                assert ref.gaussian_delta(mu, mp.mpf(int(rational.numerator)) / int(rational.denominator)) <= \
                    mp.mpf(10) ** -digits


def test_below_the_mean_nothing_is_proved():
    assert not proves_below(mpq(10), mpq(4), 1) and not proves_below(mpq(10), mpq(5), 1)


def test_where_no_proof_is_made_the_enclosure_is_short():
    """Just below the threshold the enclosure is cheap and its ends have about a hundred digits."""
    mu2, eps = mpq(1), mpq(43, 2)  # a = 21: a² = 441 < 2·100·log 10 ≈ 460.5
    assert not proves_below(mu2, eps, 100)
    lo, hi = delta_enclosure(mu2, eps, mpq(1, 2**26))
    assert 0 < lo <= hi < mpq(1, 10**98)
