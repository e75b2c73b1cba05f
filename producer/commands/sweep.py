"""``producer sweep``: certificates over a grid of ε (or δ), C, σ² (or Laplace t) and γ, a summary and plots.

The law axis is ``--sigma2s`` (discrete-Gaussian innovations) or ``--laplace``
(discrete-Laplace scales t, the route of ``producer dg --laplace T``).
Writes into ``--out DIR``: one certificate per grid point (file name derived
from the point, e.g. ``dg-g1_3-s9-c2-e1_2.json``, ``dg-g1_3-t2-c2-e1_2.json``),
``summary.csv`` and ``summary.json`` (sorted by kind, γ, σ² or t, C, ε or δ) and PNG plots
(``profile.png`` for an ε grid, ``epsilon-star.png`` for a δ grid).  The same
grid gives byte-identical certificates and summaries whatever ``--workers``.
"""

from pathlib import Path

from producer.commands.common import GAME_MAX_BUDGET
from producer.errors import InputError
from producer.output import write_file_atomic
from producer.rationals import parse_integer, parse_rational

HELP = ("certificates over a grid of ε (or δ), C, σ² (or discrete-Laplace t) and γ, with a summary table "
        "and plots (Dask optional)")
DESCRIPTION = (f"{HELP}.  An ε grid gives dg-interval/1 certificates of Δ*_C(ε); a δ grid gives "
               "calibration/1 certificates of ε*_C(δ).  --sigma2s grids the discrete Gaussian's σ², --laplace the "
               "discrete Laplace's scale t instead.  Points sharing (γ, law, C) run as one task so "
               "the game's curves are reused.  --workers N (default 2) runs on a dask.distributed "
               "LocalCluster of N processes, --workers 0 in this process, --scheduler ADDRESS on an "
               "existing Dask cluster.  Grids beyond 2000 points are refused.")
USAGE = ("producer sweep (--epsilons E,... | --epsilon-range A:B:N | --deltas D,...) --budgets C,... "
         "(--sigma2s Q,... | --laplace T,...) [--gammas G,...] [--width W] --out DIR "
         "[--workers N | --scheduler ADDRESS] [--quiet]")

DEFAULT_WORKERS = 2
OUTPUT_FILES = ()  # producer.cli checks these before the run: no -o file, the --out folder
OUTPUT_FOLDERS = ("out",)
DEFAULT_WIDTH = "1/1000000"


def add_arguments(parser):
    grid = parser.add_argument_group("grid")
    values = grid.add_mutually_exclusive_group(required=True)
    values.add_argument("--epsilons", metavar="E,...", help="ε values (dg-interval/1 certificates)")
    values.add_argument("--epsilon-range", metavar="A:B:N", help="N evenly spaced ε from A to B")
    values.add_argument("--deltas", metavar="D,...", help="δ values (calibration/1 certificates)")
    grid.add_argument("--budgets", required=True, metavar="C,...",
                      help=f"budgets C, integers 0 <= C <= {GAME_MAX_BUDGET} (each point is a dg or calibrate "
                           "request of the exact game)")
    law = grid.add_mutually_exclusive_group(required=True)
    law.add_argument("--sigma2s", metavar="Q,...", help="σ² values of the discrete-Gaussian innovations")
    law.add_argument("--laplace", metavar="T,...",
                     help="scales t of discrete-Laplace innovations L_t(n) ∝ e^{−|n|/t} instead (t > 0 rational)")
    grid.add_argument("--gammas", default="1/3", metavar="G,...", help="feedback coefficients γ (default 1/3)")
    grid.add_argument("--width", default=DEFAULT_WIDTH, metavar="W",
                      help=f"each enclosure narrower than W (default {DEFAULT_WIDTH})")
    run = parser.add_argument_group("execution and output")
    run.add_argument("--out", "-o", "--output", dest="out", required=True, metavar="DIR",
                     help="directory for the certificates, summary, plots")
    where = run.add_mutually_exclusive_group()
    where.add_argument("--workers", metavar="N", default=str(DEFAULT_WORKERS),
                       help=f"LocalCluster worker processes (default {DEFAULT_WORKERS}; 0: serial, in process)")
    where.add_argument("--scheduler", metavar="ADDRESS", help="run on the existing Dask cluster at ADDRESS")
    run.add_argument("--quiet", action="store_true", help="no progress counter and no answer line")


def grid_from_args(args):
    """The sorted grid points, every value validated before any work."""
    from producer.kinds.finite_game import check_budget
    from producer.laws import parse_gamma
    from producer.sources.discrete_gaussian import check_sigma2
    from producer.sources.discrete_laplace import check_t
    from producer.sweep.grid import build_grid, parse_list, parse_range
    from producer.sweep.run import check_point

    gammas = parse_list(args.gammas, "gammas")
    for gamma in gammas:
        parse_gamma(str(gamma))
    sigma2s = laplaces = None
    if args.laplace is not None:
        laplaces = [check_t(t) for t in parse_list(args.laplace, "laplace")]
    else:
        sigma2s = [check_sigma2(parse_rational(str(s), "sigma2")) for s in parse_list(args.sigma2s, "sigma2s")]
    budgets = [check_budget(c) for c in parse_list(args.budgets, "budgets", parse_integer)]
    width = parse_rational(args.width, "width")
    if width <= 0:
        raise InputError(f"--width: must be > 0, got {args.width}")
    epsilons = deltas = None
    if args.deltas is not None:
        deltas = parse_list(args.deltas, "deltas")
    elif args.epsilon_range is not None:
        epsilons = parse_range(args.epsilon_range, "epsilon-range")
    else:
        epsilons = parse_list(args.epsilons, "epsilons")
    points = build_grid(gammas, sigma2s, budgets, width, epsilons=epsilons, deltas=deltas, laplaces=laplaces)
    for point in points:
        check_point(point)
    return points


def write_results(out, results):
    """Certificates, summary.csv and summary.json into ``out``; returns the rows."""
    from producer.sweep.summary import summary_csv, summary_json
    out.mkdir(parents=True, exist_ok=True)
    for name, data, _row in results:
        write_file_atomic(out / name, data)
    rows = [row for _name, _data, row in results]
    write_file_atomic(out / "summary.json", summary_json(rows))
    write_file_atomic(out / "summary.csv", summary_csv(rows))
    return rows


def write_plots(out, rows):
    from producer.sweep import plots
    if any(row["kind"] == "dg" for row in rows):
        return plots.plot_profile([r for r in rows if r["kind"] == "dg"], out / "profile.png")
    return plots.plot_epsilon_star(rows, out / "epsilon-star.png")


def run(args):
    from producer.commands.common import say
    from producer.sweep.grid import groups_of
    from producer.sweep.run import run_sweep

    workers = parse_integer(args.workers, "workers")
    if workers < 0:
        raise InputError(f"--workers: must be >= 0, got {workers}")
    points = grid_from_args(args)
    out = Path(args.out)  # checked by producer.cli before the run (OUTPUT_FOLDERS)
    results = run_sweep(groups_of(points), workers=workers, scheduler=args.scheduler, quiet=args.quiet)
    rows = write_results(out, results)
    plotted = write_plots(out, rows)
    say(args, f"sweep: {len(rows)} certificates, summary.csv and summary.json in {out}"
              + ("" if plotted else " (no plots: matplotlib is not installed)"))
    return 0
