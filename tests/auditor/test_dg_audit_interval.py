"""auditor.checks.dg_interval: valid certificates pass, a corpus of wrong ones is rejected.

Targeted mutations are re-sealed (finite value, transfer, interval and digest
recomputed consistently by the producer) so that exactly the mutated claim is
wrong, and the failure must be reported at that claim's pointer.
"""

import copy
import json

import mpmath
import pytest
from gmpy2 import mpq

from auditor.certificate import digest
from auditor.cli import verify_file
from producer.kinds.dg_interval import Request as DgRequest, build, display_digits
from producer.rationals import decimal_outward
from producer.game.values import root_value
from producer.laws import FiniteLaw, Gamma
from producer.rationals import format_rational
from producer.sources.transfer import dg_interval, transfer_term

mpmath.mp.prec = 600


@pytest.fixture(scope="module")
def small():
    return build(DgRequest("1/3", mpq(1), 1, mpq(3, 4), radius=4, scale=2**20))


@pytest.fixture(scope="module")
def published():
    return build(DgRequest("1/3", mpq(9), 2, mpq(2), width=mpq(2, 10**14)))


def run(tmp_path, cert, name="c.json"):
    path = tmp_path / name
    path.write_text(json.dumps(cert))
    return verify_file(str(path))


def pointers(report):
    return {f["pointer"] for f in report.failures}


def seal(cert):
    cert["digest"] = digest(cert)
    return cert


def reseal(cert):
    """Recompute the finite value, v, b, interval and digest from the certificate's own numbers."""
    inp, res = cert["input"], cert["result"]
    src = res["source"]
    law = FiniteLaw([int(w) for w in src["weights"]], src["offset"])
    lam_lo, lam_hi, tau = mpq(res["threshold"]["lower"]), mpq(res["threshold"]["upper"]), mpq(res["tau"])
    value = root_value(law, Gamma.from_string(inp["gamma"]), inp["budget"], mpq(1), lam_lo).value
    v = value - lam_lo
    b = transfer_term(tau, inp["budget"], lam_hi)
    lower, upper = dg_interval(v, lam_lo, lam_hi, b)
    digits = display_digits(upper - lower)
    res["finite"].update(y=format_rational(lam_lo), value=format_rational(value), hockey_stick=format_rational(v))
    res["transfer"] = format_rational(b)
    res["interval"] = {"lower": format_rational(lower), "upper": format_rational(upper),
                       "width": format_rational(upper - lower),
                       "lower_display": decimal_outward(lower, digits, -1),
                       "upper_display": decimal_outward(upper, digits, +1)}
    return seal(cert)


def true_mass(n, sigma2):
    s = mpmath.mpf(sigma2)
    k = lambda m: mpmath.exp(-mpmath.mpf(m * m) / (2 * s))  # noqa: E731
    return k(n) / mpmath.nsum(k, [-mpmath.inf, mpmath.inf])


def test_valid_certificates_verify(tmp_path, small, published):
    for cert in (small, published):
        status, report = run(tmp_path, cert)
        assert status == 0, report.failures


def test_reseal_of_an_unchanged_certificate_is_identity(small):
    assert reseal(copy.deepcopy(small)) == small


def test_atom_one_unit_too_large_is_rejected(tmp_path, published):
    cert = copy.deepcopy(published)
    src = cert["result"]["source"]
    L, S = src["radius"], int(src["scale"])
    n = 3
    w = [int(x) for x in src["weights"]]
    assert w[L + n] + 1 > S * true_mass(n, 9)          # the mutation really is too large
    w[L + n] += 1
    w[L] -= 1                                          # keep Σw = S
    src["weights"] = [str(x) for x in w]
    status, report = run(tmp_path, reseal(cert))
    assert status == 1
    assert pointers(report) == {f"/result/source/weights/{L + n}"}


def test_tau_too_small_is_rejected(tmp_path, published):
    cert = copy.deepcopy(published)
    res = cert["result"]
    tau = mpq(res["tau"]) * mpq(999, 1000)
    src = res["source"]
    tv = mpmath.mpf(int(src["weights"][src["radius"]])) / int(src["scale"]) - true_mass(0, 9)
    assert mpmath.mpf(int(tau.numerator)) / int(tau.denominator) < tv   # really below TV
    res["tau"] = format_rational(tau)
    status, report = run(tmp_path, reseal(cert))
    assert status == 1 and pointers(report) == {"/result/tau"}


