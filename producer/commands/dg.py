"""``producer dg``: a certified interval for Δ*_C(ε), the hockey-stick profile of the
hidden integer feedback mechanism with discrete-Gaussian innovations."""

from producer import api
from producer.commands.common import (PAPER, add_epsilon_argument, add_mechanism_arguments, add_output_arguments,
                                      finish, progress_of)
from producer.errors import InputError

HELP = ("certified interval for Δ*_C(ε): the hockey-stick profile of the hidden integer feedback "
        "mechanism with discrete-Gaussian innovations (dg-interval/1)")
DESCRIPTION = (f"{HELP}.  Δ*_C(ε) is the worst-case hockey-stick divergence at e^ε over C "
               f"participations of the mechanism of '{PAPER}', with feedback coefficient γ and "
               "discrete-Gaussian innovations of parameter σ² (or discrete-Laplace ones with --laplace T); "
               "with γ > 0 it is not plain discrete-Gaussian composition, with --gamma 0 it is exactly the "
               "adaptive C-fold composition.  The interval comes from an exact finite game on a truncated source "
               "plus a proved transfer bound.")
USAGE = ("producer dg [--gamma A/B] (--sigma2 Q | --laplace T) --budget C --epsilon E "
         "(--width W | --radius L --scale S) [--method M] [-o FILE] [--quiet]")
SOURCE_FORMS = "give --width W, or --radius L with --scale S"


def add_arguments(parser):
    add_mechanism_arguments(parser)
    add_epsilon_argument(parser, "ε >= 0 where Δ*_C is evaluated, read exactly (e.g. 2 or 4.91)", required=True,
                         several="`producer sweep --epsilons` certifies several")
    source = parser.add_argument_group(f"finite source ({SOURCE_FORMS})")
    forms = source.add_mutually_exclusive_group()
    forms.add_argument("--width", metavar="W",
                       help="the interval must be narrower than W; the source is chosen for it")
    forms.add_argument("--radius", metavar="L",
                       help="explicit source on [−L, L]; needs --scale")
    source.add_argument("--scale", metavar="S",
                        help="integer total weight of the explicit source; needs --radius")
    add_output_arguments(parser)


def check_source_arguments(args):
    """Exactly one of --width W and --radius L --scale S (argparse refuses --width with --radius)."""
    if args.width is not None and args.scale is not None:
        raise InputError(f"--scale goes with --radius, not with --width: {SOURCE_FORMS}")
    if args.width is None and args.radius is None:
        raise InputError(f"no finite source: {SOURCE_FORMS}")
    if args.radius is not None and args.scale is None:
        raise InputError(f"--radius needs --scale: {SOURCE_FORMS}")


def certificate_from_args(args):
    check_source_arguments(args)
    return api.dg_interval(args.gamma, args.sigma2, args.budget, args.epsilon, width=args.width,
                           radius=args.radius, scale=args.scale, method=args.method,
                           progress=progress_of(args), laplace=args.laplace)


def run(args):
    return finish(args, certificate_from_args(args))
