"""``producer game``: exact values of the finite-law game as a certificate."""

import sys

from producer.certificates.canonical import write_certificate
from producer.certificates.finite_game import build
from producer.errors import InputError
from producer.laws import FiniteLaw, Gamma
from producer.game.api import METHODS
from producer.rationals import parse_integer, parse_rational

HELP = "exact G_C (or F_C at a pending state) of a finite law: a finite-game certificate"


def add_arguments(p):
    p.add_argument("--gamma", required=True, metavar="A/B", help="rounding coefficient γ = a/B, reduced")
    p.add_argument("--weights", required=True, metavar="W1,W2,...", help="nonnegative integer weights")
    p.add_argument("--offset", metavar="O", help="support point of the first weight (default −(len−1)//2)")
    p.add_argument("--budget", required=True, metavar="C", help="participations (left, with --pending)")
    p.add_argument("--threshold", action="append", default=[], metavar="L", help="query (x, y) = (1, L); repeatable")
    p.add_argument("--point", action="append", default=[], metavar="X,Y", help="query (X, Y); repeatable")
    p.add_argument("--pending", metavar="KP,KQ", help="evaluate F_C((KP, KQ); x, y) instead of G_C")
    p.add_argument("--curve", action="store_true", help="include the root's whole testing curve")
    p.add_argument("--method", choices=METHODS,
                   help="root method: all B^C pure roots, the support reduction (symmetric laws, C <= 2) "
                        "or the closed carry-cell cover; default: the smallest proved one")
    p.add_argument("-o", "--output", metavar="FILE", help="write the certificate here (default stdout)")


def parse_point(text):
    parts = text.split(",")
    if len(parts) != 2:
        raise InputError(f"--point: {text!r} must be X,Y")
    x, y = (parse_rational(s, "--point") for s in parts)
    if x < 0 or y < 0:
        raise InputError(f"--point: {text!r} must have X >= 0 and Y >= 0")
    return x, y


def parse_threshold(text):
    value = parse_rational(text, "--threshold")
    if value < 0:
        raise InputError(f"--threshold: {text!r} must be >= 0")
    return value


def parse_pending(text):
    parts = text.split(",")
    if len(parts) != 2:
        raise InputError(f"--pending: {text!r} must be KP,KQ (two integers)")
    return tuple(parse_integer(s.strip(), "--pending") for s in parts)


def run(args):
    gamma = Gamma.from_string(args.gamma)
    offset = None if args.offset is None else parse_integer(args.offset, "--offset")
    law = FiniteLaw.from_strings(args.weights, offset)
    budget = parse_integer(args.budget, "--budget")
    thresholds = [parse_threshold(t) for t in args.threshold]
    points = [parse_point(p) for p in args.point]
    pending = None if args.pending is None else parse_pending(args.pending)
    if not thresholds and not points and not args.curve:
        raise InputError("nothing to compute: give --threshold, --point or --curve")
    progress = (lambda msg: print(f"producer game: {msg}", file=sys.stderr)) \
        if len(thresholds) + len(points) > 3 else None
    cert = build(law, gamma, budget, thresholds, points, pending, args.curve, progress, args.method)
    write_certificate(cert, args.output)
    return 0
