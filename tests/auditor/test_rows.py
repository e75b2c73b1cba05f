"""Rows by counting hidden draws == brute force over the joint draws (eta, U)."""

from fractions import Fraction
from math import gcd

import pytest
from hypothesis import given, strategies as st

from auditor.game.rows import Law, count, row


def brute_row(weights, offset, a, B, k):
    """Enumerate every (eta, U): next state eta - floor((a*k + U) / B), mass w_eta * 1 (over B*S)."""
    out = {}
    for i, w in enumerate(weights):
        eta = offset + i
        for U in range(B):
            n = eta - (a * k + U) // B
            out[n] = out.get(n, 0) + w
    return {n: v for n, v in out.items() if v}


@st.composite
def instances(draw):
    B = draw(st.integers(2, 9))
    a = draw(st.sampled_from([a for a in range(1, B) if gcd(a, B) == 1]))
    weights = draw(st.lists(st.integers(0, 6), min_size=1, max_size=7))
    if not any(weights):
        weights[draw(st.integers(0, len(weights) - 1))] = 1
    offset = draw(st.integers(-5, 5))
    k = draw(st.integers(-60, 60))
    return weights, offset, a, B, k


@given(instances())
def test_counting_equals_joint_draws(inst):
    weights, offset, a, B, k = inst
    assert row(weights, offset, a, B, k) == brute_row(weights, offset, a, B, k)


@given(instances())
def test_row_is_a_probability_law(inst):
    weights, offset, a, B, k = inst
    assert sum(row(weights, offset, a, B, k).values()) == Law(weights, offset, a, B).D


@given(instances())
def test_mixture_form_agrees(inst):
    """docs/mechanism.md §2 mixture form: (1 - rho/B) nu(n + m) + (rho/B) nu(n + m + 1)."""
    weights, offset, a, B, k = inst
    S = sum(weights)
    m, rho = divmod(a * k, B)

    def nu(z):
        i = z - offset
        return Fraction(weights[i], S) if 0 <= i < len(weights) else Fraction(0)

    r = row(weights, offset, a, B, k)
    D = B * S
    for n in range(offset - m - 3, offset + len(weights) - m + 3):
        mix = (1 - Fraction(rho, B)) * nu(n + m) + Fraction(rho, B) * nu(n + m + 1)
        assert Fraction(r.get(n, 0), D) == mix


@given(instances())
def test_period_shift(inst):
    """row_{k+B}(n) = row_k(n + a)."""
    weights, offset, a, B, k = inst
    r0 = row(weights, offset, a, B, k)
    r1 = row(weights, offset, a, B, k + B)
    assert r1 == {n - a: v for n, v in r0.items()}


@given(st.integers(2, 9), st.lists(st.integers(0, 5), min_size=1, max_size=4), st.integers(-40, 40))
def test_symmetric_law_reflection(B, half, k):
    """For symmetric nu: row_{-k}(-n) = row_k(n)."""
    if not any(half):
        half[0] = 1
    weights = half[::-1][:-1] + half  # symmetric about 0
    offset = -(len(half) - 1)
    for a in range(1, B):
        if gcd(a, B) != 1:
            continue
        r = row(weights, offset, a, B, k)
        rm = row(weights, offset, a, B, -k)
        assert rm == {-n: v for n, v in r.items()}


def test_count_small_table():
    # z = 4, B = 3: U = 0,1 give floor((4+U)/3) = 1; U = 2 gives 2.
    assert [count(4, h, 3) for h in range(0, 4)] == [0, 2, 1, 0]
    # negative z: z = -4, B = 3: -4+U in {-4,-3,-2} -> floors -2, -1, -1
    assert [count(-4, h, 3) for h in range(-3, 1)] == [0, 1, 2, 0]
    assert sum(count(z, h, 7) for h in range(-10, 10) for z in [-13]) == 7


def test_negative_states_and_law_cache():
    law = Law([1, 2, 1], -1, 1, 3)
    assert law.D == 12
    assert law.row(-1) == brute_row([1, 2, 1], -1, 1, 3, -1)
    assert law.row(-1) is law.row(-1)
    # k = 0: pure row, nu itself times B
    assert law.row(0) == {-1: 3, 0: 6, 1: 3}


def test_rejects_zero_law():
    with pytest.raises(ValueError):
        Law([0, 0], 0, 1, 2)
