"""Verify many certificate files on Dask workers (``auditor verify --workers N`` / ``--scheduler``).

Each file is one task running :func:`auditor.api.verify_file` on a worker;
the verdict of a file depends on the file alone, so the reports (and hence the
printed lines and the exit status, the most severe over all files) are the
same as a serial run.  Reports are handed back in the order of the input.

Dask is an optional extra (``pip install .[sweep]``): it is imported only
here, and only when a parallel run is asked for.  The workers must be able
to import ``auditor`` (the same installation as the caller).

Standard input (``-``) cannot be read on a worker: it is verified here, in
this process, in its place in the order.
"""

from auditor import api
from auditor.outcomes import ERROR
from auditor.reader import STDIN
from auditor.report import Report

# A scheduler that does not answer within this many seconds is an error, not a hang.
CONNECT_TIMEOUT_SECONDS = 20


class ParallelUnavailable(Exception):
    """Dask is missing or the cluster cannot be reached (one line, exit status 2)."""


def _distributed():
    try:
        import distributed  # optional extra, imported on demand
    except ImportError:
        raise ParallelUnavailable("parallel verification needs dask.distributed "
                                  "(pip install 'dp-certify[sweep]')") from None
    return distributed


def open_client(workers=None, scheduler=None):
    """A ``distributed.Client``: on ``scheduler`` if given, else on a new LocalCluster.

    The LocalCluster has ``workers`` worker processes with one thread each
    (checks are CPU-bound pure Python; threads would share one interpreter lock).
    """
    distributed = _distributed()
    try:
        if scheduler:
            return distributed.Client(scheduler, timeout=CONNECT_TIMEOUT_SECONDS)
        cluster = distributed.LocalCluster(n_workers=workers, threads_per_worker=1,
                                           processes=True, dashboard_address=None)
        return distributed.Client(cluster)
    except Exception as exc:  # any failure to connect (a listener that is no Dask
        # scheduler can make Dask's handshake raise e.g. a MemoryError) is one line, exit status 2
        where = f"scheduler {scheduler} (--scheduler)" if scheduler else f"a LocalCluster of {workers} workers"
        raise ParallelUnavailable(f"cannot reach {where}: {_describe(exc)}") from None


def _describe(exc):
    """``ExcType: message`` on one line of bounded length."""
    try:
        text = " ".join(str(exc).split())
    except Exception:  # the message itself may be unprintable
        text = ""
    return f"{type(exc).__name__}: {text}"[:300] if text else type(exc).__name__


def close_client(client):
    """Close the client and, when this module started it, its LocalCluster."""
    cluster = client.cluster
    client.close()
    if cluster is not None:
        cluster.close()


def verify_files(paths, client, on_report=None, budget=1):
    """Reports for ``paths`` in input order, computed on ``client``'s workers.

    ``on_report(index, report)`` is called for each report as soon as it and
    every report before it are known, so a caller can print in input order
    while later files are still being checked.
    """
    distributed = _distributed()
    futures = {}
    for index, path in enumerate(paths):
        if path != STDIN:
            # pure=False: the same path given twice is still verified twice, like a serial run
            futures[client.submit(api.verify_file, path, budget, pure=False)] = index
    reports = [None] * len(paths)
    for index, path in enumerate(paths):
        if path == STDIN:
            reports[index] = api.verify_file(path, budget)
    emitted = 0

    def emit_ready():
        nonlocal emitted
        while emitted < len(paths) and reports[emitted] is not None:
            if on_report is not None:
                on_report(emitted, reports[emitted])
            emitted += 1

    emit_ready()
    for future in distributed.as_completed(list(futures)):
        index = futures[future]
        reports[index] = _result(future, paths[index])
        emit_ready()
    return reports


def _result(future, path):
    """The worker's report; a lost worker is an ERROR report (never a verdict)."""
    try:
        return future.result()
    except Exception as exc:  # e.g. KilledWorker: nothing is known about the file
        report = Report(path)
        report.status = ERROR
        report.error = f"internal: the worker failed: {type(exc).__name__}: {' '.join(str(exc).split())}"[:500]
        return report
