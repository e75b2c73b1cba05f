"""``producer minimum-depth``: the smallest proof depth whose model certifies δ at ε (minimum-depth/1)."""

from producer import api
from producer.commands.common import add_model_numerics, add_model_question, add_output_arguments, finish, progress_of

HELP = ("the smallest proof depth H whose model P_H certifies δ at ε: a proof-function lower of P_{H−1} above δ "
        "and a certified upper of P_H below it (statements about the models)")
DESCRIPTION = (f"{HELP} (minimum-depth/1).  The lower end separates a structural failure of depth H − 1 from a "
               "numerical one (the paper's Table S1).  Limits: those of producer minimum-deletion.")
USAGE = ("producer minimum-depth --gamma A/B --sigma2 Q --budget C --epsilon E --delta D --depth H "
         "[--upper-priors N] [--lower-priors N] [--radius L] [--source-scale S] [-o FILE] [--quiet]")


def add_arguments(parser):
    group = add_model_question(parser)
    group.add_argument("--depth", required=True, metavar="H", help="the depth claimed minimal (2 <= H <= C)")
    add_model_numerics(parser)
    add_output_arguments(parser)


def run(args):
    certificate = api.minimum_depth(args.gamma, args.sigma2, args.budget, args.epsilon, args.delta, args.depth,
                                    upper_priors=args.upper_priors, lower_priors=args.lower_priors,
                                    radius=args.radius, scale=args.source_scale, progress=progress_of(args))
    return finish(args, certificate)
