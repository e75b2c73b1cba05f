"""``producer frontier``: certified enclosures of the hard-resource frontier Φ(τ) (frontier/1)."""

from producer import api
from producer.commands.common import GAMMA_HELP, add_output_arguments, finish, progress_of

HELP = ("the hard-resource frontier Φ(τ) = lim ε*_{C,τC}(δ)/C at each τ, from one Bellman upper and two "
        "Poisson lowers of a window model (frontier/1)")
DESCRIPTION = (f"{HELP}.  The upper Φ(τ) <= u + τ·a holds for every τ > 0; the lower u + τ·b on "
               "[τ_min, τ_max] (time-sharing 'always +1' with a low-participation optimal policy).  Limits: "
               "σ² in [1/100, 10^4], radius M <= 32, at most 100 τ in [1/1000, 10^6].")
USAGE = "producer frontier --gamma A/B --sigma2 Q [--radius M] [--tau T1,T2,...] [-o FILE] [--quiet]"


def add_arguments(parser):
    group = parser.add_argument_group("mechanism")
    group.add_argument("--gamma", required=True, metavar="A/B", help=GAMMA_HELP.split(", or 0")[0])
    group.add_argument("--sigma2", required=True, metavar="Q", help="variance parameter σ² of the innovations")
    group.add_argument("--radius", metavar="M", help="window radius M (default 12; at most 32)")
    group.add_argument("--tau", metavar="T1,T2,...",
                       help="deadline ratios τ = T/C where Φ is enclosed (default 1,2,5,10)")
    add_output_arguments(parser)


def run(args):
    return finish(args, api.frontier(args.gamma, args.sigma2, radius=args.radius, taus=args.tau,
                                     progress=progress_of(args)))
