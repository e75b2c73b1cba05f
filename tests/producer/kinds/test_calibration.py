"""producer.kinds.calibration: certified enclosures of ε*_C(δ) end to end."""

import pytest
from gmpy2 import mpq

from producer.kinds.calibration import Request as CalibrationRequest, build
from producer.certificates.canonical import render
from producer.errors import InputError
from producer.sources.moment import envelope_upper
from tests.producer.kinds.edges import refused


def interval_of(witness):
    iv = witness["result"]["interval"]
    return mpq(iv["lower"]), mpq(iv["upper"])


def test_small_calibration_brackets_with_certified_witnesses():
    request = CalibrationRequest("1/2", mpq(1), 1, mpq(1, 1000), width=mpq(1, 1000))
    cert = build(request)
    res = cert["result"]
    assert cert["schema"] == "calibration/1" and res["status"] == "enclosed"
    lo, hi = mpq(res["epsilon_lo"]), mpq(res["epsilon_hi"])
    assert 0 <= lo < hi <= mpq(res["envelope"]) and hi - lo < mpq(1, 1000)
    assert interval_of(res["lower_witness"])[0] > mpq(1, 1000)
    assert interval_of(res["upper_witness"])[1] <= mpq(1, 1000)
    assert mpq(res["lower_witness"]["input"]["epsilon"]) == lo
    assert mpq(res["upper_witness"]["input"]["epsilon"]) == hi
    assert mpq(res["envelope"]) == envelope_upper(1, 1, mpq(1, 1000))
    assert render(cert) == render(build(request))


def test_large_delta_gives_exact_zero():
    cert = build(CalibrationRequest("1/3", mpq(9), 2, mpq(1, 4), width=mpq(1, 10**6)))
    res = cert["result"]
    assert res["status"] == "zero" and res["epsilon_lo"] == res["epsilon_hi"] == "0"
    assert res["lower_witness"] is None
    assert res["upper_witness"]["input"]["epsilon"] == "0"
    assert interval_of(res["upper_witness"])[1] <= mpq(1, 4)


def test_budget_zero_calibrates_to_zero():
    cert = build(CalibrationRequest("1/3", mpq(9), 0, mpq(1, 10**4)))
    assert cert["result"]["status"] == "zero" and cert["result"]["envelope"] == "0"


@pytest.mark.parametrize("delta, width", [(mpq(0), None), (mpq(1), None), (mpq(-1, 10), None),
                                          (mpq(1, 10), mpq(0))])
def test_bad_calibration_requests_are_refused(delta, width):
    with pytest.raises(InputError):
        CalibrationRequest("1/3", mpq(9), 2, delta, width=width)


@pytest.mark.reference
def test_published_mechanism_delta_1e4_width_1e6():
    cert = build(CalibrationRequest("1/3", mpq(9), 2, mpq(1, 10**4), width=mpq(1, 10**6)))
    res = cert["result"]
    lo, hi = mpq(res["epsilon_lo"]), mpq(res["epsilon_hi"])
    assert hi - lo < mpq(1, 10**6)
    # the published C = 2 interval at ε = 2 lies below 10^-4, so ε* < 2
    assert hi < 2


# ---- the auditor's envelope limit ---------------------------------------------------------


def test_calibration_beyond_the_envelope_exponent_limit_is_refused(tmp_path):
    # 8C/σ² = 8·5/(1/1250) = 50,000 is the auditor's limit; one step smaller σ² is beyond it
    refused(["calibrate", "--gamma", "1/3", "--sigma2", "1/1251", "--budget", 5, "--delta", "1/1000"],
             tmp_path / "beyond.json", "8C/σ²")


def test_calibration_envelope_limit_is_the_auditors():
    # at the limit itself (C = 5, σ² = 1/1250) no calibration can be written: the discrete Gaussian is then
    # a point mass but for e^-625, Δ*_5(ε) is about 1 at every ε <= 64 (the producer's limit for every
    # witness), so the edge is compared instead
    from auditor.checks.dg_interval import MAX_EXP_ARGUMENT
    from producer.kinds.calibration import MAX_ENVELOPE_EXPONENT
    assert MAX_ENVELOPE_EXPONENT == MAX_EXP_ARGUMENT == 8 * 5 * 1250


# ---- the auditor's budget of one file ---------------------------------------------------------------

def test_both_witnesses_count_and_the_calibration_states_the_budget(monkeypatch):
    """The two witnesses' games together (each within one budget, so at most two: never refused)."""
    from producer import api
    from producer.kinds import calibration, dg_interval
    from tests.producer.kinds.edges import least_auditor_budget, scaled_budget
    cert = api.calibration("1/3", 9, 2, "1e-4")
    res = cert.result
    witnesses = [dg_interval.auditor_cost(res[k]).work for k in ("lower_witness", "upper_witness")]
    assert calibration.auditor_cost(cert.as_dict()).work == sum(witnesses)
    scaled_budget(monkeypatch, max(witnesses))
    again = api.calibration("1/3", 9, 2, "1e-4")
    assert again == cert and again.auditor_budget == 2
    least_auditor_budget(cert.as_dict(), 2)
