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
(``auditor verify ... | head -1``) ends the run quietly with status 2.
"""

import argparse
import json
import os
import sys
import threading
import time

from auditor import __version__
from auditor import api
from auditor.budget import MAX_SCALE
from auditor.outcomes import FAIL, MALFORMED, NAMES, OK, SEVERITY, UNCHECKED, worst as worst_status

PROGRESS_SECONDS = 10


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
    v.add_argument("--workers", type=_count, default=0, metavar="N",
                   help="verify on a local Dask cluster of N worker processes (0: in this process)")
    v.add_argument("--scheduler", metavar="ADDRESS",
                   help="verify on the existing Dask cluster at ADDRESS (e.g. tcp://host:8786)")
    return p


def _count(text):
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(f"want a whole number >= 0, not {text!r}")
    return value


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
                print(line, flush=True)

    if args.workers or args.scheduler:
        _parallel_reports(args, on_report)
    else:
        _serial_reports(args, on_report)
    worst = worst_status(statuses)
    if args.json:
        json.dump({"ok": worst == OK, "status": worst, "outcome": NAMES[worst], "files": reports},
                  sys.stdout, indent=2, sort_keys=True)
        print(flush=True)
    elif args.quiet:
        print(summary_line(statuses), flush=True)
    return worst


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
    try:
        return _run(args)
    except _parallel_unavailable() as exc:
        print(f"auditor: {exc}", file=sys.stderr)
        return MALFORMED
    except BrokenPipeError:
        # the reader of our output went away: no traceback, no flush error at exit
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return MALFORMED


if __name__ == "__main__":
    sys.exit(main())
