"""``producer brace-plot``: Figure-1 style PNGs from a brace-compare certificate."""

from producer import json_input
from producer.commands.common import say
from producer.errors import InputError
from producer.input_files import read_limited

HELP = "draw trajectory and error PNGs from a brace-compare certificate (needs matplotlib)"
MAX_CERTIFICATE_BYTES = 256 * 2**20
OUTPUT_FILES = ("trajectories", "errors")  # checked by producer.cli before drawing


def add_arguments(p):
    p.add_argument("--compare", required=True, metavar="FILE", help="a brace-compare certificate")
    p.add_argument("--trajectories", required=True, metavar="PNG", help="output: trajectories over the bank")
    p.add_argument("--errors", required=True, metavar="PNG", help="output: per-step squared error")
    p.add_argument("--quiet", action="store_true", help="no line on stderr")


def read_certificate(path):
    data = read_limited(path, MAX_CERTIFICATE_BYTES, "compare")
    try:
        cert = json_input.loads(data)
    except json_input.JSONInputError as exc:
        raise InputError(f"compare: {path} is not a certificate: it {exc}") from None
    except ValueError:
        raise InputError(f"compare: {path} is not JSON") from None
    if not isinstance(cert, dict) or cert.get("schema") != "brace-compare/1":
        raise InputError(f"compare: {path} is not a brace-compare/1 certificate")
    return cert


def run(args):
    cert = read_certificate(args.compare)
    try:
        from producer.brace import plots
    except ImportError:
        raise InputError("brace-plot needs matplotlib: pip install '.[plots]'") from None
    for path, draw in ((args.trajectories, plots.plot_trajectories), (args.errors, plots.plot_errors)):
        try:
            draw(cert, path)
        except ImportError:
            raise InputError("brace-plot needs matplotlib: pip install '.[plots]'") from None
        except OSError as exc:
            raise InputError(f"output: cannot write {path}: {exc.strerror or exc}") from None
    say(args, f"brace-plot: wrote {args.trajectories} and {args.errors}")
    return 0
