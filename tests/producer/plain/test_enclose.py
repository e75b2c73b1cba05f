"""plain-composition/1: the product route for δ(ε) of the C-fold plain composition, any C.

- brute force over the product support (exact rationals, e^ε replaced by a
  rational λ) against the structures the producer relies on: the sum of the
  coordinates for Gaussian-type laws f(n) = q^{n²}, the count of coordinates
  <= 0 for the Laplace-type law a^{|n|};
- the new enclosures against the certified game route (γ = 0) at C <= 3;
- exact zeros, monotonicity, widths, the published σ² = 9, C = 2, ε = 2 value.
"""

import itertools
import json
from fractions import Fraction
from math import comb, isqrt
from pathlib import Path

import pytest
from gmpy2 import mpq
from hypothesis import given, settings
from hypothesis import strategies as st

import producer
from producer import api
from producer.errors import InputError, LimitError
from producer.plain import gaussian, laplace
from producer.plain.enclose import points
from producer.kinds.plain_composition import Request as PlainRequest

ROOT = Path(__file__).resolve().parents[3]
PLAIN = ROOT / "certificates" / "plain"


def load(name):
    return json.loads((PLAIN / name).read_text(encoding="utf-8"))


def q(text):
    return Fraction(text)


# ---- brute force: the Gaussian-type structure (ratio depends only on S) ----

def product(values):
    out = Fraction(1)
    for v in values:
        out *= v
    return out


def sum_coefficients(weights, budget):
    """Coefficients of (Σ_n w_n z^n)^C by repeated convolution: {s: mass of S = s}."""
    law = {0: Fraction(1)}
    for _ in range(budget):
        step = {}
        for s, m in law.items():
            for n, w in weights.items():
                step[s + n] = step.get(s + n, 0) + m * w
        law = step
    return law


def gaussian_brute(f, radius, budget, lam):
    """Σ_{x ∈ [−L, L]^C} (Π f(x_i) − λ Π f(x_i − 1))₊, enumerated."""
    total = Fraction(0)
    for x in itertools.product(range(-radius, radius + 1), repeat=budget):
        term = product(f(n) for n in x) - lam * product(f(n - 1) for n in x)
        total += max(term, Fraction(0))
    return total


@settings(max_examples=40)
@given(st.fractions(min_value=Fraction(1, 20), max_value=Fraction(19, 20)),
       st.integers(1, 3), st.integers(1, 3), st.fractions(min_value=Fraction(1, 4), max_value=Fraction(40)))
def test_gaussian_type_structure_agrees_with_brute_force(base, radius, budget, lam):
    def f(n):
        return base ** (n * n)
    law = sum_coefficients({n: f(n) for n in range(-radius, radius + 1)}, budget)
    offset = min(law)
    coefficients = [law.get(s, Fraction(0)) for s in range(offset, max(law) + 1)]
    # P^C/Q^C = q^{2S − C}; the region is q^{2s − C} > λ, and Q^C = P^C·q^{C − 2S} there
    region = [s for s in law if base ** (2 * s - budget) > lam]
    s_star = max(region) if region else offset - 1
    ratio = base ** -2                        # plays e^{1/σ²}
    sums = gaussian.RegionSums(coefficients, ratio ** offset, ratio, Fraction(0))
    value = sums.value(s_star - offset, lam * base ** budget)   # scale plays e^{ε − C/(2σ²)}
    assert (value or 0) == gaussian_brute(f, radius, budget, lam)


@given(st.integers(1, 1024), st.fractions(min_value=Fraction(1, 100), max_value=10**6),
       st.fractions(min_value=0, max_value=10**4))
def test_threshold_sum_is_the_last_sum_in_the_region(budget, sigma2, epsilon):
    s = gaussian.threshold_sum(budget, mpq(sigma2), mpq(epsilon))
    assert budget - 2 * s > 2 * sigma2 * epsilon >= budget - 2 * (s + 1)


# ---- brute force: the Laplace-type closed form ----

def laplace_closed(a, budget, lam):
    """(1 + a)^{−C} Σ_{k: λ a^{2k−C} < 1} binom(C, k)(a^{C−k} − λ a^k), with the producer's suffix sums."""
    first = next((k for k in range(budget + 1) if lam * a ** (2 * k - budget) < 1), budget + 1)
    sums = laplace.TailSums(budget, lambda j: a ** (budget - j), lambda j: a ** j, Fraction(0))
    return sums.value(first, lam) / (1 + a) ** budget


