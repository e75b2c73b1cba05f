"""``producer steps``: the most DP-SGD steps (or epochs) a target (ε, δ) allows (dpsgd-calibration/1)."""

from producer import api
from producer.kinds.dpsgd import NOISE_RANGE
from producer.commands.common import add_epsilon_argument, add_output_arguments, finish, progress_of
from producer.commands.training import COUNTING_HELP, DPSGD_LIMITS, add_training_arguments

HELP = ("the largest number of DP-SGD steps T (or, in training terms, of epochs E) at noise multiplier σ "
        "that keeps the run (ε, δ)-DP, with T + 1 (E + 1) certified not to (dpsgd-calibration/1)")
DESCRIPTION = (f"{HELP}.  With --sampling-rate q the answer is T steps; with --batch-size B and --dataset-size N "
               f"it is E epochs, and T(E), T(E + 1) their steps; {COUNTING_HELP}  {DPSGD_LIMITS}")
USAGE = ("producer steps --epsilon E --delta D --noise-multiplier S (--sampling-rate Q | --batch-size B "
         "--dataset-size N [--counting tf-privacy|opacus]) [-o FILE] [--quiet]")


def add_arguments(parser):
    target = parser.add_argument_group("target")
    add_epsilon_argument(target, "the target ε >= 0 (at most 500)", required=True)
    target.add_argument("--delta", required=True, metavar="D", help="the target δ, 10^-30 <= D < 1")
    run = add_training_arguments(parser, "the run (--sampling-rate, or --batch-size and --dataset-size)")
    run.add_argument("--noise-multiplier", required=True, metavar="S",
                     help=f"noise multiplier σ in {NOISE_RANGE}: the noise is N(0, σ²) for sensitivity 1")
    add_output_arguments(parser)


def run(args):
    cert = api.dpsgd_steps(args.epsilon, args.delta, noise_multiplier=args.noise_multiplier,
                           sampling_rate=args.sampling_rate, batch_size=args.batch_size,
                           dataset_size=args.dataset_size, counting=args.counting, progress=progress_of(args))
    return finish(args, cert)
