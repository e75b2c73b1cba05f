"""Edge-of-limit helpers for the kinds' tests (tests/producer/kinds/test_<kind>.py).

For each limit the producer restates from the auditor (docs/certificates.md):
just inside, the producer writes a certificate and ``auditor verify`` answers
OK (exit 0); one step beyond, the producer refuses with one line on stderr,
exit 2 and no file.  Where the edge is too expensive to produce here, the
kind's test compares the restated estimate with the auditor's own code instead.
"""

import subprocess
import sys
from pathlib import Path

import pytest

from producer.errors import LimitError
from tests.untimed import HANG_GUARD_SECONDS

BIN = Path(sys.executable).parent
ROOT = Path(__file__).resolve().parents[3]


def run_producer(*args, out):
    """Run ``producer ARGS --quiet -o OUT`` (the installed command line)."""
    return subprocess.run([str(BIN / "producer"), *map(str, args), "--quiet", "-o", str(out)],
                          capture_output=True, text=True, timeout=HANG_GUARD_SECONDS)


def verifies(path):
    audit = subprocess.run([str(BIN / "auditor"), "verify", "--quiet", str(path)],
                           capture_output=True, text=True, timeout=HANG_GUARD_SECONDS)
    assert audit.returncode == 0, audit.stdout + audit.stderr


def edge_verifies(args, out):
    done = run_producer(*args, out=out)
    assert done.returncode == 0, done.stderr
    verifies(out)


def built_edge_verifies(build, out):
    """A certificate only the Python builder can write (its command fixes the parameters): write, verify."""
    from producer.certificates.canonical import write_certificate
    write_certificate(build(), out)
    verifies(out)


def built_refused(build, words):
    with pytest.raises(LimitError) as info:
        build()
    assert words in str(info.value) and "\n" not in str(info.value)


def refused(args, out, words="auditor"):
    done = run_producer(*args, out=out)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and words in lines[0], done.stderr
    assert not out.exists()


# ---- the auditor's budget of one file (producer.audit_budget) -------------------------------------

def auditor_estimate(cert):
    """(work, memory): the auditor's own estimates of a certificate (dict), read from its UNCHECKED line with
    each limit of its budget set to 1 in turn (the other out of reach); 0 where it counts nothing."""
    import re
    from auditor import budget
    from auditor.api import verify_certificate
    saved, found = (budget.MAX_WORK, budget.MAX_MEMORY), []
    try:
        for work, memory in ((1, 10 ** 30), (10 ** 30, 1)):
            budget.MAX_WORK, budget.MAX_MEMORY = work, memory
            line = verify_certificate(cert).as_dict()["unchecked"] or ""
            match = re.search(r" (\d+) exceeds the limit 1$", line)
            found.append(int(match.group(1)) if match else 0)
    finally:
        budget.MAX_WORK, budget.MAX_MEMORY = saved
    return tuple(found)


def scaled_budget(monkeypatch, work, memory=None):
    """Both halves' budget of one file scaled down to ``work`` units (and ``memory`` bytes): a cheap
    certificate then sits at the edge, and the producer's multiple N can be held to the auditor's."""
    from auditor import budget
    from producer import audit_budget
    memory = audit_budget.MEMORY if memory is None else memory
    monkeypatch.setattr(audit_budget, "WORK", work)
    monkeypatch.setattr(audit_budget, "MEMORY", memory)
    monkeypatch.setattr(budget, "MAX_WORK", work)
    monkeypatch.setattr(budget, "MAX_MEMORY", memory)


def least_auditor_budget(cert, n):
    """The auditor accepts ``cert`` (dict) at ``auditor verify --budget n`` and answers UNCHECKED at n − 1:
    n is the least multiple it needs (the file is checked in full at n)."""
    from auditor.api import verify_certificate
    report = verify_certificate(cert, budget=n)
    assert report.outcome == "OK", report.as_dict()
    if n > 1:
        below = verify_certificate(cert, budget=n - 1).as_dict()
        assert below["outcome"] == "UNCHECKED" and "budget" in below["unchecked"], below
