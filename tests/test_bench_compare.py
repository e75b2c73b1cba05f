"""bench/compare.py's document text: widths shown as powers of ten, never as long runs of zeros; the mechanism-family
tables (rows, findings, the section spliced into the committed page)."""

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


# ---- the mechanism-family tables (accounting/1 against the accountants) ---------------------------------------

def _family_row(compare, peers_upper):
    from fractions import Fraction
    case = {"family": "laplace", "label": "b = 1", "steps": 10}
    cert = compare.Cell(value=("9.9", "10.1"), seconds=0.5, lower=Fraction(99, 10), upper=Fraction(101, 10),
                        audit="OK", audit_seconds=0.25)
    peers = {"pld_pess": compare.Cell(value=peers_upper, seconds=0.1),
             "pld_opt": compare.Cell(value=9.95, seconds=0.1),
             "rdp": compare.Cell(missing="n/a: RdpAccountant does not support it")}
    for key in ("prv_lo", "prv", "prv_hi"):
        peers[key] = compare.Cell(missing=compare.NOT_IN_PRV)
    return case, cert, peers


def test_a_family_row_has_a_cell_under_every_header_and_marks_a_wrong_side_bound(compare):
    header, delimiter, row = compare.family_table([_family_row(compare, 9.0)])
    assert header.count("|") == delimiter.count("|") == row.count("|")
    assert "| b = 1 | 10 | [9.9, 10.1] | 0.500 | 0.250 |" in row
    assert "9.000000 **below certified**" in row and "n/a: RdpAccountant does not support it" in row


def test_family_findings_separate_wrong_side_figures_from_loose_ones(compare):
    wrong = compare.family_findings([_family_row(compare, 9.0)])
    assert wrong[0].startswith("- Laplace, b = 1, T = 10: PLD pess. ε = 9.0 below certified")
    loose = compare.family_findings([_family_row(compare, 11.0)])
    assert loose[0].startswith("- none:") and any(line.startswith("- PLD pess.: 1 rows") for line in loose)


def test_the_family_section_replaces_its_old_copy_and_keeps_the_rest(compare):
    section = compare.families_section([_family_row(compare, 11.0)])
    assert section[0] == compare.FAMILIES_HEADING
    old = "# T\n\n## DP-SGD\n\nrows\n\n" + compare.FAMILIES_HEADING + "\n\nold rows\n\n![figure](f.png)\n"
    new = compare.splice_section(old, section)
    assert "old rows" not in new and "## DP-SGD\n\nrows" in new and new.endswith("![figure](f.png)\n")
    assert new.count(compare.FAMILIES_HEADING) == 1
    inserted = compare.splice_section("# T\n\n![figure](f.png)\n", section)
    assert inserted.index(compare.FAMILIES_HEADING) < inserted.index("![figure]")


def test_the_rows_asked_for_are_the_families_and_parameters_of_the_tables(compare):
    cases = compare.family_cases(quick=False)
    assert {case["family"] for case in cases} == {key for key, _heading, _page in compare.FAMILIES}
    rr = [case for case in cases if case["family"] == "randomized_response"]
    assert [case["event"]["event"]["noise_parameter"] for case in rr] == ["0.1", "0.2", "0.3", "0.4", "0.5"]
    assert all(case["relation"] == compare.REPLACE for case in rr)
    assert sorted(case["steps"] for case in cases if case["family"] == "laplace") == [10, 100]


def test_the_peers_read_the_same_tree_as_the_certificate(compare):
    dp_accounting = pytest.importorskip("dp_accounting")
    tree = next(case["event"] for case in compare.family_cases(quick=False) if case["family"] == "poisson_laplace")
    event = compare.dp_accounting_event(tree)
    assert isinstance(event, dp_accounting.SelfComposedDpEvent) and event.count == 100
    assert event.event.sampling_probability == 0.1 and event.event.event.noise_multiplier == 1.0


def test_the_committed_document_has_a_table_for_every_family(compare):
    committed = (REPO / "docs" / "comparison.md").read_text(encoding="utf-8")
    assert compare.FAMILIES_HEADING in committed
    for _key, heading, page in compare.FAMILIES:
        assert f"### {heading}" in committed and (REPO / "docs" / page).is_file()
