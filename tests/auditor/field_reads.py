"""Which fields of a certificate the kind's checks read: tracking proxies and a schema walk (tests only).

:func:`read_paths` verifies a certificate with the real auditor, but hands the
kind's checks (``checker.verify(cert, report)``, dispatched in
:func:`auditor.api._run_checks` through :func:`auditor.checks.checker_for`) a
copy of the schema-valid, digest-checked certificate wrapped in
:class:`TrackedDict` / :class:`TrackedList` proxies, which record every field
path read.  Nothing of this is in the production path: the test replaces
``checker_for`` for the duration of one verification.  Reads made while a
check validates or digests an embedded certificate (its own schema and digest
step, which touch every field) are not counted: :func:`auditor.certificate`'s
``validate`` and ``digest`` run with the recording paused.

A read is a value the checks obtained: ``d[k]``, ``d.get(k)`` (also of an
absent key: the check looked), ``items()``/``values()``, iteration or
indexing of a list, and an equality or membership test of a whole object or
list (which compares every value below it).  Iterating a dict's keys alone
(``set(d)``) reads no value.  Paths are tuples of keys with every list index
written ``"[]"``.

:func:`schema_paths` walks a kind's JSON Schema (``$ref`` to ``$defs``,
``oneOf``/``anyOf``/``allOf``, ``properties``, ``items``) and returns every
leaf field path: a value that is not an object with ``properties`` nor an
array of such.
"""

import json
from contextlib import contextmanager
from pathlib import Path

import auditor.api
import auditor.certificate

SCHEMAS = Path(__file__).resolve().parents[2] / "schemas"
INDEX = "[]"


class ReadLog:
    """The paths read, and those read as a whole (an equality test compares everything below)."""

    def __init__(self):
        self.paths = set()
        self.wholes = set()
        self.paused = 0

    def read(self, path):
        if not self.paused:
            self.paths.add(path)

    def whole(self, path):
        if not self.paused:
            self.wholes.add(path)

    def covers(self, path):
        """Whether ``path`` (a leaf of the schema) was read, or some value below it, or an object above
        it as a whole."""
        if path in self.paths or any(path[:i] in self.wholes for i in range(len(path) + 1)):
            return True
        n = len(path)
        return any(p[:n] == path for p in self.paths)


def _wrap(value, path, log):
    if isinstance(value, dict):
        return TrackedDict(value, path, log)
    if isinstance(value, list):
        return TrackedList(value, path, log)
    return value


class TrackedDict(dict):
    """A dict that records the path of every value read from it."""

    def __init__(self, data, path, log):
        super().__init__((k, _wrap(v, path + (k,), log)) for k, v in data.items())
        self._path, self._log = path, log

    def __getitem__(self, key):
        value = super().__getitem__(key)
        self._log.read(self._path + (key,))
        return value

    def get(self, key, default=None):
        self._log.read(self._path + (key,))
        return super().get(key, default)

    def items(self):
        return [(k, self[k]) for k in super().keys()]

    def values(self):
        return [self[k] for k in super().keys()]

    def __eq__(self, other):
        self._log.whole(self._path)
        return dict.__eq__(self, other)

    def __ne__(self, other):
        return not self == other

    __hash__ = None

    def plain(self):
        """The wrapped data as plain dicts and lists (no reads recorded)."""
        return {k: _plain(v) for k, v in dict.items(self)}


class TrackedList(list):
    """A list that records a read of its elements (path + "[]") when indexed or iterated."""

    def __init__(self, data, path, log):
        super().__init__(_wrap(v, path + (INDEX,), log) for v in data)
        self._path, self._log = path, log

    def _touch(self):
        if len(self):
            self._log.read(self._path + (INDEX,))

    def __getitem__(self, index):
        self._touch()
        return super().__getitem__(index)

    def __iter__(self):
        self._touch()
        return super().__iter__()

    def __contains__(self, item):
        self._log.whole(self._path)
        return super().__contains__(item)

    def __eq__(self, other):
        self._log.whole(self._path)
        return list.__eq__(self, other)

    def __ne__(self, other):
        return not self == other

    __hash__ = None


def _plain(value):
    if isinstance(value, TrackedDict):
        return value.plain()
    if isinstance(value, TrackedList):
        return [_plain(v) for v in list.__iter__(value)]
    return value


def _paused(log, function):
    def run(cert, *args, **kwargs):
        log.paused += 1
        try:
            return function(_plain(cert), *args, **kwargs)
        finally:
            log.paused -= 1
    return run


