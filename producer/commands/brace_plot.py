"""``producer brace-plot``: Figure-1 style PNGs from a brace-compare certificate."""

import json
import sys

from producer.errors import InputError

HELP = "draw trajectory and error PNGs from a brace-compare certificate (needs matplotlib)"


def add_arguments(p):
    p.add_argument("--compare", required=True, metavar="FILE", help="a brace-compare certificate")
    p.add_argument("--trajectories", required=True, metavar="PNG", help="output: trajectories over the bank")
    p.add_argument("--errors", required=True, metavar="PNG", help="output: per-step squared error")


def run(args):
    try:
        with open(args.compare, encoding="utf-8") as fh:
            cert = json.load(fh)
    except (OSError, ValueError) as exc:
        raise InputError(f"compare: cannot read {args.compare}: {exc}") from None
    if cert.get("schema") != "brace-compare/1":
        raise InputError(f"compare: {args.compare} is not a brace-compare/1 certificate")
    try:
        from producer.brace import plots
        plots.plot_trajectories(cert, args.trajectories)
        plots.plot_errors(cert, args.errors)
    except ImportError:
        raise InputError("brace-plot needs matplotlib: pip install '.[plots]'") from None
    print(f"brace-plot: wrote {args.trajectories} and {args.errors}", file=sys.stderr)
    return 0
