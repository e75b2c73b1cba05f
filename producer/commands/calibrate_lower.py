"""``producer calibrate-lower``: ε*_C(δ) >= ε_lo from a witness line (calibration-lower/1)."""

import sys

from producer import api, brackets
from producer.commands.common import add_output_arguments, finish, progress_of
from producer.errors import InputError
from producer.kinds.calibration_lower import CLAIMS, MAX_TARGET_BUDGET

HELP = ("a certified lower end of ε*_C(δ) from a physical witness line: K.2 capped preparation or target-{0} lines "
        "(calibration-lower)")


def add_arguments(parser):
    parser.add_argument("--claim", required=True, choices=CLAIMS,
                        help="capped-preparation: the fixed K.2 program (γ = 1/2, σ² = 1, C = 4; only --delta "
                             "may change); target-zero: target-{0} line trees (C >= 8 takes minutes)")
    parser.add_argument("--budget", metavar="C",
                        help=f"C (target-zero; 1 <= C <= {MAX_TARGET_BUDGET}, default 8; capped-preparation is C = 4)")
    parser.add_argument("--delta", metavar="δ", help="δ in (0, 1) (default 1e-4)")
    parser.add_argument("--sigma2", metavar="Q", help="σ² (target-zero; default 9)")
    parser.add_argument("--gamma", metavar="A/B", help="γ = A/B (target-zero; default 1/3)")
    parser.add_argument("--radius", metavar="L", help="source radius L (target-zero; default 28)")
    parser.add_argument("--scale", metavar="S", help="source scale S, an integer or 2^k (target-zero; default 2^60)")
    parser.add_argument("--priors", metavar="N", help="number of grid priors (target-zero; default 4001)")
    parser.add_argument("--bracket", metavar="UPPER_JSON",
                        help="a calibration/1 or hierarchy/1 certificate for the same (γ, σ², C, δ): also print "
                             "the two-sided bracket (witness lower end, its upper end) on stderr, even with --quiet")
    add_output_arguments(parser)


def run(args):
    upper = None
    if args.bracket is not None:  # read and check it before the (possibly long) computation
        upper = brackets.read_certificate(args.bracket)
        brackets.upper_end(upper, f"--bracket {args.bracket}")
    certificate = api.calibration_lower(args.claim, delta=args.delta, budget=args.budget, sigma2=args.sigma2,
                                        gamma=args.gamma, radius=args.radius, scale=args.scale,
                                        priors=args.priors, progress=progress_of(args))
    both = None
    if upper is not None:
        try:
            both = brackets.bracket(certificate.as_dict(), upper)
        except InputError as exc:
            raise InputError(f"--bracket {args.bracket}: {exc}") from None
    status = finish(args, certificate)
    if both is not None and sys.stderr is not None:  # asked for explicitly: shown even with --quiet
        print(f"calibrate-lower: bracket: {both.line()}", file=sys.stderr, flush=True)
    return status
