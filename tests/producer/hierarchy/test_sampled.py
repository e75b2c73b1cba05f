"""The integer sandwich (docs/hierarchy.md §4) against exact curves, and the DG bound (8.8)."""

import pytest
from gmpy2 import mpq, mpz
from hypothesis import given, settings, strategies as st

from producer.kinds.dg_interval import Request as DgRequest, evaluate as dg_evaluate
from producer.hierarchy import exact, pl
from producer.hierarchy.dg_bound import bound_at, chord_at
from producer.hierarchy.grid import check_grid, log_odds_grid
from producer.hierarchy.models import CutModel, DepthModel
from producer.hierarchy.sampled import Sandwich, convexified, line_coefficients
from producer.laws import FiniteLaw, Gamma
from producer.sources.discrete_gaussian import DiscreteGaussianSource

K = F = 48
UNIFORM, HALF_GAMMA = FiniteLaw([1, 1, 1], -1), Gamma(1, 2)


def upper_gap(model, law, gamma, points, logit_range=6.0):
    """min and max over grid priors and chord midpoints of (sandwich upper value − exact value)."""
    grid = log_odds_grid(points, K, logit_range)
    table = Sandwich(model, law, gamma, grid, K, F).solve()
    curve = exact.root_curve(model, law, gamma)
    gaps = []
    for i in range(len(grid) - 1):
        for t in (mpq(grid[i], 2 ** K), mpq(grid[i] + grid[i + 1], 2 ** (K + 1))):
            upper = max(t, 1 - t) + chord_at(table, grid, K, t) / mpz(2) ** F
            gaps.append(upper - pl.evaluate(curve, t))
    assert table[0] == 0 and table[-1] == 0
    return min(gaps), max(gaps)


def test_c4_example_is_bracketed_and_tightens():
    for depth in (1, 2, 3):
        coarse = upper_gap(DepthModel(4, depth), UNIFORM, HALF_GAMMA, 10)
        fine = upper_gap(DepthModel(4, depth), UNIFORM, HALF_GAMMA, 160)
        assert coarse[0] >= 0 and fine[0] >= 0
        assert fine[1] < coarse[1] and fine[1] < mpq(1, 1000)


@st.composite
def instances(draw):
    B = draw(st.sampled_from([2, 3]))
    a = draw(st.sampled_from(list(range(1, B))))
    n = draw(st.integers(2, 4))
    weights = draw(st.lists(st.integers(0, 4), min_size=n, max_size=n).filter(lambda w: sum(w) > 0))
    budget = draw(st.integers(1, 3))
    if draw(st.booleans()):
        model = DepthModel(budget, draw(st.integers(1, budget)))
    else:
        model = CutModel(budget, [b for b in range(budget - 1) if draw(st.booleans())])
    return model, FiniteLaw(weights, draw(st.integers(-2, 0))), Gamma(a, B), draw(st.integers(3, 12))


@settings(max_examples=25)
@given(instances())
def test_sandwich_is_an_upper_bound_on_random_laws(instance):
    model, law, gamma, points = instance
    low, _ = upper_gap(model, law, gamma, points)
    assert low >= 0


def test_line_coefficients_bound_the_chord():
    grid = [0, 3, 8, 16]
    E = [0, 5, -2, 0]
    import numpy as np
    arr = np.empty(4, dtype=object)
    arr[:] = E
    alpha, beta = line_coefficients(arr, grid, 4)
    for j in range(3):
        for s in (grid[j], grid[j + 1]):  # the rounded-up line passes on or above both chord ends
            assert mpq(alpha[j] * s + beta[j] * (16 - s), 16) >= E[grid.index(s)]
            assert mpq(alpha[j] * s + beta[j] * (16 - s), 16) < E[grid.index(s)] + 1


def test_convexified_is_the_rounded_up_lower_hull():
    import numpy as np
    grid, bits, fbits = [0, 4, 8, 12, 16], 4, 4
    m = np.empty(5, dtype=object)
    m[:] = [0, 3, 1, 3, 0]
    out = list(convexified(m, grid, bits, fbits))
    # the point at t = 1/4 lies above the chord from (0, 1 + 0) to (1/2, 1/2 + 1/16): it is lowered
    assert out[0] == 0 and out[2] == 1 and out[4] == 0
    assert out[1] < 3 and out[3] < 3
    assert all(o <= v for o, v in zip(out, m))


