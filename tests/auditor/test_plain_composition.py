"""The auditor on ``plain-composition/1``: its own enclosures of δ(ε) and the kind's checks.

Certificates are built here from the auditor's own enclosures
(:mod:`tests.auditor.plain_corpus`, never the producer).  A true certificate
must verify; every mutated number must be rejected with the right status; the
structure behind the enclosures (ratio through the sum / the count, the split
point, the fixed-point convolution) is compared with brute force over ℤ^C
in exact rationals (e^ε replaced by a rational λ); the enclosures must
contain mpmath's high-precision values.
"""

import copy
import itertools
from fractions import Fraction
from functools import lru_cache
from math import comb

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from auditor.api import verify_certificate
from auditor.checks import plain_composition
from auditor.common import outward_decimal
from auditor.outcomes import FAIL, MALFORMED, OK, UNCHECKED
from auditor.plain import gaussian, laplace
from auditor.plain.polynomial import exact_product, power
from auditor.rationals import read_rational, write_rational
from tests.auditor.plain_corpus import DISPLAY_PLACES, certificate, seal
from tests.auditor.verdicts import only_unproved

mpmath.mp.prec = 400

W15 = Fraction(1, 10 ** 15)
W20 = Fraction(1, 10 ** 20)


@lru_cache(maxsize=None)
def _built(family, parameter, budget, epsilons, width):
    return certificate(family, parameter, budget, epsilons, width)


def built(family, parameter, budget, epsilons, width):
    """A fresh copy of a true certificate built from the auditor's own enclosure."""
    return copy.deepcopy(_built(family, Fraction(parameter), budget,
                                tuple(Fraction(e) for e in epsilons), Fraction(width)))


def dg9_c2():
    return built("dg", 9, 2, ["1/2", "1", "2", "4"], W20)


def dg4_c8():
    return built("dg", 4, 8, ["1/2", "1", "2", "4"], W15)


def dl2_c8():
    return built("dl", 2, 8, ["1/2", "1", "2"], W15)


def status(cert):
    report = verify_certificate(cert)
    return report.status, {f["pointer"] for f in report.failures}, report


def set_point(cert, i, lower, upper):
    """Replace point i's ends (with matching displays) and reseal."""
    point = cert["result"]["points"][i]
    point.update({"lower": write_rational(lower), "upper": write_rational(upper),
                  "lower_display": outward_decimal(lower, DISPLAY_PLACES, -1),
                  "upper_display": outward_decimal(upper, DISPLAY_PLACES, +1)})
    return seal(cert)


def ends(cert, i):
    point = cert["result"]["points"][i]
    return read_rational(point["lower"], ""), read_rational(point["upper"], "")


def truth(family, parameter, budget, epsilon, bits=200):
    """A tight enclosure of δ(ε) (the auditor's own, at high precision)."""
    module = gaussian if family == "dg" else laplace
    return module.delta_bounds(Fraction(parameter), budget, [Fraction(epsilon)], bits)[0]


# ---- true certificates -------------------------------------------------------------------

@pytest.mark.parametrize("make", [dg9_c2, dg4_c8, dl2_c8])
def test_true_certificate_is_ok(make):
    code, failed, report = status(make())
    assert (code, failed) == (OK, set())
    assert report.claim.startswith("delta(eps) of the ")


def test_claim_summary_names_the_composition():
    report = verify_certificate(dg4_c8())
    assert report.claim.startswith("delta(eps) of the 8-fold plain composition of the discrete Gaussian "
                                   "sigma^2 = 4: eps = 1/2: delta in [0.")
    assert report.claim.endswith("and 1 more")
    assert "discrete Laplace t = 2" in verify_certificate(dl2_c8()).claim


def test_wider_true_claim_is_ok():
    """The containment rule: a claim wider than the truth but containing it is true."""
    cert = dg4_c8()
    lower, upper = ends(cert, 1)
    room = (W15 - (upper - lower)) / 2
    set_point(cert, 1, lower - room, upper + room)
    assert status(cert)[0] == OK


def test_trivial_interval_is_true():
    cert = built("dg", 9, 2, ["1"], Fraction(3, 2))
    set_point(cert, 0, Fraction(0), Fraction(1))
    assert status(cert)[0] == OK


def test_upper_above_one_is_still_true():
    cert = built("dl", 2, 8, ["1"], Fraction(3, 2))
    lo, _ = truth("dl", 2, 8, 1)
    set_point(cert, 0, lo - Fraction(1, 10 ** 30), Fraction(3, 2))
    assert status(cert)[0] == OK


