"""noise/1: true certificates verify; a corpus of wrong ones is rejected with the right outcome.

The embedded certificates are the producer's (its command line, a black box);
the noise certificate around them is assembled by hand
(:mod:`tests.auditor.noise_corpus`).  Each wrong certificate changes one thing
and is resealed (:mod:`tests.reseal`), so only that change is wrong.
"""

import copy
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings

from auditor.api import verify_certificate
from auditor.rationals import write_rational
from tests.auditor import noise_corpus as nc
from tests.auditor.mutation import NOISE_BUILT, mutants
from tests.reseal import reseal, seal

M, X = "/result/meets", "/result/misses"
CASES = {"gaussian-pair": nc.GAUSSIAN_PAIR, "laplace-pair": nc.LAPLACE_PAIR,
         "gaussian-game": nc.GAUSSIAN_GAME, "laplace-game": nc.LAPLACE_GAME,
         "mixed-releases": nc.MIXED_RELEASES, "one-laplace-releases": nc.ONE_LAPLACE,
         "sensitivity-2-releases": nc.ONE_SENSITIVITY_2, "large-base-releases": nc.LARGE_BASE,
         "small-base-releases": nc.SMALL_BASE}


@pytest.fixture(scope="module")
def certs():
    return {name: nc.certificate(case) for name, case in CASES.items()}


@pytest.fixture(scope="module")
def pair(certs):
    return certs["gaussian-pair"]


@pytest.fixture(scope="module")
def game(certs):
    return certs["gaussian-game"]


def edited(cert, edit):
    bad = copy.deepcopy(cert)
    edit(bad["input"], bad["result"])
    return reseal(bad)


def with_input(cert, field, value):
    def edit(inp, res):
        inp[field] = value
    return edited(cert, edit)


def with_result(cert, field, value):
    def edit(inp, res):
        res[field] = value
    return edited(cert, edit)


def rejected(cert, outcome, pointer):
    """Verify ``cert``; assert ``outcome`` and that ``pointer`` is named (a failure, the error or the limit)."""
    report = verify_certificate(cert)
    assert report.outcome == outcome, (report.failures[:3], report.error, report.unchecked)
    if outcome == "FAIL":
        assert pointer in [f["pointer"] for f in report.failures], report.failures
    elif outcome == "MALFORMED":
        assert report.error.startswith(pointer), report.error
    return report


def refused(cert, pointer):
    """A mix-up the schema may refuse (MALFORMED) or the checks reject (FAIL); either names ``pointer``."""
    report = verify_certificate(cert)
    assert report.outcome in ("FAIL", "MALFORMED"), report.outcome
    if report.outcome == "FAIL":
        assert any(f["pointer"].startswith(pointer) for f in report.failures), report.failures
    else:
        assert report.error.startswith(pointer), report.error


# ---- true certificates -------------------------------------------------------------------------

@pytest.mark.parametrize("name", sorted(CASES))
def test_true_certificate_verifies(certs, name):
    report = verify_certificate(certs[name])
    assert report.outcome == "OK", (report.failures[:3], report.error, report.unchecked)


def test_explicit_source_game_verifies():
    cert = nc.certificate(nc.GAUSSIAN_GAME, nc.EXPLICIT_SOURCE)
    assert cert["result"]["meets"]["input"]["source"] == {"radius": 6, "scale": "1073741824"}
    report = verify_certificate(cert)
    assert report.outcome == "OK", (report.failures[:3], report.error, report.unchecked)


def test_claim_line_states_both_levels_and_the_route(pair, game):
    assert verify_certificate(pair).claim == (
        "sigma^2 = 9 suffices for eps*_8(0.00001467) <= 4 (the grid point below, sigma^2 = 8.992, does not; "
        "the discrete Gaussian, plain composition; route product-pair)")
    assert verify_certificate(game).claim.endswith(
        "(the grid point below, sigma^2 = 10/11, does not; the discrete Gaussian, gamma = 1/2; route exact-game)")


def test_committed_noise_certificates_verify():
    found = nc.references()
    if not found:
        pytest.skip("no noise/1 certificate is committed under certificates/ yet (the producer's references "
                    "come with `producer noise`)")
    for name, cert in found:
        report = verify_certificate(cert)
        assert report.outcome == "OK", (name, report.failures[:3], report.error, report.unchecked)


