"""``producer calibrate``: a certified enclosure of ε*_C(δ), the smallest ε with Δ*_C(ε) <= δ."""

from producer import api
from producer.commands.common import PAPER, add_mechanism_arguments, add_output_arguments, finish, progress_of

HELP = ("certified enclosure [ε_lo, ε_hi] of the smallest ε with Δ*_C(ε) <= δ, for the hidden integer "
        "feedback mechanism with discrete-Gaussian (or discrete-Laplace) innovations; γ = 0 is plain "
        "composition (calibration/1)")
DESCRIPTION = (f"{HELP}.  Answers 'what ε at δ for C participations?' for the mechanism of "
               f"'{PAPER}'.  The certificate carries the two dg-interval certificates that prove "
               "Δ*_C(ε_lo) > δ and Δ*_C(ε_hi) <= δ.")


def add_arguments(parser):
    add_mechanism_arguments(parser)
    parser.add_argument("--delta", required=True, metavar="D", help="δ in (0, 1), read exactly (e.g. 1e-6)")
    parser.add_argument("--width", metavar="Z",
                        help="the enclosure must be narrower than Z (default 1e-6)")
    add_output_arguments(parser)


def run(args):
    return finish(args, api.calibration(args.gamma, args.sigma2, args.budget, args.delta, width=args.width,
                                        method=args.method, progress=progress_of(args),
                                        laplace=args.laplace))
