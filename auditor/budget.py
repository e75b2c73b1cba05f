"""The budget of one file's check: its total work and its peak memory, estimated before the work.

A kind's own limits bound single steps (one array, one product, one
precision); they do not bound how many steps a file asks for.  This module
bounds the whole: every check whose work is a sum of parts (the products of a
convolution chain, the masses of every bucket, the refinement levels, the
embedded certificates of a bracket) estimates, from the certificate's
declared sizes alone, its total work in *work units* and its peak memory in
bytes, and reserves them here before the work starts.  Beyond either limit
the file is UNCHECKED (exit 3), before any of that work is done.

* :data:`MAX_WORK`: work units of one file, all its checks together.  A unit
  is calibrated to about one nanosecond of CPU on the development machine
  (2 cores, Python 3.12, gmpy2), so the limit is about a minute.  Each kind's
  estimate counts its dominant operations with measured constants
  (docs/certificates.md, "The budget of one file"); the constants are
  rounded up, so an estimate is meant to lie above the measured time.
* :data:`MAX_MEMORY`: bytes the check may hold at once, beyond the
  interpreter's own (about 50 MB): about 1.5 GB, so a check stays under
  2 GB of resident memory.  Parts done one after another (two embedded
  certificates, two refinement levels) free their memory in between, so the
  peak is the largest part's, not the sum.

* :data:`MAX_ENTRIES`: entries of the longest array one check holds (a
  window or a product of a convolution chain), whatever its memory.

``auditor verify --budget N`` (``verify_file(path, budget=N)``) multiplies
the three limits by N (1 <= N <= :data:`MAX_SCALE`): an explicit, documented
opt-in for a large certificate whose check is known to take N minutes and
N·1.5 GB, refused otherwise with a line that names the N it needs.

The ledger lives on the file's :class:`auditor.report.Report`
(``report.budget``), which :func:`auditor.embedded.verify_embedded` shares
with the report of every embedded certificate: a bracket reserves its own
work and its witnesses' first passes at once, each witness's check then finds
its part already paid (:func:`reserve` is keyed by the certificate object),
and a later refinement or retry (:func:`afford`) runs only while the whole
file stays within the limits; otherwise its claims stay undecided.
"""

from auditor.outcomes import Unchecked

__all__ = ["MAX_WORK", "MAX_MEMORY", "MAX_ENTRIES", "MAX_SCALE", "UNIT", "Cost", "Ledger", "reserve", "afford", "total",
           "longer"]

MAX_WORK = 6 * 10 ** 10
"""Work units of a whole file's check (about a minute of CPU)."""
MAX_MEMORY = 15 * 10 ** 8
"""Bytes a file's check may hold at once, beyond the interpreter's own."""
MAX_ENTRIES = 1 << 22
"""Entries of the longest array (a window or a product of a convolution chain) a file's check holds."""
UNIT = "work units of about 1 ns"
MAX_SCALE = 64
"""The largest ``--budget`` multiplier (about an hour and 96 GB: beyond any machine this is meant for)."""


def longer(a, b):
    """The longer of two arrays given as (entries, pointer); the first on a tie."""
    return b if b[0] > a[0] else a