# ---- claim 3: meets at most δ, misses above δ ----------------------------------------------------

def _point(cert, which, end):
    res = cert["result"][which]["result"]
    return Fraction(res["points"][0][end] if "points" in res else res["interval"][end])


@pytest.mark.parametrize("name", sorted(CASES))
def test_meets_above_delta_fails(certs, name):
    cert = certs[name]
    upper = _point(cert, "meets", "upper")
    end = "points/0/upper" if cert["result"]["route"] == "product-pair" else "interval/upper"
    below_upper = write_rational(upper * (1 - Fraction(1, 10 ** 9)))      # δ just below meets' upper end
    rejected(with_input(cert, "delta", below_upper), "FAIL", f"{M}/result/{end}")


@pytest.mark.parametrize("name", sorted(CASES))
def test_misses_not_above_delta_fails(certs, name):
    cert = certs[name]
    lower = _point(cert, "misses", "lower")
    end = "points/0/lower" if cert["result"]["route"] == "product-pair" else "interval/lower"
    rejected(with_input(cert, "delta", write_rational(lower)), "FAIL", f"{X}/result/{end}")   # lower > δ fails at =


# ---- claim 4: 0 < below < noise <= below·(1 + R) ---------------------------------------------------

def test_gap_beyond_precision_fails(pair):
    rejected(with_input(pair, "precision", "1/10000"), "FAIL", "/result/sigma2")


def test_gap_exactly_precision_verifies(game):
    # σ² = 1 = (10/11)·(1 + 1/10): the bound is inclusive
    assert verify_certificate(game).outcome == "OK"
    rejected(with_input(game, "precision", "99/1000"), "FAIL", "/result/sigma2")


def test_below_not_below_noise_fails(pair):
    def swap(inp, res):
        res["sigma2"], res["sigma2_below"] = res["sigma2_below"], res["sigma2"]
        res["meets"], res["misses"] = res["misses"], res["meets"]
    report = rejected(edited(pair, swap), "FAIL", "/result/sigma2_below")
    assert f"{M}/result/points/0/upper" in [f["pointer"] for f in report.failures]


def test_below_equal_to_noise_fails(pair):
    def equal(inp, res):
        res["sigma2_below"] = res["sigma2"]
        res["misses"] = copy.deepcopy(res["meets"])
    report = rejected(edited(pair, equal), "FAIL", "/result/sigma2_below")
    assert f"{X}/result/points/0/lower" in [f["pointer"] for f in report.failures]


# ---- claim 2: each embedded certificate answers this question at its own level ---------------------

def test_meets_for_another_sigma2_fails(pair):
    rejected(with_result(pair, "meets", nc.plain("discrete-gaussian", "10", 8, "4")), "FAIL", f"{M}/input/noise")


def test_result_level_not_the_embedded_level_fails(pair):
    # a level inside the gap that the embedded certificates are not for
    rejected(with_result(pair, "sigma2_below", "8993/1000"), "FAIL", f"{X}/input/noise")


def test_misses_for_another_budget_fails(pair):
    rejected(with_result(pair, "misses", nc.plain("discrete-gaussian", "1124/125", 9, "4")), "FAIL",
             f"{X}/input/budget")


def test_another_budget_in_the_question_fails(pair):
    rejected(with_input(pair, "budget", 7), "FAIL", f"{M}/input/budget")


def test_another_epsilon_fails(pair):
    rejected(with_input(pair, "epsilon", "41/10"), "FAIL", f"{M}/input/epsilons")


def test_several_epsilons_fail(pair):
    wide = nc.plain("discrete-gaussian", "9", 8, "4,5")
    rejected(with_result(pair, "meets", wide), "FAIL", f"{M}/input/epsilons")


def test_another_family_with_its_keys_fails(pair):
    """A discrete-Laplace question answered by discrete-Gaussian certificates (keys renamed)."""
    def laplace(inp, res):
        inp["family"] = "discrete-laplace"
        res["laplace"], res["laplace_below"] = res.pop("sigma2"), res.pop("sigma2_below")
    rejected(edited(pair, laplace), "FAIL", f"{M}/input/noise")