@settings(max_examples=40)
@given(st.fractions(min_value=Fraction(1, 10), max_value=Fraction(9, 10)),
       st.integers(1, 3), st.integers(3, 5), st.fractions(min_value=Fraction(1, 2), max_value=Fraction(30)))
def test_laplace_closed_form_is_enclosed_by_brute_force_on_a_box(a, budget, radius, lam):
    def p(n):
        return (1 - a) / (1 + a) * a ** abs(n)
    box = Fraction(0)
    for x in itertools.product(range(-radius, radius + 1), repeat=budget):
        box += max(product(p(n) for n in x) - lam * product(p(n - 1) for n in x), Fraction(0))
    outside = 1 - (1 - 2 * a ** (radius + 1) / (1 + a)) ** budget   # P^C(x ∉ box), exactly
    assert box <= laplace_closed(a, budget, lam) <= box + outside


@given(st.integers(1, 1024), st.fractions(min_value=Fraction(1, 100), max_value=10**6),
       st.fractions(min_value=0, max_value=10**4))
def test_first_index_is_the_least_count_in_the_region(budget, t, epsilon):
    k = laplace.first_index(budget, mpq(t), mpq(epsilon))
    assert Fraction(2 * k - budget) / t > epsilon >= Fraction(2 * (k - 1) - budget) / t


def test_tail_sums_are_the_closed_form_at_a_point():
    a, C = Fraction(1, 3), 4
    expected = sum(comb(C, k) * (a ** (C - k) - 2 * a ** k) for k in range(3, 5)) / (1 + a) ** C
    assert laplace_closed(a, C, Fraction(2)) == expected


# ---- against the certified game route (γ = 0) ----

def interval(cert):
    i = cert.result["interval"] if hasattr(cert, "result") else cert["result"]["interval"]
    return q(i["lower"]), q(i["upper"])


def point_at(cert, epsilon):
    pts = cert["result"]["points"] if isinstance(cert, dict) else cert.result["points"]
    [p] = [p for p in pts if q(p["epsilon"]) == Fraction(epsilon)]
    return q(p["lower"]), q(p["upper"])


def test_published_value_lies_in_the_certified_game_interval():
    # σ² = 9, C = 2, ε = 2: the game route's reference interval (about 2.6924527e-06)
    game = interval(load("dg-interval-plain-sigma2_9-c2-eps2.json"))
    ours = point_at(load("plain-composition-dg-sigma2_9-c2.json"), 2)
    assert game[0] <= ours[0] <= ours[1] <= game[1]
    assert ours[1] - ours[0] <= Fraction(1, 10**14)


@pytest.mark.parametrize("sigma2, budget, epsilon", [(9, 1, 1), (9, 2, 1), (9, 3, 1), (1, 1, "1/2"),
                                                     (1, 2, "1/2"), (1, 3, "1/2"), (4, 3, 2)])
def test_gaussian_enclosures_meet_the_game_route(sigma2, budget, epsilon):
    game = interval(api.dg_interval("0", sigma2, budget, epsilon, width="1e-8"))
    ours = point_at(api.plain_composition(sigma2, budget, [epsilon], width="1e-12"), epsilon)
    assert game[0] <= ours[0] <= ours[1] <= game[1]


@pytest.mark.parametrize("t, epsilon", [(2, "1/2"), (1, 1), ("1/2", "1/3"), (4, 0)])
def test_laplace_closed_form_meets_the_game_route_at_c2(t, epsilon):
    game = interval(api.dg_interval("0", None, 2, epsilon, width="1e-8", laplace=t))
    ours = point_at(api.plain_composition(None, 2, [epsilon], width="1e-12", laplace=t), epsilon)
    assert max(game[0], ours[0]) <= min(game[1], ours[1])
    assert game[0] <= ours[0] <= ours[1] <= game[1]


def test_laplace_reference_meets_the_game_reference():
    game = interval(load("dg-interval-plain-laplace-t2-c2-eps1_2.json"))
    ours = point_at(api.plain_composition(None, 2, ["1/2"], laplace=2, width="1e-15"), "1/2")
    assert game[0] <= ours[0] <= ours[1] <= game[1]


# ---- exact zeros, monotonicity, widths ----

@settings(max_examples=30)
@given(st.integers(1, 64), st.fractions(min_value=Fraction(1, 100), max_value=100),
       st.fractions(min_value=0, max_value=5))