# ---- false claims --------------------------------------------------------------------------

@pytest.mark.parametrize("make,i", [(dg9_c2, 2), (dg4_c8, 0), (dl2_c8, 1)])
def test_lower_raised_above_truth_fails(make, i):
    cert = make()
    family, parameter, budget, epsilon = _request(cert, i)
    _, hi = truth(family, parameter, budget, epsilon)
    lower = hi + Fraction(1, 10 ** 40)
    set_point(cert, i, lower, lower + W20 / 2)
    code, failed, _ = status(cert)
    assert code == FAIL and failed == {f"/result/points/{i}/lower"}


@pytest.mark.parametrize("make,i", [(dg9_c2, 3), (dg4_c8, 2), (dl2_c8, 0)])
def test_upper_lowered_below_truth_fails(make, i):
    cert = make()
    family, parameter, budget, epsilon = _request(cert, i)
    lo, _ = truth(family, parameter, budget, epsilon)
    upper = lo - Fraction(1, 10 ** 40)
    set_point(cert, i, max(Fraction(0), upper - W20 / 2), upper)
    code, failed, _ = status(cert)
    assert code == FAIL and failed == {f"/result/points/{i}/upper"}


def _request(cert, i):
    inp = cert["input"]
    family = "dg" if inp["noise"]["family"] == "discrete-gaussian" else "dl"
    parameter = read_rational(inp["noise"]["sigma2" if family == "dg" else "t"], "")
    return family, parameter, inp["budget"], read_rational(inp["epsilons"][i], "")


def test_swapped_ends_fail():
    cert = dg4_c8()
    lower, upper = ends(cert, 1)
    set_point(cert, 1, upper, lower)
    code, failed, _ = status(cert)
    assert code == FAIL and "/result/points/1" in failed


def test_width_over_w_fails_though_true():
    cert = dg4_c8()
    lower, upper = ends(cert, 0)
    set_point(cert, 0, lower - W15, upper)
    code, failed, report = status(cert)
    assert code == FAIL and failed == {"/result/points/0"}
    assert "width" in report.failures[0]["reason"]


def test_width_equal_to_w_is_allowed():
    cert = dg4_c8()
    lower, upper = ends(cert, 0)
    set_point(cert, 0, upper - W15, upper)
    assert status(cert)[0] == OK


@pytest.mark.parametrize("key,direction", [("lower_display", -1), ("upper_display", +1)])
def test_wrong_display_fails(key, direction):
    cert = dg4_c8()
    point = cert["result"]["points"][1]
    value = read_rational(point[key.split("_")[0]], "")
    shifted = outward_decimal(value - direction * Fraction(1, 10 ** DISPLAY_PLACES), DISPLAY_PLACES, direction)
    point[key] = shifted
    code, failed, _ = status(seal(cert))
    assert code == FAIL and failed == {f"/result/points/1/{key}"}


def test_inward_rounded_display_fails():
    cert = dg4_c8()
    point = cert["result"]["points"][0]
    point["lower_display"] = outward_decimal(read_rational(point["lower"], ""), 10, +1)
    code, failed, _ = status(seal(cert))
    assert (code, failed) == (FAIL, {"/result/points/0/lower_display"})


def test_dropped_point_fails():
    cert = dg4_c8()
    del cert["result"]["points"][3]
    code, failed, _ = status(seal(cert))
    assert code == FAIL and failed == {"/result/points"}


def test_reordered_points_fail():
    cert = dg4_c8()
    points = cert["result"]["points"]
    points[0], points[1] = points[1], points[0]
    code, failed, _ = status(seal(cert))
    assert code == FAIL and {"/result/points/0/epsilon", "/result/points/1/epsilon"} <= failed


def test_extra_point_fails():
    cert = dg4_c8()
    cert["result"]["points"].append(copy.deepcopy(cert["result"]["points"][-1]))
    code, failed, _ = status(seal(cert))
    assert code == FAIL and {"/result/points", "/result/points/4/epsilon"} <= failed


def test_edited_but_not_resealed_fails_on_the_digest():
    cert = dg4_c8()
    cert["producer"]["version"] = "1"  # no claim depends on it: only the digest is wrong
    code, failed, _ = status(cert)
    assert code == FAIL and failed == {"/digest"}


