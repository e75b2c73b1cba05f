"""``producer sweep``: certificates over a grid of ε (or δ), C, σ² (or Laplace t) and γ, or of DP-SGD's q, σ, T
and δ, a summary and plots.

The law axis is ``--sigma2s`` (discrete-Gaussian innovations) or ``--laplace``
(discrete-Laplace scales t, the route of ``producer dg --laplace T``).
Widths: an ε grid seeks the relative width ``--rel-width R`` (default 1/1000)
with the absolute floor ``--width W`` (default 10^-20), in rounds of
dg-interval/1 certificates (:mod:`producer.sweep.refine`); ``--width W``
alone is one absolute width per point, as a δ grid always is (default 10^-6).
Writes into ``--out DIR`` (new or empty; with ``--overwrite`` the files an
earlier sweep wrote there are removed before the new ones are written): one certificate per grid point (file
name derived from the point, e.g. ``dg-g1_3-s9-c2-e1_2.json``,
``dg-g1_3-t2-c2-e1_2.json``), ``summary.csv`` and ``summary.json`` (sorted by
kind, γ, σ² or t, C, ε or δ) and PNG plots (``profile.png`` for an ε grid,
``epsilon-star.png`` for a δ grid).  Points left upper-only (lower end 0, or R
not met) are named in one warning line on stderr.  The same grid gives
byte-identical certificates and summaries whatever ``--workers``.

A DP-SGD grid (``--sampling-rates``, ``--noise-multipliers``, ``--steps``,
``--deltas``) writes one ``dpsgd/1`` certificate of ε(δ) per point (q, σ, T,
δ), the certificate ``producer dpsgd`` writes (``dpsgd-q1_1000-s4_5-t1000-
d1_100000.json``), the summaries and ``epsilon-steps.png`` (ε against T per
(q, σ, δ)).
"""

import re
import sys
from pathlib import Path

from gmpy2 import mpq, mpz

from producer.commands.common import GAME_MAX_BUDGET
from producer.errors import InputError
from producer.kinds.dpsgd import NOISE_RANGE, RATE_RANGE, STEPS_LIMIT
from producer.output import check_fresh_folder, owned_files, write_file_atomic
from producer.rationals import describe_rational, parse_integer, parse_rational
from producer.training_curve import MAX_WORKERS   # one limit of local worker processes

HELP = ("certificates over a grid of ε (or δ), C, σ² (or discrete-Laplace t) and γ, or a DP-SGD grid of q, σ, T "
        "and δ, with a summary table and plots (Dask optional)")
DESCRIPTION = (f"{HELP}.  An ε grid gives dg-interval/1 certificates of Δ*_C(ε); a δ grid gives "
               "calibration/1 certificates of ε*_C(δ).  --sigma2s grids the discrete Gaussian's σ², --laplace the "
               "discrete Laplace's scale t instead.  Widths of an ε grid: each point seeks --rel-width R "
               "(upper − lower <= R·lower) in rounds of certificates at absolute widths, down to the floor "
               "--width W; with neither, R = 1/1000 and W = 10^-20; --width alone is one absolute width per "
               "point.  A δ grid takes --width only (default 10^-6).  Points left upper-only (lower end 0, or "
               "R not met) are drawn as triangles, never joined to the curve, and named in a warning line.  "
               "Points sharing (γ, law, C) run as one task.  --workers N (default 2) runs on a "
               "dask.distributed LocalCluster of N processes, --workers 0 in this process, --scheduler "
               "ADDRESS on an existing Dask cluster.  --out must be new or empty (--overwrite replaces an "
               "earlier sweep's files).  Grids beyond 2000 points are refused.  A DP-SGD grid: --sampling-rates, "
               "--noise-multipliers, --steps and --deltas (or --delta) in place of the budgets and the law give "
               "one dpsgd/1 certificate of ε(δ) per point, as `producer dpsgd` writes it (at --rel-width R, "
               "default 1/1000, and --effort N), a summary and epsilon-steps.png (ε against T per (q, σ, δ), "
               "both certified ends, two-sided points joined); each point is a task of its own, every one checked "
               "before the work.")
