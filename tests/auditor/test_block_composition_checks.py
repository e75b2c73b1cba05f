"""block-composition/1 checks: Table 2 verifies with its decisions, producer certificates of a finite law
and of γ = 0 verify, every tampered claim is refused, questions outside the domain are MALFORMED and
hostile sizes are refused (UNCHECKED) before any curve (by the checks' work, never by a time).
"""

import pytest

from tests.auditor.paper_corpus import (block_composition_corpus, block_composition_malformed, produce, reference,
                                        refused, verdict)
from tests.reseal import resealed, with_value
from tests.untimed import check_calls

TABLE2 = "block-composition-table2-g1_2-sigma2_4-c3-eps5.json"


def test_table2_verifies_with_its_decisions():
    cert = reference(TABLE2)
    report = verdict(cert)
    assert report.outcome == "OK", report.failures
    decisions = {"+".join(map(str, m["split"])): m["decisions"] for m in cert["result"]["methods"]}
    # either two-step block certifies 10^-4; only the full computation certifies [4·10^-5, 6·10^-5]
    assert decisions == {"1+1+1": ["fails", "fails"], "2+1": ["certifies", "fails"],
                         "1+2": ["certifies", "fails"], "3": ["certifies", "certifies"]}
    assert [b["vertices"] for b in cert["result"]["blocks"]] == [33, 34, 1025, 1010, 28413]


@pytest.fixture(scope="module")
def produced(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("blocks")
    return {
        "finite": produce(tmp, "finite", "blocks", "--gamma", "1/3", "--weights", "1,2,1", "--budget", "3",
                          "--epsilon", "1/2", "--splits", "1+1+1,2+1,1+2,3", "--targets", "9/10,4/5:819/1000"),
        "gamma0": produce(tmp, "gamma0", "blocks", "--gamma", "0", "--sigma2", "1", "--radius", "4", "--scale",
                          "2^32", "--budget", "2", "--epsilon", "1", "--targets", "1/2"),
        "no-full": produce(tmp, "nofull", "blocks", "--gamma", "2/5", "--weights", "3,1,2", "--offset", "0",
                           "--budget", "2", "--epsilon", "1/3", "--splits", "1+1", "--targets", "1/2"),
    }


@pytest.mark.parametrize("key", ["finite", "gamma0", "no-full"])
def test_producer_certificates_verify(produced, key):
    report = verdict(produced[key])
    assert report.outcome == "OK", report.failures


@pytest.mark.slow  # in make references (CI); the default suite stays within minutes
def test_every_tampered_claim_is_refused():
    assert refused(block_composition_corpus(reference(TABLE2))) == []


def test_tampered_finite_law_certificate_is_refused(produced):
    cert = produced["finite"]
    tampered = [
        ("a source for a finite law", with_value(cert, ("result", "source"), reference(TABLE2)["result"]["source"])),
        ("τ of a finite law", with_value(cert, ("result", "tau"), "1/1000")),
        ("a finite_upper off", with_value(cert, ("result", "methods", 0, "finite_upper"), "1/2")),
        ("a decision flipped", with_value(cert, ("result", "methods", 0, "decisions", 0),
                                          "fails" if cert["result"]["methods"][0]["decisions"][0] != "fails"
                                          else "certifies")),
        ("the law changed", with_value(cert, ("input", "innovations", "law", "weights", 0), "2")),
    ]
    assert refused(tampered) == []


def test_a_deadline_without_the_full_split_is_refused(produced):
    cert = with_value(produced["no-full"], ("result", "deadline"), {"lower": "0", "upper": "1"})
    assert refused([("deadline without [T]", cert)]) == []


def test_questions_outside_the_domain_are_malformed():
    for label, cert in block_composition_malformed(reference(TABLE2)):
        assert verdict(cert).outcome == "MALFORMED", label


HOSTILE = [
    ("B = 17", lambda i: i.update(gamma="1/17")),
    ("ε = 65", lambda i: i.update(epsilon="65")),
    ("a 2-block of any start at B = 16, support 65", lambda i: (i.update(gamma="1/16", splits=[[1, 2]]),
                                                                i["innovations"].update(radius=32))),
    ("T = 4 from zero at support 65", lambda i: (i.update(budget=4, splits=[[4]]),
                                                 i["innovations"].update(radius=32))),
]


@pytest.mark.parametrize("label, edit", HOSTILE, ids=[h[0] for h in HOSTILE])
def test_hostile_sizes_are_refused_before_the_work(label, edit):
    bad = resealed(reference(TABLE2), lambda c: edit(c["input"]))
    with check_calls() as work:
        report = verdict(bad)
    assert report.outcome == "UNCHECKED", (report.outcome, report.failures, report.error)
    assert work.before_the_work, work
