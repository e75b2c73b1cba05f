"""The dpsgd/1 checks (auditor/checks/dpsgd.py): references, a corpus of wrong certificates, hostile sizes.

Every wrong certificate is resealed (fresh digest), so that the claim under
test, not the digest, must be what the auditor refuses.  Small certificates
come from the producer's public API (its code is not read here); the closed
form of the Gaussian route and its ε(δ) come from mpmath at 50 digits.
"""

import copy
import json
from fractions import Fraction
from pathlib import Path

import mpmath
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import producer
from auditor.api import verify_certificate
from auditor.certificate import digest
from auditor.checks import dpsgd
from auditor.claims import outward
from auditor.rationals import write_rational
from tests.auditor.dpsgd_reference import delta_gaussian, mp
from tests.auditor.verdicts import only_unproved
from tests.untimed import check_calls, must_not_call

ROOT = Path(__file__).resolve().parents[2]
REFERENCES = sorted((ROOT / "certificates" / "dpsgd").glob("*.json"))
OK, FAIL, MALFORMED, UNCHECKED = 0, 1, 2, 3


def _reference(name):
    return json.loads((ROOT / "certificates" / "dpsgd" / name).read_text())


def _verify(cert):
    cert = copy.deepcopy(cert)
    cert["digest"] = digest(cert)
    return verify_certificate(cert)


@pytest.fixture(scope="module")
def points_cert():
    """Three points, both lower chains recorded (ε = 0 is certified by the add order)."""
    return producer.dpsgd("1/2", 2, 3, epsilons="0,1/20,1/5").as_dict()


@pytest.fixture(scope="module")
def delta_cert():
    return _reference("dpsgd-q0_01-s1-t1000-delta1e-5.json")


# the ε-points reference (h = 1/3430, K = 128) takes a few seconds: make verify checks it too
@pytest.mark.parametrize("path", [pytest.param(p, marks=pytest.mark.slow) if "epsilons" in p.name and "q0_01" in p.name
                                  else p for p in REFERENCES], ids=lambda p: p.name)
def test_references_verify_with_a_claim(path):
    r = verify_certificate(path.read_bytes(), name=path.name)
    assert r.outcome == "OK", r.as_dict()
    assert r.claim and "\n" not in r.claim and len(r.claim) < 400
    cert = json.loads(path.read_text())
    res = cert["result"]
    if "epsilon_lo" in res:
        lo, hi = outward(Fraction(res["epsilon_lo"]))[0], outward(Fraction(res["epsilon_hi"]))[1]
        assert f"in [{lo}, {hi}]" in r.claim
    assert ("closed form" in r.claim) == (res["route"] == "gaussian")


def test_an_upper_end_of_one_is_true_whatever_the_recipe_says():
    """q = 1/2, σ = 1, T = 1000 at ε = 0, 1, 5: δ(ε) is within 2^-25 of 1, the recipe's upper bound a little above
    1 (its rounding excess), and the producer writes upper = 1 (clamped).  δ(ε) <= 1 always, so the point holds;
    it was a FAIL ("not established by the certificate's recipe") before.  An upper end below the bounds still
    fails."""
    cert = producer.dpsgd("1/2", 1, 1000, epsilons="0,1,5").as_dict()
    assert [p["upper"] for p in cert["result"]["points"]] == ["1", "1", "1"]
    assert _verify(cert).outcome == "OK"
    wrong = copy.deepcopy(cert)
    wrong["result"]["points"][2]["upper"] = wrong["result"]["points"][2]["lower"]
    wrong["result"]["points"][2]["upper_display"] = wrong["result"]["points"][2]["lower_display"]
    assert _verify(wrong).outcome == "FAIL"


def test_producer_certificates_of_small_questions_verify(points_cert):
    assert verify_certificate(points_cert).outcome == "OK"
    assert [p["lower_order"] for p in points_cert["result"]["points"]] == ["add", "remove", "remove"]
    for cert in (producer.dpsgd("1/10", "1/2", 7, delta="1e-3").as_dict(),
                 producer.dpsgd(stages=["0.05:1x20", "1:3x4"], epsilons="1,2").as_dict(),
                 producer.dpsgd("1/2", 1, 1, epsilons="0,1/2,3").as_dict()):
        r = verify_certificate(cert)
        assert r.outcome == "OK", r.as_dict()