def test_gaussian_upper_zero_fails_exactly():
    cert = built("dg", 10 ** 6, 8, ["1/2"], W15)  # δ is about 10^-6700: positive all the same
    set_point(cert, 0, Fraction(0), Fraction(0))
    code, failed, _ = status(cert)
    assert code == FAIL and failed == {"/result/points/0/upper"}


def test_lower_one_fails_exactly():
    cert = built("dg", Fraction(1, 100), 1024, ["1"], W15)  # δ within 10^-(10^4) of 1
    set_point(cert, 0, Fraction(1), Fraction(1))
    code, failed, _ = status(cert)
    assert code == FAIL and failed == {"/result/points/0/lower"}


def test_laplace_pure_dp_is_exactly_zero():
    cert = built("dl", 4, 8, ["1", "2", "3"], W15)  # C/t = 2: δ(2) = δ(3) = 0
    assert [ends(cert, i) for i in (1, 2)] == [(0, 0), (0, 0)]
    assert status(cert)[0] == OK
    set_point(cert, 2, Fraction(0), W15)
    assert status(cert)[0] == OK
    set_point(cert, 2, Fraction(1, 10 ** 50), W15)
    code, failed, _ = status(cert)
    assert code == FAIL and failed == {"/result/points/2/lower"}


def test_exact_point_claim_is_refined_then_disproved():
    """[x, x] just off the truth: open at the first precision, disproved after refinement."""
    cert = dg4_c8()
    lo, hi = truth("dg", 4, 8, 1, bits=400)
    x = hi + Fraction(1, 2 ** 110)  # beyond the first level's reach (about 2^-58), within the third's
    set_point(cert, 1, x, x)
    code, failed, _ = status(cert)
    assert code == FAIL and failed == {"/result/points/1/lower"}


def test_undecidable_claim_is_not_established_not_ok(monkeypatch):
    monkeypatch.setattr(plain_composition, "MAX_BITS", 256)
    cert = dg4_c8()
    lo, hi = truth("dg", 4, 8, 1, bits=1000)
    x = (lo + hi) / 2  # within 2^-1000 of δ(1): no level within 256 bits can separate it
    set_point(cert, 1, x, x)
    assert set(only_unproved(verify_certificate(cert))) == {"/result/points/1/lower", "/result/points/1/upper"}


# ---- malformed and unchecked ---------------------------------------------------------------

def _edit(cert, path, value):
    node = cert
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return seal(cert)


@pytest.mark.parametrize("path,value,phrase", [
    (["input", "epsilons"], ["1", "1/2", "2", "4"], "strictly increasing"),
    (["input", "epsilons"], ["1/2", "1", "1", "4"], "strictly increasing"),
    (["input", "budget"], 0, "/input/budget"),
    (["input", "budget"], 2000, "/input/budget"),
    (["input", "noise", "sigma2"], "0", "/input/noise"),
    (["input", "noise", "sigma2"], "1/1000", "outside the domain"),
    (["input", "noise", "sigma2"], "1000001", "outside the domain"),
    (["input", "epsilons", 3], "10001", "outside [0, 10000]"),
    (["input", "width"], "1/" + "1" + "0" * 61, "below the limit"),
    (["input", "width"], "2/4", "not reduced"),
    (["schema"], "plain-composition/2", "unknown certificate kind"),
    (["result", "points", 0, "lower"], "-1/2", "/result/points/0/lower"),
])
def test_malformed(path, value, phrase):
    code, _, report = status(_edit(dg4_c8(), path, value))
    assert code == MALFORMED, report.failures
    assert phrase in report.error


def test_laplace_scale_outside_domain_is_malformed():
    code, _, report = status(_edit(dl2_c8(), ["input", "noise", "t"], "1/101"))
    assert code == MALFORMED and "/input/noise/t" in report.error


def _beyond_limits(cert):
    """σ² = 10^6, C = 1024 at W = 10^-60: about 1.6·10^6 coefficients (limit 2^20); true-shaped points."""
    cert["input"]["noise"]["sigma2"] = "1000000"
    cert["input"]["budget"] = 1024
    cert["input"]["width"] = "1/" + "1" + "0" * 60
    for i in range(len(cert["result"]["points"])):
        set_point(cert, i, Fraction(0), Fraction(1, 10 ** 61))
    return seal(cert)


def test_beyond_work_limits_is_unchecked_before_work():
    code, failed, report = status(_beyond_limits(dg4_c8()))
    assert (code, failed) == (UNCHECKED, set())
    assert "coefficients" in report.unchecked


