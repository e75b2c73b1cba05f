"""producer.kinds.dg_interval: the DG interval end to end; at γ = 0 and with discrete-Laplace innovations
(with calibration/1 there too, docs/plain-composition.md)."""

import decimal
import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import jsonschema
import pytest
from gmpy2 import mpq, mpz
from hypothesis import given, settings, strategies as st

import producer.kinds.dg_interval as dgi
from producer import api
from producer.certificates.canonical import render
from producer.errors import InputError
from producer.game.values import GameValue
from producer.rationals import decimal_outward, parse_rational
from producer.sources.discrete_laplace import DiscreteLaplaceSource
from producer.sources.transfer import transfer_term
from tests.reference_game import ReferenceGame
from tests.producer.kinds.edges import refused
from tests.untimed import HANG_GUARD_SECONDS

# *Exact Compilation and Resource Laws for Hidden Integer Feedback*, §4.3: γ = 1/3, σ = 3, C = 2, ε = 2
PUBLISHED_C2 = (parse_rational("0.000084311988514885295528"), parse_rational("0.000084311988530665157923"))


def reference_solver(law, gamma, budget, x, y, method=None):
    """A stand-in for the engine: the plain reference game of tests/reference_game.py."""
    game = ReferenceGame([int(w) for w in law.weights], law.offset, gamma.a, gamma.B)
    value = game.G(budget, Fraction(int(x.numerator), int(x.denominator)),
                   Fraction(int(y.numerator), int(y.denominator)))
    return GameValue(mpq(value.numerator, value.denominator), {"action": "stop"}, "reference")


@settings(max_examples=12)
@given(st.sampled_from([mpq(1, 2), mpq(1), mpq(9, 4)]), st.sampled_from([mpq(0), mpq(1, 2), mpq(3, 2)]),
       st.integers(min_value=1, max_value=2), st.integers(min_value=8, max_value=2**12),
       st.sampled_from(["1/3", "1/2", "2/3"]))
def test_tiny_sources_match_the_plain_reference_game(sigma2, eps, radius, scale, gamma):
    check_against_reference(dgi.Request(gamma, sigma2, 1, eps, radius=radius, scale=scale))


def test_tiny_budget_two_source_matches_the_plain_reference_game():
    check_against_reference(dgi.Request("1/3", mpq(1, 2), 2, mpq(1, 2), radius=1, scale=64))


def check_against_reference(request):
    engine = dgi.evaluate(request)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(dgi, "_solve", reference_solver)
        reference = dgi.evaluate(request)
    assert engine.finite.value == reference.finite.value
    assert (engine.lower, engine.upper) == (reference.lower, reference.upper)
    assert engine.v == engine.finite.value - engine.lam_lo
    assert engine.lower <= engine.v <= engine.upper


@pytest.mark.parametrize("budget", [1, 2])
def test_intervals_from_different_sources_intersect(budget):
    for eps in (mpq(0), mpq(1, 2), mpq(3, 2)):
        coarse = dgi.evaluate(dgi.Request("1/3", mpq(9), budget, eps, radius=10, scale=2**20))
        fine = dgi.evaluate(dgi.Request("1/3", mpq(9), budget, eps, width=mpq(1, 10**9)))
        assert coarse.lower <= fine.upper and fine.lower <= coarse.upper
        assert fine.width < mpq(1, 10**9) < coarse.width


def test_published_c2_interval_is_reproduced():
    result = dgi.evaluate(dgi.Request("1/3", mpq(9), 2, mpq(2), width=mpq(2, 10**14)))
    assert result.width <= mpq(2, 10**14)
    assert result.lower <= PUBLISHED_C2[1] and PUBLISHED_C2[0] <= result.upper
    assert result.source.radius == 24
    assert result.lam_lo <= result.lam_hi and result.lam_hi - result.lam_lo <= mpq(2, 10**14) / 64


