"""``producer envelope``: certify the pure-DP query-release envelope on a small instance."""

import json
import sys

from producer.certificates.canonical import write_certificate
from producer.envelope.certify import certify
from producer.envelope.instance import VARIANTS, Instance
from producer.envelope.parameters import propose
from producer.errors import InputError
from producer.rationals import parse_integer, parse_rational

HELP = "exact certificate for the selection-only PMW envelope mechanism (seed 003)"


def add_instance_arguments(parser):
    """Arguments shared by ``envelope`` and ``envelope-sample``."""
    parser.add_argument("--universe", required=True, metavar="T", help="universe size T")
    parser.add_argument("--records", required=True, metavar="n", help="number of records n")
    parser.add_argument("--queries", metavar="FILE",
                        help='JSON {"queries": [[q(0), ..., q(T-1)], ...]} with rational strings in [0, 1]')
    parser.add_argument("--rounds", metavar="J", help="PMW rounds J")
    parser.add_argument("--hedge", metavar="G", help="Hedge step gamma (rational)")
    parser.add_argument("--select", metavar="H", help="selection parameter eta (rational)")
    parser.add_argument("--epsilon", required=True, metavar="E", help="privacy parameter epsilon (rational)")
    parser.add_argument("--variant", choices=VARIANTS, default="selection",
                        help="selection (Thm 1.1) or sign (section 9: uniform query, private sign)")
    parser.add_argument("--precision", type=int, metavar="BITS",
                        help="enclosure precision in bits (default: 128, raised to 256, 512 while a claim is unresolved)")


def add_arguments(parser):
    add_instance_arguments(parser)
    parser.add_argument("--propose", metavar="ALPHA",
                        help="print the section 8 parameters (gamma, J, eta) for target error ALPHA and the "
                             "enumeration size, then exit (needs --universe, --records, --epsilon and the query count "
                             "from --queries)")
    parser.add_argument("-o", "--output", metavar="FILE", help="write the certificate here (default stdout)")


def read_queries(path):
    if path is None:
        raise InputError("--queries: a query file is required")
    try:
        with open(path, encoding="utf-8") as fh:
            return fh.read()
    except OSError as exc:
        raise InputError(f"--queries: cannot read {path}: {exc.strerror}") from None


def instance_from_args(args):
    for name in ("rounds", "hedge", "select"):
        if getattr(args, name) is None:
            raise InputError(f"--{name}: required (or use --propose ALPHA to get section 8 values)")
    return Instance.from_strings(args.universe, args.records, read_queries(args.queries), args.rounds,
                                 args.hedge, args.select, args.epsilon, args.variant)


def _check_precision(bits):
    if bits is not None and not 8 <= bits <= 4096:
        raise InputError(f"--precision: {bits} bits is outside 8..4096")


def run(args):
    _check_precision(args.precision)
    if args.propose is not None:
        k = len(json.loads(read_queries(args.queries)).get("queries", []))
        proposal = propose(parse_integer(args.universe, "--universe"), k,
                           parse_integer(args.records, "--records"),
                           parse_rational(args.epsilon, "--epsilon"), parse_rational(args.propose, "--propose"))
        json.dump(proposal, sys.stdout, indent=2, sort_keys=True)
        print()
        return 0
    cert = certify(instance_from_args(args), args.precision, progress=True)
    write_certificate(cert, args.output)
    return 0
