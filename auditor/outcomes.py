"""The four outcomes of ``auditor verify`` and the exception for the fourth.

=====  ==========  =====================================================
exit   outcome     meaning
=====  ==========  =====================================================
0      OK          every claim of every file was recomputed and holds
1      FAIL        some claim (or the digest) is false
2      MALFORMED   a file is unreadable, not strict JSON, of an unknown
                   kind or version, or outside its schema or domain
3      UNCHECKED   a well-formed certificate whose checking would exceed
                   the auditor's documented limits; nothing is claimed
                   about its truth
=====  ==========  =====================================================

With several files the exit status is the most severe one, in the order
MALFORMED > FAIL > UNCHECKED > OK.
"""

OK = 0
FAIL = 1
MALFORMED = 2
UNCHECKED = 3

# most severe first
SEVERITY = (MALFORMED, FAIL, UNCHECKED, OK)


def worst(statuses):
    """The exit status of a run over several files."""
    statuses = set(statuses)
    for status in SEVERITY:
        if status in statuses:
            return status
    return OK


class Unchecked(Exception):
    """Checking this certificate would exceed a documented limit.

    Raised *before* the work starts, from an estimate computed from the input
    alone.  ``pointer`` names the input field that drives the estimate.
    """

    def __init__(self, pointer, estimate, limit, what="estimated work"):
        self.pointer = pointer
        self.estimate = estimate
        self.limit = limit
        self.what = what
        super().__init__(f"{pointer}: {what} {estimate} exceeds the limit {limit}")
