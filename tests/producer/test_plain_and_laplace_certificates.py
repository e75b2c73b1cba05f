"""dg-interval/1 and calibration/1 at γ = 0 and with discrete-Laplace innovations (docs/plain-composition.md)."""

import json
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
from gmpy2 import mpq

from producer import api
from producer.errors import InputError
from producer.sources.discrete_laplace import DiscreteLaplaceSource
from producer.sources.transfer import transfer_term

ROOT = Path(__file__).resolve().parents[2]


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
                          timeout=120, cwd=ROOT)


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