def test_laplace_is_exactly_zero_from_c_over_t_and_positive_below(budget, t, extra):
    at = Fraction(budget) / t
    cert = api.plain_composition(None, budget, [at + extra], laplace=t, width="1e-10")
    assert point_at(cert, at + extra) == (0, 0)
    below = at * Fraction(99, 100)
    if below <= 10**4:
        lower, upper = point_at(api.plain_composition(None, budget, [below], laplace=t, width="1e-10"), below)
        assert upper > 0 and lower <= upper


def reference_files():
    files = sorted(PLAIN.glob("plain-composition-*.json"))
    assert files, f"no plain-composition references in {PLAIN}"
    return files


@pytest.mark.parametrize("path", reference_files(), ids=lambda p: p.name)
def test_reference_points_are_narrow_ordered_and_monotone(path):
    cert = json.loads(path.read_text(encoding="utf-8"))
    W, R = (None if cert["input"].get(k) is None else q(cert["input"][k]) for k in ("width", "rel_width"))
    pts = cert["result"]["points"]
    assert [p["epsilon"] for p in pts] == cert["input"]["epsilons"]
    for p in pts:
        lower, upper = q(p["lower"]), q(p["upper"])
        assert 0 <= lower <= upper <= 1
        assert (W is not None and upper - lower <= W) or (R is not None and upper - lower <= R * lower)
        assert Fraction(p["lower_display"]) <= q(p["lower"]) and q(p["upper"]) <= Fraction(p["upper_display"])
    # δ is non-increasing in ε: a later lower end never exceeds an earlier upper end
    for before, after in zip(pts, pts[1:]):
        assert q(after["lower"]) <= q(before["upper"])
        assert q(after["epsilon"]) > q(before["epsilon"])


def test_reference_set_is_the_documented_one():
    names = {p.name for p in reference_files()}
    assert names == {"plain-composition-dg-sigma2_9-c2.json", "plain-composition-dg-sigma2_1-c8.json",
                     "plain-composition-dg-sigma2_4-c8.json", "plain-composition-dg-sigma2_9-c8.json",
                     "plain-composition-dl-t1-c8.json", "plain-composition-dl-t2-c8.json",
                     "plain-composition-dl-t4-c8.json", "plain-composition-dg-sigma2_1-c64.json",
                     "plain-composition-releases-dg9x100-dl2x5-dg4s2x20.json",
                     "plain-composition-dg-sigma2_100-c1-rel1e-3.json",
                     "plain-composition-dg-sigma2_9-c1-eps20-default.json"}


def test_gaussian_enclosure_narrows_with_the_width_and_stays_nested():
    wide = point_at(api.plain_composition(4, 16, ["3/2"], width="1e-6"), "3/2")
    narrow = point_at(api.plain_composition(4, 16, ["3/2"], width="1e-30"), "3/2")
    assert narrow[1] - narrow[0] <= Fraction(1, 10**30) and wide[1] - wide[0] <= Fraction(1, 10**6)
    assert max(wide[0], narrow[0]) <= min(wide[1], narrow[1])


def test_far_tail_points_are_below_the_width():
    # σ² = 1/100, C = 3: the region S <= s* is the far tail once ε > C/(2σ²) = 150
    cert = api.plain_composition("1/100", 3, [50, 200, 10**4], width="1e-20")
    (l50, u50), (l200, u200), (l_max, u_max) = (point_at(cert, e) for e in (50, 200, 10**4))
    assert l50 > Fraction(99, 100)            # S = 0 almost surely, and e^{150} > e^{50}
    assert u200 <= Fraction(1, 10**20) and l_max == 0 and u_max <= Fraction(1, 10**20)


# ---- the API ----

def test_api_returns_an_immutable_certificate_with_a_claim():
    cert = producer.plain_composition(9, 8, "2,1/2,1")
    assert cert.kind == "plain-composition/1"
    assert cert.input["epsilons"] == ["1/2", "1", "2"]          # sorted
    assert cert.input["noise"] == {"family": "discrete-gaussian", "sigma2": "9"}
    assert cert.input["width"] == "1/1" + "0" * 60 and cert.input["rel_width"] == "1/1000"   # R, floor W
    assert "relative width ≤ 0.001" in cert.claim
    assert "rel_width" not in producer.plain_composition(9, 8, "2", width="1e-15").input
    assert "δ_8(0.5) ∈ [" in cert.claim and "discrete Gaussian σ² = 9" in cert.claim
    with pytest.raises(AttributeError):
        cert.kind = "x"