def test_certificate_fields_and_determinism():
    request = dgi.Request("1/3", mpq(9), 1, mpq("4.91"), radius=8, scale=mpz(2) ** 30)
    cert = dgi.build(request)
    assert render(cert) == render(dgi.build(request))
    assert cert["schema"] == "dg-interval/1"
    assert cert["input"]["epsilon"] == "491/100"
    assert cert["input"]["source"] == {"radius": 8, "scale": str(2**30)}
    res = cert["result"]
    assert res["source"]["offset"] == -8 and len(res["source"]["weights"]) == 17
    assert sum(int(w) for w in res["source"]["weights"]) == 2**30
    lower, upper = mpq(res["interval"]["lower"]), mpq(res["interval"]["upper"])
    assert mpq(res["interval"]["width"]) == upper - lower
    assert Fraction(res["interval"]["lower_display"]) <= Fraction(res["interval"]["lower"])
    assert Fraction(res["interval"]["upper_display"]) >= Fraction(res["interval"]["upper"])


def test_budget_zero_gives_the_zero_interval():
    result = dgi.evaluate(dgi.Request("1/3", mpq(9), 0, mpq(1), radius=5, scale=1000))
    assert (result.lower, result.upper) == (0, 0)


@pytest.mark.parametrize("width", [mpq(1, 100), mpq(1, 10**6), mpq(1, 10**12)])
def test_width_mode_is_narrower_than_requested(width):
    result = dgi.evaluate(dgi.Request("1/2", mpq(1), 2, mpq(1), width=width))
    assert result.width < width


def test_decimal_display_rounds_outward_exactly():
    x = mpq(10**30 + 1, 3 * 10**31)
    with decimal.localcontext() as ctx:
        ctx.prec = 100
        exact = decimal.Decimal(10**30 + 1) / decimal.Decimal(3 * 10**31)
        down = exact.quantize(decimal.Decimal(1).scaleb(-40), rounding=decimal.ROUND_FLOOR)
        up = exact.quantize(decimal.Decimal(1).scaleb(-40), rounding=decimal.ROUND_CEILING)
    assert decimal_outward(x, 40, -1) == str(down)
    assert decimal_outward(x, 40, +1) == str(up)
    assert decimal_outward(-x, 40, +1) == "-" + str(down)
    assert decimal_outward(mpq(1, 4), 2, -1) == decimal_outward(mpq(1, 4), 2, +1) == "0.25"


@pytest.mark.parametrize("kwargs", [
    dict(radius=3, scale=10, width=mpq(1, 10)),
    dict(),
    dict(radius=3),
    dict(scale=10),
    dict(width=mpq(0)),
    dict(width=mpq(1, 10), method="fast"),
])
def test_bad_requests_are_refused(kwargs):
    with pytest.raises(InputError):
        dgi.Request("1/3", mpq(9), 2, mpq(2), **kwargs)


def test_bad_parameters_are_refused():
    with pytest.raises(InputError):
        dgi.Request("1/3", mpq(9), 2, mpq(-1), width=mpq(1, 10))
    with pytest.raises(InputError):
        dgi.Request("2/6", mpq(9), 2, mpq(1), width=mpq(1, 10))
    with pytest.raises(InputError):
        dgi.Request("1/3", mpq(0), 2, mpq(1), width=mpq(1, 10))
    with pytest.raises(InputError):
        dgi.Request("1/3", mpq(9), -1, mpq(1), width=mpq(1, 10))


# the paper's Appendix F.5: γ = 1/3, σ = 3, C = 3, ε = 2, L = 24
PUBLISHED_C3 = (parse_rational("0.001471784810259119"), parse_rational("0.001471784810282800"))


@pytest.mark.reference
def test_published_c3_interval_is_reproduced_and_audited(tmp_path):
    from auditor.cli import verify_file
    cert = dgi.build(dgi.Request("1/3", mpq(9), 3, mpq(2), radius=24, scale=mpz(2) ** 80))
    iv = cert["result"]["interval"]
    lower, upper = mpq(iv["lower"]), mpq(iv["upper"])
    assert lower <= PUBLISHED_C3[1] and PUBLISHED_C3[0] <= upper
    assert upper - lower < mpq(2369, 10**17)
    path = tmp_path / "c3.json"
    path.write_bytes(render(cert))
    status, report = verify_file(str(path))
    assert status == 0, report.failures


