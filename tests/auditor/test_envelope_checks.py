"""The auditor accepts honest envelope certificates and rejects a corpus of wrong ones."""

import copy
import hashlib
import json
from fractions import Fraction

import pytest

from auditor.cli import verify_file
from producer.envelope.certify import certify
from producer.envelope.instance import Instance

Q1 = '{"queries": [["0", "1"]]}'
Q2 = '{"queries": [["0", "1/2", "1"], ["1", "0", "1/3"]]}'


def seal(cert):
    body = {k: v for k, v in cert.items() if k != "digest"}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    cert["digest"] = hashlib.sha256(text.encode("utf-8")).hexdigest()
    return cert


@pytest.fixture(scope="module")
def honest():
    """T = 3, n = 2, k = 2, J = 2: base law not DP, envelope DP."""
    return certify(Instance.from_strings("3", "2", Q2, "2", "1/2", "4", "1"))


@pytest.fixture(scope="module")
def near_tie_low():
    return certify(Instance.from_strings("2", "2", Q1, "1", "1/2", "1", "1684748639/5000000"), precision=8)


@pytest.fixture(scope="module")
def near_tie_auto():
    return certify(Instance.from_strings("2", "2", Q1, "1", "1/2", "1", "1684748639/5000000"))


def status_of(cert, tmp_path, name="c.json", raw=None):
    path = tmp_path / name
    path.write_text(raw if raw is not None else json.dumps(cert))
    status, report = verify_file(str(path))
    return status, report


def test_honest_certificates_verify(honest, near_tie_low, near_tie_auto, tmp_path):
    for cert in (honest, near_tie_low, near_tie_auto):
        status, report = status_of(cert, tmp_path)
        assert status == 0, report.failures
    assert honest["result"]["base_law"]["pure_dp_status"] == "refuted"
    assert near_tie_low["result"]["claims"]["error_bound"]["status"] == "unresolved"


def get(cert, path):
    node = cert
    for key in path:
        node = node[key]
    return node


def fmt(q):
    q = Fraction(q)
    return str(q.numerator) if q.denominator == 1 else f"{q.numerator}/{q.denominator}"


def moved(enc, delta):
    return {"lo": fmt(Fraction(enc["lo"]) + delta), "hi": fmt(Fraction(enc["hi"]) + delta)}


DB = ("result", "databases")
CL = ("result", "claims")
MUTATIONS = {
    "law value": lambda c: get(c, DB)[1]["law"].__setitem__(2, moved(get(c, DB)[1]["law"][2], Fraction(1, 1000))),
    "envelope value": lambda c: get(c, DB)[0]["envelope"].__setitem__(
        0, moved(get(c, DB)[0]["envelope"][0], Fraction(-1, 10 ** 6))),
    "normaliser moved": lambda c: get(c, DB)[2].__setitem__("normaliser", {"lo": "2", "hi": "2"}),
    "normaliser widened": lambda c: get(c, DB)[2]["normaliser"].__setitem__("hi", "10"),
    "error moved": lambda c: get(c, DB)[3].__setitem__(
        "error_linf", moved(get(c, DB)[3]["error_linf"], Fraction(1, 100))),
    "l2 error moved": lambda c: get(c, DB)[3].__setitem__(
        "error_l2", moved(get(c, DB)[3]["error_l2"], Fraction(1, 100))),
    "answer moved": lambda c: c["result"]["answers"][5].__setitem__(
        1, moved(c["result"]["answers"][5][1], Fraction(1, 50))),
    "discount moved": lambda c: c["result"]["discounts"].__setitem__(
        1, moved(c["result"]["discounts"][1], Fraction(1, 50))),
    "true answer": lambda c: get(c, DB)[0]["true_answers"].__setitem__(0, "1/7"),
    "bounds swapped": lambda c: get(c, DB)[1]["law"].__setitem__(
        0, {"lo": get(c, DB)[1]["law"][0]["hi"], "hi": get(c, DB)[1]["law"][0]["lo"]}),
    "database dropped": lambda c: get(c, DB).pop(),
    "law entry dropped": lambda c: get(c, DB)[0]["law"].pop(),
    "transcripts reordered": lambda c: c["result"]["transcripts"].reverse(),
    "checks count": lambda c: get(c, CL)["pure_dp"].__setitem__("checks", 3),
    "pure_dp refuted": lambda c: get(c, CL)["pure_dp"].__setitem__("status", "refuted"),
    "pure_dp unresolved": lambda c: get(c, CL)["pure_dp"].__setitem__("status", "unresolved"),
    "max ratio lowered": lambda c: get(c, CL)["pure_dp"]["max_ratio"].__setitem__("hi", "1"),
    "exp eps bound": lambda c: get(c, CL)["pure_dp"].__setitem__("bound", {"lo": "3", "hi": "4"}),
    "base law proved": lambda c: c["result"]["base_law"].__setitem__("pure_dp_status", "proved"),
    "normaliser claim unresolved": lambda c: get(c, CL)["normaliser_bounds"].__setitem__("upper_status", "unresolved"),
    "normaliser bound": lambda c: get(c, CL)["normaliser_bounds"].__setitem__("bound", {"lo": "1", "hi": "2"}),
    "max normaliser": lambda c: get(c, CL)["normaliser_bounds"].__setitem__("max_normaliser", {"lo": "1", "hi": "2"}),
    "error claim refuted": lambda c: get(c, CL)["error_bound"].__setitem__("status", "refuted"),
    "error bound constant": lambda c: get(c, CL)["error_bound"].__setitem__("bound", {"lo": "1/2", "hi": "1"}),
    "per-database status": lambda c: get(c, DB)[0].__setitem__("error_status", "unresolved"),
    "decimal inward": lambda c: get(c, DB)[0].__setitem__("normaliser_decimal", ["1.5", "1.5"]),
    "hypothesis status": lambda c: c["result"]["hypothesis"].__setitem__("status", "proved"),
    "kappa": lambda c: c["result"]["hypothesis"].__setitem__("kappa", "1/9"),
    "input epsilon": lambda c: c["input"].__setitem__("epsilon", "2"),
    "input query": lambda c: c["input"]["queries"][0].__setitem__(1, "1/3"),
    "input variant": lambda c: c["input"].__setitem__("variant", "sign"),
    "precision": lambda c: c["result"].__setitem__("precision", 64),
    "witness": lambda c: get(c, CL)["pure_dp"].__setitem__("witness", {"from": 0, "to": 0, "transcript": 0}),
}


