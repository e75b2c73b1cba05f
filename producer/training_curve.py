"""The privacy curve of a DP-SGD run: ε(δ) after each epoch (or every K steps), each point its own certificate.

After its first t steps a run of DP-SGD at sampling rate q and noise
multiplier σ has spent the privacy of t steps, ε_t(δ): the ε(δ) of the t-fold
composition (docs/dpsgd.md §1).  The curve asks for it at chosen t:

* in training terms (batch size B, dataset size N, E epochs; q and the steps
  T(e) after epoch e as :class:`producer.training.TrainingRun` counts them,
  under TF Privacy's or Opacus's counting), after every K-th epoch (K = 1 by
  default) and after the last;
* in steps (q and T given), after every K-th step and after the last.

Each point is an ordinary ``dpsgd/1`` certificate of (q, σ, t, δ) at the
default relative width, made exactly as ``producer dpsgd`` makes it (the same
bytes), so ``auditor verify`` checks each; the curve adds no claim of its own.
Its rows state each certificate's ends as decimals rounded outward (ε_lo
down, ε_hi up) and a status, ``two-sided`` when ε_lo > 0 or ε_lo = ε_hi,
else ``upper-only`` (as the sweep's).  ε_t(δ) does not decrease with t (the
first t steps' output is a function of the first t + k steps'), but neither
the rows nor the plot use that: each number is one certificate's.

Before any work, every point is checked as its own request would be, the
refusals ``producer dpsgd`` makes before its computation included
(:func:`producer.pld.enclose.refusals`), and the number of points is at most
:data:`MAX_POINTS`.  The points are independent: more than
:data:`SERIAL_UP_TO` of them run on a pool of worker processes.
"""

import csv
import io
import re
from concurrent.futures import ProcessPoolExecutor, as_completed
from fractions import Fraction
from pathlib import Path

from producer.errors import InputError, LimitError
from producer.output import check_fresh_folder, check_output_file, check_output_folder, owned_files, write_file_atomic
from producer.immutable import Immutable
from producer.names import option
from producer.rationals import describe_rational, format_rational, parse_integer, required

# Refused before any work beyond this many points (a point costs about a second at T = 10^4; the curve of a
# longer run takes a larger --every).
MAX_POINTS = 1000
DEFAULT_WORKERS = 2
MAX_WORKERS = 64
# At most this many points run in this process: starting a pool of processes costs about as much as that.
SERIAL_UP_TO = 3

CSV_NAME, PLOT_NAME = "curve.csv", "curve.png"
# The files the command writes in its folder; --overwrite removes these and nothing else.
CERTIFICATE_FILE = re.compile(r"curve-(e[0-9]+-)?t[0-9]+\.json")
OWN_FILES = (CSV_NAME, PLOT_NAME)


class CurvePoint(Immutable):
    """One point of the curve: after ``steps`` steps, which end ``epoch`` (None in the step form)."""

    __slots__ = ("epoch", "steps")

    def __init__(self, epoch, steps):
        self.epoch, self.steps = epoch, steps

    def file_name(self):
        return (f"curve-t{self.steps}.json" if self.epoch is None else
                f"curve-e{self.epoch}-t{self.steps}.json")


class CurveRow(Immutable):
    """A certified point: ε_t(δ) ∈ [epsilon_lo, epsilon_hi] (exact Fractions) after ``steps`` steps.

    ``epsilon_lo_decimal`` and ``epsilon_hi_decimal`` are the certificate's
    own decimals, rounded outward; ``file`` names its certificate.
    """

    __slots__ = ("epoch", "steps", "epsilon_lo", "epsilon_hi", "epsilon_lo_decimal", "epsilon_hi_decimal",
                 "status", "file")

    def __init__(self, point, certificate):
        from producer.sweep.refine import status_of
        result = certificate.result
        self.epoch, self.steps, self.file = point.epoch, point.steps, point.file_name()
        self.epsilon_lo, self.epsilon_hi = Fraction(result["epsilon_lo"]), Fraction(result["epsilon_hi"])
        self.epsilon_lo_decimal = result["epsilon_lo_display"]
        self.epsilon_hi_decimal = result["epsilon_hi_display"]
        self.status = status_of(self.epsilon_lo, self.epsilon_hi, None, None)

    def as_dict(self):
        """The row as curve.csv writes it (no ``epoch`` in the step form)."""
        row = {} if self.epoch is None else {"epoch": self.epoch}
        row.update(steps=self.steps, epsilon_lo=self.epsilon_lo_decimal, epsilon_hi=self.epsilon_hi_decimal,
                   status=self.status, file=self.file)
        return row

    def __repr__(self):
        where = f"epoch {self.epoch}, " if self.epoch is not None else ""
        return f"<CurveRow {where}T = {self.steps}: ε ∈ [{self.epsilon_lo_decimal}, {self.epsilon_hi_decimal}]>"


