"""``producer game``: exact values of the finite-law game as a certificate."""

from producer import api
from producer.commands.common import GAME_MAX_BUDGET, GAMMA_HELP, PAPER, add_output_arguments, finish, progress_of
from producer.game.values import METHODS

HELP = ("exact G_C (or F_C at a pending state) of the hidden integer feedback mechanism with a finite "
        "innovation law (finite-game/1)")
DESCRIPTION = (f"{HELP}.  G_C(x, y) is the value of the C-participation testing game of '{PAPER}' "
               "for the law ν(z) = w_z / Σw on z = O, O+1, ...; at x = 1, y = L its hockey-stick "
               "G_C(1, L) − L is also reported.  Give at least one --threshold, --point or --curve.")


def add_arguments(p):
    p.add_argument("--gamma", required=True, metavar="A/B", help=GAMMA_HELP)
    p.add_argument("--weights", required=True, metavar="W1,W2,...",
                   help="nonnegative integer weights of the innovation law, comma-separated")
    p.add_argument("--offset", metavar="O", help="support point of the first weight (default −(len−1)//2)")
    p.add_argument("--budget", required=True, metavar="C",
                   help=f"C: participations (those left, with --pending), an integer 0 <= C <= {GAME_MAX_BUDGET} "
                        f"(the exact game's limit)")
    p.add_argument("--threshold", action="append", default=[], metavar="L",
                   help="query (x, y) = (1, L), L >= 0; repeatable")
    p.add_argument("--point", action="append", default=[], metavar="X,Y",
                   help="query (X, Y), X, Y >= 0; repeatable")
    p.add_argument("--pending", metavar="KP,KQ", help="evaluate F_C((KP, KQ); x, y) instead of G_C")
    p.add_argument("--curve", action="store_true", help="include the root's whole testing curve")
    p.add_argument("--method", choices=METHODS,
                   help="root method: all B^C pure roots, the support reduction (symmetric laws, C <= 2) "
                        "or the closed carry-cell cover; default: the smallest proved one")
    add_output_arguments(p)


def run(args):
    cert = api.finite_game(args.gamma, args.weights, args.budget, offset=args.offset,
                           thresholds=args.threshold, points=args.point, pending=args.pending,
                           curve=args.curve, method=args.method, progress=progress_of(args))
    return finish(args, cert)
