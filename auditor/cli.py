"""``auditor verify FILE... [--json] [--quiet]``: a thin layer over :mod:`auditor.api`.

``FILE`` may be ``-`` for one certificate on standard input.  One verdict per
file on standard output:

* ``FILE: OK KIND: CLAIM (N checks)``
* ``FILE: FAIL /pointer: reason: certificate says X, auditor finds Y`` (one line per failure)
* ``FILE: MALFORMED reason``
* ``FILE: UNCHECKED /pointer: what ESTIMATE exceeds the limit LIMIT``
* ``FILE: ERROR internal: ExcType: message`` (an auditor bug, never a verdict)

``--json`` prints instead one JSON object: ``ok``, ``status``, ``outcome`` and
``files`` (each file's :meth:`auditor.report.Report.as_dict`).  While a file
takes longer than :data:`PROGRESS_SECONDS`, a line ``auditor: verifying FILE
... 10 s`` goes to standard error every :data:`PROGRESS_SECONDS`.  ``--quiet``
prints only the lines of the files that are not OK and, at the end, one line
``auditor: N files: K OK, ...`` (the count of each outcome); no progress lines.

``--budget N`` allows N times the documented work and memory per file
(:mod:`auditor.budget`; an explicit opt-in for a large certificate).
``--workers N`` verifies the files on a local Dask cluster of N worker
processes, ``--scheduler ADDRESS`` on an existing Dask cluster
(:mod:`auditor.parallel`; needs the ``sweep`` extra): same lines, same order,
same exit status as a serial run, with ``auditor: verified K/N files`` on
standard error as files complete.

Exit status (:mod:`auditor.outcomes`), the most severe over all files:
4 ERROR > 2 MALFORMED > 1 FAIL > 3 UNCHECKED > 0 OK.  A closed standard output
(``auditor verify ... | head -1``) ends the run quietly with status 2; a report
that cannot be written (``> /dev/full``) or a bad option (``--workers`` beyond
:data:`MAX_WORKERS`, a ``--scheduler`` not of the form scheme://host:port, a
scheduler that cannot be reached) is one line on standard error, status 2.
"""

import argparse
import json
import os
import re
import sys
import threading
import time

from auditor import __version__
from auditor import api
from auditor.budget import MAX_SCALE
from auditor.outcomes import FAIL, MALFORMED, NAMES, OK, SEVERITY, UNCHECKED, worst as worst_status

PROGRESS_SECONDS = 10

MAX_WORKERS = 64
"""Most local Dask worker processes (``--workers``), as for ``producer curve --workers``."""


def verify_file(path):
    """(status, report) for one file; kept for callers of the older interface."""
    report = api.verify_file(path)
    return report.status, report


class Progress:
    """While active, print ``auditor: verifying NAME ... T s`` to ``stream`` every ``interval`` s."""

    def __init__(self, name, interval=PROGRESS_SECONDS, stream=None, enabled=True):
        self.name, self.interval, self.stream = name, interval, stream
        self.enabled = enabled
        self._done = threading.Event()
        self._thread = None

    def _run(self):
        start = time.monotonic()
        while not self._done.wait(self.interval):
            stream = self.stream or sys.stderr
            try:
                print(f"auditor: verifying {self.name} ... {int(time.monotonic() - start)} s",
                      file=stream, flush=True)
            except (OSError, ValueError):  # stderr closed: stay silent
                return

    def __enter__(self):
        if self.enabled:
            self._thread = threading.Thread(target=self._run, daemon=True, name="auditor-progress")
            self._thread.start()
        return self

    def __exit__(self, *exc):
        self._done.set()
        return False


def text_lines(report):
    """The lines printed for one report (one, or one per failure)."""
    name = report.path
    if report.status == OK:
        return [f"{name}: OK {report.kind}: {report.claim} ({report.checked} checks)"]
    if report.status == UNCHECKED:
        return [f"{name}: UNCHECKED {report.unchecked}"]
    if report.status in (FAIL,):
        lines = [f"{name}: FAIL {f['pointer']}: {f['reason']}: "
                 f"certificate says {f['claimed']}, auditor finds {f['recomputed']}"
                 for f in report.failures]
        if report.unchecked:
            lines.append(f"{name}: UNCHECKED {report.unchecked}")
        return lines
    return [f"{name}: {NAMES[report.status]} {report.error}"]


class _Parser(argparse.ArgumentParser):
    """Usage errors in one line (no usage block), exit 2 as for a malformed file."""

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message}\n")


def _parser():
    p = _Parser(prog="auditor", description="Independently verify certificates.", allow_abbrev=False)
    p.add_argument("--version", action="version", version=f"auditor {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    v = sub.add_parser("verify", help="verify certificate files", allow_abbrev=False,
                       description="Verify certificate files ('-' reads one from standard input). "
                                   "Exit status: 0 OK, 1 FAIL, 2 MALFORMED, 3 UNCHECKED, 4 auditor error.")
    v.add_argument("files", nargs="+", metavar="FILE", help="certificate file, or - for standard input")
    v.add_argument("--json", action="store_true", help="print a machine-readable report")
    v.add_argument("--quiet", action="store_true",
                   help="print only the files that are not OK and one summary line; no progress lines")
    v.add_argument("--budget", type=_scale, default=1, metavar="N",
                   help="allow N times the documented work and memory per file (about N minutes and N x 1.5 GB; "
                        f"1 to {MAX_SCALE}, default 1): for a large certificate whose check was refused, UNCHECKED, "
                        "naming the N it needs")
    v.add_argument("--workers", type=_workers, default=0, metavar="N",
                   help=f"verify on a local Dask cluster of N worker processes (0 to {MAX_WORKERS}; "
                        "0: in this process)")
    v.add_argument("--scheduler", type=_address, metavar="ADDRESS",
                   help="verify on the existing Dask cluster at ADDRESS, scheme://host:port (e.g. tcp://host:8786)")
    return p


