"""``producer bracket LOWER UPPER``: a two-sided bracket of ε*_C(δ) from two certificates."""

import json
import sys

from producer.brackets import bracket, read_certificate

HELP = ("the two-sided bracket lo ≤ ε*_C(δ) ≤ hi from a lower-end certificate (calibration-lower/1 or "
        "calibration/1) and an upper-end one (calibration/1 or hierarchy/1) for the same γ, σ², C, δ; "
        "it combines, it does not prove: verify both with the auditor")


def add_arguments(parser):
    parser.add_argument("lower", metavar="LOWER", help="certificate with the lower end (calibration-lower/1 or calibration/1)")
    parser.add_argument("upper", metavar="UPPER", help="certificate with the upper end (calibration/1 or hierarchy/1)")
    parser.add_argument("--json", action="store_true", help="print the bracket as JSON (exact rationals) instead of a line")


def run(args):
    result = bracket(read_certificate(args.lower), read_certificate(args.upper))
    if args.json:
        json.dump(result.as_dict(), sys.stdout, sort_keys=True)
        print()
    else:
        print(result.line())
    return 0
