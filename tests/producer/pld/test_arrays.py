"""Kronecker products, windows and powers of the dpsgd arrays, against plain loops."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from producer.pld import composition as comp
from producer.pld.convolution import product


def _naive(a, b):
    out = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            out[i + j] += x * y
    return out


def _ceil(v, bits):
    return -((-v) >> bits)


@given(st.lists(st.integers(0, 2**70), min_size=1, max_size=40), st.lists(st.integers(0, 2**70), min_size=1,
       max_size=40), st.sampled_from([0, 8, 64, 72]))
@settings(max_examples=60, deadline=None)
def test_product_matches_the_naive_convolution_rounded_both_ways(a, b, shift):
    exact = _naive(a, b)
    assert product(a, b, shift, up=True) == [_ceil(v, shift) for v in exact]
    assert product(a, b, shift, up=False) == [v >> shift for v in exact]


def test_square_is_the_product_with_itself():
    rng = random.Random(5)
    a = [rng.getrandbits(80) for _ in range(300)]
    assert product(a, a, 64, True, square=True) == product(a, list(a), 64, True)


def test_shift_must_be_whole_bytes():
    with pytest.raises(ValueError):
        product([1], [1], 5, True)


def _mass_at_or_above(array, k):
    return sum(v for i, v in enumerate(array.values) if array.offset + i >= k)


@given(st.lists(st.integers(0, 1000), min_size=1, max_size=30), st.integers(-5, 5), st.integers(0, 40),
       st.integers(0, 40), st.integers(0, 50))
@settings(max_examples=80, deadline=None)
def test_windows_keep_each_sides_order(values, offset, a, b, atom):
    """UPPER and LOWER_Q only raise the mass at or above every k (atom counted above all); LOWER_P only
    lowers it; UPPER and LOWER_Q keep the total."""
    array = comp.Array(offset, values, atom)
    lo, hi = offset + min(a, b) - 5, offset + max(a, b) - 5
    for kind in (comp.UPPER, comp.LOWER_P, comp.LOWER_Q):
        start = comp.Array(offset, values, atom if kind != comp.LOWER_P else 0)
        cut = comp.window(start, lo, hi, kind)
        assert cut.offset == lo and len(cut.values) == hi - lo + 1
        for k in range(offset - 8, offset + len(values) + 8):
            before, after = _mass_at_or_above(start, k) + start.atom, _mass_at_or_above(cut, k) + cut.atom
            assert after >= before if kind != comp.LOWER_P else after <= before
        if kind != comp.LOWER_P:
            assert cut.total() == start.total()
    assert array.total() == sum(values) + atom


def test_upper_product_atom_algebra():
    """(A, a) * (B, b): the atom at +∞ collects every pair with an infinite coordinate."""
    a, b = comp.Array(0, [3, 5], 2), comp.Array(1, [7], 4)
    out = comp.multiply(a, b, comp.UPPER, 0)
    assert out.offset == 1 and out.values == [21, 35]
    assert out.atom == 2 * (7 + 4) + 8 * 4
    assert out.total() == a.total() * b.total()


@pytest.mark.parametrize("steps", [1, 2, 3, 5, 8, 13, 64, 100])
def test_power_without_truncation_is_the_repeated_product(steps):
    base = comp.Array(-1, [1, 3, 2], 1)
    full = comp.Windows(choose=lambda arrays, weight: (arrays[0].offset, arrays[0].last))
    (result,) = comp.power([base], steps, [comp.UPPER], [0], full)
    expected = comp.Array(-1, [1, 3, 2], 1)
    for _ in range(steps - 1):
        expected = comp.multiply(expected, base, comp.UPPER, 0)
    assert (result.offset, result.values, result.atom) == (expected.offset, expected.values, expected.atom)
    assert len(full.used) == comp.products_of(steps)


def test_recorded_windows_replay_the_same_arrays():
    base = [comp.Array(0, [5, 9, 4, 1], 0), comp.Array(0, [6, 8, 3, 2], 1)]
    kinds, bits = [comp.LOWER_P, comp.LOWER_Q], [0, 0]
    chosen = comp.Windows(choose=lambda arrays, weight: (arrays[0].offset + 1, arrays[0].last - 1))
    first = comp.power(base, 11, kinds, bits, chosen)
    replay = comp.Windows(recorded=chosen.used)
    second = comp.power(base, 11, kinds, bits, replay)
    assert [(a.offset, a.values, a.atom) for a in first] == [(a.offset, a.values, a.atom) for a in second]


def test_trim_drops_only_within_the_allowance():
    values = [1, 1, 5, 9, 5, 2, 1]
    assert comp.trim(values, 2) == (2, 5)
    assert comp.trim(values, 0) == (0, 6)
    assert comp.trim([4, 4], 0) == (0, 1)