def test_lambda_lower_above_exp_epsilon_is_rejected(tmp_path, small):
    cert = copy.deepcopy(small)
    th = cert["result"]["threshold"]
    th["lower"] = th["upper"]
    status, report = run(tmp_path, reseal(cert))
    assert status == 1 and pointers(report) == {"/result/threshold/lower"}


def test_lambda_upper_below_exp_epsilon_is_rejected(tmp_path, small):
    cert = copy.deepcopy(small)
    th = cert["result"]["threshold"]
    th["upper"] = th["lower"]
    status, report = run(tmp_path, reseal(cert))
    assert status == 1 and pointers(report) == {"/result/threshold/upper"}


@pytest.mark.parametrize("end, step", [("lower", +1), ("upper", -1)])
def test_endpoint_moved_inward_by_one_ulp_is_rejected(tmp_path, published, end, step):
    cert = copy.deepcopy(published)
    iv = cert["result"]["interval"]
    x = mpq(iv[end])
    iv[end] = format_rational(x + step * mpq(1, x.denominator))
    lower, upper = mpq(iv["lower"]), mpq(iv["upper"])
    iv["width"] = format_rational(upper - lower)
    status, report = run(tmp_path, seal(cert))
    assert status == 1 and pointers(report) == {f"/result/interval/{end}"}


def test_requested_width_must_exceed_the_interval(tmp_path, small):
    cert = copy.deepcopy(small)
    width = mpq(cert["result"]["interval"]["width"])
    cert["input"]["source"] = {"width": format_rational(width)}
    status, report = run(tmp_path, seal(cert))
    assert status == 1 and pointers(report) == {"/result/interval/width"}


def test_swapped_bounds_are_rejected(tmp_path, small):
    for key in ("threshold", "interval"):
        cert = copy.deepcopy(small)
        part = cert["result"][key]
        part["lower"], part["upper"] = part["upper"], part["lower"]
        status, _ = run(tmp_path, seal(cert))
        assert status == 1, key


def _numeric_paths(obj, path=()):
    """Paths of every number in the certificate (rational strings and JSON integers)."""
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _numeric_paths(v, path + (k,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from _numeric_paths(v, path + (i,))
    elif isinstance(obj, bool) or obj is None:
        return
    elif isinstance(obj, int):
        yield path
    elif isinstance(obj, str) and path and path[0] in ("input", "result"):
        try:
            mpq(obj.replace(".", "", 0)) if "." not in obj else float(obj)
            yield path
        except ValueError:
            return


def _get(obj, path):
    for p in path[:-1]:
        obj = obj[p]
    return obj, path[-1]


def _bump(value):
    if isinstance(value, int):
        return value + 1
    if "." in value:                                   # a decimal display: one unit in the last place
        digits = len(value.split(".")[1])
        return decimal_outward(mpq(value) + mpq(1, 10**digits), digits, -1)
    if "/" in value:
        num, den = value.split("/")
        return f"{int(num) + 1}/{den}"
    return str(int(value) + 1)


def test_every_number_mutated_is_rejected(tmp_path, small):
    paths = [p for p in _numeric_paths(small) if "witness" not in p and p[-1] != "method"]
    assert len(paths) > 20
    for path in paths:
        for resealed in (False, True):
            cert = copy.deepcopy(small)
            parent, key = _get(cert, path)
            parent[key] = _bump(parent[key])
            if resealed:
                seal(cert)
            status, _ = run(tmp_path, cert)
            assert status != 0, (path, resealed)


def test_dropped_entries_wrong_version_bad_digest_and_bad_json(tmp_path, small):
    for key in list(small["result"]) + list(small["input"]):
        cert = copy.deepcopy(small)
        part = cert["result"] if key in cert["result"] else cert["input"]
        del part[key]
        assert run(tmp_path, seal(cert))[0] == 2, key
    cert = copy.deepcopy(small)
    cert["schema"] = "dg-interval/2"
    assert run(tmp_path, seal(cert))[0] == 2
    cert = copy.deepcopy(small)
    cert["digest"] = "0" * 64
    status, report = run(tmp_path, cert)
    assert status == 1 and pointers(report) == {"/digest"}
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(small)[:-5])
    assert verify_file(str(path))[0] == 2
