"""Every schema types every object: no free-form object, no field the schema lets through unnamed.

The schemas are the only thing producer and auditor share.  A free-form
object (``{"type": "object"}``) or an object without
``additionalProperties: false`` would let a certificate carry fields that no
one names, and so that no check reads.  This walks every subschema of every
file under schemas/ (through the schema keywords, so property names are never
mistaken for keywords).
"""

import json
from pathlib import Path

import jsonschema
import pytest

SCHEMAS = sorted((Path(__file__).resolve().parents[1] / "schemas").glob("*.schema.json"))
assert SCHEMAS, "no schemas/*.schema.json found"
LISTS = ("oneOf", "anyOf", "allOf", "prefixItems")
SINGLE = ("items", "not", "contains", "additionalItems")
CONDITIONS = ("if", "then", "else")
MAPS = ("properties", "$defs", "definitions", "patternProperties", "dependentSchemas")


def subschemas(node, pointer="", condition=False):
    """(pointer, subschema, condition) for ``node`` and every schema nested in it.

    ``condition`` is true inside ``if``/``then``/``else``: those only narrow the
    object they are applied to (whose own ``additionalProperties: false`` still
    refuses every unnamed field), so they need not repeat its properties.
    """
    if not isinstance(node, dict):
        return
    yield pointer, node, condition
    for key in LISTS:
        for i, child in enumerate(node.get(key, [])):
            yield from subschemas(child, f"{pointer}/{key}/{i}", condition)
    for key in SINGLE + CONDITIONS:
        if isinstance(node.get(key), dict):
            yield from subschemas(node[key], f"{pointer}/{key}", condition or key in CONDITIONS)
    for key in MAPS:
        for name, child in node.get(key, {}).items():
            yield from subschemas(child, f"{pointer}/{key}/{name}", condition)
    if isinstance(node.get("additionalProperties"), dict):
        yield from subschemas(node["additionalProperties"], f"{pointer}/additionalProperties", condition)


def is_object_schema(node):
    kind = node.get("type")
    return kind == "object" or (isinstance(kind, list) and "object" in kind) or "properties" in node


def untyped_objects(schema):
    """Pointers of object schemas that are free-form or let unnamed fields through."""
    bad = []
    for pointer, node, condition in subschemas(schema):
        if not is_object_schema(node) or condition and node.get("type") is None:
            continue
        if not isinstance(node.get("properties"), dict) or not node["properties"]:
            bad.append(f"{pointer or '/'}: an object without properties (free-form)")
        if node.get("additionalProperties") is not False:
            bad.append(f"{pointer or '/'}: an object without additionalProperties: false")
        if "patternProperties" in node:
            bad.append(f"{pointer or '/'}: patternProperties admit unnamed fields")
    return bad


@pytest.mark.parametrize("path", SCHEMAS, ids=[p.name for p in SCHEMAS])
def test_every_object_is_typed_and_closed(path):
    schema = json.loads(path.read_text(encoding="utf-8"))
    assert untyped_objects(schema) == []


@pytest.mark.parametrize("path", SCHEMAS, ids=[p.name for p in SCHEMAS])
def test_every_schema_is_valid_and_self_contained(path):
    schema = json.loads(path.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    refs = [node["$ref"] for _, node, _ in subschemas(schema) if "$ref" in node]
    for ref in refs:
        assert ref.startswith("#/$defs/"), ref
        assert ref[len("#/$defs/"):] in schema["$defs"], ref


def test_the_walk_finds_what_it_must_refuse():
    free = {"type": "object", "properties": {"input": {"type": "object"},
                                            "result": {"oneOf": [{"type": "null"},
                                                                 {"properties": {"a": {}}}]}},
            "additionalProperties": False, "$defs": {"x": {"type": "object", "properties": {"b": {}},
                                                           "additionalProperties": True}},
            "if": {"properties": {"input": {"const": 1}}}, "then": {"properties": {"c": {"type": "object"}}}}
    assert sorted(untyped_objects(free)) == sorted([
        "/properties/input: an object without properties (free-form)",
        "/properties/input: an object without additionalProperties: false",
        "/properties/result/oneOf/1: an object without additionalProperties: false",
        "/then/properties/c: an object without properties (free-form)",
        "/then/properties/c: an object without additionalProperties: false",
        "/$defs/x: an object without additionalProperties: false",
    ])


def test_every_kind_has_a_schema():
    from producer.kinds import MODULES
    names = {p.name[:-len(".schema.json")] for p in SCHEMAS}
    assert {kind.replace("/", "-") for kind in MODULES} == names
