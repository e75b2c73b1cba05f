"""minimum-deletion/1 checks: producer certificates verify (the statement established, or not), the root
lines equal the plain brute force, every tampered claim is refused, questions outside the domain are
MALFORMED and hostile sizes are refused (UNCHECKED) before any work (by the checks' work).  The
reference (C = 8, ε = 5) and its corpus are slow.
"""

import pytest

from tests.auditor.paper_corpus import (capacity_corpus, capacity_malformed, key_tampers, plain_root_lines, produce,
                                        reference, refused, verdict)
from tests.reseal import resealed
from tests.untimed import check_calls

REFERENCE = "minimum-deletion-c8-g1_3-sigma2_9-eps5.json"
SMALL = ("--gamma", "1/3", "--sigma2", "4", "--budget", "3", "--epsilon", "2", "--radius", "10",
         "--source-scale", "2^40")


@pytest.fixture(scope="module")
def produced(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("minimum-deletion")
    return {
        "established": produce(tmp, "est", "minimum-deletion", *SMALL, "--delta", "67/2000", "--remove", "1",
                               "--upper-priors", "200", "--lower-priors", "100"),
        "coarse": produce(tmp, "coarse", "minimum-deletion", *SMALL, "--delta", "1/30", "--remove", "1",
                          "--upper-priors", "8", "--lower-priors", "8"),
        "two-removed": produce(tmp, "two", "minimum-deletion", "--gamma", "1/3", "--sigma2", "4", "--budget", "4",
                               "--epsilon", "2", "--delta", "1/10", "--remove", "0,2", "--upper-priors", "20",
                               "--lower-priors", "20", "--radius", "8", "--source-scale", "2^32"),
    }


@pytest.mark.parametrize("key", ["established", "coarse", "two-removed"])
def test_producer_certificates_verify(produced, key):
    report = verdict(produced[key])
    assert report.outcome == "OK", report.failures


def test_the_statement_and_its_lower_models(produced):
    assert produced["established"]["result"]["minimum_removed"] == 1
    assert produced["coarse"]["result"]["minimum_removed"] is None
    lowers = produced["two-removed"]["result"]["lowers"]
    assert [e["removed"] for e in lowers] == [[0], [1], [2]]
    assert [e["model"]["cuts"] for e in lowers] == [[1, 2], [0, 2], [0, 1]]


def test_root_lines_equal_the_plain_brute_force(produced):
    cert = produced["coarse"]
    for entry in cert["result"]["lowers"]:
        assert plain_root_lines(cert, entry) == entry["root_lines"]


@pytest.mark.slow  # in make references (CI); the default suite stays within minutes
def test_every_tampered_claim_is_refused(produced):
    assert refused(capacity_corpus(produced["two-removed"])) == []


def test_key_tampers_of_an_established_statement_are_refused(produced):
    assert refused(key_tampers(produced["established"])) == []


def test_a_lower_model_dropped_is_refused(produced):
    cert = resealed(produced["two-removed"], lambda bad: bad["result"]["lowers"].pop())
    assert refused([("a lower model dropped", cert)]) == []


def test_questions_outside_the_domain_are_malformed(produced):
    for label, cert in capacity_malformed(produced["established"]):
        assert verdict(cert).outcome == "MALFORMED", label


HOSTILE = [
    ("C = 10^9", lambda i: i.update(budget=10 ** 9)),
    ("C(C − 1, |R| − 1) > 8 lower models", lambda i: i.update(budget=30, removed=[0, 1, 2])),
    ("a long word at B = 99", lambda i: i.update(gamma="1/99", budget=40, removed=list(range(20)))),
]


@pytest.mark.parametrize("label, edit", HOSTILE, ids=[h[0] for h in HOSTILE])
def test_hostile_sizes_are_refused_before_the_work(produced, label, edit):
    bad = resealed(produced["coarse"], lambda c: edit(c["input"]))
    with check_calls() as work:
        report = verdict(bad)
    assert report.outcome == "UNCHECKED", (report.outcome, report.failures, report.error)
    assert work.before_the_work, work


def test_too_many_line_terms_are_refused_before_the_work(produced):
    cert = produced["coarse"]

    def edit(bad):
        bad["input"]["numerics"]["lower_priors"] = 20000
        grid = bad["result"]["lowers"][0]["grid"]
        top = 1 << grid["bits"]
        grid["numerators"] = [str(top * i // 20002) for i in range(20002)] + [str(top)]
        bad["input"]["budget"] = 40
        bad["input"]["removed"] = [1]
    with check_calls() as work:
        report = verdict(resealed(cert, edit))
    assert report.outcome == "UNCHECKED", (report.outcome, report.failures, report.error)
    assert work.before_the_work, work


@pytest.mark.slow
def test_the_reference_verifies_and_its_corpus_is_refused():
    cert = reference(REFERENCE)
    report = verdict(cert)
    assert report.outcome == "OK", report.failures
    assert cert["result"]["minimum_removed"] == 1
    wrong = capacity_corpus(cert)
    picked = [w for w in wrong if w[0] in ("a lower line a raised by one unit", "an upper table entry lowered",
                                           "the answer changed", "below_delta flipped")]
    assert refused(picked) == []


def test_line_terms_beyond_the_estimate_are_counted_on_the_graph(produced, monkeypatch):
    import auditor.checks.minimum_deletion as checks
    cert = produced["coarse"]
    entry = cert["result"]["lowers"][0]
    actual = entry["graph"]["branches"] * len(entry["grid"]["numerators"])
    monkeypatch.setattr(checks, "MAX_LINE_TERMS", actual)          # below the estimate, at the actual count
    assert verdict(cert).outcome == "OK"
    monkeypatch.setattr(checks, "MAX_LINE_TERMS", actual - 1)
    report = verdict(cert)
    assert report.outcome == "UNCHECKED" and "line-location terms" in report.unchecked
    monkeypatch.setattr(checks, "MAX_LINE_TERMS", actual)
    monkeypatch.setattr(checks, "MAX_COUNTED_BRANCHES", 10)        # too large an estimate to count
    assert verdict(cert).outcome == "UNCHECKED"
