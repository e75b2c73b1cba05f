"""The lattice route's arithmetic (auditor/pld/lattice.py) against exact laws computed here.

P_T(m) is the polynomial power of (β/x + g + α·x) in exact Fractions (:func:`tests.auditor.accounting_corpus.rr_power`)
and δ(ε) = Σ_m P_T(m)·(1 − e^ε·r^−m)_+ is summed in mpmath at 80 digits; T <= 60.  The properties:

* the replayed U has, at every m, a mass at or above m (its atom included) at least 2^K times the exact one, and D
  at most, whatever the windows (random ones truncate on either side);
* the bounds enclose δ(ε) at every ε, and with windows that keep everything and dyadic masses they are tight;
* beyond the largest loss T·L the upper bound is exactly 0.
"""

from fractions import Fraction

import mpmath
import pytest
from hypothesis import given, strategies as st

from auditor import budget
from auditor.outcomes import Unchecked
from auditor.pld import composition, lattice
from auditor.report import Report
from tests.auditor import accounting_corpus as corpus

DIGITS = 80


def _plan(p, k, steps, K, windows=None):
    law = lattice.Law(Fraction(p), k)
    windows = corpus.lattice_windows(steps) if windows is None else windows
    return lattice.Plan(law, steps, K, [tuple(w) for w in windows])


def _exact_tail(law_power, m):
    return sum((mass for j, mass in law_power.items() if j >= m), Fraction(0))


def _array_tail(array, m):
    return sum(int(v) for j, v in enumerate(array.values) if array.offset + j >= m) + int(array.atom)


@st.composite
def _cases(draw):
    """(p, k, T, K, windows): a law, a count up to 60, K from 8 to 80 bits, windows cut at random."""
    p = Fraction(draw(st.integers(1, 99)), 100)
    k = draw(st.integers(2, 9))
    steps = draw(st.integers(1, 60))
    K = draw(st.integers(8, 80))
    windows = []
    for lo, hi in corpus.lattice_windows(steps):
        a = draw(st.integers(lo, hi))
        b = draw(st.integers(a, hi))
        windows.append([a, b] if draw(st.booleans()) else [lo, hi])
    return p, k, steps, K, windows


@given(_cases())
def test_the_replayed_arrays_bound_every_tail_of_the_exact_law(case):
    p, k, steps, K, windows = case
    U, D = lattice.replay(_plan(p, k, steps, K, windows))
    exact = corpus.rr_power(p, k, steps)
    assert U.offset >= -steps - 1 and D.atom == 0
    for m in range(-steps - 1, steps + 2):
        scaled = _exact_tail(exact, m) * (1 << K)
        assert _array_tail(D, m) <= scaled <= _array_tail(U, m), (m, case)


def _mp(x):
    return mpmath.mpf(x.numerator) / x.denominator


@given(_cases(), st.lists(st.fractions(0, 12, max_denominator=7), min_size=1, max_size=4, unique=True))
def test_the_bounds_enclose_delta(case, epsilons):
    p, k, steps, K, windows = case
    plan = _plan(p, k, steps, K, windows)
    found = lattice.bounds(lattice.replay(plan), plan.law, K, sorted(epsilons), 80)
    with mpmath.workdps(DIGITS):
        for e in epsilons:
            true = corpus.rr_delta(p, k, steps, e)
            lower, upper = found[e]
            assert _mp(lower) <= true <= _mp(upper), (e, case)


@pytest.mark.parametrize("p, k, steps, K", [("3/4", 4, 10, 64), ("1/2", 2, 37, 96), ("1/8", 8, 60, 384)])
def test_dyadic_masses_and_full_windows_are_tight(p, k, steps, K):
    """Masses on the 2^−K grid (K >= 6·T for β = 1/64) and nothing truncated: U = D = 2^K·P_T exactly, the bounds
    within 2^−70."""
    plan = _plan(p, k, steps, K)
    U, D = lattice.replay(plan)
    exact = corpus.rr_power(p, k, steps)
    assert U.values == D.values and U.atom == 0
    assert all(Fraction(int(v), 1 << K) == exact.get(U.offset + j, 0) for j, v in enumerate(U.values))
    epsilons = [Fraction(0), Fraction(1, 3), Fraction(2)]
    found = lattice.bounds((U, D), plan.law, K, epsilons, 70)
    with mpmath.workdps(DIGITS):
        for e in epsilons:
            lower, upper = found[e]
            true = corpus.rr_delta(p, k, steps, e)
            assert _mp(lower) <= true <= _mp(upper) and upper - lower < Fraction(1, 1 << 70)


def test_upper_is_exactly_zero_beyond_the_largest_loss():
    plan = _plan("3/4", 4, 10, 64)      # r = 7/3, T·L = 10·log(7/3) = 8.4730...
    found = lattice.bounds(lattice.replay(plan), plan.law, 64, [Fraction(847, 100), Fraction(9)], 80)
    assert found[Fraction(9)] == (0, 0)
    assert found[Fraction(847, 100)][1] > 0     # 8.47 is just below 10·L: the top atom is above it


def test_a_window_cut_to_one_entry_still_bounds():
    """The first square kept on [0, 0]: U's low mass lands on 0 and its high mass in the atom, D keeps less."""
    windows = corpus.lattice_windows(4)
    windows[0] = [0, 0]
    U, D = lattice.replay(_plan("1/2", 3, 4, 40, windows))
    assert U.atom > 0 and sum(D.values) < 1 << 40


def test_the_number_of_windows():
    """(bit length of T − 1) + (popcount of T − 1): 19 + 6 = 25 at T = 10^6."""
    for steps, need in ((1, 0), (2, 1), (3, 2), (4, 2), (7, 4), (10 ** 6, 25)):
        assert composition.products_in_power(steps) == need == len(corpus.lattice_windows(steps))


def test_the_estimate_grows_with_k_and_refuses_beyond_the_limits():
    """Full windows at T = 10^6 reach 2·10^6 + 1 entries, within the per-array limit 2^22."""
    costs = [lattice.estimate(_plan("1/2", 2, 10 ** 6, K), 100).work for K in (64, 128)]
    assert 0 < costs[0] < costs[1] < 2 * costs[0]
    wide = lattice.estimate(_plan("1/2", 2, 3, 64, [[0, 1 << 22], [0, 1]]), 100)
    assert wide.longest == ((1 << 22) + 3, "/result/lattice/windows/1")   # the product of window 0 and the base
    with pytest.raises(Unchecked, match="entries of one array"):
        budget.reserve(Report("x"), [({}, wide)])
    with pytest.raises(Unchecked, match="bits of the fixed point"):
        lattice.estimate(_plan("1/2", 2, 4, 4097), 100)
    with pytest.raises(Unchecked, match="precision of the answers"):
        lattice.estimate(_plan("1/2", 2, 4, 64), lattice.MAX_ANSWER_BITS)
