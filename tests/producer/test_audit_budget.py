"""The auditor's budget of one file, restated (producer/audit_budget.py).

The two limits are the auditor's; N is the least multiple admitting both; a
certificate needing N <= 8 is written and says which ``auditor verify
--budget N`` checks it, one beyond is refused in one line.  Every kind's
estimate is the auditor's own, compared here on the reference certificates of
every kind the budget counts (the auditor's estimate read from its UNCHECKED
line with its limit set to 1: refused before any work, so this is fast).
"""

import json
from pathlib import Path

import pytest

from producer import audit_budget
from producer.audit_budget import ENTRIES, MEMORY, WORK, AuditCost, check, cost_of, multiple, notice, together
from producer.errors import LimitError
from tests.producer.kinds.edges import auditor_estimate

ROOT = Path(__file__).resolve().parents[2]
CERTIFICATES = ROOT / "certificates"


def test_the_limits_are_the_auditors():
    from auditor import budget
    assert (WORK, MEMORY) == (budget.MAX_WORK, budget.MAX_MEMORY) == (6 * 10**10, 15 * 10**8)
    assert ENTRIES == budget.MAX_ENTRIES == 2**22


def test_the_longest_array_counts_in_the_multiple_and_is_named_beyond_the_limit():
    assert multiple(AuditCost(1, 1, entries=ENTRIES)) == 1 and multiple(AuditCost(1, 1, entries=ENTRIES + 1)) == 2
    assert together([AuditCost(5, 1, entries=7), AuditCost(1, 1, entries=3)]).entries == 7
    assert check(AuditCost(0, 0, entries=8 * ENTRIES)) == 8
    with pytest.raises(LimitError, match=r"\(an array of 33554433 entries\) needs 9 times"):
        check(AuditCost(0, 0, "the convolutions", entries=8 * ENTRIES + 1))


@pytest.mark.parametrize("work, memory, n", [
    (0, 0, 1), (WORK, MEMORY, 1), (WORK + 1, 0, 2), (0, MEMORY + 1, 2), (2 * WORK + 1, 2 * MEMORY, 3),
    (8 * WORK, 8 * MEMORY, 8), (8 * WORK + 1, 0, 9), (0, 8 * MEMORY + 1, 9)])
def test_the_multiple_is_the_least_that_admits_both(work, memory, n):
    assert multiple(AuditCost(work, memory)) == n
    assert multiple(None) == 1


def test_up_to_eight_budgets_pass_and_beyond_is_refused_in_one_line():
    assert check(AuditCost(8 * WORK, 8 * MEMORY)) == 8
    with pytest.raises(LimitError) as info:
        check(AuditCost(8 * WORK + 1, 0, "the line tree", "fewer priors"), "priors")
    text = str(info.value)
    assert "\n" not in text and text.startswith("priors: the auditor's estimate for the line tree")
    assert "needs 9 times" in text and "--budget 8" in text and text.endswith("use fewer priors")
    assert "memory" not in text.split(";")[0].split("(")[1]   # only the limit beyond 8 is named


def test_the_notice_names_the_auditor_command():
    assert notice(1) is None
    assert notice(4).endswith("verify it with `auditor verify --budget 4`")
    assert "\n" not in notice(8)


def test_parts_of_one_file_add_their_work_and_keep_the_largest_memory():
    a, b = AuditCost(5, 100, "a"), AuditCost(7, 10, "b")
    both = together([a, None, b])
    assert (both.work, both.memory, both.what) == (12, 100, "b")
    assert together([None]) is None


def _load(*parts):
    return json.loads((CERTIFICATES.joinpath(*parts)).read_text(encoding="utf-8"))


