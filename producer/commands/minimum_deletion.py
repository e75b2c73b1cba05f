"""``producer minimum-deletion``: the minimum number of cuts removed from S_all for the cut-game model to
certify δ at ε (minimum-deletion/1)."""

from producer import api
from producer.commands.common import add_model_numerics, add_model_question, add_output_arguments, finish, progress_of

HELP = ("how many cuts must be removed from S_all before the cut-game model certifies δ at ε: a proof-function "
        "lower above δ and a certified upper below it (statements about the models)")
DESCRIPTION = (f"{HELP} (minimum-deletion/1).  The upper end is the sampled recursion of hierarchy/1 for "
               "S_all minus the removed cuts; every model with one cut fewer removed gets a proof-function lower "
               "(whole feasible event pairs, a lower end of the model's capacity, not an attack on the "
               "mechanism).  Limits: those of producer hierarchy, at most 20,000 priors per side, "
               "branches × priors <= 10^8 per lower model, at most 8 lower models.")
USAGE = ("producer minimum-deletion --gamma A/B --sigma2 Q --budget C --epsilon E --delta D [--remove 1] "
         "[--upper-priors N] [--lower-priors N] [--radius L] [--source-scale S] [-o FILE] [--quiet]")


def add_arguments(parser):
    group = add_model_question(parser)
    group.add_argument("--remove", default="1", metavar="B,...",
                       help="cuts removed from S_all = {0..C−2} for the certified upper (default 1)")
    add_model_numerics(parser)
    add_output_arguments(parser)


def run(args):
    certificate = api.minimum_deletion(args.gamma, args.sigma2, args.budget, args.epsilon, args.delta,
                                       remove=args.remove, upper_priors=args.upper_priors,
                                       lower_priors=args.lower_priors, radius=args.radius,
                                       scale=args.source_scale, progress=progress_of(args))
    return finish(args, certificate)
