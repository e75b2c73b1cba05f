"""``producer workload``: the static-workload matrix-mechanism bound and the G.6 identity (workload/1)."""

from producer.certificates.canonical import write_certificate
from producer.errors import InputError
from producer.lower.workload import PUBLISHED_IDENTITY_CASES, WorkloadRequest, build
from producer.rationals import parse_integer, parse_rational

HELP = "δ(ε) upper bound of the matrix program A = dI + eJ with finite DG draws, and G.6 identity checks (workload)"


def add_arguments(parser):
    parser.add_argument("--dimension", default="100", help="n: records / strategy coordinates (default 100)")
    parser.add_argument("--diagonal", default="15", help="d in A = d·I + e·J (default 15)")
    parser.add_argument("--ones", default="1", help="e in A = d·I + e·J (default 1)")
    parser.add_argument("--sigma2", default="1444", help="σ² of each DG draw (default 1444 = 38²)")
    parser.add_argument("--scale", default="8589934592", help="S of the finite source (default 2^33)")
    parser.add_argument("--epsilon", default="2", help="ε (default 2)")
    parser.add_argument("--theta", default="6", help="θ of the moment bound (default 6)")
    parser.add_argument("--no-identity", action="store_true", help="omit the G.6 identity checks")
    parser.add_argument("-o", "--output", help="write the certificate here (default stdout)")


def run(args):
    scale = parse_rational(args.scale, "scale")
    if scale.denominator != 1:
        raise InputError(f"scale: {args.scale!r} is not an integer")
    request = WorkloadRequest(
        parse_integer(args.dimension, "dimension"), parse_integer(args.diagonal, "diagonal"),
        parse_integer(args.ones, "ones"), parse_rational(args.sigma2, "sigma2"), scale.numerator,
        parse_rational(args.epsilon, "epsilon"), parse_integer(args.theta, "theta"),
        [] if args.no_identity else PUBLISHED_IDENTITY_CASES)
    write_certificate(build(request), args.output)
    return 0
