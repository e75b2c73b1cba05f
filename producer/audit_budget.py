"""The auditor's budget of one file, restated: how many times that budget checking a certificate needs.

docs/certificates.md, "The budget of one file": before any work, the auditor
estimates from a certificate's declared sizes alone the total work of its
whole check (every product, bucket, refinement level and embedded
certificate), the peak memory of its largest part and its longest array (a
window or product of a convolution chain), and answers UNCHECKED beyond
:data:`WORK` work units (about a minute), :data:`MEMORY` bytes or
:data:`ENTRIES` entries.  ``auditor verify --budget N`` (N from 1 to
:data:`AUDITOR_MAX_MULTIPLE`) multiplies the three limits by N, an explicit
opt-in.

Each kind restates its own estimate, by the auditor's documented formula,
beside its other auditor limits (``producer/pld/search.py``,
``producer/plain/auditability.py``, ``producer/hierarchy/auditability.py``,
``producer/lower/auditability.py``, ``producer/game/auditability.py``; the
embedding kinds add their embedded certificates' estimates).  This module is
the one home of the two limits and of N, the least multiple admitting both:

- N <= :data:`MAX_MULTIPLE`: the certificate is written, and the producer
  says ``verify it with `auditor verify --budget N``` when N > 1 (the command
  line on standard error; the API in :attr:`Certificate.auditor_budget` and
  :attr:`Certificate.notice`, silent unless asked);
- N > :data:`MAX_MULTIPLE`: refused, in one line naming what to change, before
  the work when the sizes are known before it, and always on the finished
  certificate (:func:`check_certificate`, called when every certificate is
  sealed), so the producer never writes one the auditor would need more for.

A request of the pld route may opt in to more (``--effort N``, recorded in
its ``input.effort``): N times the producer's own work limit, and
certificates needing up to N × :data:`MAX_MULTIPLE` budgets (at most
:data:`AUDITOR_MAX_MULTIPLE`); :func:`writable` is that limit,
:func:`read_effort` reads N.
"""

from producer.errors import InputError, LimitError
from producer.immutable import Immutable

WORK = 6 * 10**10           # work units of one file (about 1 ns each: a minute)
MEMORY = 15 * 10**8         # bytes of the largest part of one file's check
ENTRIES = 2**22             # entries of the longest array (window or product) of one file's check
AUDITOR_MAX_MULTIPLE = 64   # the largest N of `auditor verify --budget N`
MAX_MULTIPLE = 8            # the largest N the producer writes a certificate for (about 8 minutes, 12 GB)
MAX_EFFORT = AUDITOR_MAX_MULTIPLE // MAX_MULTIPLE   # the largest opt-in ``--effort`` of a request

__all__ = ["AuditCost", "WORK", "MEMORY", "ENTRIES", "MAX_MULTIPLE", "MAX_EFFORT", "together", "multiple", "check",
           "notice", "cost_of", "multiple_of", "check_certificate", "writable", "read_effort"]


class AuditCost(Immutable):
    """The auditor's estimate of one check: ``work`` units, peak ``memory`` bytes and the ``entries`` of its
    longest array (exact integers; 0 where a check composes no arrays), ``what`` names the part (the auditor's
    words, e.g. "the line tree"), ``advice`` what makes it smaller."""

    __slots__ = ("work", "memory", "what", "advice", "entries")

    def __init__(self, work, memory=0, what="the check", advice="a smaller request", entries=0):
        self.work, self.memory, self.entries = int(work), int(memory), int(entries)
        self.what, self.advice = what, advice

    def __repr__(self):
        return f"AuditCost(work={self.work}, memory={self.memory}, entries={self.entries}, what={self.what!r})"


def together(costs, what=None, advice=None):
    """The cost of parts checked one after another in one file: the works add up, the peak memory is the
    largest part's (a part frees its memory before the next starts); named by the part of most work."""
    costs = [c for c in costs if c is not None]
    if not costs:
        return None
    largest = max(costs, key=lambda c: c.work)
    return AuditCost(sum(c.work for c in costs), max(c.memory for c in costs),
                     what or largest.what, advice or largest.advice, max(c.entries for c in costs))


