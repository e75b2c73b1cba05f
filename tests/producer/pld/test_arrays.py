"""Packed Kronecker products, windows and powers of the dpsgd arrays, against plain loops."""

import random
from itertools import accumulate

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from producer.pld import composition as comp
from producer.pld.convolution import Packed, product


def _naive(a, b):
    out = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            out[i + j] += x * y
    return out


def _ceil(v, bits):
    return -((-v) >> bits)


@given(st.lists(st.integers(0, 2**70), min_size=1, max_size=40), st.lists(st.integers(0, 2**70), min_size=1,
       max_size=40), st.sampled_from([0, 1, 8, 61, 64, 72]))
@settings(max_examples=60, deadline=None)
def test_product_matches_the_naive_convolution_rounded_both_ways(a, b, shift):
    exact = _naive(a, b)
    for up, rounded in ((True, [_ceil(v, shift) for v in exact]), (False, [v >> shift for v in exact])):
        out = product(Packed.from_values(a), Packed.from_values(b), shift, up)
        assert out.values() == rounded
        assert out.total == sum(rounded) and out.top >= max(rounded)


def test_square_is_the_product_with_itself():
    rng = random.Random(5)
    a = Packed.from_values([rng.getrandbits(80) for _ in range(300)])
    twin = Packed.from_values(a.values())
    assert product(a, a, 64, True).values() == product(a, twin, 64, True).values()


@given(st.lists(st.integers(0, 2**90), min_size=1, max_size=60), st.integers(-3, 70), st.integers(-3, 70))
@settings(max_examples=60, deadline=None)
def test_packed_reads_and_sums_are_the_lists(values, start, stop):
    packed = Packed.from_values(values, width=(sum(values).bit_length() + 1) * 2)
    assert packed.values() == values
    assert packed.values(start, stop) == values[max(0, start):max(0, stop)]
    assert packed.field_sum(start, stop) == sum(values[max(0, start):max(0, stop)])


def test_a_width_below_the_total_is_refused():
    with pytest.raises(ValueError):
        Packed.from_values([3, 4], width=3)


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
    assert comp.trim(Packed.from_values(values), 2) == (2, 5)
    assert comp.trim(Packed.from_values(values), 0) == (0, 6)
    assert comp.trim(Packed.from_values([4, 4]), 0) == (0, 1)


def _trim_of_the_list(values, allowance):
    """The window's ends by plain running sums over the list (the reference for the packed reads)."""
    n = len(values)
    k_lo = next((k for k, t in enumerate(accumulate(values)) if t > allowance), n - 1)
    k_hi = next((n - 1 - k for k, t in enumerate(accumulate(reversed(values))) if t > allowance), n - 1)
    if k_lo > k_hi:
        k_lo = k_hi = values.index(max(values))
    return k_lo, k_hi


@given(st.lists(st.integers(0, 50), min_size=1, max_size=3000), st.integers(0, 3000))
@settings(max_examples=60, deadline=None)
def test_trim_reads_the_ends_block_by_block_as_a_list_would(values, allowance):
    assert comp.trim(Packed.from_values(values), allowance) == _trim_of_the_list(values, allowance)


def _list_window(offset, values, atom, lo, hi, kind):
    """The window rules of docs/dpsgd.md §6 by plain loops over (index, value)."""
    kept, below, above = [0] * (hi - lo + 1), 0, 0
    for i, v in enumerate(values, start=offset):
        if i < lo:
            below += v
        elif i > hi:
            above += v
        else:
            kept[i - lo] += v
    if kind == comp.LOWER_P:
        kept[-1] += above
    else:
        kept[0] += below
        atom += above
    return lo, kept, atom


def _list_power(base, steps, kind, bits, windows):
    """The power by plain products and windows (the reference for the packed one)."""
    up = kind != comp.LOWER_P
    def times(x, y):
        exact = _naive(x[1], y[1])
        values = [_ceil(c, bits) if up else c >> bits for c in exact]
        atom = _ceil(x[2] * (sum(y[1]) + y[2]) + sum(x[1]) * y[2], bits) if kind != comp.LOWER_P else 0
        return x[0] + y[0], values, atom
    current, windows = base, iter(windows)
    for bit in bin(steps)[3:]:
        current = _list_window(*times(current, current), *next(windows), kind)
        if bit == "1":
            current = _list_window(*times(current, base), *next(windows), kind)
    return current


@given(st.lists(st.integers(0, 2**40), min_size=1, max_size=12), st.integers(-4, 4), st.integers(0, 2**40),
       st.integers(1, 12), st.sampled_from([comp.UPPER, comp.LOWER_P, comp.LOWER_Q]), st.sampled_from([0, 8, 13, 41]),
       st.data())
@settings(max_examples=80, deadline=None)
def test_packed_power_is_the_list_power_under_any_windows(values, offset, atom, steps, kind, bits, data):
    """Windows inside, across and beyond the arrays' ends (and disjoint from them) give the same integers."""
    atom = atom if kind != comp.LOWER_P else 0

    def choose(arrays, weight):
        a = arrays[0]
        lo = data.draw(st.integers(a.offset - 3, a.last + 3), label="lo")
        return lo, data.draw(st.integers(lo, a.last + 4), label="hi")
    windows = comp.Windows(choose=choose)
    (result,) = comp.power([comp.Array(offset, values, atom)], steps, [kind], [bits], windows)
    expected = _list_power((offset, values, atom), steps, kind, bits, windows.used)
    assert (result.offset, result.values, result.atom) == expected


@pytest.mark.parametrize("seed", range(4))
def test_trim_of_a_long_array_halves_its_blocks_as_a_list_would(seed):
    rng = random.Random(seed)
    values = [rng.getrandbits(rng.choice([0, 8, 30])) for _ in range(40000)]
    for allowance in (0, sum(values[:7000]), sum(values) // 3, sum(values)):
        assert comp.trim(Packed.from_values(values), allowance) == _trim_of_the_list(values, allowance)