def test_api_certificate_matches_the_reference_bytes():
    cert = api.plain_composition(None, 8, [Fraction(1, 2), 1, 2], laplace=2, width="1e-15")
    assert cert.to_json() == (PLAIN / "plain-composition-dl-t2-c8.json").read_bytes()
    assert "= 0" not in cert.claim and "discrete Laplace t = 2" in cert.claim


@pytest.mark.parametrize("call, error, fragment", [
    (lambda: api.plain_composition(0, 2, [1]), InputError, "sigma2: must be positive"),
    (lambda: api.plain_composition("-1", 2, [1]), InputError, "sigma2: must be positive"),
    (lambda: api.plain_composition("1/1000", 2, [1]), LimitError, "sigma2"),
    (lambda: api.plain_composition(9, 0, [1]), InputError, "at least 1"),
    (lambda: api.plain_composition(9, 1025, [1]), LimitError, "C <= 1024"),
    (lambda: api.plain_composition(9, 2, ["-1/2"]), InputError, "epsilon: must be >= 0"),
    (lambda: api.plain_composition(9, 2, [1, "1.0"]), InputError, "given twice"),
    (lambda: api.plain_composition(9, 2, [10**4 + 1]), LimitError, "10^4"),
    (lambda: api.plain_composition(9, 2, list(range(1001))), LimitError, "1000"),
    (lambda: api.plain_composition(9, 2, [1], width="1e-61"), LimitError, "10^-60"),
    (lambda: api.plain_composition(9, 2, [1], width=1), InputError, "below 1"),
    (lambda: api.plain_composition(9, 2, [1], width=0), InputError, "positive"),
    (lambda: api.plain_composition(None, 2, [1], laplace=0), InputError, "laplace: must be positive"),
    (lambda: api.plain_composition(None, 2, [1], laplace=10**7), LimitError, "laplace"),
    (lambda: api.plain_composition(9, 2, [1], laplace=2), InputError, "exactly one"),
    (lambda: api.plain_composition(None, 2, [1]), InputError, "exactly one"),
    (lambda: api.plain_composition(10**6, 1024, [1]), LimitError, "coefficients"),
])
def test_bad_requests_are_refused_with_the_value_named(call, error, fragment):
    with pytest.raises(error) as info:
        call()
    assert fragment in str(info.value)


def test_points_cover_every_epsilon_in_order():
    request = PlainRequest(5, [3, 0, 1], Fraction(1, 10**9), laplace=Fraction(3, 2))
    assert [p.epsilon for p in points(request)] == [0, 1, 3]


def mpmath_profile(sigma2, budget, epsilon, radius):
    """δ(ε) by an unpruned convolution in 120-digit mpmath (truncation error about C·e^{-radius²/(2σ²)})."""
    import mpmath
    with mpmath.workdps(120):
        f = {n: mpmath.exp(mpmath.mpf(-n * n) / (2 * sigma2)) for n in range(-radius, radius + 1)}
        z = mpmath.fsum(f.values())
        law = {0: mpmath.mpf(1)}
        for _ in range(budget):
            step = {}
            for s, m in law.items():
                for n, w in f.items():
                    step[s + n] = step.get(s + n, 0) + m * w / z
            law = step
        s_star = gaussian.threshold_sum(budget, mpq(sigma2), mpq(epsilon))
        eps = mpmath.mpf(epsilon.numerator) / epsilon.denominator
        return mpmath.fsum(v * (1 - mpmath.exp(eps - mpmath.mpf(budget - 2 * s) / (2 * sigma2)))
                           for s, v in law.items() if s <= s_star)


@pytest.mark.parametrize("sigma2, budget, epsilon", [(4, 8, Fraction(1)), (1, 24, Fraction(5, 2)),
                                                     (Fraction(9, 4), 7, Fraction(1, 3))])
def test_pruned_power_agrees_with_an_unpruned_high_precision_convolution(sigma2, budget, epsilon):
    import mpmath
    radius = isqrt(int(400 * Fraction(sigma2))) + 1      # e^{-radius²/(2σ²)} < e^{-200}
    reference = mpmath_profile(Fraction(sigma2), budget, epsilon, radius)
    lower, upper = point_at(api.plain_composition(sigma2, budget, [epsilon], width="1e-40"), epsilon)
    with mpmath.workdps(120):
        slack = mpmath.mpf(10) ** -60       # the reference's own errors are far below this
        assert mpmath.mpf(lower.numerator) / lower.denominator <= reference + slack
        assert reference - slack <= mpmath.mpf(upper.numerator) / upper.denominator
