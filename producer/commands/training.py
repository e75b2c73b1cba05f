"""Options shared by the DP-SGD calibration commands (``noise`` in its DP-SGD form, ``steps``,
``sampling-rate``): a run given by its sampling rate, or in training terms."""

from producer.kinds.dpsgd import LIMITS
from producer.kinds.dpsgd_calibration import DEFAULT_COUNTING
from producer.training import COUNTINGS

COUNTING_HELP = ("a run in training terms is read by --counting: tf-privacy (the default; TF Privacy's "
                 "compute_dp_sgd_privacy_statement: q = B/N, T(E) = ⌈E·N/B⌉ steps) or opacus (Opacus's "
                 "PrivacyEngine with Poisson sampling: ⌈N/B⌉ batches an epoch, q = 1/⌈N/B⌉, T(E) = E·⌈N/B⌉), "
                 "and recorded in the certificate's input.training beside the q and T it gives.")
DPSGD_LIMITS = ("Each side is one dpsgd/1 certificate of δ(ε) at the one ε (Poisson-subsampled Gaussian, "
                f"sensitivity 1, add/remove neighbours), within its limits: {LIMITS}.  The answer is a "
                "crossing (a value that meets, its certified neighbour that does not), not a claim that no other value "
                "meets the target.")


def add_training_arguments(parser, title):
    """The group of the run's options: --sampling-rate, or --batch-size and --dataset-size with --counting."""
    group = parser.add_argument_group(title)
    group.add_argument("--sampling-rate", metavar="Q",
                       help="Poisson sampling rate q in (0, 1], read exactly (not with --batch-size)")
    group.add_argument("--batch-size", metavar="B", help="the (expected) batch size B, 1 <= B <= N")
    group.add_argument("--dataset-size", metavar="N", help="the number of training examples N, up to 10^12")
    group.add_argument("--counting", choices=list(COUNTINGS), metavar="{" + "|".join(COUNTINGS) + "}",
                       help=f"how B, N and epochs give q and T (default {DEFAULT_COUNTING}): tf-privacy "
                            "q = B/N, T(E) = ⌈E·N/B⌉; opacus q = 1/⌈N/B⌉, T(E) = E·⌈N/B⌉")
    return group


def given(args, options):
    """The flags of ``options`` ((dest, flag) pairs) the command line set (a switch only when on)."""
    return [flag for dest, flag in options if getattr(args, dest, None) not in (None, False)]
