"""Every kind's headline claims, hand-tightened one notch beyond what the certificate's recipe proves,
are a FAIL: never OK, never UNCHECKED (docs/certificates.md, "Outcomes").

The notches are built in :mod:`tests.auditor.notch_corpus`: an upper end moved down or a lower end
moved up (to the midpoint with the opposite end or with its finite part, by one unit of an exact
value, or onto the opposite end where the midpoint is still proved), every field tied to it kept
consistent and every digest resealed.  A second set moves τ to just above the true TV(ν, g): a TRUE
tighter claim that the recipe's precision cannot establish (and one release's δ(ε) enclosed within a
relative 2^-12000, beyond plain-composition/1's 2^13 bits), which must FAIL as "not established" and
never as disproved.  The tighter claims the recipe does prove (the midpoints the first set goes
beyond, τ within 2^-198 of TV, δ(ε) within 2^-6000) verify.
"""

from fractions import Fraction
from pathlib import Path

import pytest

from auditor.api import verify_certificate
from auditor.outcomes import FAIL, OK
from auditor.report import DISPROVED, NOT_ESTABLISHED
from tests.auditor.notch_corpus import NOTCHES, PROVED, TRUE_NOTCHES, load, redisplay
from tests.reseal import resealed

ROOT = Path(__file__).resolve().parents[2]
VERDICTS = {DISPROVED, NOT_ESTABLISHED}


def _verified(notch):
    """The auditor's report of the notched certificate (which must differ from its source)."""
    cert = load(notch.source)
    assert cert["schema"] == notch.kind
    bad = resealed(cert, notch.edit)
    assert bad != cert, "the notch changed nothing"
    return verify_certificate(bad)


def _failures_at(report, pointers):
    return [f for f in report.failures if any(f["pointer"].startswith(p) for p in pointers)]


@pytest.mark.parametrize("notch", NOTCHES, ids=lambda n: n.id)
def test_a_claim_one_notch_tighter_is_a_fail(notch):
    report = _verified(notch)
    assert report.status == FAIL, (report.outcome, report.unchecked, report.error)
    assert all(f["verdict"] in VERDICTS for f in report.failures), report.failures
    assert _failures_at(report, notch.pointers), report.failures


@pytest.mark.parametrize("notch", TRUE_NOTCHES, ids=lambda n: n.id)
def test_a_true_claim_beyond_the_recipe_is_not_established(notch):
    report = _verified(notch)
    assert report.status == FAIL, (report.outcome, report.unchecked, report.error)
    assert not [f for f in report.failures if f["verdict"] == DISPROVED], report.failures
    at = _failures_at(report, notch.pointers)
    assert at and all(f["reason"].startswith("not established by the certificate's recipe") for f in at), \
        report.failures


@pytest.mark.parametrize("notch", PROVED, ids=lambda n: n.id)
def test_a_tighter_claim_the_recipe_proves_verifies(notch):
    """The midpoints beside which the corpus goes further (the true value lies on the stated end's side,
    located with mpmath, see tests/auditor/notch_corpus.py), and a τ the recipe's retry still separates
    from TV: the auditor proves them."""
    report = _verified(notch)
    assert report.status == OK, report.failures


def test_every_kind_has_a_notch():
    kinds = {path.name.rsplit("-", 1)[0] + "/" + path.name.rsplit("-", 1)[1].split(".")[0]
             for path in (ROOT / "schemas").glob("*.schema.json")}
    assert len(kinds) == 25
    assert kinds <= {n.kind for n in NOTCHES}


@pytest.mark.parametrize("source", sorted({n.source for n in NOTCHES + TRUE_NOTCHES}))
def test_the_untouched_sources_verify(source):
    report = verify_certificate(load(source))
    assert report.status == OK, (report.outcome, report.failures, report.unchecked)


# displays: each end's display recomputed at its own unit and direction
UP_KEYS = {"upper", "epsilon_hi", "delta_upper", "bound", "epsilon_upper"}
DOWN_KEYS = {"lower", "epsilon_lo", "epsilon_lower"}


def _displays(node):
    if isinstance(node, dict):
        for key, value in node.items():
            if key.endswith("_display") and key[:-8] in UP_KEYS | DOWN_KEYS and isinstance(value, str):
                yield value, node[key[:-8]], key[:-8] in UP_KEYS
            yield from _displays(value)
    elif isinstance(node, list):
        for value in node:
            yield from _displays(value)


@pytest.mark.parametrize("source", sorted({n.source for n in NOTCHES if not n.source.startswith("made:")}))
def test_redisplay_reproduces_the_reference_displays(source):
    shown = list(_displays(load(source)))
    for text, value, up in shown:
        assert redisplay(text, Fraction(value), up) == text


def test_redisplay_keeps_the_form():
    assert redisplay("1.23e-5", Fraction(123401, 10 ** 10), True) == "1.24e-5"
    assert redisplay("1.23e-5", Fraction(123499, 10 ** 10), False) == "1.23e-5"
    assert redisplay("0.000100", Fraction(1, 3), False) == "0.333333"
    assert redisplay("7", Fraction(13, 2), True) == "7"
    assert redisplay("7", Fraction(13, 2), False) == "6"