def test_laplace_keys_for_a_gaussian_question_are_refused(pair):
    def keys(inp, res):
        res["laplace"], res["laplace_below"] = res.pop("sigma2"), res.pop("sigma2_below")
    refused(edited(pair, keys), "/result")


def test_gaussian_keys_for_a_laplace_question_are_refused(certs):
    def keys(inp, res):
        res["sigma2"], res["sigma2_below"] = res.pop("laplace"), res.pop("laplace_below")
    refused(edited(certs["laplace-pair"], keys), "/result")


def test_laplace_certificates_for_a_gaussian_question_fail(pair, certs):
    def swap(inp, res):
        res["meets"] = copy.deepcopy(certs["laplace-pair"]["result"]["meets"])
    rejected(edited(pair, swap), "FAIL", f"{M}/input/noise")


def test_game_for_another_gamma_fails(game):
    rejected(with_input(game, "gamma", "1/3"), "FAIL", f"{M}/input/gamma")


def test_game_for_another_sigma2_fails(game):
    rejected(with_result(game, "misses", nc.dg("1/2", "discrete-gaussian", "9/10", 2, "1/2")), "FAIL",
             f"{X}/input/sigma2")


def test_game_with_laplace_for_a_gaussian_question_fails(game, certs):
    def swap(inp, res):
        res["meets"] = copy.deepcopy(certs["laplace-game"]["result"]["meets"])
    report = rejected(edited(game, swap), "FAIL", f"{M}/input/sigma2")
    assert f"{M}/input/gamma" in [f["pointer"] for f in report.failures]


def test_game_with_gaussian_for_a_laplace_question_fails(certs):
    def swap(inp, res):
        inp["gamma"] = "1/2"
        res["misses"] = copy.deepcopy(certs["gaussian-game"]["result"]["misses"])
    rejected(edited(certs["laplace-game"], swap), "FAIL", f"{X}/input/noise")


def test_game_with_a_method_fails(game):
    def method(inp, res):
        res["meets"]["input"]["method"] = res["meets"]["result"]["finite"]["method"]
    bad = edited(game, method)
    if bad["result"]["meets"]["input"]["method"] is None:
        pytest.skip("the embedded dg-interval/1 names no method")
    rejected(bad, "FAIL", f"{M}/input/method")


# ---- routes and kinds ------------------------------------------------------------------------------

def test_wrong_route_fails(pair, game):
    rejected(with_result(pair, "route", "exact-game"), "FAIL", "/result/route")
    rejected(with_result(game, "route", "product-pair"), "FAIL", "/result/route")


def test_gamma_positive_on_the_product_pair_route_fails(pair):
    rejected(with_input(pair, "gamma", "1/3"), "FAIL", "/result/route")


def test_game_certificate_on_the_product_pair_route_is_malformed(pair, game):
    rejected(with_result(pair, "misses", copy.deepcopy(game["result"]["misses"])), "MALFORMED", f"{X}/schema")


def test_plain_certificate_on_the_exact_game_route_is_malformed(pair, game):
    rejected(with_result(game, "meets", copy.deepcopy(pair["result"]["meets"])), "MALFORMED", f"{M}/schema")


# ---- claim 1: each embedded certificate verified in full --------------------------------------------

def test_embedded_digest_broken_fails(pair):
    bad = copy.deepcopy(pair)
    bad["result"]["meets"]["result"]["points"][0]["lower_display"] = "0"   # changed after sealing
    rejected(seal(bad), "FAIL", f"{M}/digest")


def test_embedded_false_claim_fails(pair):
    def lower(inp, res):
        point = res["misses"]["result"]["points"][0]
        point["lower"] = point["upper"] = write_rational(Fraction(point["upper"]) * 2)
    rejected(edited(pair, lower), "FAIL", f"{X}/result/points/0/lower")


def test_embedded_game_false_claim_fails(game):
    def upper(inp, res):
        res["meets"]["result"]["interval"]["upper"] = "1/2"
    report = rejected(edited(game, upper), "FAIL", f"{M}/result/interval/upper")
    assert len(report.failures) >= 1


def test_embedded_schema_violation_is_malformed(pair):
    def extra(inp, res):
        res["meets"]["input"]["extra"] = 1
    rejected(edited(pair, extra), "MALFORMED", "/result")   # the host schema refuses it (its oneOf at /result)


