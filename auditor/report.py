"""Collecting the outcome of checks on one certificate.

A failed claim records the JSON pointer, what the certificate says and what the
auditor recomputed, both as exact rationals where they are numbers.
"""

from fractions import Fraction

from auditor.rationals import write_rational


def _show(value):
    if isinstance(value, (Fraction, int)) and not isinstance(value, bool):
        return write_rational(value)
    return value if isinstance(value, str) else repr(value)


class Report:
    """The failures found in one certificate, in the order they were found."""

    __slots__ = ("path", "failures", "checked", "unchecked")

    def __init__(self, path):
        self.path = path
        self.failures = []
        self.checked = 0
        self.unchecked = None  # the reason, when the check was refused by a limit

    @property
    def ok(self):
        return not self.failures

    def fail(self, pointer, claimed, recomputed, reason):
        self.failures.append({
            "pointer": pointer,
            "claimed": _show(claimed),
            "recomputed": _show(recomputed),
            "reason": reason,
        })

    def check(self, condition, pointer, claimed, recomputed, reason):
        """Record a failure unless ``condition`` holds; return ``condition``."""
        self.checked += 1
        if not condition:
            self.fail(pointer, claimed, recomputed, reason)
        return bool(condition)

    def equal(self, pointer, claimed, recomputed, what="value"):
        return self.check(claimed == recomputed, pointer, claimed, recomputed,
                          f"{what} differs from the recomputed one")

    def at_most(self, pointer, lhs, rhs, what):
        """Check lhs <= rhs (lhs is the certificate's side)."""
        return self.check(lhs <= rhs, pointer, lhs, rhs, f"{what}: need claimed <= recomputed bound")

    def at_least(self, pointer, lhs, rhs, what):
        """Check lhs >= rhs (lhs is the certificate's side)."""
        return self.check(lhs >= rhs, pointer, lhs, rhs, f"{what}: need claimed >= recomputed bound")

    def as_dict(self):
        return {"file": self.path, "ok": self.ok, "checked": self.checked,
                "failures": self.failures, "unchecked": self.unchecked}