USAGE = ("producer sweep (--epsilons E,... | --epsilon-range A:B:N | --deltas D,...) --budgets C,... "
         "(--sigma2s Q,... | --laplace T,...) [--gammas G,...] [--rel-width R] [--width W] --out DIR "
         "[--overwrite] [--workers N | --scheduler ADDRESS] [--quiet]\n"
         "       producer sweep --sampling-rates Q,... --noise-multipliers S,... --steps T,... --deltas D,... "
         "[--rel-width R] [--effort N] --out DIR [--overwrite] [--workers N | --scheduler ADDRESS] [--quiet]")

DEFAULT_WORKERS = 2
OUTPUT_FILES = ()  # producer.cli checks these before the run: no -o file, the --out folder
OUTPUT_FOLDERS = ("out",)
DEFAULT_REL_WIDTH = mpq(1, 1000)
# The floor of an ε grid's rounds.  Not plain's 10^-60: the game's work grows
# steeply with the source a narrow width needs (σ² = 9, C = 3, ε = 2: about
# 3 s of CPU at 10^-12, 12 s at 10^-24, 150 s at 10^-48).
DEFAULT_FLOOR = mpq(1, mpz(10) ** 20)
DEFAULT_WIDTH = mpq(1, 10 ** 6)  # a δ grid: the ε* enclosure's absolute width

# The files a sweep writes: only these are removed by --overwrite.
SWEEP_FILE = re.compile(r"(dg|calibration)-g[0-9_]+-[st][0-9_]+-c[0-9]+-[ed][0-9_]+\.json"
                        r"|dpsgd-q[0-9_]+-s[0-9_]+-t[0-9]+-d[0-9_]+\.json")
SWEEP_FILES = ("summary.csv", "summary.json", "profile.png", "epsilon-star.png", "epsilon-steps.png")
# The options of one grid only, each refused in the other (--gammas has no parser default, so a given one is
# seen; --deltas, --rel-width and the output options are shared).
PLAIN_ONLY = ("budgets", "sigma2s", "laplace", "gammas", "epsilons", "epsilon_range", "width")
DPSGD_ONLY = ("sampling_rates", "noise_multipliers", "steps", "effort")


def add_arguments(parser):
    grid = parser.add_argument_group("grid")
    values = grid.add_mutually_exclusive_group(required=True)
    values.add_argument("--epsilons", metavar="E,...", help="ε values (dg-interval/1 certificates)")
    values.add_argument("--epsilon-range", metavar="A:B:N", help="N evenly spaced ε from A to B")
    values.add_argument("--deltas", "--delta", dest="deltas", metavar="D,...",
                        help="δ values (calibration/1 certificates; of a DP-SGD grid, dpsgd/1 certificates of ε(δ))")
    grid.add_argument("--budgets", metavar="C,...",
                      help=f"budgets C, integers 0 <= C <= {GAME_MAX_BUDGET} (each point is a dg or calibrate "
                           "request of the exact game)")
    law = grid.add_mutually_exclusive_group()
    law.add_argument("--sigma2s", metavar="Q,...", help="σ² values of the discrete-Gaussian innovations")
    law.add_argument("--laplace", metavar="T,...",
                     help="scales t of discrete-Laplace innovations L_t(n) ∝ e^{−|n|/t} instead (t > 0 rational)")
    grid.add_argument("--gammas", metavar="G,...", help="feedback coefficients γ (default 1/3)")
    grid.add_argument("--rel-width", metavar="R",
                      help="ε grid: each point seeks upper − lower <= R·lower, in rounds down to the floor "
                           "--width (10^-30 <= R < 1; default 1/1000 when --width is not given)")
    grid.add_argument("--width", metavar="W",
                      help="absolute width: with --rel-width the floor of the rounds (default 10^-20), alone one "
                           "round per point at W (the default of a δ grid: 10^-6)")
    dpsgd = parser.add_argument_group("DP-SGD grid (in place of --budgets and --sigma2s/--laplace; with --deltas)")
    dpsgd.add_argument("--sampling-rates", metavar="Q,...", help=f"Poisson sampling rates q in {RATE_RANGE}")
    dpsgd.add_argument("--noise-multipliers", metavar="S,...", help=f"noise multipliers σ in {NOISE_RANGE}")
    dpsgd.add_argument("--steps", metavar="T,...", help=f"numbers of steps T, 1 <= T <= {STEPS_LIMIT}")
    dpsgd.add_argument("--effort", metavar="N",
                       help="opt every point in to N times the search's work limit (N from 1 to 8), as `producer "
                            "dpsgd --effort N`; recorded in each certificate's input.effort")
    run = parser.add_argument_group("execution and output")
    run.add_argument("--out", "-o", "--output", dest="out", required=True, metavar="DIR",
                     help="directory for the certificates, summary, plots")
    where = run.add_mutually_exclusive_group()
    where.add_argument("--workers", metavar="N", default=str(DEFAULT_WORKERS),
                       help=f"LocalCluster worker processes (default {DEFAULT_WORKERS}; 0: serial, in process)")
    where.add_argument("--scheduler", metavar="ADDRESS", help="run on the existing Dask cluster at ADDRESS")
    run.add_argument("--overwrite", action="store_true",
                     help="--out may hold an earlier sweep: its certificates, summaries and plots are removed "
                          "before the new ones are written (no other file is touched)")
    run.add_argument("--quiet", action="store_true",
                     help="no progress counter and no answer line (the upper-only warning stays)")