# ---- domain ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("field,value", [("precision", "1/1"), ("precision", "3/2"), ("delta", "1/1"),
                                         ("delta", "5/4"), ("gamma", "2/4"), ("gamma", "3/2")])
def test_outside_the_domain_is_malformed(pair, field, value):
    rejected(with_input(pair, field, value), "MALFORMED", f"/input/{field}")


# ---- the releases form: one factor on every release's noise scale -----------------------------------

@pytest.fixture(scope="module")
def mixed(certs):
    return certs["mixed-releases"]


def _scaled_plain(case, factor, powers=(1, 1), releases=None):
    """The producer's plain-composition/1 of ``releases`` (the case's by default) scaled by ``factor``."""
    return nc.plain_releases(nc.scaled(case.releases if releases is None else releases, factor, powers),
                             case.epsilon)


def test_releases_embedded_forms(certs):
    """The form plain-composition/1 has: single-law for one release of sensitivity 1, else releases."""
    assert set(certs["one-laplace-releases"]["result"]["meets"]["input"]) >= {"noise", "budget"}
    assert certs["one-laplace-releases"]["result"]["meets"]["input"]["noise"] == {"family": "discrete-laplace",
                                                                                   "t": "133/25"}
    assert "releases" in certs["sensitivity-2-releases"]["result"]["misses"]["input"]
    assert [r["noise"] for r in certs["mixed-releases"]["result"]["misses"]["input"]["releases"]] == [
        {"family": "discrete-gaussian", "sigma2": "256/5"},     # 4 · 12.8
        {"family": "discrete-gaussian", "sigma2": "576/5"},     # 9 · 12.8
        {"family": "discrete-laplace", "t": "128/5"}]           # 2 · 12.8


def test_releases_claim_lines(certs):
    assert verify_certificate(certs["mixed-releases"]).claim == (
        "factor = 12.9 suffices for eps*_18(0.001) <= 2 (the grid point below, factor = 12.8, does not; "
        "plain composition of 5 x discrete Gaussian sigma^2 = 4 (sensitivity 2), 10 x discrete Gaussian sigma^2 = 9, "
        "3 x discrete Laplace t = 2, each sigma^2 and t times factor; route product-pair)")
    assert verify_certificate(certs["one-laplace-releases"]).claim == (
        "factor = 2.66 suffices for eps*_4(0.02) <= 0.5 (the grid point below, factor = 2.65, does not; "
        "plain composition of 4 x discrete Laplace t = 2, each t times factor; route product-pair)")
    assert verify_certificate(certs["sensitivity-2-releases"]).claim.endswith(
        "plain composition of 3 x discrete Gaussian sigma^2 = 4 (sensitivity 2), each sigma^2 times factor; "
        "route product-pair)")


# the gap: 0 < factor_below < factor <= factor_below·(1 + R)

def test_releases_factors_swapped_fail(mixed):
    def swap(inp, res):
        res["factor"], res["factor_below"] = res["factor_below"], res["factor"]
        res["meets"], res["misses"] = res["misses"], res["meets"]
    report = rejected(edited(mixed, swap), "FAIL", "/result/factor_below")
    assert f"{M}/result/points/0/upper" in [f["pointer"] for f in report.failures]


def test_releases_factor_numbers_swapped_fail(mixed):
    """Only the two numbers swapped: the gap fails, and each embedded certificate is at the other factor."""
    def swap(inp, res):
        res["factor"], res["factor_below"] = res["factor_below"], res["factor"]
    report = rejected(edited(mixed, swap), "FAIL", "/result/factor_below")
    assert {f"{M}/input/releases/0/noise", f"{X}/input/releases/0/noise"} <= {f["pointer"] for f in report.failures}


def test_releases_gap_beyond_precision_fails(mixed):
    # 12.9 > 12.8·(1 + 1/1000)
    rejected(with_input(mixed, "precision", "1/1000"), "FAIL", "/result/factor")


def test_releases_factor_below_too_far_fails(mixed):
    """A true misses certificate at 12.7 (δ(2) >= 0.001082 > δ there), but 12.9 > 12.7·(1 + 1/100)."""
    def far(inp, res):
        res["factor_below"] = "127/10"
        res["misses"] = _scaled_plain(nc.MIXED_RELEASES, "127/10")
    report = rejected(edited(mixed, far), "FAIL", "/result/factor")
    assert [f["pointer"] for f in report.failures] == ["/result/factor"], report.failures


