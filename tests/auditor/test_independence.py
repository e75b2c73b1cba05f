"""The auditor shares no code with the producer and never lets a float decide.

Every ``.py`` file under ``auditor/`` is parsed with :mod:`ast` and must not

* import ``producer`` (``import producer...``, ``from producer... import``,
  relative imports climbing out of the package, or a string naming
  ``producer`` passed to ``importlib.import_module`` / ``__import__``);
* call ``float(...)`` or ``math.exp`` / ``math.log`` / ``math.sqrt`` (also when
  imported as bare names from :mod:`math`).
"""

import ast
from pathlib import Path

import pytest

AUDITOR = Path(__file__).resolve().parents[2] / "auditor"
FORBIDDEN_MATH = {"exp", "log", "sqrt"}


def _files():
    files = sorted(AUDITOR.rglob("*.py"))
    assert files, "no auditor sources found"
    return files


def _is_producer(name):
    return name == "producer" or name.startswith("producer.")


def _violations(tree):
    found = []
    math_aliases = {"math"}
    bare_math = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if _is_producer(alias.name):
                    found.append(f"line {node.lineno}: import {alias.name}")
                if alias.name == "math":
                    math_aliases.add(alias.asname or "math")
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0 and node.module and _is_producer(node.module):
                found.append(f"line {node.lineno}: from {node.module} import ...")
            if node.level >= 2:  # e.g. "from ..producer import x" leaves the package
                found.append(f"line {node.lineno}: relative import beyond auditor")
            if node.module == "math":
                for alias in node.names:
                    if alias.name in FORBIDDEN_MATH:
                        bare_math.add(alias.asname or alias.name)
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        f = node.func
        if isinstance(f, ast.Name) and f.id == "float":
            found.append(f"line {node.lineno}: float(...)")
        if isinstance(f, ast.Name) and f.id in bare_math:
            found.append(f"line {node.lineno}: {f.id}(...) from math")
        if (isinstance(f, ast.Attribute) and f.attr in FORBIDDEN_MATH
                and isinstance(f.value, ast.Name) and f.value.id in math_aliases):
            found.append(f"line {node.lineno}: math.{f.attr}(...)")
        is_dynamic_import = (
            (isinstance(f, ast.Attribute) and f.attr == "import_module")
            or (isinstance(f, ast.Name) and f.id in ("__import__", "import_module"))
        )
        if is_dynamic_import:
            for arg in node.args:
                if (isinstance(arg, ast.Constant) and isinstance(arg.value, str)
                        and _is_producer(arg.value)):
                    found.append(f"line {node.lineno}: dynamic import of {arg.value}")
    # importlib strings kept in tables (e.g. KINDS) count as well
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and _is_producer(node.value):
            found.append(f"line {node.lineno}: module string {node.value!r}")
    return found


@pytest.mark.parametrize("path", _files(), ids=lambda p: str(p.relative_to(AUDITOR)))
def test_auditor_file_is_independent(path):
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    assert _violations(tree) == []


@pytest.mark.parametrize("source", [
    "import producer",
    "import producer.rationals as r",
    "from producer.game import x",
    "from producer import game",
    "import importlib\nimportlib.import_module('producer.game')",
    "__import__('producer')",
    "KINDS = {'x': 'producer.checks'}",
    "y = float('1.5')",
    "import math\nmath.exp(1)",
    "import math as m\nm.log(2)",
    "from math import sqrt\nsqrt(2)",
    "from math import sqrt as s\ns(2)",
])
def test_detector_catches(source):
    assert _violations(ast.parse(source)) != []


@pytest.mark.parametrize("source", [
    "from fractions import Fraction\nFraction(1, 3)",
    "from auditor.game.rows import row",
    "import math\nmath.gcd(4, 6)",
    "x = 'the producer writes certificates'",
])
def test_detector_allows(source):
    assert _violations(ast.parse(source)) == []