# ---- γ = 0 (plain composition) and the discrete Laplace ---------------------------------

ROOT = Path(__file__).resolve().parents[3]


def schema_valid(cert):
    kind = cert.kind.split("/")[0]
    schema = json.loads((ROOT / "schemas" / f"{kind}-1.schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(schema).validate(json.loads(cert.to_json()))


def q(text):
    return mpq(text)


def test_plain_discrete_gaussian_sigma2_9_c2_eps2_is_certified_below_1e_14():
    cert = api.dg_interval("0", 9, 2, 2, width="1e-14")
    interval = cert.result["interval"]
    assert q(interval["width"]) <= mpq(1, 10**14)
    assert q(interval["lower"]) > 0
    assert cert.input["gamma"] == "0" and "noise" not in cert.input
    schema_valid(cert)


def test_plain_value_is_far_below_the_hidden_feedback_value():
    # both certified at the same σ², C, ε: the intervals are disjoint
    plain = api.dg_interval("0", 9, 2, 2, width="1e-12").result["interval"]
    hidden = api.dg_interval("1/3", 9, 2, 2, width="1e-12").result["interval"]
    assert q(plain["upper"]) < q(hidden["lower"])


def test_laplace_certificate_fields_follow_the_format():
    cert = api.dg_interval("1/3", None, 1, "1/2", radius=6, scale=2**30, laplace="5/2")
    inp, res = cert.input, cert.result
    assert inp["sigma2"] is None and inp["noise"] == {"family": "discrete-laplace", "t": "5/2"}
    assert res["source"]["noise"] == inp["noise"] and res["source"]["sigma2"] is None
    source = DiscreteLaplaceSource.from_radius_scale(mpq(5, 2), 6, 2**30)
    assert res["source"]["weights"] == [str(int(w)) for w in source.weights]
    assert q(res["tau"]) == source.tau
    assert q(res["transfer"]) == transfer_term(source.tau, 1, q(res["threshold"]["upper"]))
    schema_valid(cert)


def test_laplace_at_the_pure_dp_level_of_plain_composition_is_zero():
    # γ = 0, C = 2, t = 2: the composition is (C/t)-DP, so Δ*(1) = 0; the interval must contain 0
    cert = api.dg_interval("0", None, 2, 1, width="1e-10", laplace=2)
    assert q(cert.result["interval"]["lower"]) == 0
    assert q(cert.result["interval"]["upper"]) < mpq(1, 10**10)


def test_laplace_calibration_starts_at_the_pure_dp_envelope():
    cert = api.calibration("0", None, 2, "1e-6", width="1e-4", laplace=2)
    res = cert.result
    assert q(res["envelope"]) == 2 and res["status"] == "enclosed"
    assert q(res["epsilon_lo"]) < q(res["epsilon_hi"]) <= 1
    for key in ("lower_witness", "upper_witness"):
        assert res[key]["input"]["noise"] == {"family": "discrete-laplace", "t": "2"}
        assert res[key]["input"]["gamma"] == "0"
    schema_valid(cert)


def test_gaussian_calibration_at_gamma_zero_keeps_the_moment_envelope():
    cert = api.calibration("0/1", 9, 1, "1e-3", width="1e-3")
    assert cert.input["gamma"] == "0" and "noise" not in cert.input
    schema_valid(cert)


@pytest.mark.parametrize("sigma2, laplace", [(None, None), (9, 2)])
def test_exactly_one_law(sigma2, laplace):
    with pytest.raises(InputError):
        api.dg_interval("0", sigma2, 1, 1, width="1e-6", laplace=laplace)
    with pytest.raises(InputError):
        api.calibration("0", sigma2, 1, "1e-3", laplace=laplace)


def producer(*args):
    return subprocess.run([sys.executable, "-m", "producer", *args], capture_output=True, text=True,
                          timeout=HANG_GUARD_SECONDS, cwd=ROOT)


def test_cli_laplace_and_sigma2_are_mutually_exclusive():
    p = producer("dg", "--gamma", "0", "--sigma2", "9", "--laplace", "2", "--budget", "1",
                 "--epsilon", "1", "--width", "1e-6")
    assert p.returncode != 0 and "Traceback" not in p.stderr
    p = producer("calibrate", "--gamma", "0", "--budget", "1", "--delta", "1e-3")
    assert p.returncode != 0 and "Traceback" not in p.stderr and "--laplace" in p.stderr


def test_cli_bad_laplace_scale_is_one_line():
    p = producer("dg", "--gamma", "0", "--laplace", "0", "--budget", "1", "--epsilon", "1", "--width", "1e-6")
    assert p.returncode != 0 and "Traceback" not in p.stderr
    assert len(p.stderr.strip().splitlines()) == 1 and "laplace" in p.stderr


def test_cli_laplace_certificate(tmp_path):
    out = tmp_path / "c.json"
    p = producer("dg", "--gamma", "0.0", "--laplace", "3/2", "--budget", "1", "--epsilon", "1/2",
                 "--width", "1e-8", "-o", str(out))
    assert p.returncode == 0, p.stderr
    cert = json.loads(out.read_text(encoding="utf-8"))
    assert cert["input"]["gamma"] == "0" and cert["input"]["noise"]["t"] == "3/2"
    assert "discrete Laplace, plain composition" in p.stderr


def test_laplace_calibration_beyond_the_epsilon_limit_is_refused():
    from producer.errors import LimitError
    with pytest.raises(LimitError, match="2C/t"):
        api.calibration("1/3", None, 2, "1e-6", laplace="1/1000")


def test_plain_references_regenerate_byte_identically(tmp_path):
    from producer.references import plain
    for path in plain.generate(str(tmp_path)):
        name = Path(path).name
        assert Path(path).read_bytes() == (ROOT / "certificates" / "plain" / name).read_bytes(), name


# ---- the game of a dg-interval/1 within the auditor's limit ---------------------------------
def test_dg_interval_whose_game_is_beyond_the_auditor_is_refused(tmp_path):
    refused(["dg", "--gamma", "2/5", "--sigma2", 9, "--budget", 4, "--epsilon", 2, "--radius", 14,
              "--scale", 10 ** 24], tmp_path / "beyond.json", "of the auditor for one query")


def test_a_game_beyond_reach_names_the_hierarchy_for_a_discrete_gaussian():
    with pytest.raises(InputError) as info:
        api.dg_interval("1/3", 9, 5, 3, width="1e-3")
    text = str(info.value)
    assert "of the auditor for one query" in text and "\n" not in text
    assert "producer.hierarchy_upper(gamma=1/3, sigma2=9, budget=5, depth=2, epsilon=3) bounds" in text
    with pytest.raises(InputError) as info:   # the hierarchy has no discrete Laplace: not named
        api.dg_interval("1/3", None, 5, 3, width="1e-3", laplace=2)
    assert "hierarchy" not in str(info.value)


# ---- the auditor's budget of one file ---------------------------------------------------------------

def test_a_dg_interval_needs_at_most_one_budget():
    """400 × its one query's game work, whose own limit (1.5·10⁸) is one whole budget."""
    from producer.audit_budget import AuditCost, multiple
    from producer.game.auditability import DG_INTERVAL_UNITS, MAX_WORK
    most = DG_INTERVAL_UNITS * MAX_WORK
    assert multiple(AuditCost(most)) == 1 < multiple(AuditCost(most + 1))


def test_a_dg_interval_states_the_budget_the_auditor_needs(monkeypatch):
    from tests.producer.kinds.edges import least_auditor_budget, scaled_budget
    cert = api.dg_interval("1/3", 9, 2, 2, width="1e-6")
    scaled_budget(monkeypatch, dgi.auditor_cost(cert.as_dict()).work - 1)
    again = api.dg_interval("1/3", 9, 2, 2, width="1e-6")
    assert again == cert and again.auditor_budget == 2 and "--budget 2" in again.notice
    least_auditor_budget(cert.as_dict(), 2)