def test_false_shape_beats_unchecked():
    cert = _beyond_limits(dg4_c8())
    del cert["result"]["points"][0]
    assert status(seal(cert))[0] == FAIL


# ---- the structure, against brute force (exact rationals, λ for e^ε) --------------------------

def naive_product(a, b):
    out = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            out[i + j] += x * y
    return out


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 2 ** 70), min_size=1, max_size=9),
       st.lists(st.integers(0, 2 ** 70), min_size=1, max_size=9))
def test_kronecker_product_is_exact(a, b):
    assert exact_product(a, b) == naive_product(a, b)
    assert exact_product(a, a) == naive_product(a, a)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(1, 2 ** 20), min_size=1, max_size=5), st.integers(1, 6), st.integers(0, 24))
def test_directed_powers_bracket_the_exact_power(v, C, scale):
    """lo/2^K <= (v/2^K)^{*C} <= hi/2^K coefficient by coefficient."""
    exact = [1]
    for _ in range(C):
        exact = naive_product(exact, v)
    lo, hi = power(v, C, scale, -1), power(v, C, scale, +1)
    den = Fraction(1, 2 ** (scale * C))
    for m, e in enumerate(exact):
        assert Fraction(lo[m], 2 ** scale) <= e * den <= Fraction(hi[m], 2 ** scale)
    if scale == 0:
        assert lo == hi == exact


@settings(max_examples=200, deadline=None)
@given(st.fractions(Fraction(1, 100), 10 ** 6), st.integers(1, 1024), st.fractions(0, 10 ** 4))
def test_split_point_is_the_largest_admissible_sum(sigma2, C, epsilon):
    s = gaussian.split_point(sigma2, C, epsilon)
    assert C - 2 * s > 2 * sigma2 * epsilon >= C - 2 * (s + 1)


@settings(max_examples=200, deadline=None)
@given(st.fractions(Fraction(1, 100), 10 ** 6), st.integers(1, 1024), st.fractions(0, 10 ** 4))
def test_first_count_is_the_least_admissible_count(t, C, epsilon):
    k = laplace.first_count(t, C, epsilon)
    assert (2 * k - C) > t * epsilon >= 2 * (k - 1) - C


def box(M, C):
    return itertools.product(range(-M, M + 2), repeat=C)


def prod(values):
    out = Fraction(1)
    for v in values:
        out *= v
    return out


@settings(max_examples=25, deadline=None)
@given(st.integers(2, 5), st.integers(1, 3), st.integers(1, 2), st.fractions(1, 40))
def test_gaussian_tilt_against_brute_force(q, C, L, lam):
    """Σ_x (w^C(x) − λ w^C(x − 1))_+ = Σ_{s <= s*} p(s)(1 − λ q^{2s − C}), w(n) = q^{−n²} (e^{1/(2σ²)} = q).

    The tilt of gaussian.py step 2 with λ for e^ε: the law p of the sum from
    the exact convolution power of the weights q^{L² − n²} on |n| <= L, s* the
    largest s with q^{C − 2s} > λ.  Both sides are over finite boxes; they must
    agree within (2 + λ)·(mass of w^C outside [−L, L]^C), bounded with the
    geometric tail.
    """
    weights = [q ** (L * L - n * n) for n in range(-L, L + 1)]  # q^{L²}·w(n)
    conv = power(weights, C, 0, +1)
    norm = Fraction(q) ** (L * L * C)
    s_star = max(s for s in range(-C * L - C - 2, C * L + 2) if Fraction(q) ** (C - 2 * s) > lam)
    formula = sum(Fraction(c) / norm * (1 - lam * Fraction(q) ** (2 * s - C))
                  for s, c in zip(range(-C * L, C * L + 1), conv) if s <= s_star)
    w = lambda n: Fraction(1, q ** (n * n))  # noqa: E731
    brute = sum(max(Fraction(0), prod(w(x) for x in xs) - lam * prod(w(x - 1) for x in xs))
                for xs in box(L, C))
    z_box = sum(w(n) for n in range(-L, L + 1))
    tail = 2 * w(L + 1) / (1 - Fraction(1, q ** (2 * L + 3)))
    outside = (z_box + tail) ** C - z_box ** C
    assert abs(formula - brute) <= (2 + lam) * outside
    assert all(lam * Fraction(q) ** (2 * s - C) < 1 for s in range(-C * L, s_star + 1))  # 0 < g < 1 on s <= s*


