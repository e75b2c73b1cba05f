"""``producer hierarchy``: an upper bound on Δ*_C(ε) / ε*_C(δ) through the commitment hierarchy."""

from producer.certificates.canonical import write_certificate
from producer.certificates.hierarchy import HierarchyRequest, build, parse_numerics
from producer.hierarchy.models import parse_cuts
from producer.rationals import parse_integer, parse_rational

HELP = "certified upper bound on Δ*_C(ε) or ε*_C(δ) for large budgets (cut games U_S, proof hierarchy P_H)"


def add_arguments(parser):
    parser.add_argument("--gamma", required=True, help="γ = A/B, reduced, 0 < A < B")
    parser.add_argument("--sigma2", required=True, help="σ² of the discrete Gaussian (rational)")
    parser.add_argument("--budget", required=True, help="C: number of participations")
    model = parser.add_mutually_exclusive_group(required=True)
    model.add_argument("--depth", help="H: the proof hierarchy P_H")
    model.add_argument("--cuts", help="cut set S of U_S: 0,2,5 | all | none | all-minus:1 | all-minus-mod:4:1")
    query = parser.add_mutually_exclusive_group(required=True)
    query.add_argument("--delta", help="δ in (0, 1): find ε_hi with ε*_C(δ) <= ε_hi")
    query.add_argument("--epsilon", help="ε >= 0: bound Δ*_C(ε)")
    parser.add_argument("--priors", type=int, help="interior grid priors (default 600)")
    parser.add_argument("--logit-range", help="grid half-range R in log-odds (default 10)")
    parser.add_argument("--radius", help="source radius L (default 24)")
    parser.add_argument("--source-scale", help="source scale S, an integer or 2^k (default 2^64)")
    parser.add_argument("--scale-bits", type=int, help="F: fixed point 2^F of the node tables (default 64)")
    parser.add_argument("--grid-bits", type=int, help="K: priors are multiples of 2^-K (default 64)")
    parser.add_argument("-o", "--output", help="write the certificate here (default stdout)")
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")


def run(args):
    budget = parse_integer(args.budget, "budget")
    request = HierarchyRequest(
        args.gamma,
        parse_rational(args.sigma2, "sigma2"),
        budget,
        depth=None if args.depth is None else parse_integer(args.depth, "depth"),
        cuts=None if args.cuts is None else parse_cuts(args.cuts, budget),
        delta=None if args.delta is None else parse_rational(args.delta, "delta"),
        epsilon=None if args.epsilon is None else parse_rational(args.epsilon, "epsilon"),
        **parse_numerics(args),
    )
    write_certificate(build(request, quiet=args.quiet), args.output)
    return 0
