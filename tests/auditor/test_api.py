"""The Python API (auditor.api): reports, outcomes, claims, and a fuzzing mutator."""

import doctest
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

import auditor
from auditor import api, claims, outcomes, rationals, reader, report
from auditor.checks import checker_for, finite_game, hierarchy
from auditor.outcomes import Unchecked
from auditor.rationals import MalformedNumber
from tests.auditor.mutation import QUICK, mutants, reference, seal
from tests.untimed import cpu_bound, hang_guard

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("module", [api, claims, outcomes, rationals, reader, report])
def test_doctests(module):
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


def test_package_reexports_the_api():
    assert auditor.verify_file is api.verify_file
    assert auditor.verify_certificate is api.verify_certificate


@pytest.mark.parametrize("name", QUICK)
def test_reference_certificates_verify_with_a_claim(name):
    r = api.verify_file(ROOT / "certificates" / name)
    assert (r.status, r.outcome, r.ok) == (0, "OK", True), r.as_dict()
    cert = reference(name)
    assert r.kind == cert["schema"]
    assert r.claim and "no summary" not in r.claim and "\n" not in r.claim
    assert r.failures == [] and r.unchecked is None and r.error is None
    json.dumps(r.as_dict())


def test_claim_of_the_published_example_states_the_exact_value():
    r = api.verify_file(ROOT / "certificates" / "finite-game-c2-121-g1_3.json")
    assert r.claim.startswith("G_2(1, 1/2) = 4/3")
    assert "gamma = 1/3, law (1,2,1)/4 on [-1..1], C = 2" in r.claim


def test_dict_str_and_bytes_give_the_same_report():
    cert = reference("finite-game-c1-asym-g3_7.json")
    text = json.dumps(cert)
    reports = [api.verify_certificate(c) for c in (cert, text, text.encode(), bytearray(text.encode()))]
    assert {(r.status, r.claim, r.checked) for r in reports} == {(0, reports[0].claim, reports[0].checked)}


def test_a_false_claim_is_a_failure_with_its_pointer():
    cert = reference("finite-game-c2-121-g1_3.json")
    cert["result"]["queries"][0]["value"] = "6/7"
    r = api.verify_certificate(seal(cert))
    assert r.status == 1 and r.outcome == "FAIL" and not r.ok and r.claim is None
    assert {"/result/queries/0/value"} <= {f["pointer"] for f in r.failures}


@pytest.mark.parametrize("cert, phrase", [
    ({"schema": "finite-game/1", "x": 2.0}, "2.0 is not an integer"),
    ({"schema": "finite-game/1", "x": float("nan")}, "NaN"),
    ({"schema": "finite-game/1", 1: "x"}, "object key of type int"),
    ({"schema": "finite-game/1", "x": {1, 2}}, "type set"),
    ({"schema": "finite-game/1", "x": "\ud800"}, "lone surrogate"),
    ("{\"a\": 1, \"a\": 1}", "duplicate key"),
    ("\ud800", "lone surrogate"),
    (b"\xff", "not UTF-8"),
    (42, "not a certificate: a int"),
    ({"input": {}, "result": {}}, "/schema: missing field schema"),
    ("{}", "/schema: missing field schema"),
    ({"rows": [{"file": "dg-g0-s4-c1-e1.json"}]}, "the summary table of `producer sweep`, not a certificate"),
    ({"schema": None}, "/schema: null is not a string 'kind/version'"),
    ({"schema": ["finite-game/1"]}, "is not a string 'kind/version'"),
])
def test_malformed_in_memory_certificates(cert, phrase):
    r = api.verify_certificate(cert)
    assert (r.status, r.outcome) == (2, "MALFORMED") and phrase in r.error


def test_deep_and_cyclic_dicts_are_refused_without_recursion():
    deep = {"schema": "finite-game/1"}
    node = deep
    for _ in range(10_000):
        node["x"] = {}
        node = node["x"]
    assert "nested more than 64" in api.verify_certificate(deep).error
    cyclic = {"schema": "finite-game/1"}
    cyclic["self"] = cyclic
    assert api.verify_certificate(cyclic).status == 2


