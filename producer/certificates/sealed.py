"""The sealed certificate as a Python value: what every :mod:`producer.api` function returns."""

import copy

from producer.audit_budget import multiple_of, notice
from producer.certificates.canonical import render
from producer.kinds import claim_of
from producer.output import write_file_atomic


class Certificate:
    """A sealed certificate; immutable.

    ``kind`` is its schema name (``"finite-game/1"``, ...); ``input`` and
    ``result`` are (copies of) its two JSON objects; ``digest`` its SHA-256;
    ``claim`` the one-line human summary the command line prints (with ``reason``, when
    given, after it: why the request took this certificate's route; not part of the bytes).
    ``auditor_budget`` is N, the multiple of the auditor's budget of one file
    that checking it needs (docs/certificates.md, "The budget of one file"):
    1 for a plain ``auditor verify``, else at most 8, and ``notice`` then the
    line saying ``verify it with `auditor verify --budget N``` (None when
    N = 1; the command line prints it on standard error, the API only here).
    ``to_json()`` gives the exact canonical bytes the command line writes,
    ``write(path)`` writes them atomically, ``as_dict()`` the whole JSON object.
    """

    __slots__ = ("_data", "_bytes", "_claim", "_budget")

    def __init__(self, data, reason=None):
        data = copy.deepcopy(data)
        object.__setattr__(self, "_data", data)
        object.__setattr__(self, "_bytes", render(data))
        object.__setattr__(self, "_claim", claim_of(data) + (f"; {reason}" if reason else ""))
        object.__setattr__(self, "_budget", multiple_of(data))

    def __setattr__(self, name, value):
        raise AttributeError("a Certificate is immutable")

    def __delattr__(self, name):
        raise AttributeError("a Certificate is immutable")

    kind = property(lambda self: self._data["schema"])
    input = property(lambda self: copy.deepcopy(self._data["input"]))
    result = property(lambda self: copy.deepcopy(self._data["result"]))
    digest = property(lambda self: self._data["digest"])
    claim = property(lambda self: self._claim)
    auditor_budget = property(lambda self: self._budget)
    notice = property(lambda self: notice(self._budget))

    def as_dict(self):
        """The whole certificate as a (fresh) JSON-ready dict."""
        return copy.deepcopy(self._data)

    def to_json(self):
        """The canonical bytes: sorted keys, no whitespace, UTF-8, then a newline."""
        return self._bytes

    def write(self, path):
        """Write :meth:`to_json` to ``path`` atomically (temporary file, then rename)."""
        write_file_atomic(path, self._bytes)

    def __eq__(self, other):
        return isinstance(other, Certificate) and self._bytes == other._bytes

    def __hash__(self):
        return hash(self._bytes)

    def __repr__(self):
        return f"<Certificate {self.kind}: {self._claim}>"
