"""The documentation is self-contained: a clone has everything it links to.

Every relative link in README.md, CONTRIBUTING.md and docs/**/*.md must name an existing file of
the repository (and, with a ``#fragment``, one of that page's headings), and no
page may send a reader to material a clone does not have: the project's
private specification, its source-paper files ("seed 004") or its issue
tracker ("issue 6").  Every table row sits under its table's header (a paragraph inside a table
cuts the rows after it off), and prose names the rows it means rather than counting them.
"""

import re
import unicodedata
from pathlib import Path
from urllib.parse import unquote

import pytest

REPO = Path(__file__).resolve().parent.parent
DOCS = sorted((REPO / "docs").rglob("*.md"))
assert DOCS, "no docs/*.md found"
PAGES = [REPO / "README.md", REPO / "CONTRIBUTING.md", *DOCS]

FENCE = re.compile(r"^(```|~~~).*?^\1[^\n]*$", re.S | re.M)
CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1", re.S)
INLINE_LINK = re.compile(r"!?\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE_LINK = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s.*)?$", re.M)
HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$", re.M)
SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")

FORBIDDEN = {
    "a path outside the repository (../shared)": re.compile(r"\.\./shared"),
    "the project's private specification (SPEC)": re.compile(r"\bSPEC\b"),
    "a source-paper file (seed 00N)": re.compile(r"\bseeds?\s+0\d", re.I),
    "an issue number": re.compile(r"\bissues?\s*#?\s*\d+", re.I),
}


def _prose(text):
    """The text with fenced code blocks and inline code spans removed."""
    return CODE_SPAN.sub("", FENCE.sub("", text))


def links(text):
    """Every link target written in markdown link syntax."""
    prose = _prose(text)
    return INLINE_LINK.findall(prose) + REFERENCE_LINK.findall(prose)


def slug(heading):
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = CODE_SPAN.sub(lambda m: m.group(0).strip("`"), heading).lower()
    kept = "".join(ch for ch in text
                   if ch in " -_" or unicodedata.category(ch)[0] in "LN")
    return kept.replace(" ", "-")


def anchors(page):
    return {slug(h) for h in HEADING.findall(FENCE.sub("", page.read_text(encoding="utf-8")))}


def _name(page):
    return page.relative_to(REPO).as_posix()


def test_slug_matches_github_rules():
    assert slug("4. The finite game G_C / F_q") == "4-the-finite-game-g_c--f_q"
    assert slug("2. The finite source and τ") == "2-the-finite-source-and-τ"
    assert slug("Checks (`auditor verify`)") == "checks-auditor-verify"


def test_link_extraction_skips_code():
    text = "see [a](x.md) and `S[L](D)`\n```\n[b](y.md)\n```\n[c]: z.md\n"
    assert links(text) == ["x.md", "z.md"]


@pytest.mark.parametrize("page", [pytest.param(p, id=_name(p)) for p in PAGES])
def test_relative_links_point_to_existing_files(page):
    broken = []
    for target in links(page.read_text(encoding="utf-8")):
        if SCHEME.match(target):
            continue  # an absolute URL, not a file of the repository
        path_part, _, fragment = target.partition("#")
        dest = (page.parent / unquote(path_part)).resolve() if path_part else page
        if not dest.is_relative_to(REPO):
            broken.append(f"{target}: outside the repository")
        elif not dest.exists():
            broken.append(f"{target}: no such file")
        elif fragment and dest.suffix == ".md" and unquote(fragment) not in anchors(dest):
            broken.append(f"{target}: no heading #{fragment} in {_name(dest)}")
    assert not broken, f"{_name(page)}: " + "; ".join(broken)


@pytest.mark.parametrize("page", [pytest.param(p, id=_name(p)) for p in PAGES])
def test_no_reference_to_material_outside_the_repository(page):
    text = page.read_text(encoding="utf-8")
    found = [f"line {text.count(chr(10), 0, m.start()) + 1}: {m.group(0)!r} ({what})"
             for what, pattern in FORBIDDEN.items() for m in pattern.finditer(text)]
    assert not found, f"{_name(page)}: " + "; ".join(found)


