"""No import cycles in producer/ or auditor/, including those hidden by function-local imports.

Every ``.py`` file of the two packages is parsed with :mod:`ast`; every
``import``/``from ... import`` statement anywhere in it (module level or
inside a function) and every ``importlib.import_module("...")`` /
``__import__("...")`` with a literal name is an edge to the module it loads
(``from a import b`` loads ``a.b`` when that is a module, else ``a``).  A
strongly connected component of more than one module is a cycle.

:data:`ALLOWED` held the cycles known when this test was written; the
restructure removed them all, so it is empty (a listed cycle that no longer
exists fails the test too).
"""

import ast
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
PACKAGES = ("producer", "auditor")

# Known cycles: none is left (the auditor restructure removed the last ones); a new one fails the test.
ALLOWED = set()


def module_name(path, root=REPO):
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def sources(root=REPO, packages=PACKAGES):
    """{module name: source text} of every module of ``packages`` under ``root``."""
    found = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            found[module_name(path, root)] = path.read_text(encoding="utf-8")
    return found


def _resolve(name, modules):
    """The deepest module of ``modules`` that importing ``name`` loads (None outside them)."""
    parts = name.split(".")
    while parts:
        candidate = ".".join(parts)
        if candidate in modules:
            return candidate
        parts.pop()
    return None


def _base(module, node, is_package):
    """The absolute package a ``from`` import starts from (relative imports resolved)."""
    if node.level == 0:
        return node.module or ""
    parts = module.split(".")
    keep = len(parts) - node.level + (1 if is_package else 0)
    base = parts[:max(keep, 0)]
    return ".".join(base + ([node.module] if node.module else []))


def imports_of(module, text, modules, is_package=False):
    """The modules of ``modules`` that ``module`` imports (anywhere in its text)."""
    targets = set()
    for node in ast.walk(ast.parse(text)):
        names = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = _base(module, node, is_package)
            names = [f"{base}.{alias.name}" if base else alias.name for alias in node.names]
        elif isinstance(node, ast.Call):
            f = node.func
            dynamic = (isinstance(f, ast.Attribute) and f.attr == "import_module") or \
                (isinstance(f, ast.Name) and f.id in ("import_module", "__import__"))
            if dynamic and node.args and isinstance(node.args[0], ast.Constant) \
                    and isinstance(node.args[0].value, str):
                names = [node.args[0].value]
        for name in names:
            target = _resolve(name, modules)
            if target is not None and target != module:
                targets.add(target)
    return targets


def import_graph(texts, packages=()):
    """{module: set of imported modules} for the modules' texts; ``packages`` names the __init__ ones."""
    return {m: imports_of(m, text, texts, m in packages) for m, text in texts.items()}


def cycles(graph):
    """The strongly connected components with more than one module (Tarjan), as frozensets."""
    index, low, on_stack, stack, found = {}, {}, set(), [], []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.add(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(frozenset(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def _repository_graph():
    texts = sources()
    packages = {module_name(p) for package in PACKAGES for p in (REPO / package).rglob("__init__.py")}
    return texts, import_graph(texts, packages)


def _show(component):
    return " <-> ".join(sorted(component))


def test_the_sources_are_found():
    texts, graph = _repository_graph()
    assert "producer.api" in texts and "auditor.cli" in texts, "producer/ or auditor/ not found"
    assert sum(len(targets) for targets in graph.values()) > 100, "suspiciously few imports found"


def test_no_import_cycle_beyond_the_allowed_ones():
    _, graph = _repository_graph()
    found = set(cycles(graph))
    new = sorted(_show(c) for c in found - ALLOWED)
    assert not new, "import cycles (a function-local import counts too): " + "; ".join(new)


def test_every_allowed_cycle_still_exists():
    _, graph = _repository_graph()
    gone = sorted(_show(c) for c in ALLOWED - set(cycles(graph)))
    assert not gone, "cycles removed: delete them from ALLOWED: " + "; ".join(gone)


@pytest.mark.parametrize("snippet", [
    "from pkg import b",
    "import pkg.b",
    "def f():\n    from pkg.b import g\n    return g",
    "def f():\n    import importlib\n    return importlib.import_module('pkg.b')",
    "from . import b",
])
def test_a_hidden_cycle_is_found(snippet):
    texts = {"pkg": "", "pkg.a": snippet, "pkg.b": "from pkg.a import x"}
    assert cycles(import_graph(texts, {"pkg"})) == [frozenset({"pkg.a", "pkg.b"})]


def test_imports_of_a_package_resolve_from_the_package():
    texts = {"pkg": "from .a import x", "pkg.a": ""}
    graph = import_graph(texts, {"pkg"})
    assert graph["pkg"] == {"pkg.a"}
