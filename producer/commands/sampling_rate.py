"""``producer sampling-rate``: the largest DP-SGD sampling rate a target (ε, δ) allows (dpsgd-calibration/1)."""

from producer import api
from producer.kinds.dpsgd import NOISE_RANGE, STEPS_LIMIT
from producer.commands.common import add_epsilon_argument, add_output_arguments, finish, progress_of
from producer.commands.training import DPSGD_LIMITS

HELP = ("the largest DP-SGD sampling rate q on a relative grid of step R (capped at 1) at which T steps at noise "
        "multiplier σ are (ε, δ)-DP, with q_a, q < q_a <= min(1, q·(1 + R)), certified not to be "
        "(dpsgd-calibration/1)")
DESCRIPTION = (f"{HELP}.  The steps are given as a count T (Poisson sampling with rate q each step; in training "
               "terms q is B/N under TF Privacy's counting and 1/⌈N/B⌉ under Opacus's, so a batch size follows "
               f"from q only with the dataset size).  The grid points are short decimals (R = 1/1000: four "
               f"significant digits).  {DPSGD_LIMITS}")
USAGE = ("producer sampling-rate --epsilon E --delta D --noise-multiplier S --steps T [--precision R] [-o FILE] "
         "[--quiet]")


def add_arguments(parser):
    target = parser.add_argument_group("target")
    add_epsilon_argument(target, "the target ε >= 0 (at most 500)", required=True)
    target.add_argument("--delta", required=True, metavar="D", help="the target δ, 10^-30 <= D < 1")
    run = parser.add_argument_group("the run")
    run.add_argument("--noise-multiplier", required=True, metavar="S",
                     help=f"noise multiplier σ in {NOISE_RANGE}: the noise is N(0, σ²) for sensitivity 1")
    run.add_argument("--steps", required=True, metavar="T", help=f"DP-SGD steps T, 1 <= T <= {STEPS_LIMIT}")
    run.add_argument("--precision", metavar="R",
                     help="relative grid step: q < q_a <= q·(1 + R), 10^-6 <= R < 1 (default 1/1000)")
    add_output_arguments(parser)


def run(args):
    cert = api.dpsgd_sampling_rate(args.epsilon, args.delta, noise_multiplier=args.noise_multiplier,
                                   steps=args.steps, precision=args.precision, progress=progress_of(args))
    return finish(args, cert)
