"""``producer bracket LOWER UPPER``: a two-sided bracket of ε*_C(δ) from two certificates."""

import json

from producer import api
from producer.commands.common import add_output_arguments, say
from producer.output import write_output

LOWER_KINDS = "calibration-lower/1, calibration/1 or epsilon-bracket/1"
UPPER_KINDS = "calibration/1, hierarchy/1 or epsilon-bracket/1"
HELP = (f"the two-sided bracket lo ≤ ε*_C(δ) ≤ hi from a lower-end certificate ({LOWER_KINDS}) and an upper-end "
        f"one ({UPPER_KINDS}) for the same γ, σ², C, δ, read from each certificate's input (a certificate whose "
        "result disagrees with its input is refused); it combines, it does not prove: verify both with the "
        "auditor")


def add_arguments(parser):
    parser.add_argument("lower", metavar="LOWER",
                        help=f"certificate with the lower end ({LOWER_KINDS})")
    parser.add_argument("upper", metavar="UPPER", help=f"certificate with the upper end ({UPPER_KINDS})")
    parser.add_argument("--json", action="store_true",
                        help="print the bracket as JSON (exact rationals) instead of a line")
    add_output_arguments(parser, what="the bracket (the line, or JSON with --json)")


def run(args):
    result = api.bracket(args.lower, args.upper)
    if args.json:
        text = json.dumps(result.as_dict(), sort_keys=True)
    else:
        text = result.line()
    write_output((text + "\n").encode("utf-8"), args.output)
    if args.json or args.output not in (None, "-"):
        say(args, result.line())  # the line itself is not already on standard output
    return 0