def _with_checks(monkeypatch, verify):
    monkeypatch.setattr(finite_game, "verify", verify)
    return api.verify_certificate(reference("finite-game-c0-121.json"))


@pytest.mark.parametrize("exc", [ZeroDivisionError("division by zero"), RecursionError("too deep"),
                                 MemoryError(), OverflowError("big"), ValueError("bad"),
                                 KeyError("k"), AssertionError()])
def test_internal_errors_are_status_4_not_a_verdict(monkeypatch, exc):
    def verify(cert, rep):
        rep.fail("/x", "1", "2", "a failure before the crash")
        raise exc
    r = _with_checks(monkeypatch, verify)
    assert (r.status, r.outcome, r.ok) == (4, "ERROR", False)
    assert r.error.startswith(f"internal: {type(exc).__name__}")
    assert r.failures == [] and r.claim is None


def test_malformed_raised_by_a_check_is_status_2(monkeypatch):
    def verify(cert, rep):
        raise MalformedNumber("/input/gamma: '2/6' is not reduced")
    r = _with_checks(monkeypatch, verify)
    assert (r.status, r.error) == (2, "/input/gamma: '2/6' is not reduced")


def test_unchecked_is_status_3_unless_a_claim_already_failed(monkeypatch):
    def refuse(cert, rep):
        raise Unchecked("/input/budget", 10**12, 5 * 10**7)
    r = _with_checks(monkeypatch, refuse)
    assert (r.status, r.outcome) == (3, "UNCHECKED")
    assert r.unchecked == "/input/budget: estimated work 1000000000000 exceeds the limit 50000000"

    def fail_then_refuse(cert, rep):
        rep.fail("/result/x", "1", "2", "false")
        raise Unchecked("/input/budget", 10**12, 5 * 10**7)
    r = _with_checks(monkeypatch, fail_then_refuse)
    assert r.status == 1 and r.unchecked and r.failures


def test_unchecked_message_is_bounded_for_huge_estimates():
    text = str(Unchecked("/input/x", 10**10_000, 10**8))
    assert len(text) < 250 and "(10001 digits)" in text


def test_report_as_dict_fields():
    d = api.verify_file("/nonexistent.json").as_dict()
    assert set(d) == {"file", "kind", "status", "outcome", "ok", "claim", "checked", "failures",
                      "unchecked", "error"}
    assert (d["status"], d["outcome"], d["ok"]) == (2, "MALFORMED", False)


def test_report_keeps_slots():
    with pytest.raises(AttributeError):
        report.Report("x").anything = 1


def test_claims_state_sound_outward_decimals():
    from fractions import Fraction
    for q in [Fraction(2, 3), Fraction(-5, 7), Fraction(10**30 + 1, 3), Fraction(1, 10**20 + 7)]:
        lo, hi = claims.outward(q)
        assert _decimal(lo) <= q <= _decimal(hi)


def _decimal(text):
    from fractions import Fraction
    mantissa, _, exponent = text.partition("e")
    return Fraction(mantissa) * Fraction(10) ** int(exponent or 0)


# ---- fuzzing ---------------------------------------------------------------------

def _verify_mutant(label, data, may_verify):
    r = api.verify_certificate(data, name=label)
    allowed = {0, 1, 2, 3} if may_verify else {1, 2, 3}
    assert r.status in allowed, (label, r.as_dict())
    assert r.error is None or "\n" not in r.error
    return r


@pytest.mark.slow  # seconds (40 certificates of every kind): make references runs it
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutants())
def test_mutated_certificates_never_verify_nor_crash(mutant):
    _verify_mutant(*mutant)


@pytest.mark.slow
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutants())
def test_mutated_certificates_many(mutant):
    _verify_mutant(*mutant)


