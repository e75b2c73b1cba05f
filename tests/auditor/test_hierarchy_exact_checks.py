"""hierarchy-exact/1 checks: the references verify with the published chain, producer certificates of
other laws verify, every tampered claim is refused, questions outside the domain are MALFORMED and
hostile sizes are refused (UNCHECKED) before any curve (by the checks' work, never by a time).
"""

from fractions import Fraction

import pytest

from tests.auditor.paper_corpus import (hierarchy_exact_corpus, hierarchy_exact_malformed, produce, reference,
                                        refused, verdict)
from tests.auditor.verdicts import only_unproved
from tests.reseal import resealed, with_value
from tests.untimed import check_calls, must_not_call

CHAIN = "hierarchy-exact-c4-uniform-g1_2-chain.json"
DEPTHS = "hierarchy-exact-c4-uniform-g1_2-depths.json"
CUTS = "hierarchy-exact-c4-uniform-g1_2-cuts.json"


@pytest.mark.parametrize("name", [CHAIN, DEPTHS, CUTS])
def test_references_verify(name):
    report = verdict(reference(name))
    assert report.outcome == "OK", report.failures


def test_the_published_chain_is_what_was_checked():
    cert = reference(CHAIN)
    report = verdict(cert)
    assert "(G_4, P_3, P_2, Q_2, P_1)(1/2) = (3737, 3740, 3746, 3748, 3753)/3888, strictly increasing" in report.claim
    gaps = [Fraction(g) * 3888 for g in cert["result"]["chain"][0]["gaps"]]
    assert gaps == [3, 6, 2, 5]
    pending = [m["graph"]["pending"] for m in reference(DEPTHS)["result"]["models"][1:]]
    assert pending == [104, 72, 40, 16]


@pytest.fixture(scope="module")
def produced(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("hierarchy-exact")
    return {
        "121": produce(tmp, "121", "hierarchy-exact", "--gamma", "1/3", "--weights", "1,2,1", "--budget", "3",
                       "--prior", "0,1/3,1/2,1", "--models", "G,P2,Q2,P1,U:0,U:1"),
        "asym": produce(tmp, "asym", "hierarchy-exact", "--gamma", "2/5", "--weights", "2,1,3", "--offset", "0",
                        "--budget", "2", "--prior", "1/4,1/2", "--models", "G,Q2,P1"),
    }


@pytest.mark.parametrize("key", ["121", "asym"])
def test_producer_certificates_verify(produced, key):
    report = verdict(produced[key])
    assert report.outcome == "OK", report.failures


@pytest.mark.parametrize("name", [pytest.param(CHAIN, marks=pytest.mark.slow), DEPTHS,
                                  pytest.param(CUTS, marks=pytest.mark.slow)])
def test_every_tampered_claim_is_refused(name):
    assert refused(hierarchy_exact_corpus(reference(name))) == []


def test_tampered_producer_certificate_is_refused(produced):
    assert refused(hierarchy_exact_corpus(produced["121"])) == []


def test_questions_outside_the_domain_are_malformed():
    for label, cert in hierarchy_exact_malformed(reference(CHAIN)):
        assert verdict(cert).outcome == "MALFORMED", label


HOSTILE = [
    ("B = 11", ("input", "gamma"), "1/11"),
    ("ten weights", ("input", "law", "weights"), ["1"] * 9 + ["1"]),
    ("total above 10^6", ("input", "law", "weights"), ["1000000", "1", "1"]),
    ("the full game at C = 6, B = 9", None, None),
]


@pytest.mark.parametrize("label, path, value", HOSTILE, ids=[h[0] for h in HOSTILE])
def test_hostile_sizes_are_refused_before_the_work(label, path, value):
    cert = reference(CHAIN)
    if path is None:
        def edit(bad):
            bad["input"].update(gamma="1/9", budget=6)
            bad["input"]["law"]["weights"] = ["111111"] * 9
        bad = resealed(cert, edit)
    else:
        bad = with_value(cert, path, value)
    with check_calls() as work:
        report = verdict(bad)
    assert report.outcome == "UNCHECKED", (report.outcome, report.failures, report.error)
    assert work.before_the_work, work


def test_too_many_selectors_are_refused_before_any_curve(monkeypatch):
    """The selectors are counted on the model's graph (itself within the branch limit), before any curve."""
    from auditor.hierarchy.exact import ExactGame
    must_not_call(monkeypatch, ExactGame, "root")
    must_not_call(monkeypatch, ExactGame, "selector_roots")
    cert = with_value(reference(CHAIN), ("input", "budget"), 6)
    report = verdict(resealed(cert, lambda bad: bad["input"].update(models=[{"game": "portfolio", "depth": 3}])))
    assert report.outcome == "UNCHECKED" and "selectors" in report.unchecked


def test_a_node_curve_beyond_the_vertex_limit_is_not_established(monkeypatch):
    import auditor.hierarchy.exact as exact
    monkeypatch.setattr(exact, "MAX_VERTICES", 8)
    report = verdict(reference(DEPTHS))
    only_unproved(report)
    assert "vertices per node curve" in report.failures[0]["reason"]
