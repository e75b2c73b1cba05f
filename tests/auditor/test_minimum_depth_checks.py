"""minimum-depth/1 checks: producer certificates verify (depth 2 with a one-group lower, depth 3 with the
multi-group tangents of P_2), the root lines equal the plain brute force, every tampered claim is
refused, questions outside the domain are MALFORMED and hostile sizes are refused before the work.  The two
Table S1 references are slow.
"""

import pytest

from tests.auditor.paper_corpus import (capacity_corpus, capacity_malformed, key_tampers, plain_root_lines, produce,
                                        reference, refused, verdict)
from tests.reseal import resealed
from tests.untimed import check_calls

SMALL = ("--gamma", "1/3", "--sigma2", "4", "--budget", "3", "--epsilon", "2", "--radius", "10",
         "--source-scale", "2^40")


@pytest.fixture(scope="module")
def produced(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("minimum-depth")
    return {
        "depth2": produce(tmp, "d2", "minimum-depth", *SMALL, "--delta", "67/2000", "--depth", "2",
                          "--upper-priors", "200", "--lower-priors", "100"),
        "depth3": produce(tmp, "d3", "minimum-depth", *SMALL, "--delta", "1/30", "--depth", "3",
                          "--upper-priors", "12", "--lower-priors", "12"),
    }


@pytest.mark.parametrize("key", ["depth2", "depth3"])
def test_producer_certificates_verify(produced, key):
    report = verdict(produced[key])
    assert report.outcome == "OK", report.failures


def test_multi_group_root_lines_equal_the_plain_brute_force(produced):
    cert = produced["depth3"]
    entry = cert["result"]["lower"]
    assert entry["model"] == {"game": "depth", "depth": 2}
    assert plain_root_lines(cert, entry) == entry["root_lines"]


def test_every_tampered_claim_is_refused(produced):
    assert refused(capacity_corpus(produced["depth3"])) == []


def test_key_tampers_of_an_established_statement_are_refused(produced):
    assert refused(key_tampers(produced["depth2"])) == []


def test_questions_outside_the_domain_are_malformed(produced):
    for label, cert in capacity_malformed(produced["depth2"]):
        assert verdict(cert).outcome == "MALFORMED", label


HOSTILE = [
    ("C = 10^9", lambda i: i.update(budget=10 ** 9)),
    ("depth 30 at C = 30", lambda i: i.update(budget=30, depth=30)),
]


@pytest.mark.parametrize("label, edit", HOSTILE, ids=[h[0] for h in HOSTILE])
def test_hostile_sizes_are_refused_before_the_work(produced, label, edit):
    bad = resealed(produced["depth3"], lambda c: edit(c["input"]))
    with check_calls() as work:
        report = verdict(bad)
    assert report.outcome == "UNCHECKED", (report.outcome, report.failures, report.error)
    assert work.before_the_work, work


@pytest.mark.slow
@pytest.mark.parametrize("name, depth", [("minimum-depth-c8-g1_3-sigma2_9-eps4_91.json", 3),
                                         ("minimum-depth-c8-g1_3-sigma2_9-eps4_94.json", 2)])
def test_table_s1_references_verify(name, depth):
    cert = reference(name)
    report = verdict(cert)
    assert report.outcome == "OK", report.failures
    assert cert["result"]["minimum_depth"] == depth
    picked = [w for w in capacity_corpus(cert) if w[0] in ("a lower line b raised by one unit",
                                                           "an upper table entry raised", "the answer changed")]
    assert refused(picked) == []