@contextmanager
def recording(log):
    """Within the block, every verification hands its kind's checks a tracked certificate."""
    original_checker_for = auditor.api.checker_for
    patched = []

    class Tracked:
        def __init__(self, module):
            self.module = module

        def verify(self, cert, report):
            return self.module.verify(TrackedDict(cert, (), log), report)

    def checker_for(kind):
        module = original_checker_for(kind)
        return None if module is None else Tracked(module)

    import importlib
    import sys

    from auditor.checks import KINDS
    for module_name in KINDS.values():       # import every kind's checks first, so that theirs are patched
        importlib.import_module(module_name)
    for name, module in list(sys.modules.items()):
        if not name.startswith("auditor.") or module is None:
            continue
        for attr, function in (("validate", auditor.certificate.validate), ("digest", auditor.certificate.digest)):
            if getattr(module, attr, None) is function and name not in ("auditor.certificate", "auditor.api"):
                patched.append((module, attr, function))
                setattr(module, attr, _paused(log, function))
    auditor.api.checker_for = checker_for
    try:
        yield log
    finally:
        auditor.api.checker_for = original_checker_for
        for module, attr, function in patched:
            setattr(module, attr, function)


def read_paths(cert):
    """(report, ReadLog) of one verification of ``cert`` (a dict) with tracked reads."""
    log = ReadLog()
    with recording(log):
        report = auditor.api.verify_certificate(cert)
    return report, log


# ---- the schema walk ------------------------------------------------------------------------------

def schema_of(kind):
    name = kind.replace("/", "-") + ".schema.json"
    return json.loads((SCHEMAS / name).read_text(encoding="utf-8"))


def schema_paths(schema):
    """Every leaf field path of ``schema`` (a set of tuples), object keys and "[]" for array items."""
    return set(schema_leaves(schema))


def schema_leaves(schema):
    """{leaf path: whether the schema fixes its value} (one and the same ``const``, or ``enum`` of one
    value, in every branch that defines it: a value no check needs to read)."""
    values = {}
    _walk(schema, schema, (), values, ())
    return {path: len(found) == 1 and None not in found for path, found in values.items()}


def _fixed_value(node):
    """The one value the node admits (as JSON text), or None."""
    if "const" in node:
        return json.dumps(node["const"], sort_keys=True)
    if isinstance(node.get("enum"), list) and len(node["enum"]) == 1:
        return json.dumps(node["enum"][0], sort_keys=True)
    return None


def _resolve(node, root):
    ref = node.get("$ref")
    if ref is None:
        return node
    if not ref.startswith("#/"):
        raise ValueError(f"non-local $ref {ref!r}")
    target = root
    for part in ref[2:].split("/"):
        target = target[part]
    return target


def _branches(node, root, refs):
    """The node and every branch of its combinators, $refs resolved (cycles cut)."""
    out = []
    stack = [(node, refs)]
    while stack:
        n, seen = stack.pop()
        ref = n.get("$ref")
        if ref is not None:
            if ref in seen:
                continue
            seen = seen + (ref,)
            n = _resolve(n, root)
        out.append((n, seen))
        for key in ("oneOf", "anyOf", "allOf"):
            stack.extend((b, seen) for b in n.get(key, []))
        for key in ("then", "else"):
            if isinstance(n.get(key), dict):
                stack.append((n[key], seen))
    return out


def _walk(node, root, path, out, refs):
    branches = _branches(node, root, refs)
    props, items = {}, []
    for n, seen in branches:
        for key, sub in n.get("properties", {}).items():
            props.setdefault(key, []).append((sub, seen))
        if isinstance(n.get("items"), dict):
            items.append((n["items"], seen))
        for sub in n.get("prefixItems", []):
            items.append((sub, seen))
    if not props and not items:
        found = out.setdefault(path, set())
        found.update(_fixed_value(n) for n, _ in branches if set(n) - {"description", "$comment", "title"})
        return
    for key, subs in props.items():
        for sub, seen in subs:
            _walk(sub, root, path + (key,), out, seen)
    for sub, seen in items:
        _walk(sub, root, path + (INDEX,), out, seen)


def present_paths(cert, path=()):
    """Every leaf path of a certificate's data (list indices as "[]")."""
    out = set()
    if isinstance(cert, dict):
        if not cert:
            out.add(path)
        for k, v in cert.items():
            out |= present_paths(v, path + (k,))
    elif isinstance(cert, list):
        if not cert:
            out.add(path)
        for v in cert:
            out |= present_paths(v, path + (INDEX,))
    else:
        out.add(path)
    return out
