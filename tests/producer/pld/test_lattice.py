"""The lattice route (producer.pld.lattice): exact P_T(m) by a polynomial power in Fractions and δ(ε) by mpmath
lie inside the bounds; ε(δ) intervals hold the root; the widths are met; the windows keep each side's order of
the mass at or above m; the recipe replays; the limits refuse before the work; large T is cheap."""

import math
from fractions import Fraction

import mpmath as mp
import pytest
from gmpy2 import mpq
from hypothesis import given, settings
from hypothesis import strategies as st

from producer import api
from producer.errors import LimitError
from producer.kinds import accounting as kind
from producer.pld import composition as comp
from producer.pld import lattice
from producer.pld.randomized_response import RandomizedResponse
from producer.references.accounting import randomized_response, repeat

REPLACE = "replace_one"
CASES = [(p, k) for k in (2, 3, 10) for p in ("1/10", "1/2", "9/10")]


# ---- the exact reference ---------------------------------------------------------------------------

def exact_law(p, k, steps):
    """{m: P_T(m)}: the coefficients of (β·x^-1 + g + α·x)^T, exactly (Fractions)."""
    p = Fraction(p)
    alpha, beta, g = 1 - p + p / k, p / k, (k - 2) * p / k
    law = {0: Fraction(1)}
    for _ in range(steps):
        out = {}
        for m, mass in law.items():
            for step, weight in ((-1, beta), (0, g), (1, alpha)):
                if weight:
                    out[m + step] = out.get(m + step, 0) + mass * weight
        law = out
    return law


def ratio(p, k):
    p = Fraction(p)
    return (1 - p + p / k) / (p / k)


def exact_delta(p, k, steps, epsilon, law=None):
    """δ(ε) = Σ_m P_T(m)·(1 − e^ε·r^-m)_+ in mpmath (at the current precision)."""
    law = exact_law(p, k, steps) if law is None else law
    r = mp.mpf(ratio(p, k).numerator) / ratio(p, k).denominator
    if not isinstance(epsilon, mp.mpf):
        epsilon = mp.mpf(Fraction(epsilon).numerator) / Fraction(epsilon).denominator
    e = mp.exp(epsilon)
    total = mp.mpf(0)
    for m, mass in law.items():
        w = 1 - e * r ** (-m)
        if w > 0:
            total += mp.mpf(mass.numerator) / mass.denominator * w
    return total


def exact_root(p, k, steps, delta):
    """ε(δ): the root of δ(ε) = δ by bisection (δ(ε) decreasing and continuous)."""
    law = exact_law(p, k, steps)
    lo, hi = mp.mpf(0), steps * mp.log(mp.mpf(ratio(p, k).numerator) / ratio(p, k).denominator)
    if exact_delta(p, k, steps, 0, law) <= delta:
        return mp.mpf(0)
    for _ in range(200):
        mid = (lo + hi) / 2
        if exact_delta(p, k, steps, mid, law) > delta:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def _mp(value):
    value = mpq(value)
    return mp.mpf(int(value.numerator)) / int(value.denominator)


def _law(p, k):
    return RandomizedResponse(mpq(p), k)


# ---- the bounds against the exact δ(ε) ------------------------------------------------------------

@pytest.mark.parametrize("p,k", CASES)
@pytest.mark.parametrize("steps", [1, 7, 60])
def test_bounds_enclose_the_exact_delta(p, k, steps):
    computed = lattice.Lattice(_law(p, k), steps, 128, 1e-40, lambda message: None)
    law = exact_law(p, k, steps)
    with mp.workdps(60):
        for eps in ("0", "1/10", "1/2", "1", "3", "10"):
            truth = exact_delta(p, k, steps, eps, law)
            lower, upper = computed.bounds.lower(mpq(eps)), computed.bounds.upper(mpq(eps))
            assert _mp(lower) <= truth <= _mp(upper), (p, k, steps, eps)
            assert upper - lower <= mpq(1, 10**9) * max(upper, mpq(1, 10**20)) or upper <= mpq(1, 10**30)


