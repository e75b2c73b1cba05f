"""Certificates embedded in another: checked in full by their own kind's checks (the one route).

Every embedded certificate (an epsilon-bracket's witnesses, a calibration's
dg-interval witnesses, a separation's privacy bound, a deadline witness's
reference, ...) goes through this module.  It went through the strict reader
(:mod:`auditor.reader`) as part of the enclosing file, so the reader's limits
(size, nesting, count of values, numbers, strings) already hold for it.  Then,
in order:

1. :func:`validated`: its ``schema`` names one of the kinds and versions the
   enclosing claim allows, and it validates against that kind's own JSON Schema (MALFORMED
   otherwise, with the pointer prefixed by where it sits), before any of its
   fields is read;
2. :func:`refuse` (for an enclosing kind that refuses before any work): the
   embedded kind's limits, ``estimate(cert, prefix)`` of its checks module,
   raised at once as UNCHECKED; otherwise the estimate is the certificate's
   first pass (:class:`auditor.budget.Cost`), which the enclosing kind adds to
   its own and reserves in the file's one budget (:mod:`auditor.budget`)
   before any work, so that the whole file, embedded certificates included,
   stays within one budget (:func:`cost`: the same, None when refused);
3. :func:`check_digest`: its digest is recomputed (a mismatch is a false
   claim: the embedded certificate was changed after it was sealed);
4. :func:`verify_embedded`: every claim is re-checked by its kind's own
   checks, into a report of its own whose failures join the enclosing report
   with their pointers prefixed.

Whether it answers the enclosing certificate's question (the same γ, σ², C,
ε, source, ...) is the enclosing kind's check, next to its other claims.

A limit of the embedded kind (UNCHECKED, raised by its checks before the work)
does not stop the enclosing check: it is kept as *pending*, the remaining
claims are still checked, so a false one makes the certificate FAIL; only when
nothing is false does :func:`raise_pending` make it UNCHECKED.  A claim the
embedded certificate's recipe does not establish is a failure of the
embedded certificate (verdict "not established"), joining the enclosing
report like any other.  An enclosing kind that keeps one list of undecided
claims passes it as ``undecided``: the embedded kind's undecided pointers
join that list (its checks module then provides ``verify_open(cert, report,
undecided)``, which leaves them there), and the enclosing kind records them
all as not established (:func:`auditor.decide.fail_undecided`).

The checks modules are found through :func:`register`, which
:mod:`auditor.checks` calls with its ``checker_for`` when it is imported (every
embedding kind is such a module, so the registration precedes every use): this
module, like all the shared machinery, never imports :mod:`auditor.checks`.
"""

from auditor import budget
from auditor.certificate import Malformed, digest, validate
from auditor.outcomes import MalformedInput, NotEstablished, Unchecked
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
    """Record whether the embedded ``cert`` (of ``kind``) still has the digest it was sealed with."""
    recomputed = digest(cert)
    return report.check(cert["digest"] == recomputed, pointer + "/digest", cert["digest"], recomputed,
                        f"embedded {kind} digest does not match its body")


_registry = []  # [checker_for] once auditor.checks is imported


def register(checker_for):
    """Record ``checker_for(kind)`` (the checks module of a kind), called by :mod:`auditor.checks`."""
    _registry[:] = [checker_for]


def _checker(kind):
    if not _registry:
        raise RuntimeError("auditor.checks is not imported: no checks registered for embedded certificates")
    return _registry[0](kind)


def refuse(cert, pointer, kind):
    """UNCHECKED at once (before any work) when the embedded ``cert`` is beyond a limit of ``kind``;
    otherwise its estimated first pass (an :class:`auditor.budget.Cost`)."""
    return _checker(kind).estimate(cert, pointer)


def cost(cert, pointer, kind):
    """The estimated first pass (:class:`auditor.budget.Cost`) of the embedded ``cert`` of ``kind``, from its
    declared sizes; None when a limit of its own kind refuses it (no work is done for it: its check raises
    that refusal in its turn, kept as pending by :func:`verify_embedded`)."""
    try:
        return refuse(cert, pointer, kind)
    except Unchecked:
        return None


def reserve_embedded(report, parts):
    """Reserve in the file's one budget (:mod:`auditor.budget`) the first passes of the embedded certificates
    ``parts`` = [(cert, pointer, kind)] together, before any of them is checked: UNCHECKED when their sum is
    beyond it.  One refused by its own kind's limits counts nothing here (its check says so in its turn)."""
    costs = [(cert, cost(cert, pointer, kind)) for cert, pointer, kind in parts]
    budget.reserve(report, [(cert, c) for cert, c in costs if c is not None],
                   f"estimated total work of the {len(parts)} embedded certificates")


def verify_embedded(cert, pointer, kind, report, pending, undecided=None):
    """Every claim of the embedded ``cert`` (of ``kind``, already validated) by its kind's checks.

    Returns True when all of them hold; False when one is false, refused by a
    limit or undecided (the last two appended to ``pending`` as (pointer,
    Unchecked); with an ``undecided`` list, the undecided claims' pointers join
    it instead, and a refusal is raised when ``pending`` is None).
    """
    checker = _checker(kind)
    inner, open_claims = Report(pointer), []
    inner.budget = report.budget  # one budget for the whole file (auditor.budget)
    try:
        if undecided is None:
            checker.verify(cert, inner)
        else:
            checker.verify_open(cert, inner, open_claims)
    except MalformedInput as exc:
        if undecided is not None:  # checked as part of the enclosing certificate: its checks so far count there
            report.checked += inner.checked
        raise Malformed(f"{pointer}{exc}") from None
    except NotEstablished as exc:
        inner.not_established(exc.pointer, "(see the pointer)", exc.found, exc.what)
        refused = False
    except Unchecked as exc:
        if pending is None:
            report.checked += inner.checked
            raise Unchecked(pointer + (exc.pointer or ""), exc.estimate, exc.limit, exc.what) from None
        pending.append((pointer, exc))
        refused = True
    else:
        refused = False
    for failure in inner.failures:
        report.failures.append(dict(failure, pointer=pointer + failure["pointer"]))
    report.checked += inner.checked
    if undecided is not None:
        undecided.extend(pointer + p for p in open_claims)
    return not refused and not inner.failures and not open_claims


def raise_pending(pending, report):
    """UNCHECKED when an embedded certificate was refused by a limit and nothing is false."""
    if pending and report.ok:
        pointer, exc = pending[0]
        raise Unchecked(pointer + (exc.pointer or ""), exc.estimate, exc.limit, exc.what)
