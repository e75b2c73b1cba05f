"""``producer hierarchy``: an upper bound on Δ*_C(ε) / ε*_C(δ) through the commitment hierarchy."""

from producer import api
from producer.kinds.hierarchy import DEFAULTS, MAX_WORK
from producer.commands.common import (GAME_MAX_BUDGET, add_epsilon_argument, add_output_arguments, finish,
                                      power_of_ten, progress_of)

HELP = "certified upper bound on Δ*_C(ε) or ε*_C(δ) for large budgets (cut games U_S, proof hierarchy P_H)"


def add_arguments(parser):
    mechanism = parser.add_argument_group("mechanism")
    mechanism.add_argument("--gamma", required=True, metavar="A/B",
                           help="feedback coefficient γ = A/B, reduced, 0 < A < B (e.g. 1/3)")
    mechanism.add_argument("--sigma2", required=True, metavar="Q",
                           help="variance parameter σ² of the discrete Gaussian (the square; a rational)")
    mechanism.add_argument("--budget", required=True, metavar="C",
                           help="C >= 1: the number of participations; no fixed upper limit: a model whose "
                                f"work (branches × priors, at most {power_of_ten(MAX_WORK)}) or whose audit exceeds "
                                "the limits is refused at once with the estimate.  The reference certificates reach "
                                "C = 64 "
                                f"(--cuts); for C <= {GAME_MAX_BUDGET} the exact game (`producer calibrate`, "
                                "`producer dg`) answers exactly")
    model = parser.add_argument_group("model (exactly one)").add_mutually_exclusive_group(required=True)
    model.add_argument("--depth", metavar="H",
                       help="H >= 1: the proof hierarchy P_H.  A larger H is tighter but its graph grows fast: "
                            "H = 4 at C = 8 (ε*_8(1e-4) <= 4.867767, about a minute) and H = 3 at C = 16 (about a "
                            "minute) are the measured sweet spots; start with H = 3 (H = 2 for a quick, loose "
                            "bound) and raise it while the work limit allows; for C >= 32 use --cuts")
    model.add_argument("--cuts", metavar="S",
                       help="cut set S of the cut game U_S: 0,2,5 | all | none | all-minus:1 | all-minus-mod:4:1")
    query = parser.add_argument_group("question (exactly one)").add_mutually_exclusive_group(required=True)
    query.add_argument("--delta", metavar="δ", help="δ in (0, 1): find ε_hi with ε*_C(δ) <= ε_hi")
    add_epsilon_argument(query, "ε >= 0: bound Δ*_C(ε)")
    numerics = parser.add_argument_group("numerics")
    numerics.add_argument("--priors", metavar="N", help=f"interior grid priors (default {DEFAULTS['priors']})")
    numerics.add_argument("--logit-range", metavar="R",
                          help=f"grid half-range R in log-odds (default {DEFAULTS['logit_range']})")
    numerics.add_argument("--radius", metavar="L", help=f"source radius L (default {DEFAULTS['radius']})")
    numerics.add_argument("--source-scale", metavar="S",
                          help="source scale S, an integer or 2^k "
                               f"(default 2^{DEFAULTS['source_scale'].bit_length() - 1})")
    numerics.add_argument("--scale-bits", metavar="F",
                          help=f"F: fixed point 2^F of the node tables (default {DEFAULTS['scale_bits']})")
    numerics.add_argument("--grid-bits", metavar="K",
                          help=f"K: priors are multiples of 2^-K (default {DEFAULTS['grid_bits']})")
    add_output_arguments(parser)


def run(args):
    certificate = api.hierarchy_upper(args.gamma, args.sigma2, args.budget, depth=args.depth, cuts=args.cuts,
                                delta=args.delta, epsilon=args.epsilon, priors=args.priors,
                                logit_range=args.logit_range, radius=args.radius,
                                source_scale=args.source_scale, scale_bits=args.scale_bits,
                                grid_bits=args.grid_bits, progress=progress_of(args))
    return finish(args, certificate)