# ---- a corpus of wrong certificates ----------------------------------------------------------------

def _set(cert, path, value):
    node = cert
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value


def _with_epsilons(cert, lo, hi):
    out = copy.deepcopy(cert)
    res = out["result"]
    res["epsilon_lo"], res["epsilon_lo_display"] = write_rational(lo), outward(lo, 10)[0]
    res["epsilon_hi"], res["epsilon_hi_display"] = write_rational(hi), outward(hi, 10)[1]
    return out


def _with_point(cert, i, lower=None, upper=None):
    out = copy.deepcopy(cert)
    point = out["result"]["points"][i]
    if lower is not None:
        point["lower"], point["lower_display"] = write_rational(lower), outward(lower, 10)[0]
    if upper is not None:
        point["upper"], point["upper_display"] = write_rational(upper), outward(upper, 10)[1]
    return out


def _ends(cert):
    return Fraction(cert["result"]["epsilon_lo"]), Fraction(cert["result"]["epsilon_hi"])


def test_epsilon_hi_lowered_by_a_millionth_is_not_established(delta_cert):
    lo, hi = _ends(delta_cert)
    r = _verify(_with_epsilons(delta_cert, lo, hi * (1 - Fraction(1, 10 ** 6))))
    assert only_unproved(r) == ["/result/epsilon_hi"]


def test_epsilon_hi_moved_just_inside_the_lower_end_is_false(delta_cert):
    # ε(δ) > ε_lo (the auditor's lower bound proves δ(ε_lo) > δ), so ε_hi = ε_lo·(1 + 10^-6) is disproved
    lo, _ = _ends(delta_cert)
    r = _verify(_with_epsilons(delta_cert, lo, lo * (1 + Fraction(1, 10 ** 6))))
    assert r.outcome == "FAIL" and r.failures[0]["pointer"] == "/result/epsilon_hi", r.as_dict()


def test_epsilon_lo_raised_is_not_established_and_beyond_the_upper_end_false(delta_cert):
    lo, hi = _ends(delta_cert)
    assert only_unproved(_verify(_with_epsilons(delta_cert, lo * (1 + Fraction(1, 10 ** 5)), hi))) == \
        ["/result/epsilon_lo"]
    beyond = hi * (1 + Fraction(1, 10 ** 6))
    r = _verify(_with_epsilons(delta_cert, beyond, beyond * (1 + Fraction(1, 10 ** 4))))
    assert r.outcome == "FAIL" and r.failures[0]["pointer"] == "/result/epsilon_lo", r.as_dict()


def test_point_ends_moved_inward_are_not_established_and_across_false(points_cert):
    point = points_cert["result"]["points"][1]
    lower, upper = Fraction(point["lower"]), Fraction(point["upper"])
    million = Fraction(1, 10 ** 6)
    assert only_unproved(_verify(_with_point(points_cert, 1, upper=upper * (1 - million)))) == \
        ["/result/points/1/upper"]
    assert only_unproved(_verify(_with_point(points_cert, 1, lower=lower * (1 + million)))) == \
        ["/result/points/1/lower"]
    for moved in (_with_point(points_cert, 1, upper=lower), _with_point(points_cert, 1, lower=upper)):
        r = _verify(moved)
        assert r.outcome == "FAIL" and r.failures[0]["pointer"].startswith("/result/points/1/"), r.as_dict()


# ---- edited inputs under an unchanged result: the recipe is rebuilt from the input, so they FAIL ------

def _failed_at(report, pointer):
    """FAIL (never UNCHECKED) with a failure, disproved or not established, at ``pointer``."""
    assert report.outcome == "FAIL", report.as_dict()
    assert pointer in {f["pointer"] for f in report.failures}, report.failures


def test_a_larger_sampling_rate_under_the_same_result_fails(delta_cert):
    """q = 0.01 -> 1/90 with ε ∈ [1.82798, 1.82874] kept: the truth for 1/90 is near 2.05, 12 % higher."""
    edited = copy.deepcopy(delta_cert)
    edited["input"]["stages"][0]["sampling_rate"] = "1/90"
    _failed_at(_verify(edited), "/result/epsilon_hi")


