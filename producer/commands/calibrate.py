"""``producer calibrate``: a certified enclosure of ε*_C(δ), the smallest ε with Δ*_C(ε) <= δ, at any budget."""

from producer import api
from producer.errors import InputError
from producer.commands.common import PAPER, add_mechanism_arguments, add_output_arguments, finish, progress_of
from producer.game.work import MAX_BUDGET as GAME_MAX_BUDGET
from producer.kinds.calibration_lower import MAX_TARGET_BUDGET
from producer.kinds.plain_composition import MAX_BUDGET as PLAIN_MAX_BUDGET

HELP = ("certified enclosure [ε_lo, ε_hi] of the smallest ε with Δ*_C(ε) <= δ, for the hidden integer "
        "feedback mechanism with discrete-Gaussian (or discrete-Laplace) innovations; γ = 0 is plain "
        "composition; the route is chosen by the request and named on the answer line")
DESCRIPTION = (f"{HELP}.  Answers 'what ε at δ for C participations?' for the mechanism of "
               f"'{PAPER}'.  Routes: γ = 0 (no --method): product-pair, an epsilon-bracket/1 certificate "
               f"holding two plain-composition certificates at ε_lo and ε_hi (1 <= C <= {PLAIN_MAX_BUDGET}); "
               f"γ > 0 within the exact game's reach (C <= {GAME_MAX_BUDGET} and the auditor's work limits) or an "
               "explicit --method: the game, a calibration/1 certificate carrying the two dg-interval "
               "certificates that prove Δ*_C(ε_lo) > δ and Δ*_C(ε_hi) <= δ; γ > 0 beyond it (discrete "
               "Gaussian): hierarchy-witness, an epsilon-bracket/1 certificate holding a hierarchy/1 upper end "
               "(proof depth H chosen: the deepest of 4..1 within its work) and a calibration-lower/1 "
               f"target-zero lower end (C <= {MAX_TARGET_BUDGET}; beyond, the lower end is absent and the "
               "certificate says why); its width is what the two constructions give, and it takes about 25 s "
               "at C = 8, minutes at C = 32 and 64 (whose checks need the auditor's opt-in `auditor verify "
               "--budget 2` and `--budget 4`: a certificate beyond the auditor's default budget of one file is "
               "followed by a line saying which).  With --release (γ = 0 only) the question is a plain "
               "composition of different releases (discrete Gaussian and discrete Laplace, integer "
               "sensitivities), answered by the product pair (epsilon-bracket/1 in its releases form, total "
               f"C <= {PLAIN_MAX_BUDGET}).")
BUDGET_HELP = (f"C: the number of participations, an integer: 1 <= C <= {PLAIN_MAX_BUDGET} at γ = 0 (the product "
               f"pair); at γ > 0, 0 <= C <= {GAME_MAX_BUDGET} by the exact game and any larger C by the "
               f"hierarchy, with a target-zero lower end up to C = {MAX_TARGET_BUDGET} (beyond, the upper end "
               "alone, within the hierarchy's work limits, checked before its tables are solved)")


def add_arguments(parser):
    add_mechanism_arguments(parser, releases=True, budget_help=BUDGET_HELP)
    parser.add_argument("--delta", required=True, metavar="D", help="δ in (0, 1), read exactly (e.g. 1e-6)")
    parser.add_argument("--width", metavar="Z",
                        help="the enclosure must be at most Z wide (default 1e-6); refused on the "
                             "hierarchy-witness route, which cannot aim at a width")
    add_output_arguments(parser)


def _check_law(args):
    """--release states its own counts (no --budget); one law needs --budget."""
    if args.release is not None and args.budget is not None:
        raise InputError("argument --release: not allowed with --budget (a release states its law, scale and "
                         "count: dg:9x100)")
    if args.release is None and args.budget is None:
        raise InputError("argument --budget is required with --sigma2 or --laplace")


def run(args):
    _check_law(args)
    return finish(args, api.calibrate(args.gamma, args.sigma2, args.budget, args.delta, width=args.width,
                                      method=args.method, progress=progress_of(args), laplace=args.laplace,
                                      releases=args.release))
