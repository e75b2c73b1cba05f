"""The δ(ε) profiles of composed arrays: F at the precision the producer uses, against mpmath far beyond it."""

import mpmath as mp
from gmpy2 import mpq
from hypothesis import given, settings
from hypothesis import strategies as st

from producer.pld.composition import Array
from producer.pld.inversion import UpperProfile


def _f_reference(array, h, bits, epsilon):
    """F(ε) = 2^-K·(Σ_{kh > ε} U[k]·(1 − e^{ε − kh}) + U_∞) with mpmath at 4000 bits."""
    with mp.workprec(4000):
        total = mp.mpf(array.atom)
        for k, value in enumerate(array.values, start=array.offset):
            if k * h > epsilon:
                total += value * (1 - mp.exp(mp.mpf(epsilon.numerator) / epsilon.denominator
                                             - mp.mpf(k * h.numerator) / h.denominator))
        return total / mp.mpf(2) ** bits


@settings(max_examples=40, deadline=None)
@given(offset=st.integers(-2000, 4 * 10**6), values=st.lists(st.integers(0, 2**72), min_size=1, max_size=40),
       atom=st.integers(0, 2**40), grid=st.sampled_from([7, 256, 1000]), at=st.integers(0, 45),
       fraction=st.fractions(0, 1))
def test_the_upper_profile_at_its_own_precision_is_f_rounded_up_by_less_than_a_unit(offset, values, atom, grid,
                                                                                     at, fraction):
    """However far the loss reaches (offsets up to 4·10^6 grid points: losses up to about 6·10^5), the profile's
    value is at least F and exceeds it by far less than one unit 2^-K."""
    bits, h = 72, mpq(1, grid)
    array = Array(offset, values, atom)
    epsilon = max(mpq(0), (offset + at) * h + mpq(fraction.numerator, fraction.denominator) * h)
    value = UpperProfile.of(array, h, bits).value(epsilon)
    reference = _f_reference(array, h, bits, epsilon)
    with mp.workprec(4000):
        assert mp.mpf(value.numerator) / value.denominator >= reference
        assert mp.mpf(value.numerator) / value.denominator <= reference + mp.mpf(2) ** (-bits - 50)
