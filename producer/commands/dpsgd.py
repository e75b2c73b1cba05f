"""``producer dpsgd``: certified ε(δ) or δ(ε) of DP-SGD, the Poisson-subsampled Gaussian (dpsgd/1)."""

from producer import api
from producer.kinds import dpsgd as kind
from producer.kinds.dpsgd import DELTA_LIMIT, NOISE_RANGE, RATE_LIMIT, STEPS_LIMIT, limit_text
from producer.commands.common import add_output_arguments, add_pld_question, finish, progress_of

HELP = ("certified ε(δ) or δ(ε) of DP-SGD: T steps of the Poisson-subsampled Gaussian with sampling rate q "
        "and noise multiplier σ, sensitivity 1, add/remove neighbours (dpsgd/1)")
DESCRIPTION = (f"{HELP}.  The upper end comes from a connect-the-dots discretisation of the privacy-loss "
               "distribution that dominates the mechanism, the lower end from events of the bucketed losses; "
               "masses are integers with directed rounding and the T-fold compositions exact big-integer "
               "convolutions (Gaussian-only schedules, q = 1, use the closed form).  A schedule is given as "
               "repeated --stage q:σxT, composed in order.  "
               f"Limits: at most {kind.MAX_STAGES} stages, at most {STEPS_LIMIT} steps in all, "
               f"{RATE_LIMIT} <= q <= 1, {limit_text(kind.MIN_NOISE)} <= σ <= "
               f"{limit_text(kind.MAX_NOISE)}, {DELTA_LIMIT} <= δ < 1, at most {kind.MAX_POINTS} ε "
               f"in [0, {limit_text(kind.MAX_EPSILON)}], {limit_text(kind.MIN_REL_WIDTH)} <= R <= "
               f"{limit_text(kind.MAX_REL_WIDTH)}.  Refused before the work: an ε(δ) above 2000 (the auditor's "
               "limit; above about 600 on the PLD route), a computation beyond the work limit of the whole search "
               "or the auditor's limits (a refusal that only more work would answer names the --effort N that does: "
               "N times the work limit, recorded in the certificate), and a single step's width out of reach "
               "(the refusal names a --rel-width in reach).  A δ(ε) below 10^-100 is answered [0, 10^-100].")
USAGE = ("producer dpsgd (--sampling-rate Q --noise-multiplier S --steps T | --stage Q:SxT ...) "
         "(--delta D | --epsilons E[,E...]) [--rel-width R] [--effort N] [-o FILE] [--quiet]")


def add_arguments(parser):
    group = parser.add_argument_group("mechanism (one stage, or --stage repeated)")
    group.add_argument("--sampling-rate", metavar="Q",
                       help="Poisson sampling rate q in (0, 1] (q = 1: the Gaussian mechanism), read exactly")
    group.add_argument("--noise-multiplier", metavar="S",
                       help=f"noise multiplier σ: the noise is N(0, σ²) for sensitivity 1, σ in {NOISE_RANGE}")
    group.add_argument("--steps", metavar="T", help="number of steps T (integer >= 1)")
    group.add_argument("--stage", action="append", default=[], metavar="Q:SxT",
                       help="one stage of a schedule, e.g. 0.01:1.1x1000 (repeatable; stages compose in order, "
                            "after the one given by --sampling-rate/--noise-multiplier/--steps if any)")
    add_pld_question(parser)
    add_output_arguments(parser)


def run(args):
    cert = api.dpsgd(args.sampling_rate, args.noise_multiplier, args.steps, stages=args.stage, delta=args.delta,
                     epsilons=args.epsilon, rel_width=args.rel_width, effort=args.effort,
                     progress=progress_of(args))
    return finish(args, cert)
