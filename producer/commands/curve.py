"""``producer curve``: the privacy curve of a DP-SGD run, ε(δ) after each epoch (or every K steps), certified.

Each point is an ordinary dpsgd/1 certificate written into ``--out DIR``
(``curve-e3-t704.json``: after epoch 3, T = 704 steps; ``curve-t500.json`` in
the step form), so ``auditor verify DIR/*.json`` checks every point; beside
them ``curve.csv`` and ``curve.png`` (the ``plots`` extra), and the table on
standard output.  Everything is checked before the first certificate is
computed (:mod:`producer.training_curve`).
"""

from pathlib import Path

from producer import api
from producer.commands.common import say
from producer.kinds.dpsgd import DELTA_LIMIT, NOISE_RANGE, RATE_LIMIT, RATE_RANGE, STEPS_LIMIT
from producer.training import COUNTINGS, DEFAULT_COUNTING
from producer.output import write_stdout
from producer.training_curve import DEFAULT_WORKERS, MAX_POINTS, SERIAL_UP_TO

HELP = ("the privacy curve of a DP-SGD run: certified ε(δ) after each epoch (or every K steps), one dpsgd/1 "
        "certificate per point, with a table, curve.csv and curve.png")
DESCRIPTION = (f"{HELP}.  The run in training terms (--batch-size, --dataset-size, --epochs, and --counting: "
               "tf-privacy, the default, reads q = B/N and T(e) = ⌈e·N/B⌉ steps after epoch e as TF Privacy "
               "does; opacus reads q = 1/⌈N/B⌉ and T(e) = e·⌈N/B⌉ as Opacus's Poisson data loader does) gives a "
               "point after each epoch (--every K: every K-th epoch, and the last); the run in steps "
               "(--sampling-rate, --steps, --every K) a point every K steps and after the last.  Each point is "
               "the certificate `producer dpsgd` writes for (q, σ, T, δ) at its default relative width 10^-3, "
               "written into --out DIR, so `auditor verify DIR/*.json` checks every point.  curve.csv holds "
               "the epoch (training terms), the steps, ε_lo and ε_hi as decimals rounded outward, the status and "
               "the file; curve.png (matplotlib, the `plots` extra) draws ε_hi joined and ε_lo dashed, "
               "two-sided points only (an upper-only point is a hollow triangle, never joined).  Before any "
               f"work: at most {MAX_POINTS} points, every point within dpsgd/1's limits (T <= {STEPS_LIMIT}, "
               f"{RATE_LIMIT} <= q <= 1, σ in {NOISE_RANGE}, {DELTA_LIMIT} <= δ < 1) and the "
               "refusals `producer dpsgd` makes "
               f"before its computation.  More than {SERIAL_UP_TO} points run on --workers processes "
               f"(default {DEFAULT_WORKERS}).  --out must be new or empty (--overwrite replaces an earlier "
               "curve's files).")
USAGE = ("producer curve (--batch-size B --dataset-size N --epochs E [--counting tf-privacy|opacus] [--every K] "
         "| --sampling-rate Q --steps T --every K) --noise-multiplier S --delta D --out DIR [--overwrite] "
         "[--workers N] [--quiet]")

OUTPUT_FILES = ()  # producer.cli checks the --out folder before the run
OUTPUT_FOLDERS = ("out",)


def add_arguments(parser):
    training = parser.add_argument_group("the run in training terms (a point after each epoch)")
    training.add_argument("--batch-size", metavar="B", help="batch size B (expected batch size), 1 <= B <= N")
    training.add_argument("--dataset-size", metavar="N", help="dataset size N, 1 <= N <= 10^12")
    training.add_argument("--epochs", metavar="E",
                          help=f"number of epochs E, 1 <= E <= 10^7 (and T(E) <= {STEPS_LIMIT})")
    training.add_argument("--counting", choices=COUNTINGS,
                          help=f"how q and the steps are counted (default {DEFAULT_COUNTING}): tf-privacy q = B/N, "
                               "T(e) = ⌈e·N/B⌉; opacus q = 1/⌈N/B⌉, T(e) = e·⌈N/B⌉")
    steps = parser.add_argument_group("the run in steps")
    steps.add_argument("--sampling-rate", metavar="Q", help=f"Poisson sampling rate q in {RATE_RANGE}, read exactly")
    steps.add_argument("--steps", metavar="T", help=f"number of steps T of the whole run, 1 <= T <= {STEPS_LIMIT}")
    steps.add_argument("--every", metavar="K",
                       help="a point every K steps (the run in steps; required there) or every K epochs (training "
                            "terms; default 1), and one after the last")
    mechanism = parser.add_argument_group("noise and question")
    mechanism.add_argument("--noise-multiplier", metavar="S", required=True,
                           help=f"noise multiplier σ in {NOISE_RANGE}: the noise is N(0, σ²) for sensitivity 1")
    mechanism.add_argument("--delta", metavar="D", required=True,
                           help="δ in [10^-30, 1): each point encloses ε(δ) after its steps")
    run_group = parser.add_argument_group("execution and output")
    run_group.add_argument("--out", "-o", "--output", dest="out", required=True, metavar="DIR",
                           help="folder for the certificates, curve.csv and curve.png (new or empty)")
    run_group.add_argument("--overwrite", action="store_true",
                           help="--out may hold an earlier curve: its certificates, curve.csv and curve.png are "
                                "removed before the new ones are written (no other file is touched)")
    run_group.add_argument("--workers", metavar="N", default=str(DEFAULT_WORKERS),
                           help=f"worker processes for more than {SERIAL_UP_TO} points (default {DEFAULT_WORKERS}; "
                                "0: in this process)")
    run_group.add_argument("--quiet", action="store_true",
                           help="no progress lines and no closing line on stderr (the table still goes to "
                                "standard output)")


def run(args):
    from producer.training_curve import check_folder
    out = Path(args.out)
    check_folder(out, args.overwrite, "--out")  # before any work: no folder mixes two curves
    curve = api.privacy_curve(args.noise_multiplier, args.delta, sampling_rate=args.sampling_rate,
                              steps=args.steps, every=args.every, batch_size=args.batch_size,
                              dataset_size=args.dataset_size, epochs=args.epochs, counting=args.counting,
                              workers=args.workers, progress=not args.quiet)
    plotted = curve.write(out, args.overwrite)
    write_stdout(curve.table().encode("utf-8"), f"the curve's files are in {out}")
    say(args, f"curve: {len(curve.rows)} dpsgd/1 certificates, {'curve.csv and curve.png' if plotted else 'curve.csv'}"
              f" in {out}" + ("" if plotted else " (no plot: matplotlib is not installed; "
                                                  "pip install 'dp-certify[plots]')"))
    if curve.notice():
        say(args, curve.notice())
    return 0