def test_a_doubled_second_stage_under_the_same_result_fails():
    """The two-stage schedule (0.01:1x500, 0.02:0.8x300) with the second q doubled and ε_hi kept."""
    edited = _reference("dpsgd-schedule-two-stages-delta1e-6.json")
    stage = edited["input"]["stages"][1]
    stage["sampling_rate"] = write_rational(2 * Fraction(stage["sampling_rate"]))
    _failed_at(_verify(edited), "/result/epsilon_hi")


def test_a_tiny_upper_end_under_the_exemption_is_not_taken_on_trust():
    """T = 1, q = 1/2, σ = 1/2 at ε = 20: δ(20) ≈ 3.9·10^-22, so upper = 10^-40 (width-exempt, <= 10^-30) is
    false; the recipe's bounds cannot prove it, and the point FAILs."""
    cert = producer.dpsgd("1/2", "1/2", 1, epsilons="20").as_dict()
    point = cert["result"]["points"][0]
    assert Fraction(1, 10 ** 23) < Fraction(point["upper"]) < Fraction(1, 10 ** 20)
    edited = _with_point(cert, 0, lower=Fraction(0), upper=Fraction(1, 10 ** 40))
    edited["result"]["points"][0]["lower_order"] = None
    _failed_at(_verify(edited), "/result/points/0/upper")


def _gaussian_epsilon(mu2, delta):
    """ε(δ) of the Gaussian route by mpmath's root finder (an independent reference)."""
    return mpmath.findroot(lambda e: delta_gaussian(mu2, Fraction(mpmath.nstr(e, 45))) - mp(delta), 7.5,
                           tol=mpmath.mpf(10) ** -40)


def test_gaussian_route_decides_epsilon_to_a_billionth():
    cert = _reference("dpsgd-gaussian-s2-t10-delta1e-5.json")
    true = Fraction(mpmath.nstr(_gaussian_epsilon(Fraction(10, 4), Fraction(1, 10 ** 5)), 40))
    lo, hi = _ends(cert)
    assert lo < true < hi
    billionth = Fraction(1, 10 ** 9)
    below = true * (1 - billionth)
    r = _verify(_with_epsilons(cert, below * (1 - Fraction(1, 10 ** 4)), below))
    assert r.outcome == "FAIL" and r.failures[0]["pointer"] == "/result/epsilon_hi"
    above = true * (1 + billionth)
    r = _verify(_with_epsilons(cert, above, above * (1 + Fraction(1, 10 ** 4))))
    assert r.outcome == "FAIL" and r.failures[0]["pointer"] == "/result/epsilon_lo"
    assert _verify(_with_epsilons(cert, below, above)).outcome == "OK"


def test_gaussian_points_moved_across_the_closed_form_fail():
    cert = _reference("dpsgd-gaussian-s2-t10-epsilons.json")
    true = Fraction(mpmath.nstr(delta_gaussian(Fraction(10, 4), Fraction(2)), 40))
    billionth = Fraction(1, 10 ** 9)
    for lower, upper, pointer in ((true * (1 - 2 * billionth), true * (1 - billionth), "upper"),
                                  (true * (1 + billionth), true * (1 + 2 * billionth), "lower")):
        r = _verify(_with_point(cert, 1, lower=lower, upper=upper))
        assert r.outcome == "FAIL" and r.failures[0]["pointer"] == f"/result/points/1/{pointer}", r.as_dict()


def test_wrong_routes():
    cert = _reference("dpsgd-gaussian-s2-t10-delta1e-5.json")
    wrong = copy.deepcopy(cert)
    wrong["result"]["route"] = "pld"
    assert _verify(wrong).outcome == "MALFORMED"          # no recipe to check a pld claim with
    wrong = copy.deepcopy(cert)
    wrong["input"]["stages"][0]["sampling_rate"] = "1/2"
    r = _verify(wrong)
    assert r.outcome == "FAIL" and r.failures[0]["pointer"] == "/result/route"


def test_a_pld_route_for_a_gaussian_only_schedule_is_a_false_route(points_cert):
    wrong = copy.deepcopy(points_cert)
    wrong["input"]["stages"][0]["sampling_rate"] = "1"
    r = _verify(wrong)
    assert r.outcome == "FAIL" and r.failures[0]["pointer"] == "/result/route"


