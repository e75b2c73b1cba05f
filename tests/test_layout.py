"""The producer's layout stays as documented (README.md, Layout; CONTRIBUTING.md).

- every certificate kind has its home module in producer/kinds/ with ``KIND``,
  ``VERSION``, an immutable ``Request`` (``__slots__``, validated in its
  constructor, ``from_strings``), ``build`` and ``claim``, and is listed in
  ``producer.kinds.MODULES``;
- no two producer classes share a name (the kinds' ``Request`` excepted: it is
  always read as ``<kind>.Request``), and no two producer modules are named
  ``api.py``;
- the import paths kept for the auditor's tests are imported by nothing in
  producer/, so they can go as soon as those tests move.
"""

import ast
import importlib
from collections import defaultdict
from pathlib import Path

import pytest

from producer.kinds import MODULES

REPO = Path(__file__).resolve().parent.parent
PRODUCER = REPO / "producer"

# Import paths tests/auditor still uses (envelope.certify: its new name is the producer's to give); then it goes.
ALIASES = {
    "producer/envelope/certify.py",
}


def _sources():
    files = sorted(PRODUCER.rglob("*.py"))
    assert files, "no producer sources found"
    return files


def _relative(path):
    return path.relative_to(REPO).as_posix()


@pytest.mark.parametrize("schema", sorted(MODULES))
def test_every_kind_has_its_home(schema):
    kind = importlib.import_module(MODULES[schema])
    assert f"{kind.KIND}/{kind.VERSION}" == schema
    assert MODULES[schema] == f"producer.kinds.{kind.KIND.replace('-', '_')}"
    for name in ("build", "claim"):
        assert callable(getattr(kind, name)), name
    request = kind.Request
    assert "__slots__" in vars(request) and callable(getattr(request, "from_strings", None))
    assert request.__setattr__ is not object.__setattr__, "the Request must be immutable"


def test_the_kinds_are_listed_one_per_line_in_order():
    assert list(MODULES) == sorted(MODULES)
    source = (PRODUCER / "kinds" / "__init__.py").read_text(encoding="utf-8")
    for schema, module in MODULES.items():
        assert f'    "{schema}": "{module}",\n' in source


def test_no_two_producer_classes_share_a_name():
    where = defaultdict(list)
    for path in _sources():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                where[node.name].append(_relative(path))
    kinds = {p for p in where.pop("Request", []) if p.startswith("producer/kinds/")}
    assert kinds, "no kind Request found"
    shared = {name: files for name, files in where.items() if len(files) > 1}
    assert not shared, f"classes defined more than once: {shared}"


def test_one_module_named_api():
    apis = sorted(_relative(p) for p in _sources() if p.name == "api.py")
    assert [p for p in apis if p not in ALIASES] == ["producer/api.py"]


def test_the_kept_import_paths_are_imported_by_no_producer_module():
    names = {a[:-len(".py")].replace("/", ".") for a in ALIASES}
    assert all((REPO / a).is_file() for a in ALIASES), "an alias is gone: delete it from ALIASES"
    users = []
    for path in _sources():
        if _relative(path) in ALIASES:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level == 0:
                targets = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            elif isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                continue
            users += [f"{_relative(path)} imports {t}" for t in targets if t in names]
    assert not users, users
