"""Computing a sweep: one task per group of points, serially or on a Dask cluster.

A task returns, for each of its points, the certificate's canonical bytes and
its summary row.  A point with a relative width runs its rounds inside the
task (:mod:`producer.sweep.refine`).  The bytes depend on the point alone (the
producer is deterministic), so a serial run and a run on any number of
workers write byte-identical files.  Dask is imported only for a parallel run.
"""

import contextlib
import sys

from gmpy2 import mpq

from producer.errors import InputError, LimitError
from producer.names import command_line, on_command_line
from producer.rationals import format_rational

CONNECT_TIMEOUT_SECONDS = 20


def certificate_of(point, width=None):
    """The producer.api Certificate of one grid point at the absolute ``width`` (default: the point's width),
    by the same route as ``producer dg``/``calibrate``."""
    from producer import api
    from producer.sweep.grid import LAPLACE
    gamma, law_value = format_rational(point.gamma), format_rational(point.law_value)
    sigma2, laplace = (None, law_value) if point.law == LAPLACE else (law_value, None)
    width = format_rational(point.width if width is None else width)
    if point.kind == "dg":
        return api.dg_interval(gamma, sigma2, point.budget, format_rational(point.value), width=width,
                               laplace=laplace)
    return api.calibration(gamma, sigma2, point.budget, format_rational(point.value), width=width,
                           laplace=laplace)


def check_point(point):
    """Refuse a point that its command would refuse (ε beyond the limit, σ² below the limit, a Laplace t too
    small for the calibration's start 2C/t; for DP-SGD every limit of dpsgd/1 and the refusals `producer dpsgd`
    makes before its computation), by building its validated request (the same type the API builds) only: no
    work, one clear line."""
    from producer.kinds import calibration, dg_interval
    from producer.sweep.grid import LAPLACE, DpsgdPoint
    if isinstance(point, DpsgdPoint):
        from producer.kinds.dpsgd import Request
        from producer.pld.enclose import refusals
        q, sigma, steps, delta, rel_width, effort = point.request_texts()
        refusals(Request.from_strings(q, sigma, steps, delta=delta, rel_width=rel_width, effort=effort))
        return
    gamma, law_value = format_rational(point.gamma), format_rational(point.law_value)
    sigma2, laplace = (None, law_value) if point.law == LAPLACE else (law_value, None)
    width, value = format_rational(point.width), format_rational(point.value)
    if point.kind == "dg":
        dg_interval.Request.from_strings(gamma, sigma2, point.budget, value, width=width, laplace=laplace)
        return
    request = calibration.Request.from_strings(gamma, sigma2, point.budget, value, width=width, laplace=laplace)
    if laplace is not None:
        request.envelope()  # 2C/t, exact and immediate (the Gaussian moment envelope is not needed here)


def row_of(point, refined):
    """The summary row: the point, its file, its rounds, and the certified enclosure (exact and decimal)."""
    from producer.display import down, up
    from producer.sweep.refine import ends, status_of
    certificate = refined.certificate
    lower, upper = ends(point.kind, certificate)
    source_width = (certificate.input["source"]["width"] if point.kind == "dg"
                    else certificate.input["width"])
    row = dict(point.as_json(), file=point.file_name(), digest=certificate.digest,
               source_width=source_width, rounds=refined.rounds, stop=refined.stop,
               status=status_of(lower, upper, point.rel_width, refined.stop))
    row[f"{point.parameter}_decimal"] = decimal_of(point.value)
    lower_exact, upper_exact = format_rational(lower), format_rational(upper)
    row.update(lower=down(lower_exact), upper=up(upper_exact), lower_exact=lower_exact, upper_exact=upper_exact)
    return row


DECIMAL_DIGITS = 12  # significant digits of the ε (or δ) column's decimal


def decimal_of(value):
    """An ε or δ of the grid as a decimal of 12 significant digits, rounded down (13/19 -> 0.684210526315;
    exact when that is enough: 1/2 -> 0.5), trailing zeros removed."""
    from producer.rationals import significant_outward
    text = significant_outward(value, DECIMAL_DIGITS, -1)
    mantissa, _, exponent = text.partition("e")
    if "." in mantissa:
        mantissa = mantissa.rstrip("0").rstrip(".")
    return mantissa + ("e" + exponent if exponent else "")


def dpsgd_row(point, certificate):
    """The summary row of a DP-SGD point: the point, its file, and the certified ε(δ) (exact and decimal)."""
    from producer.display import down, up
    from producer.sweep.refine import status_of
    result = certificate.result
    lower, upper = mpq(result["epsilon_lo"]), mpq(result["epsilon_hi"])
    row = dict(point.as_json(), file=point.file_name(), digest=certificate.digest,
               status=status_of(lower, upper, None, None), route=result["route"],
               sampling_rate_decimal=decimal_of(point.sampling_rate),
               noise_multiplier_decimal=decimal_of(point.noise_multiplier), delta_decimal=decimal_of(point.delta))
    lower_exact, upper_exact = format_rational(lower), format_rational(upper)
    row.update(lower=down(lower_exact), upper=up(upper_exact), lower_exact=lower_exact, upper_exact=upper_exact)
    return row


