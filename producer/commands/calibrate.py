"""``producer calibrate``: a certified enclosure of ε*_C(δ) for the discrete Gaussian."""

from producer.certificates.calibration import CalibrationRequest, build
from producer.certificates.canonical import write_certificate
from producer.game.api import METHODS
from producer.rationals import parse_integer, parse_rational

HELP = "certified enclosure [ε_lo, ε_hi] of the smallest ε with Δ*_C(ε) <= δ (calibration)"


def add_arguments(parser):
    parser.add_argument("--gamma", required=True, help="γ = A/B, reduced, 0 < A < B")
    parser.add_argument("--sigma2", required=True, help="σ² of the discrete Gaussian (rational)")
    parser.add_argument("--budget", required=True, help="C: number of participations")
    parser.add_argument("--delta", required=True, help="δ in (0, 1), read exactly (e.g. 1e-4)")
    parser.add_argument("--width", help="ζ: the enclosure must be narrower than this (default 1e-6)")
    parser.add_argument("--method", choices=METHODS, help="finite-game method")
    parser.add_argument("-o", "--output", help="write the certificate here (default stdout)")
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")


def run(args):
    request = CalibrationRequest(
        args.gamma,
        parse_rational(args.sigma2, "sigma2"),
        parse_integer(args.budget, "budget"),
        parse_rational(args.delta, "delta"),
        width=None if args.width is None else parse_rational(args.width, "width"),
        method=args.method,
    )
    write_certificate(build(request, quiet=args.quiet), args.output)
    return 0