def _workers(text):
    value = int(text) if re.fullmatch(r"[0-9]{1,6}", text.strip()) else -1
    if not 0 <= value <= MAX_WORKERS:
        raise argparse.ArgumentTypeError(f"must be in [0, {MAX_WORKERS}] (0: in this process), not {text[:40]!r}")
    return value


# scheme://host:port (the host checked no further: a name that does not resolve fails to connect, in one line);
# inproc:// is the address of a cluster inside this very process (Dask's own form, no port)
_ADDRESS = re.compile(r"(tcp|tls|ws|wss|ucx)://(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]{1,253}):([0-9]{1,5})")
_INPROC = re.compile(r"inproc://[0-9A-Za-z.:/_-]{1,200}")


def _address(text):
    """A Dask scheduler address, refused here (before any connection) unless of the form scheme://host:port."""
    m = _ADDRESS.fullmatch(text)
    if not (_INPROC.fullmatch(text) or m and 1 <= int(m.group(3)) <= 65535):
        raise argparse.ArgumentTypeError(f"want an address scheme://host:port with a port 1 to 65535 "
                                         f"(e.g. tcp://127.0.0.1:8786), not {text[:80]!r}")
    return text


def _scale(text):
    value = int(text) if text.strip().isdigit() else 0
    if not 1 <= value <= MAX_SCALE:
        raise argparse.ArgumentTypeError(f"want a whole number from 1 to {MAX_SCALE}, not {text!r}")
    return value


def _serial_reports(args, on_report):
    for index, path in enumerate(args.files):
        name = api.STDIN_NAME if path == "-" else path
        with Progress(name, enabled=not args.quiet):
            on_report(index, api.verify_file(path, args.budget))


def _parallel_reports(args, on_report):
    """The same reports, computed on Dask workers and handed over in input order."""
    from auditor import parallel  # lazy: dask is an optional extra

    client = parallel.open_client(workers=args.workers, scheduler=args.scheduler)
    total = len(args.files)

    def counted(index, report):
        on_report(index, report)
        if not args.quiet:
            print(f"auditor: verified {index + 1}/{total} files", file=sys.stderr, flush=True)

    try:
        parallel.verify_files(args.files, client, on_report=counted, budget=args.budget)
    finally:
        parallel.close_client(client)


def _run(args):
    statuses, reports = [], []

    def on_report(index, report):
        statuses.append(report.status)
        reports.append(report.as_dict())
        if not args.json and not (args.quiet and report.status == OK):
            for line in text_lines(report):
                _out(line)

    if args.workers or args.scheduler:
        _parallel_reports(args, on_report)
    else:
        _serial_reports(args, on_report)
    worst = worst_status(statuses)
    if args.json:
        _out(json.dumps({"ok": worst == OK, "status": worst, "outcome": NAMES[worst], "files": reports},
                        indent=2, sort_keys=True))
    elif args.quiet:
        _out(summary_line(statuses))
    return worst


class _ReportUnwritable(Exception):
    """Standard output could not take the report (a full disk, /dev/full)."""


def _out(line):
    """``line`` on standard output, flushed; a failed write is :class:`_ReportUnwritable` (a broken pipe stays
    a BrokenPipeError: the reader went away)."""
    try:
        print(line, flush=True)
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise _ReportUnwritable(exc.strerror or str(exc)) from None


def summary_line(statuses):
    """``auditor: 3 files: 2 OK, 1 FAIL``: the count of each outcome, most severe last.

    >>> summary_line([OK, FAIL, OK])
    'auditor: 3 files: 2 OK, 1 FAIL'
    """
    counts = [(NAMES[s], statuses.count(s)) for s in reversed(SEVERITY) if s in statuses]
    noun = "file" if len(statuses) == 1 else "files"
    return f"auditor: {len(statuses)} {noun}: " + ", ".join(f"{n} {name}" for name, n in counts)


def _parallel_unavailable():
    """The exception type for a missing Dask or unreachable cluster (importing no dask)."""
    from auditor.parallel import ParallelUnavailable

    return ParallelUnavailable


def main(argv=None):
    # numpy's OpenBLAS would start a thread per core at import (about 0.1 s of CPU); no check does
    # float linear algebra, so one thread unless the user set it
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    args = _parser().parse_args(argv)
    if sys.stdout is None:  # started with standard output closed (>&-): nowhere to write a verdict
        _say("auditor: cannot write the report: standard output is closed")
        return MALFORMED
    try:
        return _run(args)
    except _parallel_unavailable() as exc:
        _say(f"auditor: {exc}")
        return MALFORMED
    except BrokenPipeError:
        # the reader of our output went away: no traceback, no flush error at exit
        _discard_stdout()
        return MALFORMED
    except _ReportUnwritable as exc:
        # e.g. > /dev/full: never a FAIL (exit 1) nor a traceback
        _discard_stdout()
        _say(f"auditor: cannot write the report to standard output: {exc}")
        return MALFORMED


def _discard_stdout():
    """Point standard output at /dev/null, so that the flush at exit cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def _say(line):
    """One line on standard error (silently dropped if it cannot be written)."""
    try:
        print(line, file=sys.stderr, flush=True)
    except (OSError, ValueError, AttributeError):
        pass


if __name__ == "__main__":
    sys.exit(main())
