"""Files the producer reads whole, bounded: at most a limit of bytes is read, so that ``/dev/zero`` or a huge
file is refused in one line instead of filling the memory first."""

import sys

from producer.errors import InputError, LimitError

__all__ = ["read_limited"]


def read_limited(path, limit, what):
    """The bytes of ``path`` (``-``: standard input), at most ``limit`` of them.

    A file that cannot be read is an :class:`InputError`, one that holds more
    than ``limit`` bytes a :class:`LimitError`; ``what`` leads both lines.
    """
    name = "standard input" if path == "-" else path
    try:
        if path == "-":
            data = sys.stdin.buffer.read(limit + 1)
        else:
            with open(path, "rb") as fh:
                data = fh.read(limit + 1)
    except OSError as exc:
        raise InputError(f"{what}: cannot read {name}: {exc.strerror or exc}") from None
    if len(data) > limit:
        raise LimitError(f"{what}: {name} is larger than the limit of {limit} bytes")
    return data
