"""bench/compare.py's document text: widths shown as powers of ten, never as long runs of zeros."""

import importlib.util
import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def compare():
    spec = importlib.util.spec_from_file_location("bench_compare", REPO / "bench" / "compare.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)   # the peers (dp_accounting, ...) are imported only when a table is made
    return module


@pytest.mark.parametrize("width, shown", [("1/" + "1" + "0" * 40, "1e-40"), ("1/1000", "1e-3"),
                                          ("1/100000000", "1e-8"), ("3/1000", "3/1000"), ("1/7", "1/7")])
def test_widths_are_shown_as_powers_of_ten(compare, width, shown):
    assert compare.show_width(width) == shown


def test_the_generated_and_the_committed_document_state_the_product_width_readably(compare):
    generated = compare.document([], [], [], [])
    committed = (REPO / "docs" / "comparison.md").read_text(encoding="utf-8")
    for text in (generated, committed):
        assert "with width below 1e-40;" in text
        assert not re.search(r"0{20}", text)
