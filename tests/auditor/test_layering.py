"""The auditor's layering: the shared machinery never imports ``auditor.checks``.

``auditor/checks/<kind>.py`` owns the ``verify`` and ``claim`` of its kind and
sits on top: only :mod:`auditor.api`, :mod:`auditor.cli` and
:mod:`auditor.__main__` (the entry points) may import the checks package;
every other module of ``auditor/`` (the shared machinery: reader, games,
enclosures, the number text of the claims, embedded certificates, ...) must
not, not even from inside a function.  :mod:`auditor.embedded` reaches the
checks of an embedded kind through the ``checker_for`` that
:mod:`auditor.checks` registers with it.

The imports are read with :mod:`ast` by the import-cycle test's reader
(``tests/test_import_cycles.py``: every ``import``/``from`` anywhere in a file
and ``importlib.import_module`` with a literal name).
"""

from tests.test_import_cycles import import_graph, module_name, sources, REPO

ENTRY_POINTS = {"auditor.api", "auditor.cli", "auditor.__main__"}


def _is_checks(module):
    return module == "auditor.checks" or module.startswith("auditor.checks.")


def offenders(graph):
    """(module, imported checks module) for every shared module of ``graph`` that imports auditor.checks."""
    return sorted((m, t) for m, targets in graph.items()
                  if not _is_checks(m) and m not in ENTRY_POINTS for t in targets if _is_checks(t))


def _auditor_graph():
    texts = sources(packages=("auditor",))
    packages = {module_name(p) for p in (REPO / "auditor").rglob("__init__.py")}
    return texts, import_graph(texts, packages)


def test_the_auditor_modules_are_found():
    texts, graph = _auditor_graph()
    assert {"auditor.api", "auditor.embedded", "auditor.claims", "auditor.checks.dg_interval"} <= set(texts)
    assert any(_is_checks(t) for t in graph["auditor.api"]), "auditor.api's import of the checks not seen"


def test_shared_machinery_never_imports_the_checks():
    _, graph = _auditor_graph()
    found = offenders(graph)
    assert not found, "shared modules importing auditor.checks (move the helper below checks/): " + \
        "; ".join(f"{m} -> {t}" for m, t in found)


HIDDEN = [
    "from auditor.checks import checker_for",
    "from auditor.checks.dg_interval import MAX_BITS",
    "def f():\n    from auditor.checks import common\n    return common",
    "import auditor.checks.separation",
    "def f():\n    import importlib\n    return importlib.import_module('auditor.checks.dg_interval')",
]


def test_a_hidden_import_of_the_checks_is_found():
    for snippet in HIDDEN:
        texts = {"auditor": "", "auditor.checks": "", "auditor.checks.dg_interval": "",
                 "auditor.checks.separation": "", "auditor.checks.common": "",
                 "auditor.api": "from auditor.checks import checker_for", "auditor.shared": snippet}
        graph = import_graph(texts, {"auditor", "auditor.checks"})
        assert [m for m, _ in offenders(graph)] == ["auditor.shared"], snippet
