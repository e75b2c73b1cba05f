"""``producer separation``: certified strict separations (separation/1) at the published parameters."""

from producer import api
from producer.commands.common import add_output_arguments, finish
from producer.kinds.separation import PUBLISHED_CLAIMS

HELP = ("a certified lower end strictly above a certified upper end: relaxations, offset event, binary pair, "
        "Rényi cover (separation)")


def add_arguments(parser):
    parser.add_argument("--claim", required=True, choices=PUBLISHED_CLAIMS,
                        help="which separation (dg-relaxation:one-digit / dg-relaxation:offset name the relaxation)")
    parser.add_argument("--separator", metavar="S",
                        help="override the separator s (rational), where the claim has one")
    add_output_arguments(parser)


def run(args):
    return finish(args, api.separation(args.claim, separator=args.separator))
