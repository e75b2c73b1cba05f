"""``producer envelope``: certify the pure-DP query-release envelope on a small instance."""

import json

from producer import api
from producer.commands.common import add_output_arguments, finish, progress_of, say
from producer.envelope.instance import VARIANTS
from producer.errors import InputError
from producer.input_files import read_limited
from producer.kinds.envelope import query_rows
from producer.output import write_output

ENVELOPE_PAPER = "Pure-DP Statistical Query Release at the Conjectured Square-Root Rate"
HELP = "exact certificate for the selection-only PMW envelope mechanism on a small instance (envelope/1)"
DESCRIPTION = (f"{HELP}, after '{ENVELOPE_PAPER}': pure ε-DP of the envelope, the normaliser bounds and "
               "the expected-error bound, each proved, refuted or unresolved.")
MAX_QUERY_FILE_BYTES = 16 * 2**20


def add_instance_arguments(parser):
    """Arguments shared by ``envelope`` and ``envelope-sample``."""
    parser.add_argument("--universe", required=True, metavar="T", help="universe size T (records are 0..T-1)")
    parser.add_argument("--records", required=True, metavar="n", help="number of records n")
    parser.add_argument("--queries", required=True, metavar="FILE",
                        help='JSON {"queries": [[q(0), ..., q(T-1)], ...]} with rational strings in [0, 1]')
    parser.add_argument("--rounds", metavar="J", help="PMW rounds J (required unless --propose)")
    parser.add_argument("--hedge", metavar="G", help="Hedge step γ, rational (required unless --propose)")
    parser.add_argument("--select", metavar="H",
                        help="selection parameter η, rational (required unless --propose)")
    parser.add_argument("--epsilon", required=True, metavar="E", help="privacy parameter ε (rational)")
    parser.add_argument("--variant", choices=VARIANTS, default="selection",
                        help="selection (the paper's main mechanism) or sign (uniform query, private sign)")
    parser.add_argument("--precision", metavar="BITS",
                        help="enclosure precision in bits, 8..4096 (default: 128, raised to 256, 512 "
                             "while a claim is unresolved)")


def add_arguments(parser):
    add_instance_arguments(parser)
    parser.add_argument("--propose", metavar="ALPHA",
                        help="print the paper's parameters (γ, J, η) for target error ALPHA and the "
                             "enumeration size as JSON, then exit (uses --universe, --records, --epsilon "
                             "and the query count of --queries)")
    add_output_arguments(parser)


def read_queries(path):
    """The query file's text (bounded in size)."""
    data = read_limited(path, MAX_QUERY_FILE_BYTES, "queries")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError(f"queries: {path} is not UTF-8 text") from None


def instance_fields(args):
    """The positional fields of api.envelope from the arguments."""
    for name in ("rounds", "hedge", "select"):
        if getattr(args, name) is None:
            raise InputError(f"--{name}: required (or use --propose ALPHA to get the paper's values)")
    return (args.universe, args.records, read_queries(args.queries), args.rounds, args.hedge, args.select,
            args.epsilon)


def propose(args):
    count = len(query_rows(read_queries(args.queries)))
    proposal = api.pmw_parameters(args.universe, args.records, count, args.epsilon, args.propose)
    write_output((json.dumps(proposal, indent=2, sort_keys=True) + "\n").encode("utf-8"), args.output)
    say(args, f"proposed for target error {args.propose}: γ = {proposal['hedge']}, J = {proposal['rounds']}, "
              f"η = {proposal['select']} (T = {args.universe}, n = {args.records}, k = {count}, "
              f"ε = {args.epsilon})")
    return 0


def run(args):
    if args.propose is not None:
        return propose(args)
    cert = api.pmw_envelope(*instance_fields(args), variant=args.variant, precision=args.precision,
                            progress=progress_of(args))
    return finish(args, cert)
