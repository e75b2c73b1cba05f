"""Loading a certificate: strict JSON, schema, digest.

A file that cannot be read, is not strict JSON within the reader's limits
(:mod:`auditor.reader`), names an unknown schema kind or version, or does not
validate against its schema is *malformed* (:class:`Malformed`, exit 2); a
digest or any mathematical claim that does not hold is a *failed claim*
(exit 1).  See :mod:`auditor.outcomes` for every exit status.

Schema patterns are matched with ECMA-262 semantics, as JSON Schema requires:
a final ``$`` matches only at the very end of the string (Python's ``$`` would
also match before a final newline).  A certificate that :func:`auditor.schema.conforms`
says conforms is not shown to ``jsonschema`` (which is then never imported);
any other is, and ``jsonschema`` decides and words the error.
"""

import hashlib
import importlib.util
import json
import os
import re
from functools import lru_cache
from pathlib import Path

from auditor.outcomes import MalformedInput
from auditor.rationals import show
from auditor.reader import Unreadable, read_certificate
from auditor.schema import conforms, ecma_pattern


class Malformed(MalformedInput):
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


def load(path):
    """Read and parse ``path`` strictly (``"-"``: standard input).

    Raises :class:`Malformed` with the reader's one-line reason.
    """
    try:
        return read_certificate(path)
    except Unreadable as exc:
        raise Malformed(str(exc)) from None


MAX_SCHEMA_NAME = 64   # characters of 'kind/version'


def schema_of(cert):
    """The (kind, version) named by ``cert['schema']``, with its JSON Schema."""
    if "schema" not in cert:
        if set(cert) == {"rows"}:   # what `producer sweep` writes beside its certificates
            raise Malformed("/schema: missing field schema: this is the summary table of `producer sweep`, not a "
                            "certificate; verify the certificates beside it (e.g. DIR/dg-*.json DIR/calibration-*.json "
                            "or DIR/dpsgd-*.json)")
        raise Malformed("/schema: missing field schema (every certificate names its kind, e.g. 'finite-game/1')")
    name = cert["schema"]
    if not isinstance(name, str):  # shown as JSON (null, 3, [...]), not as a Python value
        raise Malformed(f"/schema: {show(json.dumps(name))[:80]} is not a string 'kind/version'")
    if name.count("/") != 1 or not re.fullmatch(r"[a-z0-9-]+/[0-9]+", name):
        raise Malformed(f"/schema: {name[:80]!r} is not 'kind/version'")
    kind, version = name.split("/")
    path = schema_dir() / f"{kind}-{version}.schema.json"
    # no schema has a name this long, and the file system refuses (OSError) a longer file name than it holds
    if len(name) > MAX_SCHEMA_NAME or not path.is_file():
        raise Malformed(f"/schema: unknown certificate kind or version {_clip(name)}")
    with open(path, encoding="utf-8") as fh:
        return kind, version, json.load(fh)


def _clip(text, limit=80):
    """``repr(text)``, cut after ``limit`` characters."""
    return repr(text) if len(text) <= limit else f"{text[:limit]!r}... ({len(text)} characters)"


@lru_cache(maxsize=None)
def _validator_class():
    import jsonschema   # about 40 ms: only for a certificate that may not conform

    def pattern(validator, pattern, instance, schema):
        if validator.is_type(instance, "string") and not ecma_pattern(pattern).search(instance):
            yield jsonschema.ValidationError(f"{show(instance)!r} does not match {pattern!r}")

    return jsonschema.validators.extend(jsonschema.Draft202012Validator, {"pattern": pattern})


def _message(error, limit=300):
    text = show(error.message)
    return text if len(text) <= limit else text[:limit] + "..."


def validate(cert):
    """Validate against its schema; return the kind."""
    kind, _version, schema = schema_of(cert)
    if conforms(cert, schema):
        return kind
    validator = _validator_class()(schema)
    errors = sorted(validator.iter_errors(cert), key=_first_by_path)
    if errors:
        error = _within_branch(errors[0])
        pointer = "/" + "/".join(str(p) for p in error.absolute_path)
        raise Malformed(f"{pointer}: {_message(error)}")
    return kind


def _first_by_path(error):
    return [str(p) for p in error.absolute_path]


def _within_branch(error):
    """The error inside the one ``oneOf`` branch whose shape the value has, else ``error`` itself.

    A branch has the value's shape when none of its errors is at the value
    itself (a missing or unexpected key, a wrong type or constant): e.g. a
    single-law input with budget 0 reports "/input/budget: 0 is less than the
    minimum of 1", not that the input matches neither form.
    """
    while error.validator == "oneOf" and error.context:
        branches = {}
        for inner in error.context:
            branches.setdefault(inner.schema_path[0], []).append(inner)
        shaped = [errs for errs in branches.values() if all(e.relative_path for e in errs)]
        if len(shaped) != 1:
            break
        error = sorted(shaped[0], key=_first_by_path)[0]
    return error


def canonical_json(value):
    """The canonical JSON text: sorted keys, separators ``,`` and ``:``, UTF-8 as is."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def digest(cert):
    """SHA-256 hex of the canonical JSON of ``cert`` without ``digest``."""
    body = {k: v for k, v in cert.items() if k != "digest"}
    return hashlib.sha256(canonical_json(body).encode("utf-8")).hexdigest()
