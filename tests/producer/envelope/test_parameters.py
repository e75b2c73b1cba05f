"""The §8 parameter helper satisfies the constraints it claims."""

from fractions import Fraction

import mpmath
import pytest

from producer.envelope.parameters import propose
from producer.errors import InputError


@pytest.mark.parametrize("T,k,n,eps,alpha", [(4, 2, 3, 1, Fraction(1, 2)), (16, 8, 10 ** 9, 1, Fraction(1, 10)),
                                             (2, 1, 10 ** 12, 2, 1)])
@mpmath.workdps(50)
def test_proposal_constraints(T, k, n, eps, alpha):
    p = propose(T, k, n, eps, alpha)
    gamma, J, eta = Fraction(p["hedge"]), p["rounds"], Fraction(p["select"])
    LD, LQ = mpmath.log(2 * T), mpmath.log(2 * k)
    a = mpmath.mpf(alpha.numerator) / alpha.denominator if isinstance(alpha, Fraction) else mpmath.mpf(alpha)
    assert gamma == Fraction(alpha) / 10
    assert J == max(1, int(mpmath.floor(100 * LD / a ** 2)))
    e = mpmath.mpf(eta.numerator) / eta.denominator
    assert J * e ** 2 <= 324900 * LD * LQ ** 2 / a ** 4
    cond = 34200 * LD * LQ <= eps * n * a ** 2
    assert p["section8_condition"]["status"] == ("proved" if cond else "refuted")
    if cond:  # §8 condition implies the §7 hypothesis
        assert p["section7_hypothesis"]["status"] == "proved"


def test_bad_alpha():
    with pytest.raises(InputError):
        propose(4, 2, 3, 1, Fraction(3, 2))