def test_grid_rules():
    grid = log_odds_grid(50, 40, 9.0)
    check_grid(grid, 40)
    assert len(grid) == 53


def test_dg_bound_is_above_the_exact_interval_at_c2():
    """P_2 = G_2 at C = 2: the hierarchy's upper bound lies above the certified lower end of Δ*_2."""
    gamma, sigma2, radius, scale = Gamma(1, 3), mpq(9), 8, mpz(2) ** 40
    source = DiscreteGaussianSource.from_radius_scale(sigma2, radius, scale)
    grid = log_odds_grid(60, K, 8.0)
    table = Sandwich(DepthModel(2, 2), source.law, gamma, grid, K, F).solve()
    bound = bound_at(mpq(2), table, grid, K, F, source.tau, 2)
    exact_interval = dg_evaluate(DgRequest("1/3", sigma2, 2, mpq(2), radius=radius, scale=scale))
    assert bound.upper >= exact_interval.lower
    assert bound.lam_lo <= bound.lam_hi and bound.prior == 1 / (1 + bound.lam_lo)


@settings(max_examples=15)
@given(instances())
def test_int64_limb_path_gives_the_same_integers(instance):
    model, law, gamma, points = instance
    grid = log_odds_grid(points, K, 6.0)
    fast = Sandwich(model, law, gamma, grid, K, F, fast=True).solve()
    plain = Sandwich(model, law, gamma, grid, K, F, fast=False).solve()
    assert list(fast) == list(plain)


def test_limbs_recombine_exactly_at_the_bounds():
    import numpy as np
    from producer.hierarchy.limbs import MAX_OUTPUTS, coefficient_limbs, limb_sums, row_limbs
    alpha = [-(1 << 58) + 1, (1 << 58) - 1, -1, 0, 12345]
    beta = [(1 << 58) - 1, -(1 << 58) + 1, 7, -3, 0]
    limbs = coefficient_limbs(alpha, beta)
    rows = [(1 << 50) - 1] * MAX_OUTPUTS
    loc = np.tile(np.arange(5), (len(rows), 1))
    arena = np.stack([np.zeros_like(limbs), limbs])
    ids = np.ones(len(rows), dtype=np.int64)
    sum_p, sum_q = limb_sums(arena, ids, loc, row_limbs(rows), row_limbs(rows))
    assert list(sum_p) == [a * sum(rows) for a in alpha]
    assert list(sum_q) == [b * sum(rows) for b in beta]
    assert coefficient_limbs([1 << 58], [0]) is None
    assert row_limbs([1 << 50]) is None and row_limbs([1] * (MAX_OUTPUTS + 1)) is None


def test_rows_beyond_the_float_range_give_the_same_table():
    """Weights scaled by 2^4000 (a source scale within the limits): no float of a row entry, the same integers."""
    grid = log_odds_grid(12, K, 6.0)
    huge = mpz(2) ** 4000
    for model in (DepthModel(3, 2), CutModel(3, [1])):
        small = Sandwich(model, FiniteLaw([1, 2, 1], -1), Gamma(1, 3), grid, K, F).solve()
        scaled = Sandwich(model, FiniteLaw([huge, 2 * huge, huge], -1), Gamma(1, 3), grid, K, F).solve()
        assert list(scaled) == list(small)


def test_logit_range_beyond_float_exp_gives_a_grid_and_beyond_the_limit_is_refused():
    from producer.errors import InputError, LimitError
    from producer.hierarchy.grid import MAX_LOGIT_RANGE, check_logit_range
    grid = log_odds_grid(50, 64, float(MAX_LOGIT_RANGE))  # e^-x of the outer priors is beyond a float
    check_grid(grid, 64)
    assert check_logit_range(mpq(MAX_LOGIT_RANGE)) == MAX_LOGIT_RANGE
    with pytest.raises(LimitError, match="exceeds the limit 1000"):
        check_logit_range(mpq(10) ** 400)
    with pytest.raises(InputError, match="must be positive"):
        check_logit_range(mpq(0))