def given(args, names):
    """The options among ``names`` given on the command line, as --flags."""
    return ["--" + name.replace("_", "-") for name in names if getattr(args, name, None) is not None]


def grid_from_args(args):
    """The sorted grid points, every value validated before any work."""
    if given(args, DPSGD_ONLY):
        return dpsgd_grid_from_args(args)
    dpsgd = "or, for a DP-SGD grid, --sampling-rates, --noise-multipliers and --steps"
    if args.sigma2s is None and args.laplace is None:
        raise InputError(f"give --sigma2s Q,... or --laplace T,...: the innovation law of a grid of ε or δ ({dpsgd})")
    if args.budgets is None:
        raise InputError(f"give --budgets C,...: the budgets of a grid of ε or δ ({dpsgd})")
    return plain_grid_from_args(args)


def dpsgd_grid_from_args(args):
    """The sorted DP-SGD grid points (q × σ × T × δ), each checked as `producer dpsgd` checks it before its work."""
    from producer.audit_budget import read_effort
    from producer.sweep.grid import build_dpsgd_grid, parse_list
    from producer.sweep.run import check_point
    if given(args, DPSGD_ONLY) == ["--effort"]:
        raise InputError("--effort: an option of a DP-SGD grid only (with --sampling-rates, --noise-multipliers, "
                         "--steps and --deltas)")
    wrong = given(args, PLAIN_ONLY)
    if wrong:
        raise InputError(f"{wrong[0]}: not an option of a DP-SGD grid (--sampling-rates, --noise-multipliers, "
                         f"--steps, --deltas, --rel-width, --effort)")
    missing = [flag for flag in ("--sampling-rates", "--noise-multipliers", "--steps")
               if flag not in given(args, DPSGD_ONLY)]

    if missing:
        raise InputError(f"a DP-SGD grid needs --sampling-rates, --noise-multipliers and --steps: give "
                         f"{' and '.join(missing)} too")
    if args.deltas is None:
        raise InputError("a DP-SGD grid certifies ε(δ): give --deltas D,... (δ(ε) at given ε: `producer dpsgd "
                         "--epsilons`)")
    rates = parse_list(args.sampling_rates, "sampling-rates")
    noises = parse_list(args.noise_multipliers, "noise-multipliers")
    steps = parse_list(args.steps, "steps", parse_integer)
    deltas = parse_list(args.deltas, "deltas")
    rel_width = None if args.rel_width is None else parse_rational(args.rel_width, "rel-width")
    effort = 1 if args.effort is None else read_effort(args.effort, "--effort")
    points = build_dpsgd_grid(rates, noises, steps, deltas, rel_width, effort)
    for point in points:
        check_point(point)
    return points


