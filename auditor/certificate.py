"""Loading a certificate: JSON, schema, digest.

Exit-status policy of ``auditor verify``: a file that cannot be read, is not
JSON, names an unknown schema kind or version, or does not validate against its
schema is *malformed* (exit 2); a digest or any mathematical claim that does
not hold is a *failed claim* (exit 1).
"""

import hashlib
import importlib.util
import json
import os
from pathlib import Path

import jsonschema


class Malformed(Exception):
    """The file is not a well-formed certificate of a known kind."""


def schema_dir():
    """The folder holding ``kind-version.schema.json`` for every known kind.

    In order: the folder named by the environment variable
    ``DP_CERTIFY_SCHEMAS`` (an override, e.g. to try new schemas); the data
    package ``auditor.schemas`` of an installed wheel (built from the
    repository's ``schemas/``); the repository's ``schemas/`` next to the
    ``auditor`` package (a source checkout or an editable install).
    """
    env = os.environ.get("DP_CERTIFY_SCHEMAS")
    if env:
        return Path(env)
    # ``auditor.schemas`` has no __init__.py (it is the plain folder schemas/),
    # so it is a namespace package: its folders are the spec's search locations.
    spec = importlib.util.find_spec("auditor.schemas")
    for place in (spec.submodule_search_locations or []) if spec else []:
        if any(Path(place).glob("*.schema.json")):
            return Path(place)
    return Path(__file__).resolve().parent.parent / "schemas"


def _reject_constant(name):
    raise ValueError(f"non-finite number {name} in JSON")


def load(path):
    """Read and parse ``path``; raise :class:`Malformed` with a one-line reason."""
    try:
        with open(path, "rb") as fh:
            raw = fh.read()
    except OSError as exc:
        raise Malformed(f"cannot read: {exc.strerror}") from None
    try:
        cert = json.loads(raw.decode("utf-8"), parse_constant=_reject_constant)
    except (UnicodeDecodeError, ValueError) as exc:
        raise Malformed(f"not valid JSON: {exc}") from None
    if not isinstance(cert, dict):
        raise Malformed("not a JSON object")
    return cert


def schema_of(cert):
    """The (kind, version) named by ``cert['schema']``, with its JSON Schema."""
    name = cert.get("schema")
    if not isinstance(name, str) or name.count("/") != 1:
        raise Malformed(f"/schema: {name!r} is not 'kind/version'")
    kind, version = name.split("/")
    path = schema_dir() / f"{kind}-{version}.schema.json"
    if not path.is_file():
        raise Malformed(f"/schema: unknown certificate kind or version {name!r}")
    with open(path, encoding="utf-8") as fh:
        return kind, version, json.load(fh)


def validate(cert):
    """Validate against its schema; return the kind."""
    kind, _version, schema = schema_of(cert)
    validator = jsonschema.Draft202012Validator(schema)
    errors = sorted(validator.iter_errors(cert), key=lambda e: list(e.path))
    if errors:
        e = errors[0]
        pointer = "/" + "/".join(str(p) for p in e.path)
        raise Malformed(f"{pointer}: {e.message}")
    return kind


def digest(cert):
    """SHA-256 hex of the canonical JSON of ``cert`` without ``digest``."""
    body = {k: v for k, v in cert.items() if k != "digest"}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
