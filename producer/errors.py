"""Exception types for bad requests.

Every error a person can cause (malformed numbers, invalid laws, sizes beyond
a documented limit) is an :class:`InputError`; the command line turns it into
one line on stderr and exit status 2.
"""


class InputError(ValueError):
    """A request that cannot be served as given; the message names the value."""


class LimitError(InputError):
    """A request whose estimated work exceeds a documented resource limit."""