@pytest.mark.parametrize("p,k", CASES)
def test_certified_points_enclose_the_exact_delta_and_meet_the_width(p, k):
    steps = 40
    cert = api.account(repeat(steps, randomized_response(p, k)), epsilons="0,1/4,1,2,5",
                       neighboring_relation=REPLACE, rel_width="1e-6")
    res = cert.result
    assert res["route"] == "lattice" and res["discretisation"] is None
    assert len(res["lattice"]["windows"]) == comp.products_of(steps)
    law = exact_law(p, k, steps)
    with mp.workdps(60):
        for point in res["points"]:
            truth = exact_delta(p, k, steps, point["epsilon"], law)
            assert _mp(point["lower"]) <= truth <= _mp(point["upper"])
            upper, lower = mpq(point["upper"]), mpq(point["lower"])
            assert upper - lower <= mpq(1, 10**6) * upper or upper <= mpq(1, 10**30)
            assert point["lower_order"] == ("forward" if lower > 0 else None)


@pytest.mark.parametrize("p,k,steps,delta", [("1/2", 2, 60, "1e-5"), ("9/10", 3, 50, "1e-3"),
                                             ("9/10", 10, 60, "1e-6"), ("1/10", 3, 3, "1e-5"),
                                             ("1/2", 10, 1, "1/10")])
@pytest.mark.parametrize("rel_width", ["1/1000", "1e-6"])
def test_the_epsilon_interval_holds_the_exact_root_and_meets_the_width(p, k, steps, delta, rel_width):
    cert = api.account(repeat(steps, randomized_response(p, k)), delta=delta, neighboring_relation=REPLACE,
                       rel_width=rel_width)
    res = cert.result
    lo, hi = mpq(res["epsilon_lo"]), mpq(res["epsilon_hi"])
    with mp.workdps(60):
        root = exact_root(p, k, steps, _mp(mpq(Fraction(delta))))
        assert _mp(lo) <= root <= _mp(hi)
    assert hi - lo <= mpq(Fraction(rel_width)) * hi
    assert res["lower_order"] == ("forward" if lo > 0 else None)


def test_an_epsilon_of_zero_when_delta_0_is_below_delta():
    # one step of p = 9/10, k = 2: δ(0) = α − β = 1/10
    res = api.account(randomized_response("9/10", 2), delta="1/5", neighboring_relation=REPLACE).result
    assert (res["epsilon_lo"], res["epsilon_hi"], res["lower_order"]) == ("0", "0", None)


# ---- monotonicity ------------------------------------------------------------------------------------

def _points(steps, p, k, eps="1,2,4"):
    return api.account(repeat(steps, randomized_response(p, k)), epsilons=eps, neighboring_relation=REPLACE,
                       rel_width="1e-6").result["points"]


def test_more_steps_raise_delta():
    few, many = _points(10, "1/2", 3), _points(30, "1/2", 3)
    for a, b in zip(few, many):
        assert mpq(a["upper"]) < mpq(b["lower"])


def test_more_noise_lowers_delta():
    less, more = _points(20, "1/4", 4), _points(20, "1/2", 4)
    for a, b in zip(less, more):
        assert mpq(b["upper"]) < mpq(a["lower"])


def test_epsilon_grows_with_the_steps():
    ends = [api.account(repeat(t, randomized_response("1/2", 10)), delta="1e-5", neighboring_relation=REPLACE,
                        rel_width="1e-4").result for t in (10, 100, 1000)]
    for a, b in zip(ends, ends[1:]):
        assert mpq(a["epsilon_hi"]) < mpq(b["epsilon_lo"])


# ---- the orders kept by every move -------------------------------------------------------------

def _tail_sums(values, offset, atom=0):
    """{m: mass at or above m} for m over the indices (atom counted everywhere)."""
    out, total = {}, atom
    for i in range(len(values) - 1, -1, -1):
        total += values[i]
        out[offset + i] = total
    return out


@settings(max_examples=40, deadline=None)
@given(p=st.sampled_from(["1/10", "1/3", "1/2", "9/10"]), k=st.sampled_from([2, 3, 7]),
       steps=st.integers(1, 12), bits=st.sampled_from([8, 16, 32]), data=st.data())
def test_any_windows_keep_the_orders_of_the_mass_at_or_above_m(p, k, steps, bits, data):
    def choose(arrays, weight):
        upper = arrays[0]
        lo = data.draw(st.integers(upper.offset, upper.last), label="lo")
        hi = data.draw(st.integers(lo, upper.last + 2), label="hi")
        return lo, hi
    upper, lower = lattice.compose(_law(p, k), steps, bits, comp.Windows(choose=choose))
    exact = exact_law(p, k, steps)
    scale = Fraction(2) ** bits
    up, down = _tail_sums(upper.values, upper.offset, upper.atom), _tail_sums(lower.values, lower.offset)
    for m in range(-steps - 1, steps + 2):
        truth = scale * sum(mass for j, mass in exact.items() if j >= m)
        u = up.get(m, upper.atom if m > upper.last else up[upper.offset])
        d = down.get(m, 0 if m > lower.last else down[lower.offset])
        assert d <= truth <= u, (m, d, truth, u)


