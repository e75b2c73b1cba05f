"""Host schemas that embed other kinds' schemas: epsilon-bracket/1, noise/1 and dpsgd-calibration/1.

Each embedded schema is copied whole into the host's ``$defs`` (its own
``$defs`` renamed with a prefix, its ``$ref`` rewritten), so every file stays
self-contained; :func:`embedded_defs` rebuilds those ``$defs`` from the
schemas they come from, and the tests compare them
(``python -m tests.producer.kinds.embedded_schemas`` rewrites every host after
a change of an embedded schema).
"""

import json
from pathlib import Path

SCHEMAS = Path(__file__).resolve().parents[3] / "schemas"
# host schema -> {prefix: embedded schema}
HOSTS = {
    "epsilon-bracket-1": {"plain": "plain-composition-1", "hierarchy": "hierarchy-1", "lower": "calibration-lower-1"},
    "noise-1": {"plain": "plain-composition-1", "dg": "dg-interval-1"},
    "dpsgd-calibration-1": {"dpsgd": "dpsgd-1"},
}
EMBEDDED = HOSTS["epsilon-bracket-1"]
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


def embedded_defs(host="epsilon-bracket-1"):
    """{name: subschema} for every kind ``host`` embeds: ``<prefix>_certificate`` and its renamed ``$defs``."""
    defs = {}
    for prefix, name in HOSTS[host].items():
        schema = json.loads((SCHEMAS / f"{name}.schema.json").read_text(encoding="utf-8"))
        top = {k: v for k, v in schema.items() if k not in TOP}
        top["description"] = f"a complete {name.rsplit('-', 1)[0]}/1 certificate (schemas/{name}.schema.json)"
        defs[f"{prefix}_certificate"] = _renamed(top, prefix)
        for key, value in schema["$defs"].items():
            defs[f"{prefix}_{key}"] = _renamed(value, prefix)
    return defs


def own_defs(host, schema):
    """The host's own ``$defs`` (those not copied from an embedded schema)."""
    prefixes = tuple(f"{p}_" for p in HOSTS[host])
    return {k: v for k, v in schema["$defs"].items() if not k.startswith(prefixes)}


def rewrite(host="epsilon-bracket-1"):
    path = SCHEMAS / f"{host}.schema.json"
    schema = json.loads(path.read_text(encoding="utf-8"))
    schema["$defs"] = {**own_defs(host, schema), **embedded_defs(host)}
    path.write_text(json.dumps(schema, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    for name in HOSTS:
        rewrite(name)
