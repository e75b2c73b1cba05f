"""``producer rate``: the participation rate a* ∈ [lower, upper] and the disclosed rate ρ (rate/1)."""

from producer import api
from producer.commands.common import GAMMA_HELP, add_output_arguments, finish, progress_of

HELP = "the participation rate a* (ε*_C(δ) = C·a* + O(√C)) with certified ends, and the disclosed rate ρ (rate/1)"
DESCRIPTION = (f"{HELP}.  The upper end is a period-N Bellman certificate (the exact dual of an occupation LP "
               "over the residues mod B·N); at γ = 1/2 the lower end is the descent program's Poisson "
               "certificate, otherwise it is absent (stated in the certificate).  ρ = (1 + 3γ)/(2σ²) is the rate "
               "when each rounding draw is published.  Limits: 0 < γ < 1 with 6B + 2 <= 1000, σ² in "
               "[1/100, 10^4], N = B^m with 6BN + 2N <= 1000.")
USAGE = "producer rate --gamma A/B --sigma2 Q [--period N] [-o FILE] [--quiet]"


def add_arguments(parser):
    group = parser.add_argument_group("mechanism")
    group.add_argument("--gamma", required=True, metavar="A/B", help=GAMMA_HELP.split(", or 0")[0])
    group.add_argument("--sigma2", required=True, metavar="Q",
                       help="variance parameter σ² of the discrete-Gaussian innovations (σ = 1 is --sigma2 1)")
    group.add_argument("--period", metavar="N",
                       help="period N = B^m of the upper certificate (default: the largest B^m <= 32 within "
                            "the size limit; 32 at γ = 1/2)")
    add_output_arguments(parser)


def run(args):
    return finish(args, api.rate(args.gamma, args.sigma2, period=args.period, progress=progress_of(args)))