# notes addressed to the developers who wrote a page, not to its reader
DRAFTING = {
    "a note to the producer's developers": re.compile(r"for the producer to mirror", re.I),
    "text meant to be pasted into other pages": re.compile(r"text for the shared pages", re.I),
    "a to-do marker": re.compile(r"\b(TODO|FIXME|XXX)\b"),
    "a sentence broken off after 'of'": re.compile(r"\bof\n(The|A) "),
}


@pytest.mark.parametrize("page", [pytest.param(p, id=_name(p)) for p in PAGES])
def test_no_drafting_notes_or_broken_sentences(page):
    text = FENCE.sub("", page.read_text(encoding="utf-8"))
    found = [f"line {text.count(chr(10), 0, m.start()) + 1}: {m.group(0)!r} ({what})"
             for what, pattern in DRAFTING.items() for m in pattern.finditer(text)]
    assert not found, f"{_name(page)}: " + "; ".join(found)


# a table row is a line that starts and ends with "|"; a run of them is a table only when its second
# line is the delimiter row under its header: rows cut off by a paragraph render as plain text
TABLE_LINE = re.compile(r"^ {0,3}\|.*\|\s*$")
DELIMITER_ROW = re.compile(r"^ {0,3}\|?(\s*:?-+:?\s*\|)+\s*(:?-+:?\s*)?$")
UNESCAPED_PIPE = re.compile(r"(?<!\\)\|")


def tables(text):
    """Each table of ``text`` outside fenced code: (line number of its first line, its lines)."""
    lines = FENCE.sub(lambda m: "\n" * m.group(0).count("\n"), text).split("\n")
    found, run = [], []
    for number, line in enumerate(lines + [""], start=1):
        if TABLE_LINE.match(line):
            run.append((number, line))
        elif run:
            found.append((run[0][0], [row for _, row in run]))
            run = []
    return found


def cells(row):
    return len(UNESCAPED_PIPE.split(row.strip().strip("|")))


def table_problems(text):
    problems = []
    for start, rows in tables(text):
        if len(rows) < 2 or not DELIMITER_ROW.match(rows[1]):
            problems.append(f"line {start}: table rows without a header and delimiter row ({rows[0][:60]!r})")
            continue
        width = cells(rows[0])
        problems += [f"line {start + i}: {cells(row)} cells under a header of {width}"
                     for i, row in enumerate(rows[2:], start=2) if cells(row) != width]
    return problems


def test_table_parsing_finds_a_headless_continuation():
    text = "| a | b |\n|---|---|\n| 1 | 2 |\n\nA paragraph.\n| 3 | 4 |\n```\n| code |\n```\n"
    assert [start for start, _ in tables(text)] == [1, 6]
    assert table_problems(text) == ["line 6: table rows without a header and delimiter row ('| 3 | 4 |')"]
    assert table_problems("| a | b |\n|---|:-:|\n| `x \\| y` | 2 |\n| 3 |\n") == ["line 4: 1 cells under a header of 2"]


@pytest.mark.parametrize("page", [pytest.param(p, id=_name(p)) for p in PAGES])
def test_every_table_row_follows_its_header(page):
    problems = table_problems(page.read_text(encoding="utf-8"))
    assert not problems, f"{_name(page)}: " + "; ".join(problems)


# "(the last four rows)" silently points elsewhere once a row is added: name the rows instead
POSITIONAL = re.compile(r"\(the\s+(first|last)\s+(two|three|four|five|six|seven|eight|nine|ten|\d+)(\s+rows)?\)",
                        re.I)


@pytest.mark.parametrize("page", [pytest.param(p, id=_name(p)) for p in PAGES])
def test_no_reference_to_table_rows_by_position(page):
    text = page.read_text(encoding="utf-8")
    found = [f"line {text.count(chr(10), 0, m.start()) + 1}: {m.group(0)!r}" for m in POSITIONAL.finditer(text)]
    assert not found, f"{_name(page)}: " + "; ".join(found)
