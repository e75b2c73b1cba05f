"""producer.resource.lp: the exact LP engine against brute force (every basis enumerated).

Small random LPs  maximise c·x, A x = b, x >= 0  are solved by enumerating
all m-column bases exactly (Fractions): the LP is infeasible when no basis is
primal feasible, unbounded when no primal feasible basis is also dual
feasible, and otherwise its optimum is the value of such a basis.  The
engine must agree from any starting basis, with either repair.
"""

from fractions import Fraction
from itertools import combinations
from types import SimpleNamespace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from producer.resource import lp as exact_lp


def _solve_square(rows, rhs):
    """Gauss-Jordan over Fractions; None when singular."""
    n = len(rows)
    a = [list(map(Fraction, r)) + [Fraction(v)] for r, v in zip(rows, rhs)]
    for col in range(n):
        piv = next((i for i in range(col, n) if a[i][col] != 0), None)
        if piv is None:
            return None
        a[col], a[piv] = a[piv], a[col]
        for i in range(n):
            if i != col and a[i][col] != 0:
                f = a[i][col] / a[col][col]
                a[i] = [x - f * y for x, y in zip(a[i], a[col])]
    return [a[i][n] / a[i][i] for i in range(n)]


def _rank(rows):
    a = [list(map(Fraction, r)) for r in rows]
    rank, col, m, n = 0, 0, len(a), len(a[0]) if a else 0
    while rank < m and col < n:
        piv = next((i for i in range(rank, m) if a[i][col] != 0), None)
        if piv is None:
            col += 1
            continue
        a[rank], a[piv] = a[piv], a[rank]
        for i in range(m):
            if i != rank and a[i][col] != 0:
                f = a[i][col] / a[rank][col]
                a[i] = [x - f * y for x, y in zip(a[i], a[rank])]
        rank, col = rank + 1, col + 1
    return rank


def brute_force(A, b, c):
    """('infeasible' | 'unbounded' | 'optimal', value)."""
    m, n = len(A), len(A[0])
    feasible = False
    for basis in combinations(range(n), m):
        rows = [[A[i][j] for j in basis] for i in range(m)]
        x = _solve_square(rows, b)
        if x is None or any(v < 0 for v in x):
            continue
        feasible = True
        # dual: B^T y = c_B
        y = _solve_square([[A[i][j] for i in range(m)] for j in basis], [c[j] for j in basis])
        if all(sum(A[i][j] * y[i] for i in range(m)) >= c[j] for j in range(n)):
            return "optimal", sum(c[j] * v for j, v in zip(basis, x))
    return ("unbounded" if feasible else "infeasible"), None


def _program(A, b, c):
    columns = [[(i, A[i][j]) for i in range(len(A)) if A[i][j]] for j in range(len(A[0]))]
    return exact_lp.LinearProgram(columns, b, c)


@st.composite
def programs(draw):
    m = draw(st.integers(1, 3))
    n = draw(st.integers(m, 6))
    entry = st.integers(-3, 3)
    A = [[draw(entry) for _ in range(n)] for _ in range(m)]
    if _rank(A) < m:
        A = [row[:] for row in A]
        for i in range(m):
            A[i][i % n] += 4  # usually restores full row rank
    b = [draw(st.integers(-4, 6)) for _ in range(m)]
    c = [Fraction(draw(st.integers(-5, 5)), draw(st.integers(1, 3))) for _ in range(n)]
    start = draw(st.lists(st.integers(0, n - 1), max_size=m, unique=True))
    return A, b, c, start


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(programs(), st.sampled_from(exact_lp.REPAIRS))
def test_engine_agrees_with_enumerating_every_basis(case, repair):
    A, b, c, start = case
    if _rank(A) < len(A):
        return
    status, value = brute_force(A, b, c)
    lp = _program(A, b, c)
    if status == "infeasible":
        with pytest.raises(exact_lp.Infeasible):
            exact_lp.solve(lp, basis=start, repair=repair)
    elif status == "unbounded":
        with pytest.raises((exact_lp.Unbounded, exact_lp.Infeasible)) as info:
            exact_lp.solve(lp, basis=start, repair=repair)
        assert info.type is exact_lp.Unbounded
    else:
        sol = exact_lp.solve(lp, basis=start, repair=repair)
        assert Fraction(int(sol.value.p), int(sol.value.q)) == value
        assert exact_lp.check_optimal(lp, sol.full_x(lp.n), sol.y)


