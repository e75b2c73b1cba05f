"""No test asserts a duration: work counters for refusals, a generous CPU bound, the one hang guard.

A test that compares a measured time with a bound fails on a loaded machine
while the code is right (a flaky test tells nothing).  So, in this suite
(CONTRIBUTING.md, "Tests are untimed"; ``tests/test_untimed.py`` enforces it):

* A refusal is tested by its **outcome** (UNCHECKED or MALFORMED and the line
  naming the limit) and by a **work counter**: :func:`check_calls` counts the
  Python function calls a kind's checks make after the reader, the schema and
  the digest, and a refusal from an estimate stays within
  :data:`REFUSAL_CALLS`; :func:`must_not_call` makes a function the refusal
  must come before raise :class:`MustNotBeCalled`, and :func:`reaches` tells
  whether a run gets to that function (an accepted request) or returns first.
* Only where a cost is the claim and no counter states it, :func:`cpu_bound`
  bounds this process's CPU time (``time.process_time``, never the wall
  clock), at least 20 times the figure measured on the development machine.
* A subprocess is given ``timeout=HANG_GUARD_SECONDS``, and an in-process
  run that might hang :func:`hang_guard`: both bound a hang, never speed.
* Timings are measured by ``make bench`` (``bench/run.py``), never asserted.

This module is the only one under ``tests/`` that reads a clock.
"""

import signal
import sys
import threading
import time
from contextlib import contextmanager

HANG_GUARD_SECONDS = 1800
"""The timeout of every subprocess a test starts: it bounds a hang, never speed.

Half an hour is beyond any test's run on a loaded machine, so that a test
that fails by it has hung (a refusal that stopped being one, a child waiting
on input), not merely run slowly.
"""

REFUSAL_CALLS = 2_000
REFUSAL_CALLS_PER_VALUE = 20
"""A refusal from an estimate makes at most ``REFUSAL_CALLS + REFUSAL_CALLS_PER_VALUE * values`` Python calls.

``values`` counts the certificate's JSON values: an estimate may read each
given value (a weight, a point) a few times, but does none of the work it
bounds.  The refusals of this suite make 25 to 900 calls, and about 9 a value
where the estimate reads a law of 4,001 weights (36,000 calls); verifying a
small reference certificate makes thousands (finite-game C = 2: 3,500;
brace-synthetic: 150,000), and a hostile size beyond a limit, checked,
millions.  A refusal that comes only after cheaper checks (an embedded run,
the layer weights) is bounded instead by the calls of verifying the untouched
certificate, together with :func:`must_not_call` on the work it comes before.
"""


class MustNotBeCalled(BaseException):
    """A function a refusal must come before was called (a BaseException: the auditor does not turn it
    into ERROR, the test sees it)."""


class CheckWork:
    """The work the kinds' checks did in a :func:`check_calls` block."""

    __slots__ = ("calls", "verifies", "values")

    def __init__(self):
        self.calls = 0      # Python function calls (and generator resumptions) inside the checks
        self.verifies = 0   # kinds' verify() entered (0: refused by the reader or the schema)
        self.values = 0     # JSON values of the certificates handed to verify()

    @property
    def bound(self):
        """The most calls a refusal from an estimate may make (:data:`REFUSAL_CALLS_PER_VALUE`)."""
        return REFUSAL_CALLS + REFUSAL_CALLS_PER_VALUE * self.values

    @property
    def before_the_work(self):
        """True when the checks stayed within what an estimate from the sizes takes."""
        return self.calls <= self.bound

    def __repr__(self):
        return (f"<CheckWork {self.calls} calls in {self.verifies} verify() of {self.values} JSON values; "
                f"a refusal makes at most {self.bound}>")


def json_values(node):
    """The JSON values (objects, arrays, scalars; keys not counted) in ``node``, as the reader counts them."""
    count, stack = 0, [node]
    while stack:
        item = stack.pop()
        count += 1
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return count


