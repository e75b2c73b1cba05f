"""finite-game/1 checks: hand-built honest certificates pass, a corpus of wrong ones fails.

The honest certificates are assembled here from the auditor's own recomputed
values (never from the producer) and sealed with auditor.certificate.digest.
"""

import copy
import json
import re
from fractions import Fraction

import pytest

from auditor.game import values, work
from auditor.game.rows import Law
from auditor.certificate import digest
from auditor.cli import main
from auditor.rationals import write_rational
from tests.untimed import check_calls

RATIONAL = re.compile(r"^-?(0|[1-9][0-9]*)(/[1-9][0-9]*)?$")


def _best_witness(weights, offset, a, B, budget, pending, x, y, value):
    if value == max(x, y):
        return {"action": "stop"}
    if pending is None:
        for z in range(B ** budget):
            for sign in (-1, 1):
                if values.root_action_value(Law(weights, offset, a, B), budget, x, y, B * z, sign) == value:
                    return {"action": "participate", "sign": sign, "k": B * z}
    else:
        kP, kQ = pending
        if values.pending_action_value(Law(weights, offset, a, B), budget, kP, kQ, x, y, "echo") == value:
            return {"action": "echo"}
        for sign in (-1, 1):
            if values.pending_action_value(Law(weights, offset, a, B), budget, kP, kQ, x, y,
                                         "participate", sign) == value:
                return {"action": "participate", "sign": sign}
    raise AssertionError("no witness attains the value")


def build(weights, offset, gamma, budget, thresholds, points, pending=None, curve=True):
    g = Fraction(gamma)
    a, B = g.numerator, g.denominator
    queries = [(Fraction(1), Fraction(L)) for L in thresholds]
    queries += [(Fraction(x), Fraction(y)) for x, y in points]
    out = []
    for x, y in queries:
        if pending is None:
            v = values.root_value(Law(weights, offset, a, B), budget, x, y)
        else:
            v = values.pending_value(Law(weights, offset, a, B), budget, *pending, x, y)
        q = {"x": write_rational(x), "y": write_rational(y), "value": write_rational(v),
             "witness": _best_witness(weights, offset, a, B, budget, pending, x, y, v)}
        if x == 1:
            q["hockey_stick"] = write_rational(v - y)
        out.append(q)
    if curve:
        verts = (values.root_curve(Law(weights, offset, a, B), budget) if pending is None
                 else values.pending_curve(Law(weights, offset, a, B), budget, *pending))
        curve_out = [[write_rational(u), write_rational(v)] for u, v in verts]
    else:
        curve_out = None
    cert = {
        "schema": "finite-game/1",
        "producer": {"name": "dp-certify-producer", "version": "0.1.0"},
        "input": {
            "gamma": write_rational(g),
            "law": {"weights": [str(w) for w in weights], "offset": offset},
            "budget": budget,
            "thresholds": [write_rational(Fraction(L)) for L in thresholds],
            "points": [[write_rational(Fraction(x)), write_rational(Fraction(y))] for x, y in points],
            "pending": list(pending) if pending is not None else None,
            "curve": curve,
        },
        "result": {"method": "enumerate", "queries": out, "curve": curve_out},
    }
    return seal(cert)


def seal(cert):
    cert["digest"] = digest(cert)
    return cert


def run(cert, tmp_path, raw=None):
    path = tmp_path / "cert.json"
    path.write_text(raw if raw is not None else json.dumps(cert, sort_keys=True) + "\n")
    return main(["verify", str(path)])


@pytest.fixture(scope="module")
def root_cert():
    # the paper's published law (docs/mechanism.md §4); thresholds where participating pays
    return build([1, 2, 1], -1, "1/3", 2, ["1/2", "2"], [["1", "1/3"], ["2/3", "5/4"], ["0", "3"]])


@pytest.fixture(scope="module")
def pending_cert():
    return build([1, 2, 1], -1, "1/3", 2, ["2"], [["1/2", "1/5"]], pending=(1, 0))


@pytest.fixture(scope="module")
def asym_cert():
    # asymmetric law with a zero weight, no curve
    return build([2, 0, 1, 3], -2, "2/5", 1, ["3/2"], [["1", "1/2"], ["3", "1"]], curve=False)