@settings(max_examples=40, deadline=None)
@given(programs())
def test_highs_proposal_is_only_a_hint(case):
    A, b, c, _start = case
    if _rank(A) < len(A):
        return
    status, value = brute_force(A, b, c)
    if status != "optimal":
        return
    sol = exact_lp.solve(_program(A, b, c))
    assert Fraction(int(sol.value.p), int(sol.value.q)) == value


def test_degenerate_cycling_example_terminates():
    # Beale's example (cycles under the textbook rule without an anti-cycling safeguard)
    A = [[Fraction(1, 4), -8, -1, 9, 1, 0, 0], [Fraction(1, 2), -12, Fraction(-1, 2), 3, 0, 1, 0],
         [0, 0, 1, 0, 0, 0, 1]]
    b = [0, 0, 1]
    c = [Fraction(3, 4), -20, Fraction(1, 2), -6, 0, 0, 0]
    sol = exact_lp.solve(_program(A, b, c), basis=[4, 5, 6])
    assert sol.value == exact_lp.fmpq(5, 4)


def test_dependent_rows_are_refused():
    lp = _program([[1, 1], [2, 2]], [1, 2], [1, 0])
    with pytest.raises(ArithmeticError, match="dependent"):
        exact_lp.solve(lp, basis=[0])


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(programs(), st.sampled_from(exact_lp.REPAIRS), st.randoms(use_true_random=False))
def test_racing_a_warm_start_against_the_proposal_agrees_with_enumeration(case, repair, rng):
    """Whichever of the two repairs finishes first, the optimum is the brute-force one."""
    A, b, c, start = case
    if _rank(A) < len(A):
        return
    status, value = brute_force(A, b, c)
    if status != "optimal":
        return
    lp = _program(A, b, c)
    order = list(range(lp.n))
    rng.shuffle(order)
    with pytest.MonkeyPatch.context() as mp:       # HiGHS "proposes" the drawn start: the race is run
        mp.setattr(exact_lp, "propose_basis", lambda _lp, _options=None: list(start))
        sol = exact_lp.solve(lp, repair=repair, warm=lambda: order)
    assert Fraction(int(sol.value.p), int(sol.value.q)) == value
    assert exact_lp.check_optimal(lp, sol.full_x(lp.n), sol.y)


def test_warm_start_is_called_only_when_no_proposal_is_exact():
    A = [[1, 1, 1]]
    lp = _program(A, [1], [1, 2, 3])

    def never():
        raise AssertionError("warm start computed although HiGHS was exact")
    sol = exact_lp.solve(lp, warm=never)
    assert sol.value == 3 and sol.route.startswith("accepted")


def test_progress_lines_name_the_limit_and_the_time_to_it(monkeypatch):
    # the test's own clock: 10.01 s after the start, so 4950 more pivots at 0.2002 s are 16.52 min
    monkeypatch.setattr(exact_lp, "time", SimpleNamespace(monotonic=lambda: 1010.01))
    line = exact_lp._pivot_report("dual simplex", [50, 5000, 1000.0])
    assert line.startswith("dual simplex: 50 of at most 5000 exact pivots, 10 s (0.2 s a pivot")
    assert "the limit would be 17 min more" in line


def test_small_sigma2_period_lp_is_solved_by_the_warm_start():
    """γ = 1/2, σ² = 1/100, N = 32: HiGHS's best basis needs more than 5000 exact pivots; the warm start few."""
    from gmpy2 import mpq
    from producer.laws import parse_gamma
    from producer.resource import rate
    from producer.resource.rewards import RewardTable
    from producer.resource.source import default_source
    gamma, sigma2 = parse_gamma("1/2"), mpq(1, 100)
    source, rewards = default_source(sigma2), RewardTable(gamma, sigma2)
    problem, solution = rate._solve_period(source.law, gamma, 32, rewards)
    assert solution.pivots < 100 and "warm start" in solution.route
    assert exact_lp.check_optimal(problem.lp, solution.full_x(problem.lp.n), solution.y)
    # the lifted period-16 optimum is dual feasible for period 32 with the same value (so r_32 <= r_16)
    small, small_solution = rate._solve_period(source.law, gamma, 16, rewards)
    order = rate.lifted_order(problem, small, small_solution)
    assert sorted(order) == list(range(problem.lp.n))
    assert solution.y[0] <= small_solution.y[0]
