"""``producer window``: Φ(τ) to width <= 2^-b by the rational window algorithm (window-request/1)."""

from producer import api
from producer.commands.common import GAMMA_HELP, add_output_arguments, finish, progress_of

HELP = "Φ(τ) to a requested width 2^-b by the rational window algorithm of Theorem 11 (window-request/1)"
DESCRIPTION = (f"{HELP}.  The certificate stores the exact primal and dual of the window LP and the error "
               "terms; the radius follows from b and τ.  Limits: 1 <= b <= 64, τ in [1/1000, 1000], the "
               "recipe's radius <= 40, σ² in [1/100, 10^4].")
USAGE = "producer window --gamma A/B --sigma2 Q --tau T --bits b [-o FILE] [--quiet]"


def add_arguments(parser):
    group = parser.add_argument_group("request")
    group.add_argument("--gamma", required=True, metavar="A/B", help=GAMMA_HELP.split(", or 0")[0])
    group.add_argument("--sigma2", required=True, metavar="Q", help="variance parameter σ² of the innovations")
    group.add_argument("--tau", required=True, metavar="T", help="deadline ratio τ = T/C (a rational > 0)")
    group.add_argument("--bits", required=True, metavar="b", help="precision: the interval is narrower than 2^-b")
    add_output_arguments(parser)


def run(args):
    return finish(args, api.window_request(args.gamma, args.sigma2, args.tau, args.bits,
                                           progress=progress_of(args)))
