"""``producer deadline``: finite-deadline physical lower witnesses (deadline-witness/1)."""

from producer.certificates.canonical import write_certificate
from producer.errors import InputError
from producer.lower.deadline_witness import FIXED, MAX_READING, DeadlineRequest, build
from producer.rationals import parse_integer, parse_rational

HELP = "lower bounds H_{e^ε}(P_T‖Q_T) >= LB_T of the physical DG program at deadlines T (deadline-witness)"


def add_arguments(parser):
    parser.add_argument("--gamma", required=True, help="γ = A/B, reduced, 0 < A < B")
    parser.add_argument("--sigma2", required=True, help="σ² of the discrete Gaussian (rational)")
    parser.add_argument("--epsilon", required=True, help="ε >= 0, read exactly")
    parser.add_argument("--radius", required=True, help="L: source support [−L, L]")
    parser.add_argument("--scale", required=True, help="S: integer total weight of the source (e.g. 10^24 as 1e24)")
    parser.add_argument("--threshold-denominator", default="1e30",
                        help="N: λ₋ = floor(N·e^ε)/N, λ₊ = λ₋ + 1/N (default 1e30)")
    parser.add_argument("--deadline", action="append", required=True, help="a horizon T (repeatable)")
    parser.add_argument("--reading", choices=["fixed", "max"], default="fixed",
                        help="fixed: suffix (+1,+1,echo); max: best of the four sign patterns per start state")
    parser.add_argument("--reference-upper", help="an upper bound of the all-horizon value, for ratio displays")
    parser.add_argument("-o", "--output", help="write the certificate here (default stdout)")
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")


def _integer(text, what):
    value = parse_rational(text, what)
    if value.denominator != 1:
        raise InputError(f"{what}: {text!r} is not an integer")
    return value.numerator


def run(args):
    request = DeadlineRequest(
        args.gamma, parse_rational(args.sigma2, "sigma2"), parse_rational(args.epsilon, "epsilon"),
        parse_integer(args.radius, "radius"), _integer(args.scale, "scale"),
        _integer(args.threshold_denominator, "threshold denominator"),
        FIXED if args.reading == "fixed" else MAX_READING,
        sorted(set(parse_integer(t, "deadline") for t in args.deadline)),
        None if args.reference_upper is None else parse_rational(args.reference_upper, "reference upper"),
    )
    write_certificate(build(request, quiet=args.quiet), args.output)
    return 0