@pytest.mark.parametrize("name", sorted(MUTATIONS))
def test_mutations_are_rejected(honest, tmp_path, name):
    cert = copy.deepcopy(honest)
    MUTATIONS[name](cert)
    status, report = status_of(seal(cert), tmp_path)
    assert status in (1, 2), name
    assert report.failures


def test_digest_version_json_and_number_form(honest, tmp_path):
    bad = copy.deepcopy(honest)
    bad["digest"] = "0" * 64
    assert status_of(bad, tmp_path)[0] == 1
    wrong = seal(dict(copy.deepcopy(honest), schema="envelope/2"))
    assert status_of(wrong, tmp_path)[0] == 2
    assert status_of(None, tmp_path, raw=json.dumps(honest)[:-20])[0] == 2
    noncanon = copy.deepcopy(honest)
    noncanon["result"]["databases"][0]["normaliser"]["hi"] = "4/2"
    assert status_of(seal(noncanon), tmp_path)[0] == 2


def test_unresolved_rules(near_tie_low, near_tie_auto, tmp_path):
    # a decided low-precision claim cannot be upgraded by fiat
    up = copy.deepcopy(near_tie_low)
    up["result"]["claims"]["error_bound"]["status"] = "proved"
    assert status_of(seal(up), tmp_path)[0] == 1
    # 'unresolved' where the certificate's own numbers decide
    down = copy.deepcopy(near_tie_auto)
    down["result"]["claims"]["error_bound"]["status"] = "unresolved"
    assert status_of(seal(down), tmp_path)[0] == 1
    # 'unresolved' backed by a widened enclosure, but the auditor decides at the stated precision
    wide = copy.deepcopy(near_tie_auto)
    for db in wide["result"]["databases"]:
        if db["error_status"] == "proved" and Fraction(db["error_linf"]["hi"]) > Fraction(1, 4):
            db["error_linf"]["hi"] = "1"
            db["error_status"] = "unresolved"
    wide["result"]["claims"]["error_bound"]["status"] = "unresolved"
    wide["result"]["claims"]["error_bound"]["max_error"]["hi"] = "1"
    wide["result"]["claims"]["error_bound"]["max_error_decimal"][1] = "1.00000000"
    for db in wide["result"]["databases"]:
        if db["error_linf"]["hi"] == "1":
            db["error_decimal"][1] = "1.00000000"
    status, report = status_of(seal(wide), tmp_path)
    assert status == 1
    assert any("auditor decides it" in f["reason"] for f in report.failures)


def _rational_pointers(node, path=()):
    """Paths of every rational string in a certificate's result."""
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _rational_pointers(v, path + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _rational_pointers(v, path + (i,))
    elif isinstance(node, str) and path and path[-1] in ("lo", "hi", "kappa"):
        yield path


def test_random_number_mutations_never_crash_and_are_rejected(honest, tmp_path):
    """Replace stored numbers by 0, -1, 1, a huge value or a tiny shift: rejected, no traceback."""
    import random
    rng = random.Random(5)
    pointers = list(_rational_pointers(honest["result"], ("result",)))
    for _ in range(40):
        cert = copy.deepcopy(honest)
        path = rng.choice(pointers)
        parent = get(cert, path[:-1])
        old = Fraction(parent[path[-1]])
        new = rng.choice([Fraction(0), Fraction(-1), Fraction(1), Fraction(10 ** 40), old * 2 + 1,
                          old + Fraction(1, 10 ** 6) * (1 if path[-1] == "lo" else -1) * 10 ** 5])
        if new == old:
            continue
        parent[path[-1]] = fmt(new)
        status, report = status_of(seal(cert), tmp_path)
        # widening an enclosure keeps it true; everything else must be caught
        widened = (path[-1] == "lo" and new < old) or (path[-1] == "hi" and new > old)
        if not widened:
            assert status in (1, 2), (path, fmt(new))


def test_point_error_excluding_one_half_fails_at_precision_8(tmp_path):
    """Issue 9: E = 1/2 exactly (database (2, 0), J = 1), stored as the point 509/1024 at --precision 8.

    At 8 bits the auditor's own enclosure of 1/2 still overlaps the point; the claim
    is decided by refining the auditor's precision, and the point is refuted.
    """
    cert = certify(Instance.from_strings("2", "2", Q1, "1", "1/2", "1", "600"), precision=8)
    db = cert["result"]["databases"][0]
    assert db["histogram"] == [0, 2] or db["histogram"] == [2, 0]
    lo, hi = Fraction(db["error_linf"]["lo"]), Fraction(db["error_linf"]["hi"])
    assert lo <= Fraction(509, 1024) <= hi               # overlap alone would accept it
    db["error_linf"] = {"lo": "509/1024", "hi": "509/1024"}
    status, report = status_of(seal(cert), tmp_path)
    assert status == 1
    assert "/result/databases/0/error_linf" in {f["pointer"] for f in report.failures}