def multiple(cost):
    """N: the least multiple of the auditor's budget that admits the work, the memory and the longest array
    of ``cost``."""
    if cost is None:
        return 1
    return max(1, -(-cost.work // WORK), -(-cost.memory // MEMORY), -(-cost.entries // ENTRIES))


def writable(effort=1):
    """The most budgets the producer writes a certificate for, at a request's opt-in ``effort`` (default 1)."""
    return min(MAX_MULTIPLE * effort, AUDITOR_MAX_MULTIPLE)


def read_effort(value, name):
    """A request's opt-in effort N (1 when ``value`` is None): an integer in [1, MAX_EFFORT], or one
    line naming ``name`` (the option as the caller writes it)."""
    if value is None:
        return 1
    text = str(value).strip()
    if isinstance(value, bool) or not (isinstance(value, int) or text.isdigit()):
        raise InputError(f"{name}: must be an integer from 1 to {MAX_EFFORT}, got {text[:40]!r}")
    n = int(text)
    if not 1 <= n <= MAX_EFFORT:
        raise InputError(f"{name}: must be an integer from 1 to {MAX_EFFORT}, got {n}")
    return n


def check(cost, subject=None, limit=MAX_MULTIPLE):
    """N for ``cost``; LimitError (one line naming the estimate, N and what to change) when N > ``limit``
    (by default MAX_MULTIPLE; :func:`writable` of a request's opt-in effort).

    ``subject`` (optional) starts the line, e.g. ``"priors"``; otherwise the part's name does.
    """
    n = multiple(cost)
    if n > limit:
        over = [f"work {_shown(cost.work)} units" if -(-cost.work // WORK) > limit else None,
                f"memory {_shown(cost.memory)} bytes" if -(-cost.memory // MEMORY) > limit else None,
                f"an array of {_shown(cost.entries)} entries" if -(-cost.entries // ENTRIES) > limit else None]
        head = f"{subject}: " if subject else ""
        raise LimitError(f"{head}the auditor's estimate for {cost.what} ({' and '.join(o for o in over if o)}) "
                         f"needs {n} times its budget of one file ({_power(WORK)} work units, {_power(MEMORY)} "
                         f"bytes, arrays of 2^22 entries), beyond the {limit} the producer writes for "
                         f"(`auditor verify --budget {limit}`)",
                         f"use {cost.advice}")
    return n


def notice(n):
    """The one-line notice for a certificate that needs N > 1 times the auditor's budget (None when N = 1)."""
    if n <= 1:
        return None
    return (f"this certificate needs {n} times the auditor's budget of one file (a check of up to about {n} "
            f"minutes and {n * 1.5:g} GB): verify it with `auditor verify --budget {n}`")


def cost_of(certificate):
    """The auditor's estimate for a certificate dict (its kind's ``auditor_cost``), or None (no cost counted:
    a kind the budget does not count, or none of the producer's)."""
    from producer.kinds import MODULES, module_of
    if certificate["schema"] not in MODULES:
        return None
    estimate = getattr(module_of(certificate["schema"]), "auditor_cost", None)
    return None if estimate is None else estimate(certificate)


def multiple_of(certificate):
    """N for a certificate dict: 1 when the auditor's default budget admits it."""
    return multiple(cost_of(certificate))


def check_certificate(certificate):
    """The backstop on a finished certificate: LimitError when it needs more budgets than the producer writes
    for (its request's opt-in ``input.effort`` included)."""
    inp = certificate.get("input")
    effort = inp.get("effort", 1) if isinstance(inp, dict) else 1
    return check(cost_of(certificate), certificate["schema"], writable(effort))


def _shown(n):
    text = str(n)
    return text if len(text) <= 12 else f"{text[0]}.{text[1:3]}·10^{len(text) - 1}"


def _power(n):
    """A limit as m·10^k (6·10^10, 1.5·10^9)."""
    text = str(n)
    digits = text.rstrip("0") or "0"
    mantissa = digits[0] + ("." + digits[1:] if len(digits) > 1 else "")
    return f"{mantissa}·10^{len(text) - 1}" if len(text) > 4 else text