def _exact_power(weights, C):
    out = [Fraction(1)]
    for _ in range(C):
        out = naive_product(out, weights)
    return out


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 40), min_size=1, max_size=6), st.integers(1, 7), st.integers(0, 3),
       st.sampled_from([4, 9, 24, 40]), st.data())
def test_windowed_power_keeps_its_promises(deficits, C, shift, K, data):
    """lo^{*C} and the windowed hi against the exact power of p (exact rationals, brute force).

    p = (upper − deficit)/2^K with Σ p <= 1: for every prefix A = {s <= u},
    Σ_A hi/2^K − E/2^K <= p^{*C}(A) (p~ >= hi − excess and p~ <= p^{*C}), and
    Σ_s (p^{*C}(s) − hi_s/2^K)_+ <= lost/2^K (p~ <= hi and Σ(p^{*C} − p~) <= lost).
    """
    from auditor.plain.polynomial import slot_width, windowed_power
    unit = 1 << K
    n = len(deficits)
    upper = [unit // n + d for d in deficits]                 # p_m = unit//n / 2^K: mass <= 1
    p = [Fraction(unit // n, unit)] * n
    first = -(n // 2) - shift
    halves = data.draw(st.lists(st.one_of(st.none(), st.integers(0, 12)), min_size=C, max_size=C))
    hi, hi_first, lost, excess = windowed_power(upper, first, C, K, lambda c: halves[c - 1], sum(deficits),
                                                slot_width(K, (2 * sum(upper) + 64 * C) ** C))
    exact = _exact_power(p, C)
    exact_first = C * first
    mass = {exact_first + i: v for i, v in enumerate(exact)}
    kept = {hi_first + i: Fraction(h, unit) for i, h in enumerate(hi)}
    assert sum(max(Fraction(0), v - kept.get(s, 0)) for s, v in mass.items()) <= Fraction(lost, unit)
    assert set(kept) <= set(mass)
    running_hi = running_p = Fraction(0)
    for s in sorted(mass):
        running_hi += kept.get(s, 0)
        running_p += mass[s]
        assert running_hi - Fraction(excess, unit) <= running_p


def test_windowed_lengths_are_the_computed_lengths():
    """The plan's sizes (the work estimate) are those of the computation itself."""
    for sigma2, C, bits in [(9, 2, 64), (100, 1000, 64), (Fraction(1, 3), 37, 100), (2000, 64, 208)]:
        p = gaussian.plan(sigma2, C, bits)
        law = gaussian.sum_law(sigma2, C, p)
        assert len(law.hi) == p.lengths()[-1][2] if p.lengths() else 2 * p.radius + 1
        assert p.coefficients >= len(law.hi)


def old_route(sigma2, C, epsilons, bits):
    """The route before the windows (kept as the reference): the uncut C-fold powers of the lower and the
    upper weights, and δ(ε) = F(s*) − e^ε F(s* − C) (gaussian.py step 1), e^ε enclosed on both sides."""
    from auditor.enclosures import exp_bounds
    boost = max(gaussian.exp_boost(e) for e in epsilons)
    p = gaussian.plan(sigma2, C, bits + boost)
    v_lo, v_hi, tail = gaussian._weights(Fraction(sigma2), p)
    lo, hi = power(v_lo, C, p.scale, -1), power(v_hi, C, p.scale, +1)
    den, first = 1 << p.scale, -C * p.radius

    def cdf(coeffs, s):
        return Fraction(sum(coeffs[:max(0, s - first + 1)]), den)
    out = []
    for e in epsilons:
        e_lo, e_hi = exp_bounds(e, bits + boost + 8)
        s = gaussian.split_point(sigma2, C, e)
        a_lo, a_hi = cdf(lo, s), cdf(hi, s) + C * tail
        b_lo, b_hi = cdf(lo, s - C), cdf(hi, s - C) + C * tail
        out.append((max(Fraction(0), a_lo - e_hi * b_hi), min(Fraction(1), a_hi - e_lo * b_lo)))
    return out


OLD_ROUTE_CASES = [
    (9, 2, ["1/2", "1", "2", "4"]), (1, 8, ["0", "1/2", "1", "10"]), ("1/3", 5, ["1/7", "3", "20"]),
    (25, 1, ["0", "1/10"]), (2, 3, ["0", "1", "5", "40"]), ("1/10", 16, ["1", "20", "100"]),
    (100, 37, ["0", "1/2", "3"]),
]


@pytest.mark.parametrize("sigma2,C,epsilons", OLD_ROUTE_CASES)
def test_windowed_route_agrees_with_the_old_route(sigma2, C, epsilons):
    """Both enclosures are proved, so they must overlap; the new one is as narrow as asked."""
    sigma2, epsilons = Fraction(sigma2), [Fraction(e) for e in epsilons]
    for bits in (64, 160):
        new = gaussian.delta_bounds(sigma2, C, epsilons, bits)
        for (a, b), (c, d) in zip(new, old_route(sigma2, C, epsilons, bits)):
            assert max(a, c) <= min(b, d)
            assert b - a < Fraction(1, 2 ** (bits - 4))


@pytest.mark.slow
@pytest.mark.parametrize("sigma2,C,epsilons", [(1000, 64, ["0", "1/10", "1"]), (100, 1024, ["0", "1", "4"]),
                                               ("1/100", 1024, ["10", "1000"])])
def test_windowed_route_agrees_with_the_old_route_large(sigma2, C, epsilons):
    test_windowed_route_agrees_with_the_old_route(sigma2, C, epsilons)


@settings(max_examples=25, deadline=None)
@given(st.fractions(Fraction(1, 20), Fraction(19, 20), max_denominator=20), st.integers(1, 3),
       st.fractions(1, 40), st.integers(2, 4))
def test_laplace_closed_form_against_brute_force(a, C, lam, M):
    """(1 − a)^{−C}·Σ_{k: a^{C−2k} > λ} binom(C, k)(a^{C−k} − λa^k) = Σ_x (u^C(x) − λu^C(x − 1))_+,

    u(n) = a^{|n|} (unnormalised), the right side over the box [−M, M+1]^C and
    within the mass of u^C outside [−M, M]^C ((a − λb)_+ <= a for the terms left out).
    """
    closed = sum(comb(C, k) * (a ** (C - k) - lam * a ** k)
                 for k in range(C + 1) if a ** (C - 2 * k) > lam) / (1 - a) ** C
    u = lambda n: a ** abs(n)  # noqa: E731
    brute = sum(max(Fraction(0), prod(u(x) for x in xs) - lam * prod(u(x - 1) for x in xs))
                for xs in box(M, C))
    z = (1 + a) / (1 - a)
    z_box = sum(u(n) for n in range(-M, M + 1))
    assert abs(closed - brute) <= z ** C - z_box ** C


# ---- against mpmath at high precision --------------------------------------------------------

def mp_gaussian(sigma2, C, epsilon):
    s2 = mpmath.mpf(sigma2.numerator) / sigma2.denominator
    L = int(mpmath.sqrt(2 * s2 * 500)) + 3
    w = [mpmath.exp(-mpmath.mpf(n * n) / (2 * s2)) for n in range(-L, L + 1)]
    z = mpmath.fsum(w)
    p = [mpmath.mpf(1)]
    for _ in range(C):
        p = [mpmath.fsum(p[i] * w[m - i] for i in range(max(0, m - 2 * L), min(m, len(p) - 1) + 1))
             for m in range(len(p) + 2 * L)]
    s = gaussian.split_point(sigma2, C, epsilon)
    F = lambda t: mpmath.fsum(p[:max(0, t + C * L + 1)]) / z ** C  # noqa: E731
    return F(s) - mpmath.exp(mpmath.mpf(epsilon.numerator) / epsilon.denominator) * F(s - C)


def mp_laplace(t, C, epsilon):
    a = mpmath.exp(-mpmath.mpf(t.denominator) / t.numerator)
    e = mpmath.exp(mpmath.mpf(epsilon.numerator) / epsilon.denominator)
    k0 = laplace.first_count(t, C, epsilon)
    return mpmath.fsum(comb(C, k) * (a ** (C - k) - e * a ** k) for k in range(k0, C + 1)) / (1 + a) ** C


# mpmath's own rounding at 400 bits (about 120 digits), far below the widths asserted (2^-80)
MP_TOLERANCE = mpmath.mpf(10) ** -100


def mp(q):
    return mpmath.mpf(q.numerator) / q.denominator


@pytest.mark.parametrize("sigma2,C,epsilons", [
    (9, 2, ["1/2", "1", "2", "4"]), (1, 8, ["1/2", "1", "2", "4"]), (1, 3, ["0", "1", "5"]),
    ("1/3", 5, ["1/7", "3"]), (25, 1, ["1/10"]),
])
def test_gaussian_enclosure_contains_mpmath(sigma2, C, epsilons):
    sigma2 = Fraction(sigma2)
    epsilons = [Fraction(e) for e in epsilons]
    for e, (lo, hi) in zip(epsilons, gaussian.delta_bounds(sigma2, C, epsilons, 80)):
        value = mp_gaussian(sigma2, C, e)
        assert mp(lo) - MP_TOLERANCE <= value <= mp(hi) + MP_TOLERANCE
        assert hi - lo < Fraction(1, 2 ** 80)


@pytest.mark.parametrize("t,C,epsilons", [
    (1, 8, ["1/2", "1", "2"]), (4, 8, ["1/2", "1", "2"]), ("1/100", 1024, ["1", "100"]),
    (1000000, 1024, ["1/1000"]), (2, 1024, ["1", "8"]), ("7/3", 5, ["0", "1/3"]),
])
def test_laplace_enclosure_contains_mpmath(t, C, epsilons):
    t = Fraction(t)
    epsilons = [Fraction(e) for e in epsilons]
    for e, (lo, hi) in zip(epsilons, laplace.delta_bounds(t, C, epsilons, 80)):
        value = mp_laplace(t, C, e)
        assert mp(lo) - MP_TOLERANCE <= value <= mp(hi) + MP_TOLERANCE
        assert hi - lo < Fraction(1, 2 ** 80)


def test_large_budget_gaussian_is_narrow():
    """C = 1024, σ² = 1: the widths stay far below W = 10^-15 at the first level's precision."""
    bits = plain_composition._bits_for(W15)
    for lo, hi in gaussian.delta_bounds(Fraction(1), 1024, [Fraction(e) for e in (1, 2, 4, 8)], bits):
        assert 0 <= lo <= hi <= 1 and hi - lo < W15 / 1000


def mp_brute(kernel, C, epsilon, M):
    """Σ_{x ∈ [−M, M+1]^C} (P^C(x) − e^ε Q^C(x))_+ in mpmath, straight from the definition."""
    z = mpmath.fsum(kernel(n) for n in range(-4 * M, 4 * M + 1))
    law = {n: kernel(n) / z for n in range(-M - 1, M + 2)}
    e = mpmath.exp(mp(epsilon))
    total = mpmath.mpf(0)
    for xs in box(M, C):
        p = mpmath.fprod(law[x] for x in xs)
        q = mpmath.fprod(law[x - 1] for x in xs)
        total += max(mpmath.mpf(0), p - e * q)
    return total


@pytest.mark.parametrize("sigma2,C,epsilon", [
    ("1/2", 1, "0"), (1, 1, "1/3"), (2, 2, "1"), (1, 2, "0"), ("1/2", 2, "2"),
])
def test_gaussian_enclosure_against_the_definition(sigma2, C, epsilon):
    """Independent of the closed form: the sum over ℤ^C itself (box beyond 10^-100 of mass)."""
    sigma2, epsilon = Fraction(sigma2), Fraction(epsilon)
    kernel = lambda n: mpmath.exp(-mpmath.mpf(n * n) / (2 * mp(sigma2)))  # noqa: E731
    value = mp_brute(kernel, C, epsilon, 32)
    lo, hi = gaussian.delta_bounds(sigma2, C, [epsilon], 80)[0]
    assert mp(lo) - MP_TOLERANCE <= value <= mp(hi) + MP_TOLERANCE and hi - lo < Fraction(1, 2 ** 80)


@pytest.mark.parametrize("t,C,epsilon", [("1/3", 1, "0"), ("1/2", 1, "1"), ("1/3", 2, "1/2"), ("1/2", 2, "3")])
def test_laplace_enclosure_against_the_definition(t, C, epsilon):
    t, epsilon = Fraction(t), Fraction(epsilon)
    kernel = lambda n: mpmath.exp(-abs(n) / mp(t))  # noqa: E731
    value = mp_brute(kernel, C, epsilon, 120)
    lo, hi = laplace.delta_bounds(t, C, [epsilon], 80)[0]
    assert mp(lo) - MP_TOLERANCE <= value <= mp(hi) + MP_TOLERANCE and hi - lo < Fraction(1, 2 ** 80)


# ---- the work limit, as documented for the producer (plain-composition-audit.md §6) ------------

def documented_sizes(sigma2, C, W):
    """(coefficients, product bits) by the text of plain-composition-audit.md §6 alone."""
    from math import isqrt
    sigma2, W = Fraction(sigma2), Fraction(W)
    b = max(64, (W.denominator // W.numerator + 1).bit_length() + 8)
    e = ((2 * sigma2).__floor__() + 2).bit_length()
    L = max(1, isqrt((Fraction(7, 5) * sigma2 * (b + C.bit_length() + 6 + e)).__floor__() + 1))
    steps = C.bit_length()
    K = b + (C * (2 * L + 1)).bit_length() + steps.bit_length() + 14
    w = 8 * -(-((9 * 4 ** (K - 1) + 2 ** K).bit_length() + 1) // 8)

    def H(c):
        if c * L <= 16:
            return None
        return isqrt((Fraction(7, 5) * sigma2 * c * (b + 8 + (-(-C * steps // c) - 1).bit_length())).__ceil__()) + 1

    def keep(f, length, h):
        if h is None:
            return f, length
        lo, hi = max(f, -h), min(f + length - 1, h)
        return lo, hi - lo + 1
    length, f, c, products = 2 * L + 1, -L, 1, []
    for digit in bin(C)[3:]:
        c = 2 * c + (digit == "1")
        products.append((length, length))
        h = H(c)
        f, length = keep(2 * f, 2 * length - 1, None if h is None else h + (L if digit == "1" else 0))
        if digit == "1":
            products.append((length, 2 * L + 1))
            f, length = keep(f - L, length + 2 * L, h)
    coefficients = max([2 * L + 1] + [a + b2 - 1 for a, b2 in products])
    bits = max([0] + [(a + b2) * w for a, b2 in products])
    top = max(H(C) or 0, 16)
    return coefficients, bits, 4 * top + 4 * L + 1, (4 * top + 4 * L + 2) * w


@settings(max_examples=150, deadline=None)
@given(st.fractions(Fraction(1, 100), 10 ** 6, max_denominator=1000), st.integers(1, 1024),
       st.sampled_from([Fraction(1, 10 ** 15), Fraction(1, 10 ** 60), Fraction(3, 7), Fraction(1, 10 ** 33)]))
def test_documented_work_formula_is_the_plan(sigma2, C, W):
    """The producer mirrors the text; the text must be what the auditor computes, and the simple
    sufficient bound must dominate."""
    bits = plain_composition._bits_for(W)
    p = gaussian.plan(sigma2, C, bits)
    coefficients, product_bits, simple_coefficients, simple_bits = documented_sizes(sigma2, C, W)
    assert (p.coefficients, p.product_bits) == (coefficients, product_bits)
    assert coefficients <= simple_coefficients and product_bits <= simple_bits


@pytest.mark.parametrize("sigma2,C,W,within", [
    (2000, 1000, 15, True), (2000, 1024, 60, True), (10 ** 5, 1024, 60, True), (10 ** 6, 1024, 15, True),
    (250000, 1024, 15, True), (15625, 1024, 60, True), (111919, 1024, 60, True), (111920, 1024, 60, False),
    (10 ** 6, 1000, 60, False), (10 ** 6, 1024, 60, False),
])
def test_documented_corners_of_the_limit(sigma2, C, W, within):
    """plain-composition-audit.md §6: the producer's whole range is within the limits; σ² = 10^6 at
    C >= 1000 and W = 10^-60 is not (and 111,919 is the largest σ² at C = 1024, W = 10^-60)."""
    p = gaussian.plan(sigma2, C, plain_composition._bits_for(Fraction(1, 10 ** W)))
    fits = p.coefficients <= plain_composition.MAX_COEFFICIENTS and p.product_bits <= plain_composition.MAX_PRODUCT_BITS
    assert fits == within


@pytest.mark.parametrize("t,C,epsilon", [(4, 8, "1/2"), (4, 8, "1"), (2, 8, "1"), (2, 5, "1/2"), ("3/2", 7, "2/3"),
                                         (1, 3, "1"), ("5/2", 12, "4/5")])
def test_laplace_odd_even_identity(t, C, epsilon):
    """δ_C(ε) = δ_{C−1}(ε) for the discrete Laplace when C + tε is an even integer (mpmath, independently
    of the auditor): why a budget edit C -> C − 1 of such a certificate can still verify (tests/auditor/
    mutation.py).  Not for other ε: at C + tε odd the two differ."""
    t, epsilon = Fraction(t), Fraction(epsilon)
    assert (C + t * epsilon) % 2 == 0
    assert abs(mp_laplace(t, C, epsilon) - mp_laplace(t, C - 1, epsilon)) < MP_TOLERANCE
    odd = epsilon + 1 / t
    assert abs(mp_laplace(t, C, odd) - mp_laplace(t, C - 1, odd)) > mpmath.mpf(10) ** -20
