"""One step's bucket masses (arb) against mpmath, and the single-step arrays of both sides."""

import math

import mpmath as mp
import pytest
from gmpy2 import mpq

from producer.pld.buckets import lower_values
from producer.pld.connect_dots import upper_values
from producer.pld.masses import oriented, step_masses
from producer.pld.subsampled_gaussian import SubsampledGaussian
from producer.plain.outward import ball_lower, ball_upper
from tests.producer.pld import reference as ref

H = mpq(1, 50)
BITS = 64


def _stage(q, s):
    return SubsampledGaussian(mpq(q), mpq(s))


def _masses(stage, lo=None, hi=120, bits=256):
    lo = stage.lowest_index(H) if lo is None else lo
    return step_masses(stage, H, lo, hi, bits), lo


def _mp(v):
    return mp.mpf(int(v.numerator)) / int(v.denominator)


@pytest.mark.parametrize("q,s", [("1/100", "1"), ("1/3", "4/5"), ("1", "2")])
def test_bucket_masses_match_mpmath(q, s):
    stage = _stage(q, s)
    masses, lo = _masses(stage, lo=-60 if stage.gaussian else None)
    with mp.workdps(40):
        qm, sm = mp.mpf(mpq(q).numerator) / mpq(q).denominator, mp.mpf(mpq(s).numerator) / mpq(s).denominator
        for i in (lo, lo + 1, lo + 7, 0, 30, 119):
            k = i - lo
            a, b = ref.preimage(qm, sm, _mp(i * H)), ref.preimage(qm, sm, _mp((i + 1) * H))
            p = ref.tail_p(qm, sm, a) - ref.tail_p(qm, sm, b)
            qq = ref.tail_q(qm, sm, a) - ref.tail_q(qm, sm, b)
            for ball, truth in ((masses.p[k], p), (masses.q[k], qq)):
                assert _mp(ball_lower(ball)) - mp.mpf(10) ** -35 <= truth <= _mp(ball_upper(ball)) + mp.mpf(10) ** -35
        high = ref.tail_p(qm, sm, ref.preimage(qm, sm, _mp(120 * H)))
        assert abs(_mp(ball_upper(masses.p_high)) - high) < mp.mpf(10) ** -35


def test_lowest_index_is_the_bucket_of_the_infimum():
    for q in ("1/100", "1/2", "99/100"):
        i = _stage(q, 1).lowest_index(H)
        bound = math.log1p(-float(mpq(q)))
        assert i * float(H) <= bound < (i + 1) * float(H)


@pytest.mark.parametrize("order", ["forward", "backward"])
@pytest.mark.parametrize("q,s", [("1/100", "1"), ("1/2", "1"), ("1", "3/2")])
def test_connect_the_dots_keeps_both_masses(order, q, s):
    """Σ U + U_∞ = 1 and Σ U[k]e^{-kh} = the buckets' Q-mass + e^{-lo·h}·(low tail's P-mass), up to rounding."""
    stage = _stage(q, s)
    masses, _ = _masses(stage, lo=-120 if stage.gaussian else None)
    side = oriented(masses, order)
    lo, values, atom = upper_values(side, H, BITS, 256)
    n = len(values) + 1
    total = mpq(sum(values) + atom, 2**BITS)
    assert 0 <= total - 1 <= mpq(n, 2**BITS)
    tied = sum(v * math.exp(-(lo + k) * float(H)) for k, v in enumerate(values)) / 2**BITS
    buckets = float(ball_upper(sum(side.Q[1:], side.Q[0])))
    low_p, low_q = float(ball_upper(side.low[0])), float(ball_upper(side.low[1]))
    assert tied == pytest.approx(buckets + math.exp(-lo * float(H)) * low_p, abs=1e-12)
    assert tied <= buckets + low_q + 1e-12  # the atom at lo·h lowers the low tail's Q-mass, never raises it


@pytest.mark.parametrize("order", ["forward", "backward"])
def test_bucket_arrays_round_the_safe_way(order):
    masses, _ = _masses(_stage("1/10", "1"))
    side = oriented(masses, order)
    lo, P, Q, X = lower_values(side, BITS, BITS + 16, 256)
    assert lo == side.lo and len(P) == len(Q) == side.hi - side.lo + 1
    assert sum(P) <= 2**BITS
    assert sum(Q) + X >= 2**(BITS + 16)
    for k, ball in enumerate(side.P):
        assert mpq(P[k], 2**BITS) <= ball_lower(ball) + mpq(1, 2**200)
    for k, ball in enumerate(side.Q):
        assert mpq(Q[k], 2**(BITS + 16)) >= ball_upper(ball) - mpq(1, 2**200) or k == 0
