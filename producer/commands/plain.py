"""``producer plain``: certified δ(ε) of the C-fold plain composition of a discrete Gaussian
or discrete Laplace release (plain-composition/1), by the product pair."""

from producer import api
from producer.commands.common import add_output_arguments, finish, progress_of
from producer.errors import InputError

HELP = ("certified δ(ε) of the C-fold plain (feedback-free) composition of a sensitivity-1 "
        "discrete-Gaussian or discrete-Laplace release, any C <= 1024 (plain-composition/1)")
DESCRIPTION = (f"{HELP}.  δ(ε) = Σ_x (N^C(x) − e^ε N(· − 1)^C(x))₊ is the hockey-stick divergence of "
               "the product pair, which dominates the adaptive C-fold composition.  The discrete Gaussian "
               "goes through the law of the sum of the C coordinates (a certified truncated C-fold "
               "convolution), the discrete Laplace through a closed binomial form (δ = 0 exactly for "
               "ε >= C/t).  The ε are sorted; a repeated ε is refused.  Limits: C <= 1024, at most 1000 ε, "
               "0 <= ε <= 10^4, 10^-60 <= W < 1, σ² and t in [1/100, 10^6].")
USAGE = ("producer plain (--sigma2 Q | --laplace T) --budget C (--epsilon E ... | --epsilons E,...) "
         "[--width W] [-o FILE] [--quiet]")
DEFAULT_WIDTH = "1e-15"


def add_arguments(parser):
    group = parser.add_argument_group("release")
    law = group.add_mutually_exclusive_group(required=True)
    law.add_argument("--sigma2", metavar="Q",
                     help="variance parameter σ² of the discrete-Gaussian noise (the square: σ = 3 is "
                          "--sigma2 9); a rational in [1/100, 10^6]")
    law.add_argument("--laplace", metavar="T",
                     help="discrete-Laplace noise L_T(n) ∝ e^{−|n|/T} instead, scale T in [1/100, 10^6]")
    group.add_argument("--budget", required=True, metavar="C",
                       help="C: the number of composed releases (integer, 1 <= C <= 1024)")
    points = parser.add_argument_group("points (give --epsilon, repeatable, or --epsilons)")
    forms = points.add_mutually_exclusive_group(required=True)
    forms.add_argument("--epsilon", action="append", metavar="E",
                       help="an ε >= 0 where δ(ε) is enclosed, read exactly; repeat for more points")
    forms.add_argument("--epsilons", metavar="E,...", help="comma-separated ε values, e.g. 1/2,1,2,4")
    points.add_argument("--width", default=DEFAULT_WIDTH, metavar="W",
                        help="every enclosure has upper − lower <= W (default 10^-15; at least 10^-60)")
    add_output_arguments(parser)


def certificate_from_args(args):
    epsilons = args.epsilon if args.epsilon is not None else args.epsilons
    if isinstance(epsilons, str) and not epsilons.strip():
        raise InputError("--epsilons: give at least one ε, e.g. --epsilons 1/2,1,2")
    return api.plain_composition(args.sigma2, args.budget, epsilons, width=args.width,
                                 laplace=args.laplace, progress=progress_of(args))


def run(args):
    return finish(args, certificate_from_args(args))
