"""Certificates: schema, determinism, limits, precision escalation, references."""

import json
from pathlib import Path

import jsonschema
import pytest
from gmpy2 import mpq

from producer.certificates.canonical import render
from producer.kinds.envelope import Request, build
from producer.envelope.instance import Instance
from producer.errors import InputError, LimitError
from producer.references.envelope import generate, reference_instances

ROOT = Path(__file__).resolve().parents[3]
SCHEMA = json.loads((ROOT / "schemas" / "envelope-1.schema.json").read_text())
Q2 = '{"queries": [["0", "1"]]}'


def near_tie():
    """J = 1: the release is q(uniform) = 1/2, so the worst error is exactly 1/2, while the
    bound 129e·log 4·log 2/(2ε) is within 1e-9 of 1/2 at this ε."""
    return Instance.from_strings("2", "2", Q2, "1", "1/2", "1", "1684748639/5000000")


def test_schema_and_determinism():
    inst = reference_instances()[0][1]
    a, b = build(Request(inst)), build(Request(inst))
    assert render(a) == render(b)
    jsonschema.Draft202012Validator(SCHEMA).validate(a)


def test_statuses_of_reference_instances():
    statuses = {stem: build(Request(inst))["result"] for stem, inst in reference_instances()}
    for stem, res in statuses.items():
        assert res["claims"]["pure_dp"]["status"] == "proved", stem
        assert res["claims"]["normaliser_bounds"]["status"] == "proved", stem
    assert statuses["envelope-t2-n2-k1-j1-refuted"]["claims"]["error_bound"]["status"] == "refuted"
    assert statuses["envelope-t2-n3-k1-j2-hypothesis"]["hypothesis"]["status"] == "proved"
    assert statuses["envelope-sign-t3-n3-k2-j3"]["claims"]["error_bound"]["measure"] == "l2"


def test_unresolved_at_low_precision_and_resolved_by_escalation():
    low = build(Request(near_tie(), precision=8))["result"]
    assert low["claims"]["error_bound"]["status"] == "unresolved"
    assert low["precision"] == 8
    auto = build(Request(near_tie()))["result"]
    assert auto["claims"]["error_bound"]["status"] in ("proved", "refuted")
    assert auto["claims"]["error_bound"]["status"] == "proved"  # ε is rounded down, so the bound exceeds 1/2


def test_limits_are_refused_with_the_size():
    inst = Instance.from_strings("4", "6", '{"queries": [["0","1","0","1"],["1","0","0","1"]]}', "5", "1", "1", "1")
    with pytest.raises(LimitError, match="84 histograms .* 1024 transcripts"):
        build(Request(inst))


@pytest.mark.parametrize("queries,args,message", [
    ('{"queries": [["0", "2"]]}', ("2", "2", "1", "1", "1", "1"), "outside \\[0, 1\\]"),
    ('{"queries": [["0"]]}', ("2", "2", "1", "1", "1", "1"), "has 1 values"),
    ('{"queries": [["0", "1"]]}', ("2", "2", "1", "0", "1", "1"), "must be positive"),
    ('{"queries": [["0", "1"]]}', ("2", "2", "1", "1", "1", "-1"), "must be positive"),
    ('not json', ("2", "2", "1", "1", "1", "1"), "not valid JSON"),
    ('{"queries": [["0", "x"]]}', ("2", "2", "1", "1", "1", "1"), "not a rational"),
])
def test_bad_input(queries, args, message):
    T, n, J, g, h, e = args
    with pytest.raises(InputError, match=message):
        Instance.from_strings(T, n, queries, J, g, h, e)


def test_generate_writes_files(tmp_path):
    paths = generate(str(tmp_path))
    assert len(paths) >= 3
    for p in paths:
        cert = json.loads(Path(p).read_text())
        jsonschema.Draft202012Validator(SCHEMA).validate(cert)
        for db in cert["result"]["databases"]:
            for e in db["envelope"]:
                assert mpq(e["lo"]) <= mpq(e["hi"])
