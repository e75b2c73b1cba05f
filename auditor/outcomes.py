"""The five outcomes of ``auditor verify`` and the exceptions that signal them.

=====  ==========  =====================================================
exit   outcome     meaning
=====  ==========  =====================================================
0      OK          every claim of every file was recomputed and holds
1      FAIL        some claim (or the digest) is false
2      MALFORMED   a file is unreadable, not strict JSON, beyond the
                   reader's limits, of an unknown kind or version, or
                   outside its schema or domain
3      UNCHECKED   a well-formed certificate whose checking would exceed
                   the auditor's documented limits; nothing is claimed
                   about its truth
4      ERROR       the auditor itself failed (an internal error, e.g. an
                   exception from deep inside a check); nothing is
                   claimed about the certificate -- report it as a bug
=====  ==========  =====================================================

FAIL has two verdicts: a claim *disproved* (shown false) and a claim *not
established by the certificate's recipe* (neither proved nor disproved from
the certificate's own numbers and the auditor's bounded refinement): a
certificate is a proof, and a proof that does not verify is rejected, not
abstained from.  UNCHECKED is only a refusal before the work, from an
estimate of the work.  Within one file a false claim found before a limit was
reached still makes the file FAIL.  With several files the exit status is the most severe one, in
the order ERROR > MALFORMED > FAIL > UNCHECKED > OK: an auditor error never
hides behind a verdict, and a malformed file is never outvoted.

Checks signal malformed input by raising a subclass of :class:`MalformedInput`
(:class:`auditor.certificate.Malformed`, :class:`auditor.rationals.MalformedNumber`),
a refused check by raising :class:`Unchecked` *before* the work starts, and a
recipe found mid-work to need more than the auditor's bounded refinement by
raising :class:`NotEstablished` (a FAIL of that verdict).
:class:`MalformedInput` is defined in :mod:`auditor.rationals`, the module
below every other (the first malformed thing a reader meets is a number), and
is re-exported here; :class:`Unchecked` shows its numbers with
:func:`auditor.rationals.show`.
"""

from auditor.rationals import MalformedInput, show

__all__ = ["OK", "FAIL", "MALFORMED", "UNCHECKED", "ERROR", "NAMES", "SEVERITY", "worst", "MalformedInput",
           "Unchecked", "NotEstablished"]

OK = 0
FAIL = 1
MALFORMED = 2
UNCHECKED = 3
ERROR = 4

NAMES = {OK: "OK", FAIL: "FAIL", MALFORMED: "MALFORMED", UNCHECKED: "UNCHECKED", ERROR: "ERROR"}

# most severe first
SEVERITY = (ERROR, MALFORMED, FAIL, UNCHECKED, OK)


def worst(statuses):
    """The exit status of a run over several files.

    >>> worst([OK, UNCHECKED, FAIL])
    1
    >>> worst([FAIL, MALFORMED]), worst([MALFORMED, ERROR]), worst([])
    (2, 4, 0)
    """
    statuses = set(statuses)
    for status in SEVERITY:
        if status in statuses:
            return status
    return OK


class Unchecked(Exception):
    """Checking this certificate would exceed a documented limit.

    Raised *before* the work starts, from an estimate computed from the input
    alone.  ``pointer`` names the input field that drives the estimate.  The
    message shows the estimate and the limit with at most a few dozen digits,
    however large they are.

    >>> str(Unchecked("/input/budget", 10**80, 5 * 10**8))  # doctest: +NORMALIZE_WHITESPACE
    '/input/budget: estimated work 100000000000000000000000000000000000000000000000000000000000000000000000000000000
     exceeds the limit 500000000'
    """

    def __init__(self, pointer, estimate, limit, what="estimated work"):
        self.pointer = pointer
        self.estimate = estimate
        self.limit = limit
        self.what = what
        where = f"{pointer}: " if pointer else "the file: "
        super().__init__(f"{where}{what} {show(estimate)} exceeds the limit {show(limit)}")


class NotEstablished(Exception):
    """Found during the work: the certificate's recipe does not establish the claim at ``pointer``.

    For the rare check whose need is known only mid-way (a grid point of the
    recipe that bounded precision cannot place, a curve beyond the kind's
    size rule): the file FAILs with the verdict "not established", as a claim
    left undecided does; the limits known in advance raise :class:`Unchecked`.
    """

    def __init__(self, pointer, found, what):
        self.pointer, self.found, self.what = pointer, found, what
        super().__init__(f"{pointer}: {what}: {found}")
