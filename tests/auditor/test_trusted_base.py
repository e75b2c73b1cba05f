"""docs/trusted-base.md §14 lists, per certificate kind, the auditor files an OK
depends on; this test recomputes that table from the import graph
(:mod:`tests.auditor.trusted_base`) and fails when the document differs.

Regenerate the table with ``.venv/bin/python -m tests.auditor.trusted_base --write``.
"""

from tests.auditor import trusted_base as tb


def test_the_document_states_the_current_table():
    section = tb.current_section(tb.DOC.read_text(encoding="utf-8"))
    assert section is not None, "docs/trusted-base.md lost its generated section markers"
    assert section == tb.render(), (
        "docs/trusted-base.md §14 is out of date: run `.venv/bin/python -m tests.auditor.trusted_base --write`")


def test_every_kind_has_a_row_with_its_checks_module():
    from auditor.checks import KINDS
    rows = dict(tb.inventory())
    assert len(rows) == len(KINDS) + 1
    for kind, module in KINDS.items():
        files = rows[f"`{kind}/1`"]
        assert module.replace(".", "/") + ".py" in files
        assert all(n > 0 for n in files.values())


def test_the_finite_game_core_is_the_game_package_part_of_its_closure():
    core = tb.core()
    assert "auditor/game/game.py" in core and "auditor/game/rows.py" in core
    assert all(p.startswith("auditor/game/") for p in core)
    finite = dict(tb.inventory())["`finite-game/1`"]
    assert set(core) <= set(finite)


def test_rows_and_curves_do_not_load_the_evaluator():
    """auditor/game/__init__.py imports nothing, so kinds that use only rows or
    curves (hierarchy-exact) do not depend on the evaluator."""
    known = tb.modules()
    for start in ("auditor.game.rows", "auditor.game.curves", "auditor.game.sums"):
        assert "auditor.game.game" not in tb.closure(start, known)


def _tree(tmp_path, files):
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return tb.modules(tmp_path)


def test_closure_follows_local_relative_and_package_imports(tmp_path):
    known = _tree(tmp_path, {
        "auditor/__init__.py": "",
        "auditor/checks/__init__.py": "",
        "auditor/checks/k.py": "import json\n\ndef f():\n    from auditor.pkg import inner\n",
        "auditor/pkg/__init__.py": "from . import helper\n",
        "auditor/pkg/inner.py": "from .. import top\n",
        "auditor/pkg/helper.py": "",
        "auditor/top.py": "import auditor.leaf\n",
        "auditor/leaf.py": "",
        "auditor/unused.py": "",
    })
    got = tb.closure("auditor.checks.k", known)
    assert got == {"auditor.checks.k", "auditor.checks", "auditor.pkg", "auditor.pkg.inner",
                   "auditor.pkg.helper", "auditor.top", "auditor.leaf"}


def test_a_changed_count_is_detected(tmp_path):
    """The comparison is exact: one line more in a listed file changes the section."""
    doc = tb.render()
    text = tb.DOC.read_text(encoding="utf-8")
    edited = text.replace("`game/rows.py` (", "`game/rows.py` (1", 1)
    assert edited != text
    assert tb.current_section(edited) != doc
