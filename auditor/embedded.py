"""Certificates embedded in another: checked in full by their own kind's checks.

An embedded certificate went through the strict reader (:mod:`auditor.reader`)
as part of the enclosing file, so the reader's limits (size, nesting, count of
values, numbers, strings) already hold for it.  Then, in order:

1. :func:`validated`: its ``schema`` names one of the kinds and versions the
   enclosing claim allows, and it validates against that kind's own JSON Schema (MALFORMED
   otherwise, with the pointer prefixed by where it sits), before any of its
   fields is read;
2. :func:`check_digest`: its digest is recomputed (a mismatch is a false
   claim: the embedded certificate was changed after it was sealed);
3. :func:`verify_embedded`: every claim is re-checked by its kind's own
   ``verify(cert, report)`` (:func:`auditor.checks.checker_for`), into a report
   of its own whose failures join the enclosing report with their pointers
   prefixed.

A limit of the embedded kind (UNCHECKED, raised by its checks before the work)
or a claim it leaves undecided does not stop the enclosing check: it is kept
as *pending*, the remaining claims are still checked, so a false one makes the
certificate FAIL; only when nothing is false does :func:`raise_pending` make it
UNCHECKED (the same rule as :func:`auditor.decide.raise_undecided`).
"""

from auditor.certificate import Malformed, digest, validate
from auditor.outcomes import MalformedInput, Unchecked
from auditor.rationals import show
from auditor.report import Report


def validated(cert, pointer, schemas, what):
    """The kind of ``cert``: an embedded certificate whose ``schema`` is one of ``schemas`` ("kind/version"),
    valid against that schema."""
    if not isinstance(cert, dict):
        raise Malformed(f"{pointer}: {what} must be a certificate object")
    name = cert.get("schema")
    if name not in schemas:
        wanted = " or ".join(f"a {s}" for s in schemas)
        raise Malformed(f"{pointer}/schema: {what} must be {wanted} certificate, not {show(name)}")
    try:
        return validate(cert)
    except Malformed as exc:
        raise Malformed(f"{pointer}{exc}") from None


def check_digest(cert, pointer, report, kind):
    recomputed = digest(cert)
    return report.check(cert["digest"] == recomputed, pointer + "/digest", cert["digest"], recomputed,
                        f"embedded {kind} digest does not match its body")


def verify_embedded(cert, pointer, kind, report, pending):
    """Every claim of the embedded ``cert`` (of ``kind``, already validated) by its kind's checks.

    Returns True when all of them hold; False when one is false, refused by a
    limit or undecided (the last two appended to ``pending`` as (pointer,
    Unchecked)).
    """
    from auditor.checks import checker_for  # at call time: the kinds' checks import this module
    inner = Report(pointer)
    try:
        checker_for(kind).verify(cert, inner)
    except MalformedInput as exc:
        raise Malformed(f"{pointer}{exc}") from None
    except Unchecked as exc:
        pending.append((pointer, exc))
        refused = True
    else:
        refused = False
    for failure in inner.failures:
        report.failures.append(dict(failure, pointer=pointer + failure["pointer"]))
    report.checked += inner.checked
    return not refused and not inner.failures


def raise_pending(pending, report):
    """UNCHECKED when an embedded certificate was refused or left a claim undecided and nothing is false."""
    if pending and report.ok:
        pointer, exc = pending[0]
        raise Unchecked(pointer + (exc.pointer or ""), exc.estimate, exc.limit, exc.what)
