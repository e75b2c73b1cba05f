"""producer.sources.calibration: the bracket search against synthetic certified oracles."""

import pytest
from gmpy2 import mpq
from hypothesis import given, settings, strategies as st

from producer.errors import LimitError
from producer.sources.calibration import search


class Interval:
    def __init__(self, lower, upper):
        self.lower, self.upper = lower, upper


def make_oracle(profile, calls):
    """Certified intervals for ``profile``: [Δ − W/3, Δ + W/2] clipped to [0, 1] (width < W)."""
    def oracle(eps, W):
        calls.append((eps, W))
        d = profile(mpq(eps))
        return Interval(max(mpq(0), d - W / 3), min(mpq(1), d + W / 2))
    return oracle


def cubic(eps):
    return 1 / (2 * (1 + eps) ** 3)


def true_root(delta):
    # 1/(2(1+ε)^3) = δ  <=>  ε = (2δ)^(-1/3) − 1; bisection in exact arithmetic
    lo, hi = mpq(0), mpq(100)
    for _ in range(200):
        mid = (lo + hi) / 2
        if cubic(mid) > delta:
            lo = mid
        else:
            hi = mid
    return lo, hi


@settings(max_examples=20)
@given(st.integers(min_value=2, max_value=12), st.sampled_from([mpq(1, 10), mpq(1, 1000), mpq(1, 10**6)]))
def test_search_brackets_the_root(exponent, zeta):
    delta = mpq(1, 2 ** exponent)
    calls = []
    bracket = search(make_oracle(cubic, calls), delta, zeta, envelope=mpq(100))
    assert not bracket.is_zero
    assert cubic(bracket.eps_lo) > delta >= cubic(bracket.eps_hi)
    assert bracket.lower_result.lower > delta and bracket.upper_result.upper <= delta
    assert 0 < bracket.eps_hi - bracket.eps_lo < zeta
    r_lo, r_hi = true_root(delta)
    assert bracket.eps_lo <= r_hi and r_lo <= bracket.eps_hi
    assert bracket.probes == len(calls) < 80


def test_search_reports_zero_when_delta_exceeds_value_at_zero():
    calls = []
    bracket = search(make_oracle(cubic, calls), mpq(3, 4), mpq(1, 100), envelope=mpq(10))
    assert bracket.is_zero and bracket.eps_lo == bracket.eps_hi == 0
    assert bracket.upper_result.upper <= mpq(3, 4)
    assert calls[0][0] == 0 and len(calls) == 1


def test_search_refines_the_source_when_an_interval_straddles_delta():
    calls = []
    delta = mpq(1, 2) - mpq(1, 10**6)  # Δ(0) = 1/2 is just above δ: needs a narrow source at 0
    bracket = search(make_oracle(cubic, calls), delta, mpq(1, 10**3), envelope=mpq(10))
    assert not bracket.is_zero and bracket.eps_lo == 0
    assert bracket.lower_result.lower > delta
    widths = [W for eps, W in calls if eps == 0]
    assert len(widths) > 1 and widths == sorted(widths, reverse=True)


def test_search_refuses_a_profile_stuck_at_delta():
    delta = mpq(1, 100)
    flat = lambda eps: mpq(1, 2) if eps == 0 else (delta if eps < 5 else mpq(0))  # noqa: E731
    with pytest.raises(LimitError):
        search(make_oracle(flat, []), delta, mpq(1, 10), envelope=mpq(10))


def test_search_rejects_an_envelope_that_the_oracle_contradicts():
    with pytest.raises(ArithmeticError):
        search(make_oracle(cubic, []), mpq(1, 1000), mpq(1, 100), envelope=mpq(1))


def test_search_starts_at_the_oracles_limit_below_a_larger_envelope():
    calls = []
    delta = mpq(1, 1000)
    bracket = search(make_oracle(cubic, calls), delta, mpq(1, 100), envelope=mpq(10**6), limit=64)
    assert all(eps <= 64 for eps, _W in calls) and calls[1][0] == 64
    assert cubic(bracket.eps_lo) > delta >= cubic(bracket.eps_hi)


def test_search_refuses_a_root_above_the_oracles_limit():
    calls = []
    with pytest.raises(LimitError, match="ε\\* is not below 5, the largest ε the exact game answers"):
        search(make_oracle(cubic, calls), mpq(1, 1000), mpq(1, 100), envelope=mpq(100), limit=5)
    assert max(eps for eps, _W in calls) == 5
