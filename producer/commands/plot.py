"""``producer plot``: a PNG of the testing curve of a finite-game/1 certificate."""


from producer import json_input
from producer.commands.common import say
from producer.errors import InputError
from producer.input_files import read_limited
from producer.output import write_file_atomic

HELP = "PNG of the testing curve in a finite-game/1 certificate written with --curve (needs matplotlib)"
DESCRIPTION = (f"{HELP}.  Draws the curve's exact vertices (A, B′) = (P(E), Q(Eᶜ)), the convex chain through "
               "them (read on the top and right axes 1 − A, 1 − B′: the trade-off curve), and for each "
               "queried threshold or point the supporting line of its value and the vertex it touches.  "
               "matplotlib is the optional extra 'plots'.")
USAGE = "producer plot CERT.json -o PNG [--quiet]"
MAX_CERTIFICATE_BYTES = 256 * 2**20
MATPLOTLIB_MISSING = "producer plot needs matplotlib: pip install 'dp-certify[plots]'"


def add_arguments(p):
    p.add_argument("certificate", metavar="CERT.json",
                   help="a finite-game/1 certificate made by 'producer game ... --curve' ('-': standard input)")
    group = p.add_argument_group("output")
    group.add_argument("-o", "--output", required=True, metavar="PNG", help="write the PNG to this file (atomically)")
    group.add_argument("--quiet", action="store_true", help="no answer line on stderr")


def _refuse_constant(name):
    raise ValueError(f"{name} is not strict JSON")


def read_certificate(path):
    """The parsed JSON of ``path`` ('-': standard input); InputError (one line) otherwise."""
    name = "standard input" if path == "-" else path
    data = read_limited(path, MAX_CERTIFICATE_BYTES, "certificate")
    try:
        return json_input.loads(data, parse_constant=_refuse_constant)
    except json_input.JSONInputError as exc:
        raise InputError(f"{name} is not a certificate: it {exc}") from None
    except ValueError:
        raise InputError(f"{name} is not JSON (a certificate is one JSON object)") from None


def run(args):
    from producer.curve_plot import curve_png, picture_of
    name = "standard input" if args.certificate == "-" else args.certificate
    picture = picture_of(read_certificate(args.certificate), name)
    try:
        png = curve_png(picture)
    except ImportError:
        raise InputError(MATPLOTLIB_MISSING) from None
    write_file_atomic(args.output, png)
    queries = len(picture.queries)
    say(args, f"plot: testing curve with {len(picture.vertices)} vertices and {queries} "
              f"quer{'y' if queries == 1 else 'ies'} from {name} drawn in {args.output}")
    return 0
