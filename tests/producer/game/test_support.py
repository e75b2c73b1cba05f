"""The C2 support reduction against plain enumeration of all B² roots."""

from math import gcd

import pytest
from gmpy2 import mpq
from hypothesis import given, settings, strategies as st

from producer.errors import InputError
from producer.game.values import choose_method, root_value
from producer.game.support import base_of_phases, phase_indices, reduced_root_alternatives
from producer.laws import FiniteLaw, Gamma

gammas = st.integers(2, 40).flatmap(lambda B: st.tuples(st.integers(1, B - 1), st.just(B))).filter(
    lambda ab: gcd(*ab) == 1)
symmetric_laws = st.tuples(st.lists(st.integers(0, 5), max_size=3), st.integers(1, 6)).map(
    lambda hc: FiniteLaw(hc[0][::-1] + [hc[1]] + hc[0], -len(hc[0])))
points = st.tuples(st.fractions(0, 4, max_denominator=9), st.fractions(0, 4, max_denominator=9)).map(
    lambda xy: (mpq(xy[0].numerator, xy[0].denominator), mpq(xy[1].numerator, xy[1].denominator)))


@given(symmetric_laws, gammas, points, st.sampled_from([1, 2]))
@settings(max_examples=60)
def test_reduced_equals_enumeration(law, ab, xy, budget):
    gamma = Gamma(*ab)
    full = root_value(law, gamma, budget, *xy, method="enumerate")
    reduced = root_value(law, gamma, budget, *xy, method="reduced")
    assert reduced.value == full.value
    assert reduced.method == "reduced" and full.method == "enumerate"


@given(gammas, st.data())
def test_base_of_phases_inverts_the_phase_map(ab, data):
    gamma = Gamma(*ab)
    a, B = ab
    u, v = data.draw(st.integers(0, B - 1)), data.draw(st.integers(0, B - 1))
    b = base_of_phases(u, v, gamma)
    assert 0 <= b < B * B
    assert (a * b) % B == u                      # β = {γ b}
    assert (-a * ((a * b) // B)) % B == v        # χ = {γ b(b)}, b(k) = −⌊γ k⌋


def test_reduction_has_order_L_squared_roots():
    law = FiniteLaw([1] * 33, -16)
    k0, k2 = phase_indices(law, Gamma(86, 257))
    assert len(k0) <= 2 * 16 + 3 and len(k2) <= 4 * 16 + 8
    assert len(reduced_root_alternatives(law, Gamma(86, 257))) <= len(k0) * len(k2) < 257 ** 2 // 20


def test_method_choice_and_refusal():
    sym, asym = FiniteLaw([1, 2, 1], -1), FiniteLaw([1, 2, 3], -1)
    assert choose_method(sym, Gamma(86, 257), 2) == "reduced"
    assert choose_method(sym, Gamma(1, 3), 2) == "enumerate"      # B² = 9 roots: nothing to gain
    assert choose_method(asym, Gamma(86, 257), 2) == "compiled"       # carry-cell cover < B²
    assert choose_method(asym, Gamma(1, 3), 2) == "enumerate"
    with pytest.raises(InputError, match="symmetric"):
        choose_method(asym, Gamma(1, 3), 2, "reduced")
    with pytest.raises(InputError, match="budget 1 or 2"):
        choose_method(sym, Gamma(1, 3), 3, "reduced")
