"""``producer finite-budget``: ε*_{C,T}(δ) <= ε at any budget C (finite-budget/1)."""

from producer import api
from producer.kinds.finite_budget import MAX_STEPS
from producer.commands.common import GAMMA_HELP, add_output_arguments, power_of_ten, finish, progress_of

HELP = ("an upper bound on ε*_{C,T}(δ) for C participations within T steps, at any C, by the window "
        "potential bound (finite-budget/1)")
DESCRIPTION = (f"{HELP}.  The bound is u·C + b0·T + B_h + sqrt(2T·κ(h)·log(1/p)) from an embedded Bellman "
               "certificate of the window model.  Limits: 1 <= C, T <= 10^15, δ in (0, 1), radius M <= 32 "
               "with the window-exit probability below δ, σ² in [1/100, 10^4].")
USAGE = ("producer finite-budget --gamma A/B --sigma2 Q --budget C --deadline T --delta D [--radius M] "
         "[-o FILE] [--quiet]")


def add_arguments(parser):
    group = parser.add_argument_group("mechanism")
    group.add_argument("--gamma", required=True, metavar="A/B", help=GAMMA_HELP.split(", or 0")[0])
    group.add_argument("--sigma2", required=True, metavar="Q", help="variance parameter σ² of the innovations")
    group.add_argument("--budget", required=True, metavar="C",
                       help=f"C: the number of participations, any integer 1 <= C <= {power_of_ten(MAX_STEPS)} (the "
                            "window bound holds at every C)")
    group.add_argument("--deadline", required=True, metavar="T", help="T: the number of released steps")
    group.add_argument("--delta", required=True, metavar="D", help="δ in (0, 1), e.g. 1e-4")
    group.add_argument("--radius", metavar="M", help="window radius M (default 12; at most 32)")
    add_output_arguments(parser)


def run(args):
    return finish(args, api.finite_budget(args.gamma, args.sigma2, args.budget, args.deadline, args.delta,
                                          radius=args.radius, progress=progress_of(args)))