def test_tampered_windows(points_cert):
    chain = ("result", "discretisation", "windows", "remove", "upper", "stages", 0)
    narrowed = copy.deepcopy(points_cert)
    _set(narrowed, chain + (1,), [0, 3])           # the last product keeps 4 entries: the rest goes to +∞
    assert _verify(narrowed).outcome == "FAIL"
    missing = copy.deepcopy(points_cert)
    missing["result"]["discretisation"]["windows"]["remove"]["upper"]["stages"][0].pop()
    assert _verify(missing).outcome == "MALFORMED"
    swapped = copy.deepcopy(points_cert)
    _set(swapped, chain + (0,), [5, 4])
    assert _verify(swapped).outcome == "MALFORMED"
    far = copy.deepcopy(points_cert)
    _set(far, chain + (0,), [10 ** 30, 10 ** 30 + 1])   # short arrays at absurd indices: cheap, and no proof
    assert _verify(far).outcome == "FAIL"   # a recipe that proves nothing establishes nothing
    extra = copy.deepcopy(points_cert)
    extra["result"]["discretisation"]["windows"]["add"]["lower"]["combine"].append([0, 1])
    assert _verify(extra).outcome == "MALFORMED"


def test_a_last_window_at_an_absurd_index_is_decided_without_its_exponential(monkeypatch):
    """The final upper arrays moved to index 10^11 (loss about 8.5·10^7): F⁺ takes e^{ε − k·h} >= 0 there, since an
    enclosure of e^x costs about 1.44·|x| bits (it hung the check); the claims are then not established."""
    from auditor.pld import answer
    cert = _reference("dpsgd-q0_01-s1-t1000-delta1e-5.json")
    windows = cert["result"]["discretisation"]["windows"]
    for order in windows:
        windows[order]["upper"]["stages"][0][-1] = [10 ** 11, 10 ** 11 + 10]
    enclose = answer.exp_bounds

    def bounded(x, bits):
        assert abs(x) <= 2 * answer.MAX_DAMPING, f"e^x enclosed at x = {float(x):.3g}"
        return enclose(x, bits)
    monkeypatch.setattr(answer, "exp_bounds", bounded)
    assert _verify(cert).outcome == "FAIL"


def test_tampered_ranges_and_precisions(points_cert):
    cut = copy.deepcopy(points_cert)
    _set(cut, ("result", "discretisation", "ranges", 0, 1), 20)   # most of the high tail charged to +∞
    assert _verify(cut).outcome == "FAIL"
    coarse = copy.deepcopy(points_cert)
    _set(coarse, ("result", "discretisation", "q_bits"), 8)
    r = _verify(coarse)
    assert r.outcome == "UNCHECKED" and "q_bits" in r.unchecked


def test_wrong_lower_orders(points_cert, delta_cert):
    wrong = copy.deepcopy(delta_cert)
    wrong["result"]["lower_order"] = "add"                 # the add order's lower chain is null
    assert _verify(wrong).outcome == "MALFORMED"
    wrong["result"]["lower_order"] = None
    r = _verify(wrong)
    assert r.outcome == "FAIL" and r.failures[0]["pointer"] == "/result/lower_order"
    swapped = copy.deepcopy(points_cert)
    swapped["result"]["points"][2]["lower_order"] = "add"  # at ε = 1/5 the add order's lower bound is smaller
    assert only_unproved(_verify(swapped)) == ["/result/points/2/lower"]
    zero = _with_point(points_cert, 2, lower=Fraction(0))
    assert _verify(zero).outcome == "FAIL"                 # lower = 0 must name no order


@pytest.mark.parametrize("field", ["epsilon_lo_display", "epsilon_hi_display"])
def test_displays_rounded_inward_fail(delta_cert, field):
    lo, hi = _ends(delta_cert)
    wrong = copy.deepcopy(delta_cert)
    wrong["result"][field] = outward(lo, 10)[1] if field == "epsilon_lo_display" else outward(hi, 10)[0]
    r = _verify(wrong)
    assert r.outcome == "FAIL" and r.failures[0]["pointer"] == f"/result/{field}"


def test_point_displays_rounded_inward_fail(points_cert):
    point = points_cert["result"]["points"][2]
    for field, value, side in (("lower_display", point["lower"], 1), ("upper_display", point["upper"], 0)):
        wrong = copy.deepcopy(points_cert)
        wrong["result"]["points"][2][field] = outward(Fraction(value), 10)[side]
        r = _verify(wrong)
        assert r.outcome == "FAIL" and r.failures[0]["pointer"] == f"/result/points/2/{field}"