def test_the_single_step_arrays_round_outward_and_k2_has_no_middle_mass():
    upper, lower = lattice.bases(_law("1/3", 2), 8)
    assert upper.offset == lower.offset == -1 and upper.atom == 0
    assert upper.values[1] == lower.values[1] == 0  # g = 0 for two buckets
    # α = 5/6, β = 1/6 at 2^-8: 256/6 = 42.67
    assert (lower.values[0], upper.values[0], lower.values[2], upper.values[2]) == (42, 43, 213, 214)


def test_one_step_has_no_window_and_the_recipe_replays():
    law = _law("1/2", 3)
    assert lattice.Lattice(law, 1, 64, 1e-20, lambda m: None).windows == []
    computed = lattice.Lattice(law, 1000, 96, 1e-20, lambda m: None)
    assert len(computed.windows) == comp.products_of(1000)
    upper, lower = lattice.replay(law, 1000, 96, computed.windows)
    again = lattice.Bounds(law, upper, lower, 96)
    for eps in (mpq(1), mpq(7, 2)):
        assert again.upper(eps) == computed.bounds.upper(eps) and again.lower(eps) == computed.bounds.lower(eps)
    lengths = lattice.product_lengths(1000, computed.windows)
    assert len(lengths) == comp.products_of(1000) and lengths[0] == (3, 3)


# ---- the certificate's recipe, the budget and the limits ----------------------------------------------

def test_the_auditor_cost_counts_the_recorded_products():
    cert = api.account(repeat(1000, randomized_response("1/2", 3)), delta="1e-5", neighboring_relation=REPLACE)
    data = cert.as_dict()
    cost = kind.auditor_cost(data)
    bits, windows = data["result"]["lattice"]["bits"], data["result"]["lattice"]["windows"]
    law = kind.Request.from_strings(data["input"]["event"], delta="1e-5", neighboring_relation=REPLACE).stages[0].law
    again = lattice.cost_of(1000, bits, windows, law)
    assert (cost.work, cost.memory) == (again.work, again.memory) and cost.work > 0
    products = sum(2 * 3 * (a + b) * (2 * (bits + 2) + min(a, b).bit_length())
                   for a, b in lattice.product_lengths(1000, windows))
    last = windows[-1][1] - windows[-1][0] + 1
    words = (bits + lattice.ANSWER_BITS + 2 * lattice._ratio_bits(law) + 64) // 64 + 1
    assert cost.work == products + 2 * lattice.ANSWER_UNITS * last * words   # the products and one answer pass


def test_an_epsilon_beyond_the_stated_range_is_refused_before_the_work(monkeypatch):
    calls = []
    monkeypatch.setattr(lattice, "compose", lambda *a, **k: calls.append(a))
    with pytest.raises(LimitError, match=r"would be about .* above the ε <= 2000"):
        api.account(repeat(10**4, randomized_response("1/10", 2)), delta="1e-5", neighboring_relation=REPLACE)
    assert calls == []


def test_an_epsilon_found_beyond_the_range_after_the_work_is_refused():
    # T·L = 800·log 19 ≈ 2355 > 2000 while the Gaussian estimate (≈ 2150) is near the edge
    with pytest.raises(LimitError, match="2000"):
        api.account(repeat(800, randomized_response("1/10", 2)), delta="1e-5", neighboring_relation=REPLACE)


def test_the_bits_limit_is_checked_before_the_work(monkeypatch):
    monkeypatch.setattr(lattice, "MAX_BITS", 64)
    with pytest.raises(LimitError, match="K = .* bits"):
        api.account(repeat(10, randomized_response("1/2", 3)), epsilons="1", neighboring_relation=REPLACE,
                    rel_width="1e-6")