class _Counted:
    """A kind's checks module whose ``verify`` counts the Python calls it makes."""

    __slots__ = ("_module", "_work")

    def __init__(self, module, work):
        self._module, self._work = module, work

    def __getattr__(self, name):
        return getattr(self._module, name)

    def verify(self, cert, report):
        work = self._work
        work.verifies += 1
        work.values += json_values(cert)

        def count(frame, event, arg):
            if event == "call":
                work.calls += 1
        previous = sys.getprofile()
        sys.setprofile(count)
        try:
            return self._module.verify(cert, report)
        finally:
            sys.setprofile(previous)


@contextmanager
def check_calls():
    """Count, in a :class:`CheckWork`, what the kinds' checks do during the block (in this thread).

    The count starts when :mod:`auditor.api` hands the schema-valid,
    digest-checked certificate to its kind's ``verify`` (embedded certificates'
    checks included), so it is the same on every machine and under any load.

    >>> from auditor.api import verify_certificate
    >>> with check_calls() as work:
    ...     report = verify_certificate({"schema": "finite-game/1"})
    >>> report.outcome, work.verifies, work.calls
    ('MALFORMED', 0, 0)
    """
    import auditor.api as api

    original = api.checker_for
    work = CheckWork()

    def counted(kind):
        module = original(kind)
        return None if module is None else _Counted(module, work)
    api.checker_for = counted
    try:
        yield work
    finally:
        api.checker_for = original


def must_not_call(monkeypatch, owner, name):
    """Replace ``owner.name`` (a module's or class's function) for the test by one raising MustNotBeCalled."""
    where = f"{getattr(owner, '__name__', owner)}.{name}"

    def refuse(*args, **kwargs):
        raise MustNotBeCalled(f"{where} was called: the refusal must come before this work")
    getattr(owner, name)  # a typo fails here, not by never being called
    monkeypatch.setattr(owner, name, refuse)


class _Reached(BaseException):
    """Stops a run where it reaches the function :func:`reaches` watches."""


def reaches(owner, name, run):
    """Whether ``run()`` reaches ``owner.name`` (the work a refusal would come before).

    The call is stopped there, so an accepted request costs nothing: ``(True,
    None)``; a run that returns first gives ``(False, its value)``.  Whether a
    request is refused is decided by what the code does, not by how long a
    probe runs.
    """
    original = getattr(owner, name)

    def stop(*args, **kwargs):
        raise _Reached()
    setattr(owner, name, stop)
    try:
        return False, run()
    except _Reached:
        return True, None
    finally:
        setattr(owner, name, original)


CPU_BOUND_SECONDS = 60
"""The default of :func:`cpu_bound`: generous for anything the fast suite does."""


@contextmanager
def cpu_bound(seconds=CPU_BOUND_SECONDS):
    """Fail when the block uses more than ``seconds`` of this process's CPU time (never wall-clock time).

    For a cost that is itself the claim and that no work counter states
    (big-integer sizes, a route chosen deep inside); the bound is at least
    20 times the figure measured on an idle development machine, stated at
    the call, so that load and a slower machine never decide it.
    """
    start = time.process_time()
    yield
    used = time.process_time() - start
    assert used <= seconds, f"{used:.1f} CPU seconds, above the generous bound {seconds}"


class Hung(BaseException):
    """Raised by :func:`hang_guard`'s alarm (a BaseException: the auditor does not turn it into ERROR)."""


@contextmanager
def hang_guard(seconds=HANG_GUARD_SECONDS):
    """Stop an in-process block that hangs (SIGALRM after ``seconds``; a no-op outside the main thread)."""
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "SIGALRM"):
        yield
        return

    def alarm(signum, frame):
        raise Hung(f"still running after {seconds} s: a hang (the guard bounds hangs, never speed)")
    previous = signal.signal(signal.SIGALRM, alarm)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