def test_width_and_shape_claims(delta_cert, points_cert):
    lo, hi = _ends(delta_cert)
    narrow = copy.deepcopy(delta_cert)
    narrow["input"]["rel_width"] = write_rational((hi - lo) / hi / 2)
    assert _verify(narrow).outcome == "FAIL"
    swapped = _with_epsilons(delta_cert, hi, lo)
    assert _verify(swapped).outcome == "FAIL"
    fewer = copy.deepcopy(points_cert)
    fewer["result"]["points"].pop()
    assert _verify(fewer).outcome == "FAIL"
    zero = _with_point(points_cert, 2, lower=Fraction(0), upper=Fraction(0))
    zero["result"]["points"][2]["lower_order"] = None
    r = _verify(zero)
    assert r.outcome == "FAIL" and any("δ(ε) > 0" in f["recomputed"] for f in r.failures)


def test_result_of_the_wrong_form_is_malformed(delta_cert, points_cert):
    wrong = copy.deepcopy(delta_cert)
    wrong["input"].pop("delta")
    wrong["input"]["epsilons"] = ["1"]
    assert _verify(wrong).outcome == "MALFORMED"
    wrong = copy.deepcopy(points_cert)
    wrong["input"].pop("epsilons")
    wrong["input"]["delta"] = "1/1000"
    assert _verify(wrong).outcome == "MALFORMED"


@pytest.mark.parametrize("path, value", [
    (("input", "stages", 0, "sampling_rate"), "1/100000000"),
    (("input", "stages", 0, "noise_multiplier"), "1/11"),
    (("input", "stages", 0, "noise_multiplier"), "101"),
    (("input", "delta"), "1/10000000000000000000000000000000"),
    (("input", "rel_width"), "2/3"),
    (("input", "rel_width"), "1/10000000"),
])
def test_outside_the_domain_is_malformed(delta_cert, path, value):
    wrong = copy.deepcopy(delta_cert)
    _set(wrong, path, value)
    assert _verify(wrong).outcome == "MALFORMED"


def test_the_estimate_of_an_embedded_certificate_names_its_place(delta_cert):
    """Embedded in another certificate at /result/meets, a dpsgd/1 outside its domain (or with a recipe of the
    wrong shape) is MALFORMED at its own place in the enclosing file, before any work."""
    from auditor.certificate import Malformed
    wrong = copy.deepcopy(delta_cert)
    _set(wrong, ("input", "stages", 0, "noise_multiplier"), "1/11")
    with pytest.raises(Malformed, match="^/result/meets/input/stages/0/noise_multiplier: "):
        dpsgd.estimate(wrong, "/result/meets")
    wrong = copy.deepcopy(delta_cert)
    wrong["result"]["discretisation"]["ranges"].append([0, 1])
    with pytest.raises(Malformed, match="^/result/meets/result/discretisation/ranges"):
        dpsgd.estimate(wrong, "/result/meets")
    assert dpsgd.estimate(delta_cert, "/result/meets").pointer.startswith("/result/meets/")


def test_epsilons_must_increase(points_cert):
    wrong = copy.deepcopy(points_cert)
    wrong["input"]["epsilons"] = ["0", "1/5", "1/20"]
    assert _verify(wrong).outcome == "MALFORMED"


# ---- hostile sizes: refused before the work ------------------------------------------------------------

def _hostile(cert):
    d = ("result", "discretisation")
    upper0 = d + ("windows", "remove", "upper", "stages", 0)
    many_stages = copy.deepcopy(cert["input"]["stages"]) * (10 ** 6)
    return [
        ("T = 10^12", [(("input", "stages", 0, "steps"), 10 ** 12)], MALFORMED),
        ("10^6 stages", [(("input", "stages"), many_stages)], (MALFORMED, UNCHECKED)),  # the reader's value count
        ("17 stages", [(("input", "stages"), many_stages[:17])], MALFORMED),
        ("p_bits = 10^9", [(d + ("p_bits",), 10 ** 9)], MALFORMED),
        ("q_bits = 8192", [(d + ("q_bits",), 8192)], UNCHECKED),
        ("grid 2·10^6", [(d + ("grid",), 2 * 10 ** 6), (d + ("ranges", 0), [-2 * 10 ** 6, 2 * 10 ** 6])], UNCHECKED),
        ("range 10^15", [(d + ("ranges", 0), [-10 ** 15, 10 ** 15])], UNCHECKED),
        ("range 3·10^6 buckets", [(d + ("grid",), 10 ** 6), (d + ("ranges", 0), [0, 3 * 10 ** 6])], UNCHECKED),
        ("window 10^15", [(upper0 + (3,), [-10 ** 15, 10 ** 15])], UNCHECKED),
        ("window of 2^23", [(upper0 + (3,), [0, 1 << 23])], UNCHECKED),
        ("T = 10^6, windows of 38 products", [(("input", "stages", 0, "steps"), 10 ** 6),
                                              (upper0, [[-10 ** 6, 10 ** 6]] * 31)], MALFORMED),
    ]


