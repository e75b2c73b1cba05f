"""The auditor's exp / log / sqrt enclosures contain mpmath's values and are tight."""

from fractions import Fraction

import mpmath
import pytest
from hypothesis import given, settings, strategies as st

from auditor.envelope.elementary import euler, exp_interval, exp_point, log_integer, sqrt_interval
from auditor.envelope.interval import Interval, down, up

PREC = 400

@pytest.fixture(autouse=True)
def _mpmath_precision():
    """mpmath's precision is global; every test here runs at its own."""
    with mpmath.workprec(PREC):
        yield



def mp(q):
    return mpmath.mpf(q.numerator) / q.denominator


def tight_inside(iv, v, rel):
    lo, hi = mp(iv.lo), mp(iv.hi)
    return lo <= v <= hi and (hi - lo) <= rel * abs(v) + mpmath.mpf(2) ** -400


@settings(max_examples=60)
@given(st.fractions(min_value=-700, max_value=700, max_denominator=10 ** 6), st.sampled_from([16, 64, 128, 256]))
def test_exp(r, bits):
    v = mpmath.exp(mp(r))
    assert tight_inside(exp_point(r, bits), v, Fraction(1, 2 ** (bits - 4)))


@given(st.integers(1, 10 ** 9), st.sampled_from([16, 128]))
def test_log(m, bits):
    iv = log_integer(m, bits)
    assert mp(iv.lo) <= mpmath.log(m) <= mp(iv.hi)
    assert iv.hi - iv.lo <= Fraction(1 + mp_bits(m), 2 ** (bits - 6))


def mp_bits(m):
    return m.bit_length()


@given(st.fractions(min_value=0, max_value=10 ** 6, max_denominator=10 ** 6))
def test_sqrt_and_rounding(q):
    iv = sqrt_interval(Interval(q, q, 64))
    assert mp(iv.lo) <= mpmath.sqrt(mp(q)) <= mp(iv.hi)
    assert down(q, 20) <= q <= up(q, 20)


def test_euler_and_exp_of_interval():
    e = euler(128)
    assert mp(e.lo) <= mpmath.e <= mp(e.hi)
    iv = exp_interval(Interval(Fraction(-1, 3), Fraction(1, 2), 64))
    assert mp(iv.lo) <= mpmath.exp(mpmath.mpf(-1) / 3) and mpmath.exp(mpmath.mpf(1) / 2) <= mp(iv.hi)


def test_no_floats_in_auditor_envelope_code():
    import pathlib
    root = pathlib.Path(__file__).resolve().parents[2] / "auditor"
    for path in list((root / "envelope").glob("*.py")) + [root / "checks" / "envelope.py"]:
        text = path.read_text()
        for banned in ("float(", "math.exp(", "math.log(", "math.sqrt(", "import producer", "from producer"):
            assert banned not in text, (path, banned)
