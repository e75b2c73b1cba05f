"""auditor.schema.conforms against jsonschema, the validator it stands in for.

The auditor skips jsonschema whenever ``conforms`` says True, so the property
that matters is one-sided: ``conforms`` True implies jsonschema finds no error.
The tests also ask the converse on integer-only data (what the strict reader
lets through), so that the fast route is the one every valid certificate takes.
"""

import json
from pathlib import Path

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import auditor.certificate
from auditor.certificate import Malformed, schema_of, validate
from auditor.reader import Unchecked, Unreadable, parse
from auditor.schema import conforms
from tests.auditor.mutation import QUICK, mutants

ROOT = Path(__file__).resolve().parents[2]
REFERENCES = sorted((ROOT / "certificates").rglob("*.json"))


def _jsonschema_valid(cert, schema):
    return not any(auditor.certificate._validator_class()(schema).iter_errors(cert))


def _agree(cert):
    try:
        _kind, _version, schema = schema_of(cert)
    except Malformed:
        return
    fast, full = conforms(cert, schema), _jsonschema_valid(cert, schema)
    assert fast == full, (fast, full)


@pytest.mark.parametrize("path", REFERENCES, ids=lambda p: str(p.relative_to(ROOT / "certificates")))
def test_every_reference_conforms_on_the_fast_route(path):
    cert = json.loads(path.read_text(encoding="utf-8"))
    _kind, _version, schema = schema_of(cert)
    assert conforms(cert, schema)
    assert _jsonschema_valid(cert, schema)


def test_the_hostile_corpus_gets_the_same_verdict():
    seen = 0
    for path in sorted((Path(__file__).parent / "hostile").glob("*.json")):
        try:
            cert = parse(path.read_bytes())
        except (Unreadable, Unchecked):
            continue
        _agree(cert)
        seen += 1
    assert seen >= 10


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutants(sources=QUICK))
def test_mutated_certificates_get_the_same_verdict(mutant):
    _label, data, _may_verify = mutant
    try:
        cert = parse(data)
    except (Unreadable, Unchecked):
        return
    _agree(cert)


SCHEMA = {
    "$defs": {"count": {"type": "integer", "minimum": 0, "multipleOf": 2}},
    "type": "object",
    "required": ["n"],
    "additionalProperties": False,
    "properties": {
        "n": {"$ref": "#/$defs/count", "maximum": 10},
        "tag": {"enum": ["a", 1, None, [1, "b"]]},
        "name": {"type": "string", "pattern": "^[a-z]+$", "minLength": 2},
        "cuts": {"type": "array", "items": {"type": ["integer", "string"]}, "uniqueItems": True, "maxItems": 3},
        "flag": {"const": True},
        "mode": {"oneOf": [{"const": "x"}, {"type": "string", "pattern": "x"}]},
        "pick": {"if": {"minimum": 5}, "then": {"multipleOf": 5}, "else": {"not": {"const": 0}}},
        "any": {"anyOf": [{"type": "null"}, {"allOf": [{"type": "integer"}, {"minimum": 3}]}]},
    },
}
VALUES = {
    "n": [0, 4, 10, 12, 3, -2, "4", True, None],
    "tag": ["a", 1, None, [1, "b"], True, [True, "b"], "b", {"a": 1}],
    "name": ["ab", "a", "ab\n", "Ab", 5],
    "cuts": [[], [1, "1"], [1, 1], ["a", "a"], [1, 2, 3, 4], [True], [1, True], "x"],
    "flag": [True, 1, False],
    "mode": ["x", "xy", "y", 3],
    "pick": [0, 1, 5, 7, 10, "s"],
    "any": [None, 3, 2, "3"],
}


@settings(max_examples=400, deadline=None)
@given(st.fixed_dictionaries({}, optional={k: st.sampled_from(v) for k, v in VALUES.items()}),
       st.sampled_from([None, "n", "extra"]))
def test_each_keyword_agrees_with_jsonschema(instance, change):
    if change == "n":
        instance.pop("n", None)
    elif change == "extra":
        instance["extra"] = 1
    else:
        instance.setdefault("n", 4)
    assert conforms(instance, SCHEMA) == _jsonschema_valid(instance, SCHEMA), instance


@pytest.mark.parametrize("schema, instance", [
    ({"format": "date"}, "2026-12-06"),                       # a keyword outside the subset
    ({"$ref": "other.json#/x"}, 1),                           # a reference outside the document
    ({"$ref": "#/$defs/missing"}, 1),
    ({"type": "number"}, 1.5),                                # floats never reach it from the reader
    ({"minimum": 0}, 1.5),
    ({"enum": [1]}, 1.0),
    ({"type": "integer"}, 2.0),
    ({"uniqueItems": True}, [[1], [2]]),
])
def test_a_doubt_is_false(schema, instance):
    """False leaves the verdict to jsonschema; here each of these conforms, so False is only a doubt."""
    schema = dict(schema, **{"$defs": {}})
    assert not conforms(instance, schema)


def test_validate_imports_jsonschema_only_for_a_certificate_that_does_not_conform():
    import subprocess
    import sys
    cert = ROOT / "certificates" / "finite-game-c0-121.json"
    code = ("import sys, json; from auditor.certificate import validate; "
            f"c = json.load(open({str(cert)!r})); k = validate(c); print(k, 'jsonschema' in sys.modules); "
            "c['input']['budget'] = -1\n"
            "try: validate(c)\nexcept Exception as e: print(type(e).__name__, 'jsonschema' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split("\n")[:2] == ["finite-game False", "Malformed True"]


def test_a_nonconforming_certificate_is_still_malformed_with_the_pointer():
    cert = json.loads((ROOT / "certificates" / "finite-game-c0-121.json").read_text(encoding="utf-8"))
    cert["input"]["budget"] = -1
    with pytest.raises(Malformed, match=r"^/input/budget: "):
        validate(cert)
    assert jsonschema   # the reference validator is a test dependency