def test_releases_factor_below_equal_fails(mixed):
    def equal(inp, res):
        res["factor_below"] = res["factor"]
        res["misses"] = copy.deepcopy(res["meets"])
    report = rejected(edited(mixed, equal), "FAIL", "/result/factor_below")
    assert f"{X}/result/points/0/lower" in [f["pointer"] for f in report.failures]


def test_releases_factor_below_above_fails(mixed):
    def above(inp, res):
        res["factor_below"] = "13"
        res["misses"] = _scaled_plain(nc.MIXED_RELEASES, "13")
    rejected(edited(mixed, above), "FAIL", "/result/factor_below")


# each embedded certificate: the question's releases scaled by its factor, release by release

def test_releases_sigma2_times_factor_squared_fails(mixed):
    """σ² scaled by f² (σ times f) instead of f, t by f as it should be: every Gaussian release differs."""
    bad = _scaled_plain(nc.MIXED_RELEASES, nc.MIXED_RELEASES.factor, powers=(2, 1))
    report = rejected(with_result(mixed, "meets", bad), "FAIL", f"{M}/input/releases/0/noise")
    pointers = {f["pointer"] for f in report.failures}
    assert f"{M}/input/releases/1/noise" in pointers and f"{M}/input/releases/2/noise" not in pointers


def test_releases_t_times_factor_squared_fails(mixed):
    bad = _scaled_plain(nc.MIXED_RELEASES, nc.MIXED_RELEASES.factor, powers=(1, 2))
    report = rejected(with_result(mixed, "meets", bad), "FAIL", f"{M}/input/releases/2/noise")
    assert f"{M}/input/releases/0/noise" not in [f["pointer"] for f in report.failures]


def test_releases_unscaled_fails(mixed):
    """The base releases themselves (factor 1): another question."""
    rejected(with_result(mixed, "misses", _scaled_plain(nc.MIXED_RELEASES, "1")), "FAIL",
             f"{X}/input/releases/0/noise")


def test_releases_another_sensitivity_fails(mixed):
    other = (("dg", "9", 1, 10), ("dl", "2", 1, 3), ("dg", "4", 3, 5))
    rejected(with_result(mixed, "meets", _scaled_plain(nc.MIXED_RELEASES, "129/10", releases=other)), "FAIL",
             f"{M}/input/releases/0/sensitivity")


def test_releases_another_count_fails(mixed):
    other = (("dg", "9", 1, 11), ("dl", "2", 1, 3), ("dg", "4", 2, 5))
    rejected(with_result(mixed, "misses", _scaled_plain(nc.MIXED_RELEASES, "64/5", releases=other)), "FAIL",
             f"{X}/input/releases/1/count")


def test_releases_count_in_the_question_fails(mixed):
    def count(inp, res):
        inp["releases"][2]["count"] = 4
    report = rejected(edited(mixed, count), "FAIL", f"{M}/input/releases/2/count")
    assert f"{X}/input/releases/2/count" in [f["pointer"] for f in report.failures]


def test_releases_missing_release_fails(mixed):
    fewer = (("dg", "9", 1, 10), ("dg", "4", 2, 5))
    rejected(with_result(mixed, "meets", _scaled_plain(nc.MIXED_RELEASES, "129/10", releases=fewer)), "FAIL",
             f"{M}/input/releases")


def test_releases_extra_release_fails(mixed):
    more = nc.MIXED_RELEASES.releases + (("dl", "2", 2, 1),)
    rejected(with_result(mixed, "meets", _scaled_plain(nc.MIXED_RELEASES, "129/10", releases=more)), "FAIL",
             f"{M}/input/releases")


def test_releases_another_base_scale_in_the_question_fails(mixed):
    def base(inp, res):
        inp["releases"][1]["noise"]["sigma2"] = "10"
    rejected(edited(mixed, base), "FAIL", f"{M}/input/releases/1/noise")


# the form: releases, or single-law for one release of sensitivity 1

