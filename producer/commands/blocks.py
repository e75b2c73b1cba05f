"""``producer blocks``: block-composition baselines beside the full computation (block-composition/1)."""

from producer import api
from producer.commands.common import add_epsilon_argument, add_output_arguments, finish, progress_of

HELP = "what block accounting certifies for T = C releases from the zero start, beside the full computation"
DESCRIPTION = (f"{HELP} (block-composition/1).  Each split cuts the T releases into blocks; each block's exact "
               "dominating pair (over every state it can start in) is composed adaptively.  The split T alone is "
               "the full computation.  Limits: T <= 4, B <= 16, support <= 65 points, "
               "(start classes) × (support + 2)^k <= 2·10^6 per block type, with the 64-bit limbs of D^k "
               "(D = B·S) at most 2·10^7 in all, 16 splits, 16 targets.")
USAGE = ("producer blocks --gamma A/B (--sigma2 Q [--radius L] [--scale S] | --weights W,... [--offset O]) "
         "--budget C --epsilon E [--splits 1+1+1,2+1,1+2,3] [--targets 1e-4,4e-5:6e-5] [-o FILE] [--quiet]")


def add_arguments(parser):
    group = parser.add_argument_group("program")
    group.add_argument("--gamma", required=True, metavar="A/B",
                       help="feedback coefficient γ = A/B (reduced), or 0 for no hidden feedback")
    law = group.add_mutually_exclusive_group(required=True)
    law.add_argument("--sigma2", metavar="Q", help="discrete-Gaussian innovations of variance parameter σ²")
    law.add_argument("--weights", metavar="W,...", help="a finite innovation law instead (ν(z) ∝ w_z)")
    group.add_argument("--offset", metavar="O", help="with --weights: the support point of the first weight")
    group.add_argument("--radius", metavar="L", help="with --sigma2: source radius L (default 8·ceil(σ))")
    group.add_argument("--scale", metavar="S", help="with --sigma2: source scale S, an integer or 2^k (default 2^64)")
    group.add_argument("--budget", required=True, metavar="C",
                       help="C = T: the number of releases, each a possible participation (1 <= C <= 4)")
    add_epsilon_argument(group, "ε >= 0 where δ(ε) is bounded", required=True)
    question = parser.add_argument_group("methods and targets")
    question.add_argument("--splits", metavar="K+K,...",
                          help="splits of the releases into blocks, e.g. 1+1+1,2+1,1+2,3 (default: all of them)")
    question.add_argument("--targets", metavar="D[,LO:HI]",
                          help="risk targets δ or intervals lo:hi to decide for every method, e.g. 1e-4,4e-5:6e-5")
    add_output_arguments(parser)


def run(args):
    certificate = api.block_composition(args.gamma, args.budget, args.epsilon, sigma2=args.sigma2,
                                        weights=args.weights, offset=args.offset, splits=args.splits,
                                        targets=args.targets, radius=args.radius, scale=args.scale,
                                        progress=progress_of(args))
    return finish(args, certificate)
