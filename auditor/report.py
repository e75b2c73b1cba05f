"""The outcome of verifying one certificate.

Checks record into a :class:`Report` as they go (:meth:`Report.check`,
:meth:`Report.equal`, ...): a failed claim records the JSON pointer, what the
certificate says and what the auditor recomputed, both as exact rationals
where they are numbers (abbreviated, with their digit counts, beyond
:data:`auditor.rationals.SHOWN_DIGITS` digits).  When verification ends,
:mod:`auditor.api` sets the final fields: ``status`` (an exit status of
:mod:`auditor.outcomes`), ``kind``, ``claim``, ``unchecked`` and ``error``.

>>> from fractions import Fraction
>>> r = Report("cert.json")
>>> r.equal("/result/value", Fraction(6, 7), Fraction(5, 6))
False
>>> r.failures[0]["claimed"], r.failures[0]["recomputed"], r.failures[0]["verdict"], r.ok
('6/7', '5/6', 'disproved', False)

A claim the auditor can neither prove nor disprove from the certificate's own
recipe (its discretisation, its precision, its named lower orders) is a failed
proof, not an abstention: :meth:`Report.not_established` records it as a
failure of verdict ``"not established"`` (exit 1 like a disproved one).

>>> r.not_established("/result/epsilon_hi", Fraction(2), "upper bound 201/100", "δ(ε_hi) <= δ")
>>> r.failures[1]["reason"], r.failures[1]["verdict"]
("not established by the certificate's recipe: δ(ε_hi) <= δ", 'not established')
"""

from auditor.budget import Ledger
from auditor.outcomes import NAMES, OK
from auditor.rationals import show

DISPROVED = "disproved"
NOT_ESTABLISHED = "not established"
NOT_ESTABLISHED_TEXT = "not established by the certificate's recipe"


class Report:
    """Everything found about one certificate, failures in the order they were found.

    ``status`` is None while the checks run; then ``ok`` means "no failure so far".
    ``budget`` is the file's :class:`auditor.budget.Ledger` (shared with the
    reports of its embedded certificates).
    """

    __slots__ = ("path", "failures", "checked", "unchecked", "status", "kind", "claim", "error", "budget")

    def __init__(self, path):
        self.path = path
        self.failures = []
        self.checked = 0
        self.unchecked = None  # the reason, when the check was refused by a limit
        self.status = None     # the exit status, once verification has ended
        self.kind = None       # "finite-game/1", ... once the schema is known
        self.claim = None      # the one-line certified claim, only when OK
        self.error = None      # the reason, when MALFORMED or ERROR
        self.budget = Ledger()  # the work reserved so far (auditor.budget)

    @property
    def ok(self):
        """True when nothing failed (and, once finished, the outcome is OK)."""
        return not self.failures and self.status in (None, OK)

    @property
    def outcome(self):
        """"OK", "FAIL", "MALFORMED", "UNCHECKED" or "ERROR" (None while running)."""
        return NAMES.get(self.status)

    def fail(self, pointer, claimed, recomputed, reason, verdict=DISPROVED):
        """Record a false claim (``verdict`` "disproved") or an unproved one ("not established")."""
        self.failures.append({
            "pointer": pointer,
            "claimed": show(claimed),
            "recomputed": show(recomputed),
            "reason": reason if isinstance(reason, str) and len(reason) <= 400 else show(reason),
            "verdict": verdict,
        })

    def not_established(self, pointer, claimed, found, what):
        """Record a claim that the certificate's own recipe neither proves nor disproves: a failed proof.

        ``found`` is what the auditor reached (its bound, or the precision it
        tried); ``what`` the claim in words.  Counts as a check that failed.
        """
        self.checked += 1
        self.fail(pointer, claimed, found, f"{NOT_ESTABLISHED_TEXT}: {what}", NOT_ESTABLISHED)

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
        """A JSON-ready dict of every field (``file`` is the path)."""
        return {"file": self.path, "kind": self.kind, "status": self.status,
                "outcome": self.outcome, "ok": self.ok, "claim": self.claim,
                "checked": self.checked, "failures": self.failures,
                "unchecked": self.unchecked, "error": self.error}

    def __repr__(self):
        return f"<Report {self.path}: {self.outcome or 'running'}>"
