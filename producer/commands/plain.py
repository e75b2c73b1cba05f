"""``producer plain``: certified δ(ε) of the C-fold plain composition of a discrete Gaussian
or discrete Laplace release (plain-composition/1), by the product pair."""

from producer import api
from producer.commands.common import add_epsilon_argument, add_output_arguments, finish, progress_of
from producer.errors import InputError

HELP = ("certified δ(ε) of the plain (feedback-free) composition of discrete-Gaussian and discrete-Laplace "
        "releases, C releases of one law (sensitivity 1) or a list of releases with integer sensitivities, "
        "any total C <= 1024 (plain-composition/1)")
DESCRIPTION = (f"{HELP}.  δ(ε) = Σ_x (P(x) − e^ε Q(x))₊ is the hockey-stick divergence of the product pair "
               "(each release N against N(· − s)), which dominates the adaptive composition.  One law: the "
               "discrete Gaussian goes through the law of the sum of the C coordinates (a certified truncated "
               "C-fold convolution), the discrete Laplace through a closed binomial form (δ = 0 exactly for "
               "ε >= C/t); a list of releases goes through the law of the total privacy loss on a common "
               "lattice.  The ε are sorted; a repeated ε is refused.  Width: every point meets --width W "
               "(upper − lower <= W) or --rel-width R (upper − lower <= R·lower), R first and W the floor; with "
               "neither, R = 1/1000 and W = 10^-60.  "
               "Limits: total C <= 1024, sensitivity <= 1000, at most 1000 ε, 0 <= ε <= 10^4, "
               "10^-60 <= W < 1, 10^-30 <= R < 1, σ² and t in [1/100, 10^6].")
USAGE = ("producer plain ((--sigma2 Q | --laplace T) --budget C | --release LAW:SCALE[:S]xK ...) "
         "--epsilons E[,E...] ... [--width W] [--rel-width R] [-o FILE] [--quiet]")


def add_arguments(parser):
    group = parser.add_argument_group("release (one law with --budget, or --release, repeatable)")
    law = group.add_mutually_exclusive_group()
    law.add_argument("--sigma2", metavar="Q",
                     help="variance parameter σ² of the discrete-Gaussian noise (the square: σ = 3 is "
                          "--sigma2 9); a rational in [1/100, 10^6]")
    law.add_argument("--laplace", metavar="T",
                     help="discrete-Laplace noise L_T(n) ∝ e^{−|n|/T} instead, scale T in [1/100, 10^6]")
    group.add_argument("--budget", metavar="C",
                       help="C: the number of composed releases (integer, 1 <= C <= 1024)")
    group.add_argument("--release", action="append", metavar="LAW:SCALE[:S]xK",
                       help="K releases of LAW (dg: discrete Gaussian σ² = SCALE, dl: discrete Laplace t = SCALE) "
                            "with integer sensitivity S >= 1 (default 1), e.g. dg:9x100, dl:2x5, dg:4:2x20; "
                            "repeat for more; the total K is at most 1024; excludes --sigma2, --laplace, --budget")
    points = parser.add_argument_group("points")
    add_epsilon_argument(points, "the ε >= 0 where δ(ε) is enclosed, read exactly: comma-separated (1/2,1,2,4) "
                                 "and/or the option repeated", many=True)
    points.add_argument("--width", metavar="W",
                        help="absolute width: a point may have upper − lower <= W (at least 10^-60)")
    points.add_argument("--rel-width", metavar="R",
                        help="relative width: a point may have upper − lower <= R·lower (at least 10^-30); "
                             "R is sought first, --width is then a floor; with neither, R = 1/1000 and W = 10^-60 "
                             "(a δ too small for R comes back as [0, <= 10^-60])")
    parser.add_argument("--delta", metavar="D",
                        help="not here: ε at δ (the inverse, ε*(δ)) is `producer calibrate --gamma 0 "
                             "--release ... --delta D` (or --sigma2/--laplace with --budget), epsilon-bracket/1")
    add_output_arguments(parser)


def _check_points(args):
    """δ(ε) at given ε only; ε*(δ) has its own command (one question, one certificate kind)."""
    if args.delta is not None:
        raise InputError(f"argument --delta: producer plain encloses δ(ε) at given ε; ε at δ = {args.delta} is "
                         f"answered by `producer calibrate --gamma 0 --release ... --delta {args.delta}` (or "
                         f"--sigma2/--laplace with --budget) (epsilon-bracket/1)")
    if args.epsilon is None:
        raise InputError("the argument --epsilon/--epsilons is required")


def _check_law(args):
    """The one-law options and --release exclude each other; one of them is needed."""
    if args.release is not None:
        for name, value in (("--sigma2", args.sigma2), ("--laplace", args.laplace), ("--budget", args.budget)):
            if value is not None:
                raise InputError(f"argument --release: not allowed with {name} (a release states its law, "
                                 f"scale and count: dg:9x100)")
        return
    if args.sigma2 is None and args.laplace is None:
        raise InputError("one of the arguments --sigma2, --laplace or --release is required")
    if args.budget is None:
        raise InputError("argument --budget is required with --sigma2 or --laplace")


def certificate_from_args(args):
    _check_points(args)
    _check_law(args)
    return api.plain_composition(args.sigma2, args.budget, args.epsilon, width=args.width, rel_width=args.rel_width,
                                 laplace=args.laplace, releases=args.release, progress=progress_of(args))


def run(args):
    return finish(args, certificate_from_args(args))
