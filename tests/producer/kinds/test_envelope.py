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
from producer.certificates.canonical import canonical_json
from producer.certificates.readability import value_bound
from tests.producer.kinds.edges import edge_verifies, refused

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


@pytest.mark.parametrize("queries, message", [
    ('{"queries": [["0", "1"]], "queries": [["1", "0"]]}', "^queries: the JSON text has the key 'queries' twice "
                                                             "in one object$"),
    ('{"queries": ' + "[" * 100000, "^queries: the JSON text is nested too deep to read$"),
])
def test_a_repeated_key_or_a_deep_nesting_is_one_line_in_both_readers(queries, message):
    from producer.kinds.envelope import query_rows
    with pytest.raises(InputError, match=message):
        Instance.from_strings("2", "2", queries, "1", "1", "1", "1")
    with pytest.raises(InputError, match=message):
        query_rows(queries)


def test_a_json_float_query_value_is_the_decimal_written_not_a_binary_float():
    from producer.kinds.envelope import query_rows
    queries = '{"queries": [[1e-400, 0.1000000000000000001]]}'
    exact = [mpq(1, 10**400), mpq(1000000000000000001, 10**19)]  # not 0 and 1/10
    assert query_rows(queries) == [exact]
    assert list(Instance.from_strings("2", "2", queries, "1", "1", "1", "1").queries[0]) == exact


def test_a_database_is_a_comma_separated_text_or_a_list_without_empty_values():
    from producer.kinds.envelope import database_values
    inst = Instance.from_strings("2", "2", '{"queries": [["1", "0"]]}', "1", "1/2", "1", "1")
    assert database_values("0, 1", inst) == database_values([0, 1], inst) == [0, 1]
    with pytest.raises(InputError, match="^database: an empty value in '0,,1': give numbers separated by commas$"):
        database_values("0,,1", inst)
    with pytest.raises(InputError, match="^database: an empty value in '0,1,'"):
        database_values("0,1,", inst)


def test_generate_writes_files(tmp_path):
    paths = generate(str(tmp_path))
    assert len(paths) >= 3
    for p in paths:
        cert = json.loads(Path(p).read_text())
        jsonschema.Draft202012Validator(SCHEMA).validate(cert)
        for db in cert["result"]["databases"]:
            for e in db["envelope"]:
                assert mpq(e["lo"]) <= mpq(e["hi"])


# ---- the auditor's limits at their edge (docs/certificates.md) ------------------------------


def _queries(tmp_path, rows):
    path = tmp_path / "q.json"
    path.write_text(json.dumps({"queries": rows}))
    return path


def _envelope(queries, universe, records, rounds, hedge, select, epsilon, *extra):
    return ["envelope", "--universe", universe, "--records", records, "--queries", queries, "--rounds", rounds,
            "--hedge", hedge, "--select", select, "--epsilon", epsilon, *extra]


def test_envelope_exponents_at_the_limit_verify_and_beyond_are_refused(tmp_path):
    q = _queries(tmp_path, [["0", "1"]])
    edge_verifies(_envelope(q, 2, 1, 1, 10000, 10000, 10000), tmp_path / "edge.json")
    for beyond, word in (((10001, 1, 1), "γJ"), ((1, "10001", 1), "η"), ((1, 1, "20001/2"), "ε")):
        refused(_envelope(q, 2, 1, 1, *beyond), tmp_path / "beyond.json", word)
    refused(_envelope(q, 2, 1, 2, 5001, 1, 1), tmp_path / "beyond.json", "γJ")   # γJ = 10002


@pytest.mark.slow
def test_envelope_precision_at_the_work_limit_verifies(tmp_path):
    # H = 100, N = 4: (H²N + 1000)·(2b/128)² <= 10⁷ up to b = 1023 bits
    q = _queries(tmp_path, [["1/3", "1"]])
    edge_verifies(_envelope(q, 2, 99, 2, 1, 1, "1/100", "--precision", 1023), tmp_path / "edge.json")


def test_envelope_precision_beyond_the_work_limit_is_refused(tmp_path):
    q = _queries(tmp_path, [["1/3", "1"]])
    refused(_envelope(q, 2, 99, 2, 1, 1, "1/100", "--precision", 1024), tmp_path / "beyond.json", "precision")


def test_automatic_precision_stops_where_the_auditor_stops():
    from auditor.checks.envelope import MAX_WORK
    from producer.envelope.auditability import auditable_precision, auditor_work
    from producer.envelope.instance import Instance
    # H = 400 histograms (T = 2, n = 399), N = 2: H²N = 320,000 fits at 128 and 256 bits but not at 512
    inst = Instance(2, 399, [["1/3", "1"]], 1, 1, 1, "1/100")
    assert [auditable_precision(inst, b) for b in (128, 256, 512)] == [True, True, False]
    assert auditor_work(inst, 256) <= MAX_WORK < auditor_work(inst, 512)


def test_envelope_value_count_beyond_the_reader_is_refused_before_work(tmp_path):
    # H = 50, N = 400 is within H·N <= 20,000 and H²·N <= 10⁶, but the file would hold > 10⁵ JSON values
    q = _queries(tmp_path, [[f"{i}/10", "1"] for i in range(10)])
    refused(_envelope(q, 2, 49, 2, 1, 1, 1), tmp_path / "beyond.json", "JSON values")


@pytest.mark.slow
def test_envelope_value_count_near_the_reader_limit_verifies(tmp_path):
    q = _queries(tmp_path, [[f"{i}/10", "1"] for i in range(10)])    # H = 34, N = 400: about 96,600 values
    edge_verifies(_envelope(q, 2, 33, 2, 1, 1, 1), tmp_path / "edge.json")
    text = (tmp_path / "edge.json").read_text()
    assert 90_000 < value_bound(text) <= 100_000


def test_least_values_is_a_lower_bound_of_the_certificate():
    from producer.envelope.auditability import least_values
    from producer.kinds.envelope import Request, build
    from producer.envelope.instance import Instance
    for inst in (Instance(2, 3, [["0", "1"], ["1/2", "1/3"]], 2, 1, 1, 1),
                 Instance(3, 2, [["0", "1", "1/2"]], 2, 1, 1, 1, variant="sign")):
        assert least_values(inst) <= value_bound(canonical_json(build(Request(inst)))) <= least_values(inst) + 200


@pytest.mark.parametrize("args, named", [((0, 2, 1), "universe"), ((2, 0, 1), "records"), ((2, 2, 0), "query count")])
def test_the_proposal_names_the_size_that_is_zero(args, named):
    # it named alpha, which was fine
    from producer.kinds.envelope import parameters
    with pytest.raises(InputError, match=f"^{named}: must be at least 1, got 0$"):
        parameters(*args, 1, "1/10")