@pytest.mark.slow
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutants(heavy=True))
def test_mutated_certificates_with_large_numbers(mutant):
    """Large numbers never blow up: the costliest of 100 such mutants took 0.3 CPU s (the bound is 20)."""
    with hang_guard(), cpu_bound(20):
        _verify_mutant(*mutant)


REFERENCE_DIRS = ("certificates", "certificates/dpsgd", "certificates/hierarchy", "certificates/slow",
                  "certificates/paper")
ALL_REFERENCES = sorted(str(p.relative_to(ROOT)) for d in REFERENCE_DIRS for p in (ROOT / d).glob("*.json"))


def _load(path):
    return json.loads((ROOT / path).read_text())


def _of_schema(*schemas):
    """The reference files whose certificate has one of ``schemas`` (not their file name)."""
    return [p for p in ALL_REFERENCES if _load(p)["schema"] in schemas]


def _summary(cert):
    return api.certified_claim(cert["schema"].split("/")[0], cert)


def test_every_reference_directory_is_covered():
    assert {str(Path(p).parent) for p in ALL_REFERENCES} == set(REFERENCE_DIRS)


@pytest.mark.parametrize("path", ALL_REFERENCES)
def test_every_reference_kind_has_a_summary(path):
    cert = _load(path)
    kind = cert["schema"].split("/")[0]
    assert callable(getattr(checker_for(kind), "claim", None)), f"auditor/checks has no claim(cert) for {kind}"
    text = api.certified_claim(kind, cert)
    assert text and "no summary" not in text and "\n" not in text and len(text) < 400


def _interval_in(text):
    import re
    m = re.search(r"in \[([-0-9.e+/]+), ([-0-9.e+/]+)\]", text)
    return _decimal(m.group(1)), _decimal(m.group(2))


@pytest.mark.parametrize("path", _of_schema("dg-interval/1", "calibration/1"))
def test_summary_intervals_contain_the_certified_ones(path):
    from fractions import Fraction
    cert = _load(path)
    text = _summary(cert)
    res = cert["result"]
    if cert["schema"] == "dg-interval/1":
        exact = Fraction(res["interval"]["lower"]), Fraction(res["interval"]["upper"])
    elif res["status"] == "zero":
        assert " = 0 for " in text
        return
    else:
        exact = Fraction(res["epsilon_lo"]), Fraction(res["epsilon_hi"])
    lo, hi = _interval_in(text)
    assert lo <= exact[0] <= exact[1] <= hi


# ---- one-sided bounds of the lower-certificate and hierarchy kinds -----------------------

def _stated_bounds(text):
    """Every ``<= number`` / ``>= number`` of a summary, in order."""
    import re
    return [(op, _decimal(num)) for op, num in re.findall(r"(<=|>=) ([-0-9][-0-9.e+/]*)", text)]


def _separation_bounds(cert):
    from fractions import Fraction
    res, claim = cert["result"], cert["input"]["claim"]
    if claim == "renyi-cover":
        # "alpha >= <first band's left end>", then the order-16 lower bound
        return [(">=", Fraction(res["bands"][0]["left"])), (">=", Fraction(res["top"]["lower"]))]
    if claim == "finite-relaxation":
        return []  # exact rationals: test_finite_relaxation_summary_states_the_exact_chain
    privacy = ("<=", Fraction(res["privacy_bound"]["result"]["interval"]["upper"]))
    if claim == "dg-relaxation":
        return [privacy, (">=", Fraction(res["relaxation_interval"]["lower"]))]
    if claim == "offset-event":
        return [privacy, (">=", Fraction(res["payoff"]["lower"]))]
    if claim == "binary-pair":
        return [privacy, (">=", Fraction(res["payoff"]["lower"])),
                ("<=", Fraction(res["d_infinity_upper"]))]
    return []