def test_hostile_sizes_are_refused_before_the_work(delta_cert, monkeypatch):
    """Each refusal comes from an estimate: the checks make no more calls than reading the sizes takes."""
    from auditor import api, reader
    cases = _hostile(delta_cert)
    big = copy.deepcopy(delta_cert)
    big["result"]["epsilon_lo"], big["result"]["epsilon_hi"] = "10000", "10001"
    big["result"]["epsilon_lo_display"], big["result"]["epsilon_hi_display"] = "10000", "10001"
    for label, edits, expected in cases + [("epsilon 10^4", [], UNCHECKED)]:
        cert = copy.deepcopy(big if label == "epsilon 10^4" else delta_cert)
        for path, value in edits:
            _set(cert, path, value)
        if label != "10^6 stages":  # refused by the reader's value count before any digest
            cert["digest"] = digest(cert)
        data = json.dumps(cert, sort_keys=True, separators=(",", ":")).encode()
        with monkeypatch.context() as patch, check_calls() as work:
            if label == "10^6 stages":  # the 62 MB text is counted, never parsed nor validated
                must_not_call(patch, reader.json, "loads")
                must_not_call(patch, api, "validate")
            r = verify_certificate(data)
        assert r.status in (expected if isinstance(expected, tuple) else (expected,)), (label, r.as_dict())
        assert work.before_the_work, (label, work)


def test_limits_are_documented_constants():
    assert dpsgd.MAX_BUCKETS == 2 * 10 ** 6 and dpsgd.MAX_WORKING_BITS == 4096
    # the whole check is bounded by the file's budget (auditor.budget; docs/certificates.md)
    assert (dpsgd.MASS_NS, dpsgd.CONVOLUTION_NS, dpsgd.PRODUCT_BYTES) == (160, 3, 384)


# ---- whatever the producer writes (small questions), the auditor checks ------------------------------

questions = st.fixed_dictionaries({
    "q": st.sampled_from(["1/1000", "1/100", "1/20", "3/10", "9/10", "1"]),
    "sigma": st.sampled_from(["1/2", "4/5", "1", "3/2", "4"]),
    "steps": st.integers(1, 40),
    "question": st.one_of(st.sampled_from(["1e-3", "1e-6", "1/3"]).map(lambda d: {"delta": d}),
                          st.sampled_from(["0", "1/2", "0,1,3", "1/10,2"]).map(lambda e: {"epsilons": e})),
})


def _produce_and_verify(question):
    cert = producer.dpsgd(question["q"], question["sigma"], question["steps"], **question["question"]).as_dict()
    r = verify_certificate(cert)
    assert r.outcome == "OK", (question, r.as_dict())


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(questions)
def test_the_producers_small_certificates_verify(question):
    _produce_and_verify(question)


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(questions)
# a split whose body part proves nothing at ε = 1 (every event of W0 negative: the Q atom X is in each)
@example({"q": "1/1000", "sigma": "3/2", "steps": 4, "question": {"epsilons": "0,1,3"}})
def test_the_producers_small_certificates_verify_many(question):
    _produce_and_verify(question)


@pytest.mark.parametrize("effort, outcome", [(2, "OK"), (8, "OK"), (1, "MALFORMED"), (9, "MALFORMED"),
                                             ("2", "MALFORMED"), (2.0, "MALFORMED"), (None, "MALFORMED")])
def test_an_opt_in_effort_claims_nothing_and_is_read_only_as_the_schema_allows(delta_cert, effort, outcome):
    """input.effort (2 … 8) is part of the request: the same claims verify with it; any other value is
    malformed (1 is written as no field)."""
    cert = copy.deepcopy(delta_cert)
    cert["input"]["effort"] = effort
    assert _verify(cert).outcome == outcome