def test_releases_single_law_where_releases_are_asked_fails(certs):
    """One release of sensitivity 2: the single-law form (sensitivity 1) is another question."""
    single = nc.plain("discrete-gaussian", "48", 3, "1")              # σ² = 4 · 12, C = 3, sensitivity 1
    rejected(with_result(certs["sensitivity-2-releases"], "meets", single), "FAIL", f"{M}/input")


def test_releases_single_law_for_a_list_fails(mixed):
    single = nc.plain("discrete-gaussian", "1161/10", 18, "2")        # σ² = 9 · 12.9, C = 18
    rejected(with_result(mixed, "meets", single), "FAIL", f"{M}/input")


def test_releases_form_where_single_law_is_asked_fails(certs):
    """One release of sensitivity 1 is answered in the single-law form: a releases form is another question."""
    other = _scaled_plain(nc.ONE_LAPLACE, "133/50", releases=(("dl", "2", 2, 4),))
    rejected(with_result(certs["one-laplace-releases"], "meets", other), "FAIL", f"{M}/input")


def test_releases_form_of_one_unit_release_embedded_is_malformed(certs):
    """The same release written in plain-composition/1's releases form: not that kind's canonical form (its
    own check: MALFORMED), and not the form this question asks (FAIL) - the certificate is MALFORMED."""
    def releases_form(inp, res):
        inner = res["meets"]["input"]
        inner["releases"] = [{"noise": inner.pop("noise"), "sensitivity": 1, "count": inner.pop("budget")}]
    rejected(edited(certs["one-laplace-releases"], releases_form), "MALFORMED", f"{M}/input/releases")


def test_releases_one_laplace_at_another_scale_fails(certs):
    rejected(with_result(certs["one-laplace-releases"], "misses", nc.plain("discrete-laplace", "53/20", 4, "1/2")),
             "FAIL", f"{X}/input/noise")    # t = 2.65 (the factor itself), not 2 · 2.65


def test_releases_one_laplace_another_budget_fails(certs):
    rejected(with_result(certs["one-laplace-releases"], "misses", nc.plain("discrete-laplace", "53/10", 5, "1/2")),
             "FAIL", f"{X}/input/budget")


# ε and δ

def test_releases_another_epsilon_fails(mixed):
    rejected(with_input(mixed, "epsilon", "21/10"), "FAIL", f"{M}/input/epsilons")


def test_releases_several_epsilons_fail(mixed):
    wide = nc.plain_releases(nc.scaled(nc.MIXED_RELEASES.releases, "129/10"), "2,3")
    rejected(with_result(mixed, "meets", wide), "FAIL", f"{M}/input/epsilons")


# the answer's keys and the route

def test_releases_with_sigma2_keys_fail(mixed):
    def keys(inp, res):
        res["sigma2"], res["sigma2_below"] = res.pop("factor"), res.pop("factor_below")
    rejected(edited(mixed, keys), "FAIL", "/result/factor")


def test_single_law_with_factor_keys_fails(pair):
    def keys(inp, res):
        res["factor"], res["factor_below"] = res.pop("sigma2"), res.pop("sigma2_below")
    rejected(edited(pair, keys), "FAIL", "/result/sigma2")


def test_releases_on_the_exact_game_route_fails(mixed):
    rejected(with_result(mixed, "route", "exact-game"), "FAIL", "/result/route")


# the domain: γ = "0", canonical releases

def test_releases_with_positive_gamma_is_malformed(mixed):
    rejected(with_input(mixed, "gamma", "1/3"), "MALFORMED", "/input/gamma")


def test_releases_unsorted_are_malformed(mixed):
    def unsorted(inp, res):
        inp["releases"][1], inp["releases"][2] = inp["releases"][2], inp["releases"][1]
    report = rejected(edited(mixed, unsorted), "MALFORMED", "/input/releases/2")
    assert "sorted" in report.error


def test_releases_duplicated_are_malformed(mixed):
    def split(inp, res):
        first = copy.deepcopy(inp["releases"][1])
        first["count"], inp["releases"][1]["count"] = 4, 6          # 10 = 4 + 6: equal releases not merged
        inp["releases"].insert(1, first)
    report = rejected(edited(mixed, split), "MALFORMED", "/input/releases/2")
    assert "merged" in report.error


