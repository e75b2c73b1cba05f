"""tests/slow_cases.txt names existing tests, once each, in order (bench/slow_cases.py writes it)."""

import ast
from pathlib import Path

from tests.conftest import SLOW_CASES, slow_cases

ROOT = Path(__file__).resolve().parent.parent


def _listed():
    return [line for line in SLOW_CASES.read_text(encoding="utf-8").splitlines()
            if line and not line.startswith("#")]


def test_the_list_is_sorted_without_repeats():
    listed = _listed()
    assert listed == sorted(set(listed))
    assert set(listed) == slow_cases()


def test_every_listed_case_is_a_test_function_of_its_module():
    functions = {}
    for node_id in _listed():
        path, _, rest = node_id.partition("::")
        name = rest.split("[", 1)[0].split("::")[-1]
        if path not in functions:
            tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
            functions[path] = {node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)}
        assert name in functions[path], node_id
