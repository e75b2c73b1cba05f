"""``producer workload``: the static-workload matrix-mechanism bound and the G.6 identity (workload/1)."""

from producer import api
from producer.commands.common import add_epsilon_argument, add_output_arguments, finish

HELP = "δ(ε) upper bound of the matrix program A = dI + eJ with finite DG draws, and G.6 identity checks (workload)"


def add_arguments(parser):
    parser.add_argument("--dimension", default="100", metavar="N",
                        help="n: records / strategy coordinates (default 100)")
    parser.add_argument("--diagonal", default="15", metavar="D", help="d in A = d·I + e·J (default 15)")
    parser.add_argument("--ones", default="1", metavar="E", help="e in A = d·I + e·J (default 1)")
    parser.add_argument("--sigma2", default="1444", metavar="Q", help="σ² of each DG draw (default 1444 = 38²)")
    parser.add_argument("--scale", default="8589934592", metavar="S",
                        help="S of the finite source (default 2^33)")
    add_epsilon_argument(parser, "ε (default 2)", default="2")
    parser.add_argument("--theta", default="6", metavar="θ", help="θ of the moment bound (default 6)")
    parser.add_argument("--no-identity", action="store_true", help="omit the G.6 identity checks")
    add_output_arguments(parser)


def run(args):
    certificate = api.workload(dimension=args.dimension, diagonal=args.diagonal, ones=args.ones,
                               sigma2=args.sigma2, scale=args.scale, epsilon=args.epsilon, theta=args.theta,
                               identity=not args.no_identity)
    return finish(args, certificate)
