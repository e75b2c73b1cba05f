"""auditor.checks.calibration: bracket logic, embedded dg-intervals and the moment envelope."""

import copy
import json

import pytest
from gmpy2 import mpq

from auditor.certificate import digest
from auditor.cli import verify_file
from producer.kinds.calibration import Request as CalibrationRequest, build
from producer.kinds.dg_interval import Request as DgRequest, build as build_dg
from producer.rationals import format_rational


@pytest.fixture(scope="module")
def enclosed():
    return build(CalibrationRequest("1/2", mpq(1), 1, mpq(1, 1000), width=mpq(1, 1000)))


@pytest.fixture(scope="module")
def zero():
    return build(CalibrationRequest("1/3", mpq(9), 2, mpq(1, 4), width=mpq(1, 10**6)))


def run(tmp_path, cert):
    path = tmp_path / "cal.json"
    path.write_text(json.dumps(cert))
    return verify_file(str(path))


def seal(cert):
    cert["digest"] = digest(cert)
    return cert


def pointers(report):
    return {f["pointer"] for f in report.failures}


WITNESS_WIDTH = mpq(1, 10**6)


def witness_at(epsilon, width=WITNESS_WIDTH):
    return build_dg(DgRequest("1/2", mpq(1), 1, epsilon, width=width))


def test_valid_calibrations_verify(tmp_path, enclosed, zero):
    for cert in (enclosed, zero):
        status, report = run(tmp_path, cert)
        assert status == 0, report.failures


def test_swapped_bracket_is_rejected(tmp_path, enclosed):
    cert = copy.deepcopy(enclosed)
    res = cert["result"]
    res["lower_witness"], res["upper_witness"] = res["upper_witness"], res["lower_witness"]
    res["epsilon_lo"], res["epsilon_hi"] = res["epsilon_hi"], res["epsilon_lo"]
    res["epsilon_lo_display"], res["epsilon_hi_display"] = res["epsilon_hi_display"], res["epsilon_lo_display"]
    status, report = run(tmp_path, seal(cert))
    assert status == 1
    assert {"/result/lower_witness/result/interval/lower",
            "/result/upper_witness/result/interval/upper"} <= pointers(report)


def test_lower_witness_on_the_wrong_side_is_rejected(tmp_path, enclosed):
    cert = copy.deepcopy(enclosed)
    res = cert["result"]
    hi = mpq(res["epsilon_hi"])
    # a certified interval at ε_hi lies below δ, so it cannot prove ε* >= ε_hi − (a little)
    lo = hi - mpq(1, 2**20)
    res["lower_witness"] = witness_at(hi)
    res["lower_witness"]["input"]["epsilon"] = format_rational(lo)  # claims to be at lo
    seal(res["lower_witness"])
    res["epsilon_lo"] = format_rational(lo)
    status, report = run(tmp_path, seal(cert))
    assert status == 1
    assert "/result/lower_witness/result/interval/lower" in pointers(report)


def test_upper_witness_on_the_wrong_side_is_rejected(tmp_path, enclosed):
    cert = copy.deepcopy(enclosed)
    res = cert["result"]
    lo = mpq(res["epsilon_lo"])
    res["upper_witness"] = witness_at(lo)
    res["epsilon_hi"] = format_rational(lo)
    status, report = run(tmp_path, seal(cert))
    assert status == 1
    assert "/result/upper_witness/result/interval/upper" in pointers(report)


def test_bracket_wider_than_requested_is_rejected(tmp_path, enclosed):
    cert = copy.deepcopy(enclosed)
    res = cert["result"]
    cert["input"]["width"] = format_rational(mpq(res["epsilon_hi"]) - mpq(res["epsilon_lo"]))
    status, report = run(tmp_path, seal(cert))
    assert status == 1 and pointers(report) == {"/result/epsilon_hi"}


def test_envelope_below_the_moment_bound_is_rejected(tmp_path, enclosed):
    cert = copy.deepcopy(enclosed)
    res = cert["result"]
    res["envelope"] = format_rational(mpq(res["envelope"]) - mpq(1, 2**20))
    status, report = run(tmp_path, seal(cert))
    assert status == 1 and pointers(report) == {"/result/envelope"}


def test_zero_status_needs_the_value_at_zero_below_delta(tmp_path, zero):
    cert = copy.deepcopy(zero)
    upper = mpq(cert["result"]["upper_witness"]["result"]["interval"]["upper"])
    cert["input"]["delta"] = format_rational(upper - mpq(1, 10**9))
    status, report = run(tmp_path, seal(cert))
    assert status == 1 and "/result/upper_witness/result/interval/upper" in pointers(report)


def test_embedded_witness_tampering_is_rejected(tmp_path, enclosed):
    cert = copy.deepcopy(enclosed)
    w = cert["result"]["upper_witness"]
    w["result"]["tau"] = "0"
    status, report = run(tmp_path, seal(cert))          # outer digest fine, inner digest stale
    assert status == 1 and "/result/upper_witness/digest" in pointers(report)
    w["digest"] = digest(w)
    status, report = run(tmp_path, seal(cert))          # inner digest recomputed too
    assert status == 1 and "/result/upper_witness/result/tau" in pointers(report)


def test_witness_for_another_question_is_rejected(tmp_path, enclosed):
    cert = copy.deepcopy(enclosed)
    res = cert["result"]
    res["epsilon_hi"] = format_rational(mpq(res["epsilon_hi"]) + mpq(1, 2**30))
    status, report = run(tmp_path, seal(cert))
    assert status == 1 and "/result/upper_witness/input/epsilon" in pointers(report)
    cert = copy.deepcopy(enclosed)
    cert["input"]["gamma"] = "1/3"
    status, report = run(tmp_path, seal(cert))
    assert status == 1 and "/result/upper_witness/input/gamma" in pointers(report)


def test_status_and_witness_structure(tmp_path, enclosed, zero):
    cert = copy.deepcopy(enclosed)
    cert["result"]["status"] = "zero"
    assert run(tmp_path, seal(cert))[0] == 1
    cert = copy.deepcopy(zero)
    cert["result"]["status"] = "enclosed"
    assert run(tmp_path, seal(cert))[0] == 1
    cert = copy.deepcopy(enclosed)
    del cert["result"]["upper_witness"]
    assert run(tmp_path, seal(cert))[0] == 2
    cert = copy.deepcopy(enclosed)
    cert["schema"] = "calibration/9"
    assert run(tmp_path, seal(cert))[0] == 2