# every kind the budget counts, by its references (the slow brackets hold hierarchy/1 and target-zero)
COUNTED = [("dg-interval-published-c3-gamma336_1009-eps4.json",),
           ("plain", "dg-interval-laplace-t2-g1_3-c2-eps1_2.json"),
           ("calibration-published-c4-delta1e-4.json",), ("calibration-c2-zero.json",),
           ("calibration-lower-k2-capped-c4.json",), ("slow", "calibration-lower-target-zero-c16.json"),
           ("deadline-witness-published-max.json",), ("deadline-witness-d2-law.json",),
           ("hierarchy", "hierarchy-c8-p4-delta1e-4.json"), ("hierarchy", "hierarchy-c64-cuts-minus-odd-eps19.json"),
           ("dpsgd", "dpsgd-q0_01-s1-t1000-epsilons.json"), ("dpsgd", "dpsgd-q0_01-s1-t1001-epsilons.json"),
           ("dpsgd", "dpsgd-schedule-two-stages-delta1e-6.json"),
           ("dpsgd", "dpsgd-gaussian-s2-t10-delta1e-5.json"),
           ("plain", "plain-composition-dg-sigma2_9-c1-eps20-default.json"),
           ("plain", "plain-composition-dg-sigma2_100-c1-rel1e-3.json"), ("plain", "plain-composition-dl-t4-c8.json"),
           ("plain", "epsilon-bracket-dg-sigma2_9-c1000-delta1e-5.json"),
           ("plain", "noise-dl-c100-eps1-delta1e-5.json"), ("plain", "noise-dg-g1_2-c2-eps1-delta1e-3.json"),
           ("slow", "epsilon-bracket-hierarchy-witness-g1_3-sigma2_9-c8-delta1e-4.json"),
           ("slow", "epsilon-bracket-hierarchy-witness-g1_3-sigma2_9-c64-delta1e-4.json")]


@pytest.mark.parametrize("parts", COUNTED, ids=lambda parts: parts[-1])
def test_every_kinds_estimate_is_the_auditors(parts):
    cert = _load(*parts)
    cost = cost_of(cert)
    got = (0, 0) if cost is None else (cost.work, cost.memory)
    assert got == auditor_estimate(cert)


def test_the_releases_form_is_estimated_from_above():
    """Its common and ratio scales are not documented: the producer's estimate is at most a few per cent above
    the auditor's (tests/producer/plain/test_auditability.py has the corpus), never below."""
    for name in ("plain-composition-releases-dg9x100-dl2x5-dg4s2x20.json",
                 "epsilon-bracket-releases-dg9x100-dl2x5-dg4s2x20-delta1e-5.json"):
        cert = _load("plain", name)
        cost, (work, memory) = cost_of(cert), auditor_estimate(cert)
        assert work <= cost.work <= work * 21 // 20 and memory <= cost.memory <= memory * 21 // 20


@pytest.mark.parametrize("name, n", [("epsilon-bracket-hierarchy-witness-g1_3-sigma2_9-c8-delta1e-4.json", 1),
                                     ("epsilon-bracket-hierarchy-witness-g1_3-sigma2_9-c32-delta1e-4.json", 2),
                                     ("epsilon-bracket-hierarchy-witness-g1_3-sigma2_9-c64-delta1e-4.json", 4)])
def test_the_large_brackets_need_the_budgets_the_makefile_gives_them(name, n):
    """C = 32: 1.02·10^11 units and 1.81·10^9 bytes; C = 64: 2.14·10^11 units (3.6·10^9 bytes): 2 and 4."""
    assert audit_budget.multiple_of(_load("slow", name)) == n


# ---- a request's opt-in effort ----------------------------------------------------------------------------------

def test_an_opt_in_effort_raises_what_the_producer_writes_for_up_to_the_auditors_largest():
    from auditor import budget
    assert [audit_budget.writable(n) for n in (1, 2, 8)] == [8, 16, 64]
    assert audit_budget.writable(audit_budget.MAX_EFFORT) == budget.MAX_SCALE
    cost = AuditCost(12 * WORK, 0)
    with pytest.raises(LimitError, match="beyond the 8 the producer writes for"):
        check(cost)
    assert check(cost, limit=audit_budget.writable(2)) == 12
    with pytest.raises(LimitError, match=r"beyond the 16 the producer writes for \(`auditor verify --budget 16`\)"):
        check(AuditCost(17 * WORK, 0), limit=audit_budget.writable(2))


@pytest.mark.parametrize("value, n", [(None, 1), (1, 1), (3, 3), ("8", 8), (" 2 ", 2)])
def test_an_effort_is_read_as_an_integer(value, n):
    assert audit_budget.read_effort(value, "--effort") == n


@pytest.mark.parametrize("value", [0, 9, -1, "x", "1.5", 1.0, True, "", "2e0"])
def test_an_effort_outside_one_to_eight_is_refused_in_one_line(value):
    from producer.errors import InputError
    with pytest.raises(InputError, match=r"^--effort: must be an integer from 1 to 8, got "):
        audit_budget.read_effort(value, "--effort")
