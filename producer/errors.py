"""Exception types for bad requests, and the command line's exit statuses.

Every error a person can cause (malformed numbers, invalid laws, sizes beyond
a documented limit, an output file that cannot be written) is an
:class:`InputError`; the command line turns it into one line on stderr and
exit status 2.
"""

EXIT_OK = 0
EXIT_BAD_INPUT = 2  # bad input, a refused size, or an output that cannot be written
EXIT_SOFTWARE = 70  # an internal error (EX_SOFTWARE of sysexits.h)
EXIT_INTERRUPTED = 130  # Ctrl-C (128 + SIGINT)


class InputError(ValueError):
    """A request that cannot be served as given; the message names the value.

    ``advice`` (optional) says what the reader may change, after the ``reason``:
    the message is ``"reason; advice"``.  A caller that serves the request
    another way (``producer calibrate`` beyond the exact game) repeats the
    reason without the advice, which was about the refused route.
    """

    def __init__(self, reason, advice=None):
        super().__init__(reason if advice is None else f"{reason}; {advice}")
        self.reason, self.advice = reason, advice


class LimitError(InputError):
    """A request whose estimated work or size exceeds a documented resource limit."""


class ReachError(LimitError):
    """A request beyond the exact game's reach (its budget, work or memory limits, or the auditor's for the game):
    ``producer calibrate`` then answers by another route."""


class OutputError(InputError):
    """The result cannot be written where it was asked to go (missing folder, permission, closed pipe)."""