def run_point(point):
    """(file name, certificate bytes, row) of one point."""
    from producer.sweep.grid import DpsgdPoint
    from producer.sweep.refine import refine
    if isinstance(point, DpsgdPoint):
        from producer import api
        q, sigma, steps, delta, rel_width, effort = point.request_texts()
        certificate = api.dpsgd(q, sigma, steps, delta=delta, rel_width=rel_width, effort=effort)
        return point.file_name(), certificate.to_json(), dpsgd_row(point, certificate)
    refined = refine(point, certificate_of)
    return point.file_name(), refined.certificate.to_json(), row_of(point, refined)


def run_group(points, names_options=False):
    """[(file name, certificate bytes, row)] for one group, in the group's order; ``names_options``: a refusal
    names command-line options (a worker process does not inherit the caller's :mod:`producer.names` mode)."""
    with command_line() if names_options else contextlib.nullcontext():
        return [_run_named(point) for point in points]


def _run_named(point):
    """:func:`run_point`, a refusal naming the point (the file its certificate would have been)."""
    try:
        return run_point(point)
    except InputError as exc:
        raise type(exc)(f"{point.file_name()}: {exc}") from None


def run_group_task(points, names_options):
    """:func:`run_group` on a worker, a refusal returned as a value: raised there, Dask would log it with a
    traceback before the caller could print its one line."""
    try:
        return run_group(points, names_options)
    except InputError as exc:
        return exc


def run_serial(groups, on_group):
    for index, group in enumerate(groups):
        on_group(index, run_group(group, on_command_line()))


def open_client(workers, scheduler):
    """A dask.distributed Client on ``scheduler``, else on a new LocalCluster of ``workers`` processes."""
    try:
        import distributed  # optional extra, only for a parallel sweep
    except ImportError:
        raise InputError("--workers/--scheduler need dask.distributed "
                         "(pip install 'dp-certify[sweep]'; --workers 0 runs serially)") from None
    try:
        if scheduler:
            return distributed.Client(scheduler, timeout=CONNECT_TIMEOUT_SECONDS)
        cluster = distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                           dashboard_address=None)
        client = distributed.Client(cluster)
        client.run(quiet_worker_logs)
        return client
    except (OSError, TimeoutError, ValueError) as exc:   # ValueError: an address dask cannot parse
        where = f"scheduler {scheduler}" if scheduler else f"a LocalCluster of {workers} workers"
        raise InputError(f"cannot reach {where}: {' '.join(str(exc).split())}") from None


def quiet_worker_logs():
    """On a worker of our own cluster: distributed's errors only (a refused point stops the sweep, and the
    warnings of the tasks cancelled with it are no news to the user)."""
    import logging
    logging.getLogger("distributed").setLevel(logging.ERROR)


def close_client(client):
    cluster = client.cluster
    client.close()
    if cluster is not None:
        cluster.close()


def run_on_client(groups, client, on_group):
    """Submit one task per group; ``on_group(index, results)`` as each finishes (any order)."""
    import distributed
    names_options = on_command_line()
    futures = {client.submit(run_group_task, group, names_options, pure=False): index
               for index, group in enumerate(groups)}
    for future in distributed.as_completed(list(futures)):
        try:
            results = future.result()
        except (InputError, LimitError):
            raise
        except Exception as exc:  # a lost worker: name the group, not a traceback
            first = groups[futures[future]][0]
            raise RuntimeError(f"the task for {first.file_name()} and its group failed on a worker: "
                               f"{type(exc).__name__}: {exc}") from None
        if isinstance(results, InputError):
            raise results
        on_group(futures[future], results)


class Counter:
    """``sweep: K/N grid points`` on stderr after each group (not with quiet)."""

    def __init__(self, total, quiet):
        self.total, self.done, self.quiet = total, 0, quiet

    def add(self, count):
        self.done += count
        if not self.quiet and sys.stderr is not None:
            print(f"sweep: {self.done}/{self.total} grid points", file=sys.stderr, flush=True)


def run_sweep(groups, workers=0, scheduler=None, quiet=True, client=None):
    """Every group's results, in the groups' order, with the progress counter.

    ``client`` (an open dask Client) overrides ``workers``/``scheduler``.
    """
    results = [None] * len(groups)
    counter = Counter(sum(len(g) for g in groups), quiet)

    def on_group(index, group_results):
        results[index] = group_results
        counter.add(len(group_results))

    if client is not None:
        run_on_client(groups, client, on_group)
    elif workers or scheduler:
        own = open_client(workers, scheduler)
        try:
            run_on_client(groups, own, on_group)
        finally:
            close_client(own)
    else:
        run_serial(groups, on_group)
    return [item for group_results in results for item in group_results]
