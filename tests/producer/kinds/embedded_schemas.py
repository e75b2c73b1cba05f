"""The epsilon-bracket/1 schema embeds the plain-composition/1, hierarchy/1 and calibration-lower/1 schemas.

Each embedded schema is copied whole into ``$defs`` (its own ``$defs`` renamed
with a prefix, its ``$ref`` rewritten), so the file stays self-contained;
:func:`embedded_defs` rebuilds those ``$defs`` from the schemas they come
from, and the test compares them (``python -m tests.producer.kinds.embedded_schemas``
rewrites them after a change of an embedded schema).
"""

import json
from pathlib import Path

SCHEMAS = Path(__file__).resolve().parents[3] / "schemas"
EMBEDDED = {"plain": "plain-composition-1", "hierarchy": "hierarchy-1", "lower": "calibration-lower-1"}
TOP = ("$schema", "$id", "title", "description", "$defs")


def _renamed(node, prefix):
    if isinstance(node, dict):
        out = {}
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str) and value.startswith("#/$defs/"):
                out[key] = f"#/$defs/{prefix}_{value[len('#/$defs/'):]}"
            else:
                out[key] = _renamed(value, prefix)
        return out
    if isinstance(node, list):
        return [_renamed(item, prefix) for item in node]
    return node


def embedded_defs():
    """{name: subschema} for every embedded kind: ``<prefix>_certificate`` and its renamed ``$defs``."""
    defs = {}
    for prefix, name in EMBEDDED.items():
        schema = json.loads((SCHEMAS / f"{name}.schema.json").read_text(encoding="utf-8"))
        top = {k: v for k, v in schema.items() if k not in TOP}
        top["description"] = f"a complete {name.rsplit('-', 1)[0]}/1 certificate (schemas/{name}.schema.json)"
        defs[f"{prefix}_certificate"] = _renamed(top, prefix)
        for key, value in schema["$defs"].items():
            defs[f"{prefix}_{key}"] = _renamed(value, prefix)
    return defs


def rewrite(path=SCHEMAS / "epsilon-bracket-1.schema.json"):
    schema = json.loads(path.read_text(encoding="utf-8"))
    own = {k: v for k, v in schema["$defs"].items() if not k.startswith(tuple(f"{p}_" for p in EMBEDDED))}
    schema["$defs"] = {**own, **embedded_defs()}
    path.write_text(json.dumps(schema, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    rewrite()