def test_a_width_not_met_within_the_bits_limit_is_refused(monkeypatch):
    monkeypatch.setattr(lattice, "first_bits", lambda *a: 8)
    monkeypatch.setattr(lattice, "MAX_BITS", 16)
    with pytest.raises(LimitError, match="could not reach the relative width"):
        api.account(repeat(50, randomized_response("1/2", 3)), epsilons="1", neighboring_relation=REPLACE,
                    rel_width="1e-6")


def test_a_retry_doubles_k(monkeypatch):
    monkeypatch.setattr(lattice, "first_bits", lambda *a: 16)
    lines = []
    cert = api.account(repeat(50, randomized_response("1/2", 3)), epsilons="1", neighboring_relation=REPLACE,
                       rel_width="1e-6", progress=lines.append)
    assert cert.result["lattice"]["bits"] >= 32 and any("K = 32" in line for line in lines)


# ---- large T ----------------------------------------------------------------------------------------

def test_a_million_steps_meet_a_relative_width_of_1e_6():
    # p = 99/100, k = 2: ε(10^-5) near 290; a million steps of exact products
    res = api.account(repeat(10**6, randomized_response("99/100", 2)), delta="1e-5", neighboring_relation=REPLACE,
                      rel_width="1e-6").result
    lo, hi = mpq(res["epsilon_lo"]), mpq(res["epsilon_hi"])
    assert 0 < hi - lo <= mpq(1, 10**6) * hi and len(res["lattice"]["windows"]) == comp.products_of(10**6)
    # the Gaussian approximation of the loss: mean T·(α − β)·L, ε(δ) above it
    alpha, beta = 1 - 0.99 / 2, 0.99 / 2
    assert float(lo) > 10**6 * (alpha - beta) * math.log(alpha / beta)


def _binomial_delta(p, steps, epsilon):
    """k = 2: δ(ε) = Σ_a C(T, a)·α^a·β^(T−a)·(1 − e^ε·r^−(2a−T))_+ in mpmath (a the steps with loss +L)."""
    p = mp.mpf(Fraction(p).numerator) / Fraction(p).denominator
    alpha, beta = 1 - p / 2, p / 2
    r, e = alpha / beta, mp.exp(mp.mpf(epsilon))
    total, log_mass = mp.mpf(0), steps * mp.log(beta)  # the mass of a = 0, then a ratio per step
    for a in range(steps + 1):
        w = 1 - e * r ** (steps - 2 * a)
        if w > 0:
            total += mp.exp(log_mass) * w
        log_mass += mp.log(mp.mpf(steps - a) / (a + 1)) + mp.log(r)
    return total


@pytest.mark.parametrize("p,steps", [("99/100", 10**4), ("1/2", 300)])
def test_thousands_of_binary_steps_against_the_binomial_sum(p, steps):
    mean = float(steps * (1 - Fraction(p)) * math.log((2 - float(Fraction(p))) / float(Fraction(p))))
    eps = [str(round(mean * f, 3)) for f in (0.5, 1.2, 1.6)]
    points = api.account(repeat(steps, randomized_response(p, 2)), epsilons=",".join(eps), neighboring_relation=REPLACE,
                         rel_width="1e-6").result["points"]
    with mp.workdps(40):
        for point in points:
            truth = _binomial_delta(p, steps, point["epsilon"])
            assert _mp(point["lower"]) <= truth <= _mp(point["upper"]), (point["epsilon"], truth)


# ---- dp_accounting (optional) --------------------------------------------------------------------------

@pytest.mark.slow
def test_dp_accountings_pld_lies_near_the_interval():
    """dp_accounting 0.6's pessimistic PLD of randomized response, self-composed (its PLDAccountant composes a
    SelfComposedDpEvent of randomized response once, whatever the count, so the PLD is built by hand)."""
    pytest.importorskip("dp_accounting")
    from dp_accounting.pld import privacy_loss_distribution
    for p, k, steps in ((0.5, 10, 100), (0.9, 4, 20)):
        pld = privacy_loss_distribution.from_randomized_response(p, k).self_compose(steps)
        estimate = pld.get_epsilon_for_delta(1e-5)
        res = api.account(repeat(steps, randomized_response(repr(p), k)), delta="1e-5", neighboring_relation=REPLACE,
                          rel_width="1e-6").result
        lo, hi = float(mpq(res["epsilon_lo"])), float(mpq(res["epsilon_hi"]))
        assert lo * (1 - 1e-3) <= estimate <= hi * (1 + 1e-3), (p, k, steps, estimate, lo, hi)