def plain_grid_from_args(args):
    """The sorted grid points of ε or δ × C × law × γ, every value validated before any work."""
    from producer.kinds.finite_game import check_budget
    from producer.laws import parse_gamma
    from producer.sources.discrete_gaussian import check_sigma2
    from producer.sources.discrete_laplace import check_t
    from producer.sweep.grid import build_grid, parse_list, parse_range
    from producer.sweep.run import check_point

    gammas = parse_list("1/3" if args.gammas is None else args.gammas, "gammas")
    for gamma in gammas:
        parse_gamma(str(gamma))
    sigma2s = laplaces = None
    if args.laplace is not None:
        laplaces = [check_t(t) for t in parse_list(args.laplace, "laplace")]
    else:
        sigma2s = [check_sigma2(parse_rational(str(s), "sigma2")) for s in parse_list(args.sigma2s, "sigma2s")]
    budgets = [check_budget(c) for c in parse_list(args.budgets, "budgets", parse_integer)]
    width, rel_width = widths_from_args(args)
    epsilons = deltas = None
    if args.deltas is not None:
        deltas = parse_list(args.deltas, "deltas")
    elif args.epsilon_range is not None:
        epsilons = parse_range(args.epsilon_range, "epsilon-range")
    else:
        epsilons = parse_list(args.epsilons, "epsilons")
    points = build_grid(gammas, sigma2s, budgets, width, epsilons=epsilons, deltas=deltas, laplaces=laplaces,
                        rel_width=rel_width)
    for point in points:
        check_point(point)
    return points


def widths_from_args(args):
    """(W, R): --width and --rel-width, with their defaults (R = 1/1000 and the floor 10^-20 for an ε grid
    given neither; 10^-6 and no R for a δ grid); R of a δ grid is refused."""
    from producer.kinds.plain_composition import check_rel_width
    width = None if args.width is None else parse_rational(args.width, "width")
    if width is not None and width <= 0:
        raise InputError(f"--width: must be > 0, got {args.width}")
    rel_width = None if args.rel_width is None else check_rel_width(parse_rational(args.rel_width, "rel-width"))
    if args.deltas is not None:
        if rel_width is not None:
            raise InputError("--rel-width: a δ grid's ε* enclosures take the absolute --width only "
                             "(--rel-width applies to an ε grid)")
        return (DEFAULT_WIDTH if width is None else width), None
    if width is None:
        return DEFAULT_FLOOR, (DEFAULT_REL_WIDTH if rel_width is None else rel_width)
    return width, rel_width


def sweep_files(out):
    """The files in ``out`` an earlier sweep wrote (its certificates, summaries and plots), sorted."""
    return owned_files(out, SWEEP_FILE, SWEEP_FILES)


def check_out(out, overwrite):
    """--out is new or empty, or --overwrite is given: refused before any work, so no folder mixes two sweeps."""
    check_fresh_folder(out, overwrite, "--out", "sweep")


def write_results(out, results, overwrite=False):
    """Certificates, summary.csv and summary.json into ``out`` (an earlier sweep's files removed first with
    ``overwrite``); returns the rows."""
    from producer.sweep.summary import summary_csv, summary_json
    out.mkdir(parents=True, exist_ok=True)
    if overwrite:
        for path in sweep_files(out):
            path.unlink()
    for name, data, _row in results:
        write_file_atomic(out / name, data)
    rows = [row for _name, _data, row in results]
    write_file_atomic(out / "summary.json", summary_json(rows))
    write_file_atomic(out / "summary.csv", summary_csv(rows))
    return rows


def verify_hint(out, rows):
    """The command that checks the certificates alone (the summary table beside them is not one)."""
    kinds = sorted({row["file"].split("-", 1)[0] for row in rows if row.get("file")})
    files = " ".join(str(out / f"{kind}-*.json") for kind in kinds)
    return f"; check them with `auditor verify {files}`" if kinds else ""