def test_releases_beyond_the_total_count_are_malformed(mixed):
    def many(inp, res):
        inp["releases"][1]["count"] = 1020                         # 5 + 1020 + 3 > 1024
    rejected(edited(mixed, many), "MALFORMED", "/input/releases")


def test_releases_base_scales_outside_the_plain_domain_verify(certs):
    """The domain [1/100, 10^6] binds the scaled releases (the embedded certificates' own), not the base."""
    for name, noise in (("large-base-releases", {"family": "discrete-gaussian", "sigma2": "2000000"}),
                        ("small-base-releases", {"family": "discrete-laplace", "t": "1/200"})):
        assert certs[name]["input"]["releases"][0]["noise"] == noise
        assert verify_certificate(certs[name]).outcome == "OK"


def test_releases_base_scale_of_many_bits_verifies(certs):
    """Nor do its size limits: a 300-bit base σ², the embedded certificates at σ² = 9 (GAUSSIAN_PAIR's)."""
    def wide(inp, res):
        inp["releases"][0]["noise"]["sigma2"] = str(9 * 2 ** 300)
        res["factor"], res["factor_below"] = write_rational(Fraction(1, 2 ** 300)), write_rational(
            Fraction(1124, 125 * 9 * 2 ** 300))
    report = verify_certificate(edited(certs["large-base-releases"], wide))
    assert report.outcome == "OK", (report.failures[:3], report.error, report.unchecked)


def test_releases_base_scale_moved_out_of_the_domain_fails(mixed):
    def tiny(inp, res):
        inp["releases"][2]["noise"]["t"] = "1/101"
    rejected(edited(mixed, tiny), "FAIL", f"{M}/input/releases/2/noise")


def test_releases_scaled_outside_the_domain_is_malformed(certs):
    """An embedded certificate is in its own kind's domain: σ² = 2·10^6 at factor 1 is MALFORMED there."""
    def unscaled(inp, res):
        inner = res["meets"]["input"]
        inner["noise"]["sigma2"] = "2000000"
    rejected(edited(certs["large-base-releases"], unscaled), "MALFORMED", f"{M}/input/noise/sigma2")


def test_no_release_is_malformed(mixed):
    rejected(with_input(mixed, "releases", []), "MALFORMED", "/input")


# each embedded certificate verified in full

def test_releases_embedded_digest_broken_fails(mixed):
    bad = copy.deepcopy(mixed)
    bad["result"]["misses"]["result"]["points"][0]["upper_display"] = "1"   # changed after sealing
    rejected(seal(bad), "FAIL", f"{X}/digest")


def test_releases_embedded_false_claim_fails(mixed):
    def upper(inp, res):
        point = res["meets"]["result"]["points"][0]
        point["lower"] = "0"
        point["upper"] = write_rational(Fraction(point["upper"]) / 2)
    rejected(edited(mixed, upper), "FAIL", f"{M}/result/points/0/upper")


# ---- every mutation of the true certificates (tests/auditor/mutation.py) ------------------------------

@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutants(sources=sorted(NOISE_BUILT)))
def test_mutated_noise_certificates_never_verify_nor_crash(mutant):
    label, data, may_verify = mutant
    report = verify_certificate(data, name=label)
    assert report.status in ({0, 1, 2, 3} if may_verify else {1, 2, 3}), (label, report.as_dict())
    assert report.error is None or "\n" not in report.error


# ---- an embedded kind's limit: UNCHECKED unless something is false -------------------------------------

@pytest.fixture
def tight_plain_limit(monkeypatch):
    """The plain-composition/1 checks refuse every discrete-Gaussian enclosure (a limit of 1 coefficient)."""
    from auditor.checks import plain_composition
    monkeypatch.setattr(plain_composition, "MAX_COEFFICIENTS", 1)


def test_embedded_limit_makes_the_certificate_unchecked(pair, tight_plain_limit):
    report = verify_certificate(pair)
    assert report.outcome == "UNCHECKED", (report.failures[:3], report.error)
    assert report.unchecked.startswith(M + "/input/noise"), report.unchecked


def test_embedded_limit_does_not_hide_a_false_claim(pair, tight_plain_limit):
    rejected(with_input(pair, "precision", "1/10000"), "FAIL", "/result/sigma2")
