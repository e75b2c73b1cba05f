"""The auditor as a Python library: verify a file or an in-memory certificate.

Both functions return a :class:`auditor.report.Report` and never raise for
anything about the certificate; every input goes through the same strict
reader (:mod:`auditor.reader`) as a file given to ``auditor verify``.

* ``report.status``: 0 OK, 1 FAIL, 2 MALFORMED, 3 UNCHECKED, 4 ERROR
  (:mod:`auditor.outcomes`); ``report.outcome`` is its name and ``report.ok``
  is True exactly for OK.
* ``report.kind``: ``"finite-game/1"``, ... (None when the file had no
  readable kind).
* ``report.claim``: the one-line certified claim (the ``claim(cert)`` of the
  kind's checks module, :func:`certified_claim`), only when OK.
* ``report.failures``: the failed claims, each a dict with ``pointer``,
  ``claimed``, ``recomputed``, ``reason`` and ``verdict`` (``"disproved"``, or
  ``"not established"`` for a claim the certificate's own recipe neither
  proves nor disproves).
* ``report.unchecked``: the limit that stopped the check, when UNCHECKED.
* ``report.error``: the reason, when MALFORMED or ERROR.
* ``report.as_dict()``: all of it, ready for ``json.dumps``.

A reference certificate from ``certificates/`` (here the C = 0 one), checked
from a dict; then a false value, resealed with a fresh digest, is caught:

>>> from auditor.certificate import digest
>>> cert = {"schema": "finite-game/1",
...         "producer": {"name": "dp-certify-producer", "version": "0.1.0"},
...         "input": {"budget": 0, "curve": False, "gamma": "1/3",
...                   "law": {"offset": -1, "weights": ["1", "2", "1"]},
...                   "pending": None, "points": [], "thresholds": ["1/4"]},
...         "result": {"curve": None, "method": "enumerate",
...                    "queries": [{"hockey_stick": "3/4", "value": "1",
...                                 "witness": {"action": "stop"}, "x": "1", "y": "1/4"}]}}
>>> cert["digest"] = digest(cert)
>>> report = verify_certificate(cert)
>>> report.outcome, report.kind
('OK', 'finite-game/1')
>>> report.claim
'G_0(1, 1/4) = 1 for gamma = 1/3, law (1,2,1)/4 on [-1..1], C = 0'
>>> cert["result"]["queries"][0]["value"] = "2"
>>> cert["digest"] = digest(cert)
>>> report = verify_certificate(cert)
>>> report.status, report.failures[0]["pointer"], report.failures[0]["claimed"]
(1, '/result/queries/0/value', '2')

Malformed input is a status, not an exception:

>>> report = verify_certificate('{"schema": "finite-game/1", "schema": "envelope/1"}')
>>> report.outcome, report.error
('MALFORMED', "duplicate key 'schema' in one object")
>>> verify_certificate({"budget": 2.0}).error  # doctest: +NORMALIZE_WHITESPACE
'JSON number 2.0 is not an integer; certificates have no fractional JSON numbers
 (exact values are strings such as "p/q")'
"""

import os

from auditor.budget import MAX_SCALE, Ledger
from auditor.certificate import Malformed, canonical_json, digest, load, validate
from auditor.checks import checker_for
from auditor.outcomes import ERROR, FAIL, MALFORMED, OK, UNCHECKED, MalformedInput, NotEstablished, Unchecked
from auditor.reader import MAX_DEPTH, STDIN, parse
from auditor.report import Report

STDIN_NAME = "<stdin>"

__all__ = ["verify_file", "verify_certificate", "Report"]


def verify_file(path, budget=1):
    """Verify the certificate file ``path`` (``"-"``: standard input); return its Report.

    ``budget`` N multiplies the file's limits of work and memory by N
    (:mod:`auditor.budget`; ``auditor verify --budget N``).

    >>> verify_file("/nonexistent/cert.json").error
    'cannot read: No such file or directory'
    """
    path = os.fsdecode(path)
    name = STDIN_NAME if path == STDIN else path
    return _verify(name, lambda: load(path), budget)


def verify_certificate(cert, name="<certificate>", budget=1):
    """Verify an in-memory certificate: a dict, a JSON ``str`` or UTF-8 ``bytes``.

    A dict is first written as canonical JSON and read back through the strict
    reader, so exactly the rules of a file apply (floats, NaN, non-string
    keys, too deep a nesting are all MALFORMED).
    """
    return _verify(name, lambda: parse(_as_bytes(cert)), budget)