def _certified_bounds(cert):
    """(direction, exact certified value) of each bound the summary must state, in order."""
    from fractions import Fraction
    kind, res = cert["schema"], cert["result"]
    if kind == "hierarchy/1":
        exact = res["epsilon"] if "delta" in cert["input"]["query"] else res["upper"]
        return [("<=", Fraction(exact))]
    if kind == "deadline-witness/1":
        reference = res["reference"]
        reference = [] if reference is None else [("<=", Fraction(reference["result"]["interval"]["upper"]))]
        return [(">=", Fraction(d["lower"])) for d in res["deadlines"][:claims.MAX_LISTED]] + reference
    if kind == "workload/1":
        return [("<=", Fraction(res["delta_upper"]))]
    if kind == "calibration-lower/1":
        return [(">=", Fraction(res["epsilon_lower"]))]
    if kind == "block-composition/1":
        return [("<=", Fraction(m["bound"])) for m in res["methods"]]
    if kind == "minimum-deletion/1":
        return [(">=", Fraction(e["lower"])) for e in res["lowers"][:claims.MAX_LISTED]] + \
            [("<=", Fraction(res["upper"]["upper"]))]
    if kind == "minimum-depth/1":
        return [(">=", Fraction(res["lower"]["lower"])), ("<=", Fraction(res["upper"]["upper"]))]
    return _separation_bounds(cert)


ONE_SIDED = ("hierarchy/1", "deadline-witness/1", "workload/1", "separation/1", "calibration-lower/1",
             "block-composition/1", "minimum-deletion/1", "minimum-depth/1")


@pytest.mark.parametrize("path", _of_schema(*ONE_SIDED))
def test_summary_bounds_lie_on_the_safe_side(path):
    cert = _load(path)
    stated = _stated_bounds(_summary(cert))
    expected = _certified_bounds(cert)
    assert [op for op, _ in stated] == [op for op, _ in expected]
    for (op, shown), (_, exact) in zip(stated, expected):
        # an upper bound may only be rounded up, a lower bound only down, by < 1e-9 relative
        assert shown >= exact if op == "<=" else shown <= exact
        assert abs(shown - exact) <= abs(exact) / 10**9


def test_renyi_summary_states_the_top_order_gap():
    import re
    from fractions import Fraction
    cert = _load("certificates/separation-renyi-cover.json")
    m = re.search(r"> ([0-9.e+/-]+) >= D_inf", _summary(cert))
    assert _decimal(m.group(1)) >= Fraction(cert["result"]["top"]["d_infinity_upper"])


def test_finite_relaxation_summary_states_the_exact_chain():
    cert = _load("certificates/separation-finite-relaxation-121-g1_3.json")
    res = cert["result"]
    assert f"= {res['autonomous']} < {res['one_digit']} (one-digit relaxation) < {res['offset']}" \
        in _summary(cert)


@pytest.mark.parametrize("q", ["4867767/1000000", "2/3", "-5/7", "1208541048903/250000000000",
                               "7/10000000000000000000", str(10**40 + 1) + "/3"])
def test_one_sided_texts_round_the_safe_way(q):
    from fractions import Fraction
    assert _decimal(claims.lower_text(Fraction(q))) <= Fraction(q) <= _decimal(claims.upper_text(Fraction(q)))


def test_cut_sets_are_described_by_what_is_missing_or_counted():
    assert hierarchy.cut_set_text([], 4) == "S empty"
    assert hierarchy.cut_set_text([0, 1, 2], 4) == "S = all cuts 0..2"
    assert hierarchy.cut_set_text([1], 8) == "S = {1}"
    assert hierarchy.cut_set_text([0, 2, 3, 4, 5, 6], 8) == "S = {0..6} without {1}"
    assert hierarchy.cut_set_text(list(range(0, 31, 2)), 32) == "S = 16 of the cuts 0..30"


def test_summary_of_an_unknown_form_does_not_raise():
    assert api.certified_claim("finite-game", {"input": {}}) == "a finite-game certificate (no summary of this form)"