class Cost:
    """The estimated ``work`` (units) and peak ``memory`` (bytes) of a part of a check, and its ``longest``
    array as (entries, pointer of the window or product), (0, "") for none.

    ``pointer`` names the field whose size drives the estimate (the field an
    UNCHECKED line names) and ``what`` says what is counted.  Parts done one
    after another add: the work sums, the memory and the longest array are
    the larger, and the pointer is that of the part with the most work.

    >>> a = Cost(10, 500, "/a", "masses") + Cost(30, 200, "/b", "convolutions", (7, "/b/0"))
    >>> a.work, a.memory, a.pointer, a.what, a.longest
    (40, 500, '/b', 'convolutions', (7, '/b/0'))
    """

    __slots__ = ("work", "memory", "pointer", "what", "longest")

    def __init__(self, work=0, memory=0, pointer="", what="", longest=(0, "")):
        self.work, self.memory, self.pointer, self.what, self.longest = work, memory, pointer, what, longest

    def __add__(self, other):
        lead = other if other.work > self.work else self
        return Cost(self.work + other.work, max(self.memory, other.memory), lead.pointer, lead.what,
                    longer(self.longest, other.longest))

    def at(self, prefix):
        """The same cost with its pointers prefixed by ``prefix`` (an embedding certificate's place for it)."""
        entries, pointer = self.longest
        return Cost(self.work, self.memory, prefix + self.pointer, self.what,
                    (entries, prefix + pointer if entries else pointer))

    def __repr__(self):
        return f"Cost(work={self.work}, memory={self.memory}, pointer={self.pointer!r})"


def total(parts):
    """The parts done one after another: one :class:`Cost` (zero for no parts)."""
    out = Cost()
    for part in parts:
        out = out + part
    return out


class Ledger:
    """What a file's check has reserved so far (work units, the certificates whose first pass is paid), and
    its ``scale``: the multiple of :data:`MAX_WORK` and :data:`MAX_MEMORY` it may use (``--budget``)."""

    __slots__ = ("work", "paid", "scale")

    def __init__(self, scale=1):
        self.work = 0
        self.paid = set()
        self.scale = scale

    def limits(self):
        """(work, memory, entries of one array) this file may use."""
        return self.scale * MAX_WORK, self.scale * MAX_MEMORY, self.scale * MAX_ENTRIES


def _needed(work, memory, entries=0):
    """The text naming the least ``--budget`` that admits ``work``, ``memory`` and an array of ``entries`` (or
    that none does)."""
    need = max(1, -(-work // MAX_WORK), -(-memory // MAX_MEMORY), -(-entries // MAX_ENTRIES))
    if need > MAX_SCALE:
        return f"beyond even auditor verify --budget {MAX_SCALE}"
    return f"auditor verify --budget {need} checks it"


def reserve(report, parts, what="estimated total work"):
    """Reserve the first passes ``parts`` = [(certificate, Cost)] of ``report``'s file, or raise UNCHECKED.

    A certificate already paid for (its enclosing certificate reserved it with
    its own) adds nothing.  The rest must keep the file's reserved work within
    :data:`MAX_WORK` and each part's memory within :data:`MAX_MEMORY`; the
    refusal names the pointer of the part with the most work (or memory).
    """
    ledger = report.budget
    new = [(cert, cost) for cert, cost in parts if id(cert) not in ledger.paid]
    if not new:
        return
    costs = [cost for _, cost in new]
    max_work, max_memory, max_entries = ledger.limits()
    heavy = max(costs, key=lambda c: c.memory)
    lead = total(costs)
    work = ledger.work + lead.work
    entries, at = lead.longest
    needed = _needed(work, heavy.memory, entries)
    if entries > max_entries:
        raise Unchecked(at, entries, max_entries, f"entries of one array ({needed})")
    if heavy.memory > max_memory:
        raise Unchecked(heavy.pointer, heavy.memory, max_memory,
                        f"estimated peak memory in bytes ({heavy.what}; {needed})")
    if work > max_work:
        raise Unchecked(lead.pointer, work, max_work, f"{what} in {UNIT} ({lead.what}; {needed})")
    ledger.work = work
    ledger.paid.update(id(cert) for cert, _ in new)


def afford(report, cost):
    """True, with ``cost`` reserved, when one more pass (a retry, a finer level) keeps the file within the
    limits; False otherwise (the pass is not run; its claims stay undecided, so not established: FAIL)."""
    ledger = report.budget
    max_work, max_memory, max_entries = ledger.limits()
    if cost.memory > max_memory or ledger.work + cost.work > max_work or cost.longest[0] > max_entries:
        return False
    ledger.work += cost.work
    return True