class CurvePlan(Immutable):
    """A validated curve: q, σ, δ, the training run (or None), and its points, every one checked."""

    __slots__ = ("sampling_rate", "noise_multiplier", "delta", "training", "every", "points")

    def __init__(self, sampling_rate, noise_multiplier, delta, training, every, points):
        self.sampling_rate, self.noise_multiplier, self.delta = sampling_rate, noise_multiplier, delta
        self.training, self.every, self.points = training, every, tuple(points)

    def request(self, point):
        """The dpsgd/1 request of one point, as texts: what ``producer dpsgd`` would be given."""
        return (format_rational(self.sampling_rate), format_rational(self.noise_multiplier), point.steps,
                format_rational(self.delta))


def _points(last, every, steps_after=None):
    """Points at every, 2·every, ... and at ``last`` (epochs when ``steps_after`` is given, else steps)."""
    marks = list(range(every, last, every)) + [last]
    if steps_after is None:
        return [CurvePoint(None, t) for t in marks]
    return [CurvePoint(e, steps_after(e)) for e in marks]


def plan(noise_multiplier, delta, *, sampling_rate=None, steps=None, every=None, batch_size=None,
         dataset_size=None, epochs=None, counting=None):
    """The :class:`CurvePlan` of a request, every point checked as ``producer dpsgd`` checks it before its work.

    One line (InputError, LimitError) for anything refused, before any certificate is computed.
    """
    from producer.kinds.dpsgd import Request
    from producer.pld.enclose import refusals
    # both are named here: the dpsgd request below would offer its own alternatives (stages, epsilons)
    required(noise_multiplier, option("noise_multiplier"), "the noise multiplier σ")
    required(delta, option("delta"), "δ (the curve is ε(δ) at each point)")
    every = None if every is None else parse_integer(every, "every")
    if every is not None and every < 1:
        raise InputError(f"every: K must be at least 1, got {every}")
    run = _training_run(sampling_rate, steps, every, batch_size, dataset_size, epochs, counting)
    if run is not None:
        sampling_rate, steps, every = run.sampling_rate, run.steps, 1 if every is None else every
    whole = Request.from_strings(sampling_rate, noise_multiplier, steps, delta=delta)  # within dpsgd/1's limits
    unit, marks = ("step", whole.stages[0].steps) if run is None else ("epoch", run.epochs)
    size = -(-marks // every)
    if size > MAX_POINTS:
        spacing = f"each {unit}" if every == 1 else f"every {every} {unit}s"
        raise LimitError(f"every: {size} points (one after {spacing}) exceed the limit of {MAX_POINTS} "
                         f"points of one curve; give a larger {option('every')}")
    law = whole.stages[0].law
    points = _points(marks, every, None if run is None else run.steps_after)
    curve = CurvePlan(law.rate, law.noise, whole.delta, run, every, points)
    for point in points:  # the refusals each point's own computation makes before its work
        q, sigma, t, d = curve.request(point)
        refusals(Request.from_strings(q, sigma, t, delta=d))
    return curve


def _training_run(sampling_rate, steps, every, batch_size, dataset_size, epochs, counting):
    """The :class:`producer.training.TrainingRun` of the training form, None for the step form (both checked)."""
    from producer.kinds.dpsgd import MAX_TOTAL_STEPS, MIN_RATE, RATE_LIMIT, STEPS_LIMIT
    from producer.training import DEFAULT_COUNTING, TrainingRun
    steps_form, training_form = (sampling_rate, steps), (batch_size, dataset_size, epochs)
    forms = (f"{option('sampling_rate')}, {option('steps')} and {option('every')}, or "
             f"{option('batch_size')}, {option('dataset_size')} and {option('epochs')}")
    if any(v is not None for v in steps_form) and any(v is not None for v in training_form):
        raise InputError(f"give the run in steps or in training terms, not both: {forms}")
    if all(v is None for v in steps_form + training_form):
        raise InputError(f"give the run: {forms}")
    if all(v is None for v in training_form):
        if counting is not None:
            raise InputError(f"counting: a step counting applies to a run in training terms "
                             f"({option('batch_size')}, {option('dataset_size')}, {option('epochs')}), "
                             f"not to one given in steps")
        if sampling_rate is None or steps is None or every is None:
            missing = [n for n, v in (("sampling_rate", sampling_rate), ("steps", steps), ("every", every))
                       if v is None]
            raise InputError(f"give {' and '.join(option(n) for n in missing)} too (the run in steps: a point "
                             f"every K steps and one after the last)")
        return None
    missing = [n for n, v in zip(("batch_size", "dataset_size", "epochs"), training_form) if v is None]
    if missing:
        raise InputError(f"give {' and '.join(option(n) for n in missing)} too (the run in training terms)")
    names = tuple(option(n) for n in ("batch_size", "dataset_size", "epochs", "counting"))
    run = TrainingRun(batch_size, dataset_size, epochs, DEFAULT_COUNTING if counting is None else counting,
                      names=names)
    if run.sampling_rate < MIN_RATE:
        raise LimitError(f"{names[0]}, {names[1]}: q = {describe_rational(run.sampling_rate)} ({run.counting} "
                         f"counting) is below dpsgd/1's limit {RATE_LIMIT}")
    if run.steps > MAX_TOTAL_STEPS:
        raise LimitError(f"{names[2]}: {run.epochs} epochs are T = {run.steps} steps ({run.counting} counting), "
                         f"beyond dpsgd/1's limit of {STEPS_LIMIT} steps")
    return run


def certify_point(sampling_rate, noise_multiplier, steps, delta):
    """One point's sealed certificate, a dict (the work of a pool's process): what :func:`producer.api.dpsgd`
    seals for the same texts."""
    from producer.kinds.dpsgd import Request, build
    return build(Request.from_strings(sampling_rate, noise_multiplier, steps, delta=delta))


def _progress_line(index, total, point, certificate):
    result = certificate.result
    where = f"epoch {point.epoch} (T = {point.steps})" if point.epoch is not None else f"T = {point.steps}"
    return (f"{index}/{total} points: {where}: ε ∈ [{result['epsilon_lo_display']}, "
            f"{result['epsilon_hi_display']}]")


def compute(curve, workers=DEFAULT_WORKERS, report=None):
    """The :class:`PrivacyCurve` of a :class:`CurvePlan`: each point's certificate, in this process or on a
    pool of ``workers`` processes; ``report`` receives a line as each point is certified (in the order they
    finish)."""
    from producer.certificates.sealed import Certificate
    workers = check_workers(workers)
    points, done = curve.points, [None] * len(curve.points)

    def finished(index, data):
        done[index] = Certificate(data)
        if report is not None:
            report(_progress_line(sum(c is not None for c in done), len(points), points[index], done[index]))

    if workers <= 1 or len(points) <= SERIAL_UP_TO:
        for index, point in enumerate(points):
            finished(index, certify_point(*curve.request(point)))
    else:
        _on_pool(curve, workers, finished)
    return PrivacyCurve(curve, done)


# what a pool whose processes died says, then the points are certified in this process
POOL_LOST = ("privacy curve: the worker processes stopped before answering, so the remaining points are "
             "certified in this process. A script that calls privacy_curve with workers >= 2 must do so under "
             "'if __name__ == \"__main__\":' (each worker process imports the script again), or pass workers=0.")


def _on_pool(curve, workers, finished):
    import multiprocessing
    import warnings
    from concurrent.futures.process import BrokenProcessPool
    # spawn: a fresh interpreter per process, the same on every platform (no forked locks or threads)
    context = multiprocessing.get_context("spawn")
    pool = ProcessPoolExecutor(max_workers=min(workers, len(curve.points)), mp_context=context)
    left = set(range(len(curve.points)))
    try:
        futures = {pool.submit(certify_point, *curve.request(point)): index for index, point in enumerate(curve.points)}
        for future in as_completed(futures):
            finished(futures[future], future.result())
            left.discard(futures[future])
    except BrokenProcessPool:
        # the processes died: most often a script without the main guard, whose every worker re-runs it
        # and fails at its own privacy_curve call; the work itself does not need them
        pool.shutdown(wait=False, cancel_futures=True)
        warnings.warn(POOL_LOST, RuntimeWarning, stacklevel=4)
        for index in sorted(left):
            finished(index, certify_point(*curve.request(curve.points[index])))
        return
    except BaseException:
        # a refusal met during one point's work, or an interrupt: the points not started are dropped, and at
        # most one point per process finishes
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown()


def check_workers(workers):
    workers = parse_integer(workers, "workers")
    if not 0 <= workers <= MAX_WORKERS:
        raise InputError(f"workers: must be in [0, {MAX_WORKERS}] (0: in this process), got {workers}")
    return workers


class PrivacyCurve(Immutable):
    """The certified curve: ``certificates`` (one dpsgd/1 per point, in order) and ``rows``
    (:class:`CurveRow`), with the run's ``sampling_rate``, ``noise_multiplier``, ``delta`` (Fractions) and
    ``training`` (a :class:`producer.training.TrainingRun`, or None for a run given in steps)."""

    __slots__ = ("certificates", "rows", "sampling_rate", "noise_multiplier", "delta", "training", "every")

    def __init__(self, curve, certificates):
        self.certificates = tuple(certificates)
        self.rows = tuple(CurveRow(p, c) for p, c in zip(curve.points, self.certificates))
        self.sampling_rate = Fraction(format_rational(curve.sampling_rate))
        self.noise_multiplier = Fraction(format_rational(curve.noise_multiplier))
        self.delta = Fraction(format_rational(curve.delta))
        self.training, self.every = curve.training, curve.every

    def __repr__(self):
        return f"<PrivacyCurve of {len(self.rows)} points: {self.title()}>"

    def run_text(self):
        """The run: q (and B, N, the counting), σ and δ."""
        q = describe_rational(self.sampling_rate)
        if self.training is not None:
            run = self.training
            q = f"{q} (B = {run.batch_size}, N = {run.dataset_size}, {run.counting} counting)"
        return f"q = {q}, σ = {describe_rational(self.noise_multiplier)}, δ = {describe_rational(self.delta)}"

    def title(self):
        """The table's first line: what it is, and the run."""
        return f"DP-SGD privacy curve ε(δ): {self.run_text()}"

    def columns(self):
        return (["epoch"] if self.training is not None else []) + ["steps", "epsilon_lo", "epsilon_hi", "status",
                                                                     "file"]

    def csv(self):
        """curve.csv's bytes: a header, then one row per point (ε as decimals rounded outward)."""
        text = io.StringIO()
        writer = csv.DictWriter(text, fieldnames=self.columns(), lineterminator="\n")
        writer.writeheader()
        for row in self.rows:
            writer.writerow(row.as_dict())
        return text.getvalue().encode("utf-8")

    def table(self):
        """The rows as an aligned text table under :meth:`title` (what ``producer curve`` prints)."""
        heads = {"epoch": "epoch", "steps": "steps", "epsilon_lo": "ε_lo", "epsilon_hi": "ε_hi",
                 "status": "status"}
        names = [n for n in self.columns() if n in heads]
        cells = [[heads[n] for n in names]] + [[str(row.as_dict()[n]) for n in names] for row in self.rows]
        widths = [max(len(line[i]) for line in cells) for i in range(len(names))]
        lines = ["  ".join(c.rjust(w) if n in ("epoch", "steps") else c.ljust(w)
                           for c, w, n in zip(line, widths, names)).rstrip() for line in cells]
        return "\n".join([self.title(), *lines]) + "\n"

    def plot(self, path):
        """curve.png at ``path``: ε_hi joined, ε_lo dashed, against the epoch (or step); the drawn data
        (:func:`producer.sweep.plots.draw_series`), or None when matplotlib is missing."""
        from producer.sweep.plots import plot_epsilon_steps
        check_output_file(path)   # refused in one line before drawing, as the command line refuses it
        x = "epoch" if self.training is not None else "steps"
        points = [(Fraction(getattr(r, x)), r.epsilon_lo, r.epsilon_hi, r.status) for r in self.rows]
        labels = ("ε_hi: the certified upper end", "ε_lo: the certified lower end")
        unit = "epoch" if x == "epoch" else "step"
        title = f"DP-SGD privacy curve: ε(δ) after each {unit}" if self.every == 1 else \
            f"DP-SGD privacy curve: ε(δ) every {self.every} {unit}s and after the last"
        return plot_epsilon_steps({labels: points}, path, title=f"{title}\n{self.run_text()}", log_x=False,
                                  log_y=False, xlabel="epoch" if x == "epoch" else "T (steps)")

    def write(self, folder, overwrite=False):
        """Write the certificates, curve.csv and curve.png into ``folder`` (made if missing); a folder with
        anything in it is refused unless ``overwrite``, which removes this command's files there first (and
        nothing else).  Returns True when the plot was drawn, False without matplotlib."""
        folder = Path(folder)
        check_output_folder(folder)
        check_folder(folder, overwrite)
        folder.mkdir(parents=True, exist_ok=True)
        if overwrite:
            for path in own_files(folder):
                path.unlink()
        for row, certificate in zip(self.rows, self.certificates):
            certificate.write(folder / row.file)
        write_file_atomic(folder / CSV_NAME, self.csv())
        return self.plot(folder / PLOT_NAME) is not None

    def notice(self):
        """None when every certificate verifies within the auditor's default budget, else the line naming
        ``auditor verify --budget N``."""
        budget = max(c.auditor_budget for c in self.certificates)
        if budget <= 1:
            return None
        return (f"some certificates need more than the auditor's default budget of one file: verify them with "
                f"`auditor verify --budget {budget}`")


def own_files(folder):
    """The files of an earlier curve in ``folder`` (its certificates, curve.csv, curve.png), sorted."""
    return owned_files(folder, CERTIFICATE_FILE, OWN_FILES)


def check_folder(folder, overwrite, what="folder"):
    """``folder`` is new or empty, or ``overwrite`` is given: no folder mixes two curves (``what`` names it in
    the refusal)."""
    check_fresh_folder(folder, overwrite, what, "curve")
