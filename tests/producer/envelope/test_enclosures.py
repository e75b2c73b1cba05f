"""Outward rounding and enclosure arithmetic contain the exact / high-precision values."""

from fractions import Fraction

import mpmath
from flint import arb, ctx, fmpq
from gmpy2 import mpq
from hypothesis import given, settings, strategies as st

from producer.envelope.enclosures import Enclosure, decimal_display, round_down, round_up

rationals = st.fractions(min_value=-10**6, max_value=10**6, max_denominator=10**9)


@given(rationals, st.integers(4, 200))
def test_rounding_brackets_and_is_short(q, bits):
    q = mpq(q.numerator, q.denominator)
    lo, hi = round_down(q, bits), round_up(q, bits)
    assert lo <= q <= hi
    for v in (lo, hi):
        if v != 0:
            d = int(v.denominator)
            assert d & (d - 1) == 0  # dyadic
            assert abs(v.numerator).bit_length() <= bits + 2 or d == 1
    if q != 0:
        assert abs(hi - lo) <= abs(q) * Fraction(1, 2 ** (bits - 2))


@settings(max_examples=50)
@given(st.fractions(min_value=-30, max_value=30, max_denominator=1000), st.fractions(0, 1, max_denominator=1000))
def test_operations_contain_mpmath_values(a, b):
    with mpmath.workprec(300):
        _check_operations(a, b)


def _check_operations(a, b):
    bits = 64
    with ctx.workprec(100):
        ea = Enclosure.from_arb(arb(fmpq(a.numerator, a.denominator)).exp(), bits)
    eb = Enclosure.exact(mpq(b.numerator, b.denominator), bits)
    va = mpmath.exp(mpmath.mpf(a.numerator) / a.denominator)
    vb = mpmath.mpf(b.numerator) / b.denominator

    def inside(e, v):
        return mpmath.mpf(int(e.lo.numerator)) / int(e.lo.denominator) <= v <= \
            mpmath.mpf(int(e.hi.numerator)) / int(e.hi.denominator)

    assert inside(ea, va)
    assert inside(ea + eb, va + vb)
    assert inside(ea - eb, va - vb)
    assert inside(ea * eb, va * vb)
    assert inside((eb - ea) * (ea - eb), -(va - vb) ** 2)
    assert inside(eb / ea, vb / va)
    assert inside((eb - ea).absolute(), abs(vb - va))
    assert inside(ea.sqrt(), mpmath.sqrt(va))


def test_decimal_display_rounds_outward_exactly():
    q = mpq(2 ** 128 + 1, 2 ** 128)
    assert decimal_display(q, 8, -1) == "1.00000000"
    assert decimal_display(q, 8, +1) == "1.00000001"
    assert decimal_display(mpq(-1, 3), 3, -1) == "-0.334"
    assert decimal_display(mpq(-1, 3), 3, +1) == "-0.333"
