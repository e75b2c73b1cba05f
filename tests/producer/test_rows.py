from fractions import Fraction

from hypothesis import given, strategies as st

from producer.laws import FiniteLaw, Gamma
from producer.rows import hidden_rounding_row

laws = st.tuples(st.lists(st.integers(0, 6), min_size=1, max_size=7).filter(lambda w: sum(w) > 0),
                 st.integers(-4, 4))
gammas = st.integers(2, 9).flatmap(lambda B: st.tuples(st.integers(1, B - 1), st.just(B))).filter(
    lambda ab: __import__("math").gcd(*ab) == 1)


def draws(ws, offset, a, B, k):
    """The law of the next state by enumerating (η, U) jointly."""
    S = sum(ws)
    out = {}
    for i, w in enumerate(ws):
        for u in range(B):
            n = offset + i - (a * k + u) // B
            out[n] = out.get(n, 0) + Fraction(w, S * B)
    return {n: v for n, v in out.items() if v}


@given(laws, gammas, st.integers(-40, 40))
def test_row_matches_joint_enumeration(law_spec, ab, k):
    ws, offset = law_spec
    law, gamma = FiniteLaw(ws, offset), Gamma(*ab)
    row = hidden_rounding_row(law, gamma, k)
    D = gamma.B * law.total
    expected = draws(ws, offset, gamma.a, gamma.B, k)
    got = {row.start + i: Fraction(int(v), int(D)) for i, v in enumerate(row.values) if v}
    assert got == expected


@given(laws, gammas, st.integers(-20, 20), st.integers(-10, 10))
def test_period_fact(law_spec, ab, k, n):
    law, gamma = FiniteLaw(*law_spec), Gamma(*ab)
    assert hidden_rounding_row(law, gamma, k + gamma.B)[n] == hidden_rounding_row(law, gamma, k)[n + gamma.a]