def write_plots(out, rows):
    """The plot of the grid; None when matplotlib is missing."""
    from producer.sweep import plots
    if any(row["kind"] == "dpsgd" for row in rows):
        return plots.plot_dpsgd(rows, out / "epsilon-steps.png")
    if any(row["kind"] == "dg" for row in rows):
        return plots.plot_profile([r for r in rows if r["kind"] == "dg"], out / "profile.png")
    return plots.plot_epsilon_star(rows, out / "epsilon-star.png")


def upper_only_warning(rows):
    """One line naming the upper-only points and what would tighten them; None when there are none."""
    from producer.sweep.refine import ABSOLUTE, FLOOR, LIMIT, PURE, UPPER_ONLY
    loose = [row for row in rows if row["status"] == UPPER_ONLY]
    if not loose:
        return None
    if loose[0]["kind"] == "dpsgd":  # dpsgd/1 meets its relative width or refuses: ε_lo = 0 < ε_hi only here
        shown = ", ".join(row["file"] for row in loose[:3]) + (", …" if len(loose) > 3 else "")
        return (f"sweep: warning: {len(loose)} of {len(rows)} points are upper-only (ε_lo = 0; drawn as triangles, "
                f"not joined): {shown}")
    parameter = "epsilon" if loose[0]["kind"] == "dg" else "delta"
    values = sorted({mpq(row[parameter]) for row in loose})
    shown = ", ".join(describe_rational(v) for v in values[:6]) + (", …" if len(values) > 6 else "")
    count = {stop: sum(row["stop"] == stop for row in loose) for stop in {row["stop"] for row in loose}}
    advice = []
    if ABSOLUTE in count:
        advice.append(f"{count.pop(ABSOLUTE)} by a smaller --width" if parameter == "delta" else
                      f"{count.pop(ABSOLUTE)} by --rel-width R (e.g. 1e-3) in place of --width, or a smaller "
                      "--width")
    if FLOOR in count:
        floor = min(mpq(row["width"]) for row in loose if row["stop"] == FLOOR)
        advice.append(f"{count.pop(FLOOR)} by a smaller --width floor (now {describe_rational(floor)}), unless "
                      "δ is 0 there")
    if LIMIT in count:
        advice.append(f"{count.pop(LIMIT)} only by a larger σ² or t or a smaller C (a narrower round was beyond "
                      "a limit of the exact game)")
    if PURE in count:
        advice.append(f"{count.pop(PURE)} by nothing: δ = 0 there (discrete Laplace at ε >= 2C/t, pure DP)")
    if count:
        advice.append(f"{sum(count.values())} by a larger --rel-width")
    symbol = "ε" if parameter == "epsilon" else "δ"
    return (f"sweep: warning: {len(loose)} of {len(rows)} points are upper-only (lower end 0 or relative width "
            f"not met; drawn as triangles, not joined) at {symbol} = {shown}; tightened: {'; '.join(advice)}")


def run(args):
    from producer.commands.common import say
    from producer.sweep.grid import groups_of
    from producer.sweep.run import run_sweep

    workers = parse_integer(args.workers, "workers")
    if not 0 <= workers <= MAX_WORKERS:
        raise InputError(f"--workers: must be in [0, {MAX_WORKERS}] (0: in this process), got {workers}")
    points = grid_from_args(args)
    out = Path(args.out)  # checked by producer.cli before the run (OUTPUT_FOLDERS)
    check_out(out, args.overwrite)
    results = run_sweep(groups_of(points), workers=workers, scheduler=args.scheduler, quiet=args.quiet)
    rows = write_results(out, results, args.overwrite)
    plotted = write_plots(out, rows) is not None
    warning = upper_only_warning(rows)
    if warning and sys.stderr is not None:  # also with --quiet: the plot alone could mislead
        print(warning, file=sys.stderr, flush=True)
    say(args, f"sweep: {len(rows)} certificates, summary.csv and summary.json in {out}"
              + ("" if plotted else " (no plots: matplotlib is not installed)") + verify_hint(out, rows))
    return 0