# ---- turning the argument into bytes ---------------------------------------------------

_JSON_TYPES = (dict, list, tuple, str, int, float, bool, type(None))


def _check_tree(value):
    """Only JSON types, string keys, nesting within MAX_DEPTH (iterative; cycles refused)."""
    stack = [(value, 1)]
    while stack:
        node, depth = stack.pop()
        if not isinstance(node, _JSON_TYPES):
            raise Malformed(f"not JSON: a value of type {type(node).__name__}")
        if isinstance(node, (dict, list, tuple)) and depth > MAX_DEPTH:
            raise Malformed(f"nested more than {MAX_DEPTH} levels deep (the reader's limit)")
        if isinstance(node, dict):
            for key, item in node.items():
                if not isinstance(key, str):
                    raise Malformed(f"not JSON: an object key of type {type(key).__name__}")
                stack.append((item, depth + 1))
        elif isinstance(node, (list, tuple)):
            stack.extend((item, depth + 1) for item in node)


def _as_bytes(cert):
    if isinstance(cert, dict):
        _check_tree(cert)
        cert = canonical_json(cert)
    if isinstance(cert, str):
        try:
            return cert.encode("utf-8")
        except UnicodeEncodeError as exc:
            raise Malformed(f"not valid Unicode: a lone surrogate U+{ord(exc.object[exc.start]):04X}") from None
    if isinstance(cert, (bytes, bytearray, memoryview)):
        return bytes(cert)
    raise Malformed(f"not a certificate: a {type(cert).__name__} (want a dict, str or bytes)")


# ---- the verification -------------------------------------------------------------------

def _one_line(text, limit=500):
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[:limit] + "..."


def _describe(exc):
    try:
        message = _one_line(exc)
    except Exception:  # the message itself may be unprintable
        message = "(message not printable)"
    return f"internal: {type(exc).__name__}: {message}" if message else f"internal: {type(exc).__name__}"


def _run_checks(cert, report):
    """Schema, digest, then every claim of the kind's checks (may raise)."""
    kind = validate(cert)
    report.kind = cert["schema"]
    checker = checker_for(kind)
    if checker is None:
        raise Malformed(f"/schema: the auditor has no checks for kind {kind!r}")
    recomputed = digest(cert)
    report.check(cert["digest"] == recomputed, "/digest", cert["digest"], recomputed,
                 "digest does not match the certificate body")
    checker.verify(cert, report)
    return kind


def _verify(name, read, budget=1):
    report = Report(name)
    report.budget = Ledger(_budget_scale(budget))
    try:
        cert = read()
        kind = _run_checks(cert, report)
    except MalformedInput as exc:
        report.failures.clear()
        report.status, report.error = MALFORMED, _one_line(exc)
    except NotEstablished as exc:
        report.not_established(exc.pointer, "(see the pointer)", exc.found, exc.what)
        report.status = FAIL
    except Unchecked as exc:
        # a false claim found before the limit still makes the certificate FAIL
        report.status = FAIL if report.failures else UNCHECKED
        report.unchecked = _one_line(exc)
    except Exception as exc:  # an auditor bug must never look like a verdict
        report.failures.clear()
        report.status, report.error = ERROR, _describe(exc)
    else:
        report.status = OK if not report.failures else FAIL
        if report.status == OK:
            report.claim = certified_claim(kind, cert)
    return report


def _budget_scale(budget):
    """The ``budget`` multiplier, an integer 1 ... MAX_SCALE (a wrong one is the caller's error, not a verdict)."""
    if isinstance(budget, bool) or not isinstance(budget, int) or not 1 <= budget <= MAX_SCALE:
        raise ValueError(f"budget must be an integer from 1 to {MAX_SCALE}, not {budget!r}")
    return budget


def certified_claim(kind, cert):
    """The one-line certified claim of a *verified* certificate of ``kind``: its checks' ``claim(cert)``.

    A field the claim needs but cannot find (a format changed) gives a
    shorter line naming the kind only; the verdict never depends on this.

    >>> certified_claim("finite-game", {"input": {}})
    'a finite-game certificate (no summary of this form)'
    """
    build = getattr(checker_for(kind), "claim", None)
    if build is None:
        return f"a {kind} certificate"
    try:
        return build(cert)
    except Exception:  # a claim must never change a verdict
        return f"a {kind} certificate (no summary of this form)"