def test_honest_certificates_verify(root_cert, pending_cert, asym_cert, tmp_path):
    for cert in (root_cert, pending_cert, asym_cert):
        assert run(cert, tmp_path) == 0
    # the published hockey stick 5/6 sits in the first query
    assert root_cert["result"]["queries"][0]["hockey_stick"] == "5/6"
    assert pending_cert["result"]["queries"][0]["value"] == "4723/1728"
    # the witnesses are not all trivial
    assert any(q["witness"]["action"] == "participate" for q in root_cert["result"]["queries"])


def _numbers(node, path=()):
    """Paths of every number-like leaf (rational strings, ints, bools) below node."""
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _numbers(v, path + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _numbers(v, path + (i,))
    elif isinstance(node, bool):
        yield path
    elif isinstance(node, int):
        yield path
    elif isinstance(node, str) and RATIONAL.match(node):
        yield path


def _get(node, path):
    for p in path:
        node = node[p]
    return node


def _set(node, path, value):
    for p in path[:-1]:
        node = node[p]
    node[path[-1]] = value


def _mutated(value, path):
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return -value if path[-1] == "sign" else value + 1
    if "weights" in path:
        return str(int(value) + 1)
    return write_rational(Fraction(value) + Fraction(1, 7))


def _corpus(cert):
    """(label, mutated certificate) for every number in input and result."""
    for section in ("input", "result"):
        for path in _numbers(cert[section], (section,)):
            bad = copy.deepcopy(cert)
            _set(bad, path, _mutated(_get(cert, path), path))
            yield "/".join(map(str, path)), seal(bad)


def _mirror_equivalent(label, cert):
    """Flipping the sign of a root participation from k = 0 under a law symmetric
    about 0 is the mirror image of the same action (docs/mechanism.md §2: row_{-k}(-n) =
    row_k(n)), so that mutation leaves the certificate true; it is skipped."""
    if not label.endswith("/witness/sign") or cert["input"]["pending"] is not None:
        return False
    weights = cert["input"]["law"]["weights"]
    symmetric = weights == weights[::-1] and 2 * cert["input"]["law"]["offset"] == 1 - len(weights)
    index = int(label.split("/")[2])
    return symmetric and cert["result"]["queries"][index]["witness"].get("k") == 0


@pytest.mark.parametrize("name", ["root_cert", "pending_cert", "asym_cert"])
def test_every_number_mutated_is_rejected(name, request, tmp_path):
    cert = request.getfixturevalue(name)
    corpus = list(_corpus(cert))
    assert len(corpus) > 20  # every weight, threshold, point, value, vertex, ...
    accepted = []
    for label, bad in corpus:
        if _mirror_equivalent(label, cert):
            continue
        status = run(bad, tmp_path)
        if status == 0:
            accepted.append(label)
    assert accepted == [], accepted


def test_mirror_equivalence_really_holds():
    for x, y in [(Fraction(1), Fraction(1, 2)), (Fraction(2, 3), Fraction(5, 4))]:
        assert (values.root_action_value(Law([1, 2, 1], -1, 1, 3), 2, x, y, 0, 1)
                == values.root_action_value(Law([1, 2, 1], -1, 1, 3), 2, x, y, 0, -1))


def test_bad_digest_is_a_failed_claim(root_cert, tmp_path):
    bad = copy.deepcopy(root_cert)
    bad["result"]["queries"][0]["value"] = "1"
    assert run(bad, tmp_path) == 1  # digest not recomputed


def test_wrong_schema_version_and_malformed_json(root_cert, tmp_path):
    bad = seal(dict(copy.deepcopy(root_cert), schema="finite-game/2"))
    assert run(bad, tmp_path) == 2
    assert run(None, tmp_path, raw='{"schema": "finite-game/1", ') == 2
    assert run(None, tmp_path, raw="[1, 2]") == 2
    bad = copy.deepcopy(root_cert)
    del bad["result"]["curve"]
    assert run(seal(bad), tmp_path) == 2


def test_dropped_and_reordered_queries(root_cert, tmp_path):
    for i in range(len(root_cert["result"]["queries"])):
        bad = copy.deepcopy(root_cert)
        del bad["result"]["queries"][i]
        assert run(seal(bad), tmp_path) == 1
    bad = copy.deepcopy(root_cert)
    qs = bad["result"]["queries"]
    qs[0], qs[1] = qs[1], qs[0]
    assert run(seal(bad), tmp_path) == 1
    bad = copy.deepcopy(root_cert)
    bad["result"]["queries"].append(copy.deepcopy(qs[0]))
    assert run(seal(bad), tmp_path) == 1


def test_swapped_x_and_y(root_cert, tmp_path):
    for i, q in enumerate(root_cert["result"]["queries"]):
        if q["x"] == q["y"]:
            continue
        bad = copy.deepcopy(root_cert)
        bq = bad["result"]["queries"][i]
        bq["x"], bq["y"] = bq["y"], bq["x"]
        assert run(seal(bad), tmp_path) == 1
    bad = copy.deepcopy(root_cert)
    p = bad["input"]["points"][1]
    p[0], p[1] = p[1], p[0]
    assert run(seal(bad), tmp_path) == 1


def test_wrong_and_illegal_witnesses(root_cert, pending_cert, tmp_path):
    law = ([1, 2, 1], -1, 1, 3)
    # root query 0 is won by participating: stop does not attain it
    q0 = root_cert["result"]["queries"][0]
    assert q0["witness"]["action"] == "participate"
    cases = [
        {"action": "stop"},
        {"action": "echo"},                                        # no echo at the root
        {"action": "participate", "sign": q0["witness"]["sign"]},  # k missing at the root
    ]
    # a legal preparation that does not attain the value
    x, y = Fraction(q0["x"]), Fraction(q0["y"])
    value = Fraction(q0["value"])
    for k in range(-4, 10):
        if values.root_action_value(Law(*law), 2, x, y, k, 1) < value:
            cases.append({"action": "participate", "sign": 1, "k": k})
            break
    for w in cases:
        bad = copy.deepcopy(root_cert)
        bad["result"]["queries"][0]["witness"] = w
        assert run(seal(bad), tmp_path) == 1, w
    # pending: k is not allowed, and each other action must really attain the value
    q0 = pending_cert["result"]["queries"][0]
    others = [{"action": "stop"}, {"action": "echo"},
              {"action": "participate", "sign": -1}, {"action": "participate", "sign": 1}]
    x, y, value = Fraction(q0["x"]), Fraction(q0["y"]), Fraction(q0["value"])
    for w in others:
        wv = (max(x, y) if w["action"] == "stop" else
              values.pending_action_value(Law(*law), 2, 1, 0, x, y, w["action"], w.get("sign")))
        bad = copy.deepcopy(pending_cert)
        bad["result"]["queries"][0]["witness"] = w
        assert run(seal(bad), tmp_path) == (0 if wv == value else 1), w
    bad = copy.deepcopy(pending_cert)
    bad["result"]["queries"][0]["witness"] = dict(q0["witness"], k=0) if "sign" in q0["witness"] \
        else {"action": "participate", "sign": 1, "k": 0}
    assert run(seal(bad), tmp_path) == 1


def test_any_integer_preparation_is_legal(tmp_path):
    """A root witness with k outside [0, B^(C+1)) is fine when it attains the value."""
    cert = build([1, 2, 1], -1, "1/3", 1, ["1/2"], [])
    w = cert["result"]["queries"][0]["witness"]
    assert w["action"] == "participate"
    bad = copy.deepcopy(cert)
    bad["result"]["queries"][0]["witness"]["k"] = w["k"] - 5 * 9  # whole periods away
    assert run(seal(bad), tmp_path) == 0


def test_hockey_stick_presence(root_cert, tmp_path):
    bad = copy.deepcopy(root_cert)
    del bad["result"]["queries"][0]["hockey_stick"]
    assert run(seal(bad), tmp_path) == 1
    bad = copy.deepcopy(root_cert)
    q = bad["result"]["queries"][4]  # x = 2/3
    q["hockey_stick"] = write_rational(Fraction(q["value"]) - Fraction(q["y"]))
    assert run(seal(bad), tmp_path) == 1


def test_curve_flag_and_curve_mismatch(root_cert, asym_cert, tmp_path):
    bad = copy.deepcopy(asym_cert)
    bad["result"]["curve"] = [["0", "1"], ["1", "0"]]
    assert run(seal(bad), tmp_path) == 1
    bad = copy.deepcopy(root_cert)
    bad["result"]["curve"] = None
    assert run(seal(bad), tmp_path) == 1
    bad = copy.deepcopy(root_cert)
    del bad["result"]["curve"][1]
    assert run(seal(bad), tmp_path) == 1


def test_out_of_domain_inputs_are_malformed(root_cert, tmp_path):
    for gamma in ("3/2", "1", "0/1", "-0", "-1/3"):  # "0" is plain composition (valid)
        bad = copy.deepcopy(root_cert)
        bad["input"]["gamma"] = gamma
        assert run(seal(bad), tmp_path) == 2, gamma
    bad = copy.deepcopy(root_cert)
    bad["input"]["gamma"] = "2/6"  # not reduced
    assert run(seal(bad), tmp_path) == 2
    bad = copy.deepcopy(root_cert)
    bad["input"]["law"]["weights"] = ["0", "0", "0"]
    assert run(seal(bad), tmp_path) == 2
    bad = copy.deepcopy(root_cert)
    bad["input"]["thresholds"][0] = "-1/2"
    assert run(seal(bad), tmp_path) == 2


def test_sizes_beyond_the_limit_are_unchecked_without_work(root_cert, tmp_path):
    # radius 40 with B = 1009 at C = 3: even the carry-cell cover is far over the limit
    bad = copy.deepcopy(root_cert)
    bad["input"]["gamma"] = "336/1009"
    bad["input"]["budget"] = 3
    bad["input"]["law"] = {"weights": ["1"] * 81, "offset": -40}
    with check_calls() as work:
        assert run(seal(bad), tmp_path) == 3    # UNCHECKED: beyond the documented limit
    assert work.before_the_work, work           # refused by the estimate, not computed


def test_absurd_budget_is_refused_before_the_work(root_cert, tmp_path):
    bad = copy.deepcopy(root_cert)
    bad["input"]["budget"] = 10 ** 9
    with check_calls() as work:
        assert run(seal(bad), tmp_path) == 3
    assert work.before_the_work, work


def test_limit_admits_budget_four_radius_sixteen_and_refuses_radius_24(root_cert, tmp_path):
    from auditor.checks import finite_game
    w16, w24 = [1] * 33, [1] * 49
    assert finite_game.work_estimate(w16, -16, 1, 3, 4) <= finite_game.MAX_WORK
    assert finite_game.work_estimate(w24, -24, 1, 3, 4) > finite_game.MAX_WORK
    bad = copy.deepcopy(root_cert)
    bad["input"]["budget"] = 4
    bad["input"]["law"] = {"weights": ["1"] * 49, "offset": -24}
    assert run(seal(bad), tmp_path) == 3        # UNCHECKED, refused from the estimate


def test_pending_queries_are_estimated_as_pending(pending_cert, tmp_path):
    # F_3 at given states needs G_3 at ~l points: under the limit at the root, over it pending
    from auditor.checks import finite_game
    w = [1] * 49
    root = finite_game.work_estimate(w, -24, 1, 3, 3)
    assert root <= finite_game.MAX_WORK < finite_game.work_estimate(w, -24, 1, 3, 3, pending=True)
    bad = copy.deepcopy(pending_cert)
    bad["input"]["budget"] = 3
    bad["input"]["curve"] = False
    bad["input"]["law"] = {"weights": ["1"] * 49, "offset": -24}
    assert run(seal(bad), tmp_path) == 3


def test_zero_weights_outside_the_support_do_not_count_as_work():
    # a discrete-Gaussian source of radius 100 at scale 1e24 has only ~61 nonzero atoms
    from auditor.checks import finite_game
    w = [1] * 33
    padded = [0] * 40 + w + [0] * 40
    assert work.support_width(padded) == 33
    assert work.support_width([0, 2, 0, 1, 0]) == 3
    assert (finite_game.work_estimate(padded, -56, 86, 257, 2)
            == finite_game.work_estimate(w, -16, 86, 257, 2))
    assert finite_game.work_estimate(padded, -56, 86, 257, 2) <= finite_game.MAX_WORK
