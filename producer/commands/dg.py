"""``producer dg``: a certified interval for the discrete-Gaussian value Δ*_C(ε)."""

from producer.certificates.canonical import write_certificate
from producer.certificates.dg_interval import DgRequest, build
from producer.game.api import METHODS
from producer.rationals import parse_integer, parse_rational

HELP = "certified interval for the discrete-Gaussian hockey-stick value Δ*_C(ε) (dg-interval)"


def add_arguments(parser):
    parser.add_argument("--gamma", required=True, help="γ = A/B, reduced, 0 < A < B")
    parser.add_argument("--sigma2", required=True, help="σ² of the discrete Gaussian (rational, e.g. 9 or 9/4)")
    parser.add_argument("--budget", required=True, help="C: number of participations")
    parser.add_argument("--epsilon", required=True, help="ε >= 0, read exactly (e.g. 2 or 4.91)")
    parser.add_argument("--radius", help="L: source support [−L, L] (with --scale)")
    parser.add_argument("--scale", help="S: integer total weight of the source (with --radius)")
    parser.add_argument("--width", help="W: choose L and S so that the interval is narrower than W")
    parser.add_argument("--method", choices=METHODS, help="finite-game method")
    parser.add_argument("-o", "--output", help="write the certificate here (default stdout)")
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")


def request_from_args(args):
    return DgRequest(
        args.gamma,
        parse_rational(args.sigma2, "sigma2"),
        parse_integer(args.budget, "budget"),
        parse_rational(args.epsilon, "epsilon"),
        radius=None if args.radius is None else parse_integer(args.radius, "radius"),
        scale=None if args.scale is None else parse_integer(args.scale, "scale"),
        width=None if args.width is None else parse_rational(args.width, "width"),
        method=args.method,
    )


def run(args):
    certificate = build(request_from_args(args), quiet=args.quiet)
    write_certificate(certificate, args.output)
    return 0
