"""The two verdicts of a FAIL, for tests: claims disproved, and claims the certificate's recipe does not establish."""

from auditor.outcomes import FAIL
from auditor.report import DISPROVED, NOT_ESTABLISHED


def unproved(report):
    """The pointers of the claims recorded as not established, in the order found."""
    return [f["pointer"] for f in report.failures if f["verdict"] == NOT_ESTABLISHED]


def disproved(report):
    """The pointers of the claims recorded as disproved, in the order found."""
    return [f["pointer"] for f in report.failures if f["verdict"] == DISPROVED]


def only_unproved(report, prefix=""):
    """Assert a FAIL whose every failure is "not established" (nothing disproved), the first at a pointer
    starting with ``prefix``; return the unproved pointers."""
    assert report.status == FAIL, (report.outcome, report.unchecked, report.error)
    assert not disproved(report), report.failures
    pointers = unproved(report)
    assert pointers and pointers[0].startswith(prefix), report.failures
    for f in report.failures:
        assert f["reason"].startswith("not established by the certificate's recipe"), f
    return pointers
