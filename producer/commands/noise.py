"""``producer noise``: the noise a target (ε, δ) after C releases needs, tight to a relative precision
(noise/1); for DP-SGD, the noise multiplier a training run needs (dpsgd-calibration/1)."""

from producer import api
from producer.errors import InputError
from producer.commands.common import GAMMA_HELP, add_epsilon_argument, add_output_arguments, finish, progress_of
from producer.commands.training import COUNTING_HELP, DPSGD_LIMITS, add_training_arguments, given
from producer.game.work import MAX_BUDGET as GAME_MAX_BUDGET
from producer.kinds.dpsgd import STEPS_LIMIT
from producer.kinds.plain_composition import MAX_BUDGET as PLAIN_MAX_BUDGET

HELP = ("a noise (discrete Gaussian σ² or discrete Laplace t, or DP-SGD's noise multiplier σ) on a relative grid "
        "of step R at which the target (ε, δ) is certified, with a grid point just below certified not to meet it "
        "(noise/1, dpsgd-calibration/1; a crossing of the grid, not a claim that no smaller noise meets it)")
DESCRIPTION = (f"{HELP}.  γ = 0 (route product-pair): two plain-composition/1 certificates of δ_C(ε) at the one "
               f"ε, any C <= {PLAIN_MAX_BUDGET}, noise in [1/100, 10^6]; γ > 0 (route exact-game): two "
               f"dg-interval/1 certificates, C <= {GAME_MAX_BUDGET} (the exact game's reach; beyond it "
               "`producer calibrate` answers ε*_C(δ) at a given σ²).  The grid points are short decimals "
               "(R = 1/1000: four significant digits) and noise <= below·(1 + R).  Limits: those of the "
               "embedded kinds (plain: ε <= 10^4, δ >= 10^-45; exact game: ε <= 64 and the game's and the "
               "auditor's work at each σ² the search reaches), R >= 10^-12.  With --release (γ = 0 only) the "
               "question is a pipeline of different releases and the answer one common factor f on every "
               "release's scale (σ² -> f·σ², t -> f·t), searched on the same grid.  "
               "DP-SGD (dpsgd-calibration/1): with --sampling-rate q and --steps T, or --batch-size B, "
               "--dataset-size N and --epochs E, the noise multiplier σ on the same grid at which the run is "
               "(ε, δ)-DP (an embedded dpsgd/1 certificate of δ(ε) <= δ; R >= 10^-6), and a σ_b with "
               f"σ_b < σ <= σ_b·(1 + R) certified not to be (another, δ(ε) > δ); {COUNTING_HELP}  "
               f"{DPSGD_LIMITS}")
USAGE = ("producer noise --epsilon E --delta D (--budget C [--gamma A/B] [--laplace] | --release LAW:SCALE[:S]xK "
         "... | --sampling-rate Q --steps T | --batch-size B --dataset-size N --epochs E "
         "[--counting tf-privacy|opacus]) "
         "[--precision R] [-o FILE] [--quiet]")


def add_arguments(parser):
    group = parser.add_argument_group("target")
    add_epsilon_argument(group, "the target ε >= 0: ε*_C(δ) <= E", required=True)
    group.add_argument("--delta", required=True, metavar="D", help="the target δ, 0 < D < 1")
    group.add_argument("--budget", metavar="C",
                       help=f"C: the number of releases (participations), 1 <= C <= {PLAIN_MAX_BUDGET} at γ = 0, "
                            f"C <= {GAME_MAX_BUDGET} at γ > 0 (not with --release)")
    law = parser.add_argument_group("mechanism")
    law.add_argument("--gamma", default="0", metavar="A/B", help=f"{GAMMA_HELP} (default 0)")
    law.add_argument("--laplace", action="store_true",
                     help="calibrate the discrete Laplace's scale t (L_t(n) ∝ e^{−|n|/t}) instead of the "
                          "discrete Gaussian's σ²")
    law.add_argument("--release", action="append", metavar="LAW:SCALE[:S]xK",
                     help="γ = 0 only: K releases of LAW (dg: discrete Gaussian σ² = SCALE, dl: discrete Laplace "
                          "t = SCALE) with integer sensitivity S >= 1 (default 1), e.g. dg:9x100, dl:2x5, "
                          "dg:4:2x20; repeat for more; total K <= 1024; the answer is the factor f on every "
                          "SCALE; excludes --budget and --laplace")
    law.add_argument("--precision", metavar="R",
                     help="relative grid step: noise <= below·(1 + R), 0 < R < 1 (default 1/1000)")
    dpsgd = add_training_arguments(parser, "DP-SGD (instead of --budget or --release): the run whose noise "
                                           "multiplier is solved")
    dpsgd.add_argument("--steps", metavar="T", help=f"DP-SGD steps T, 1 <= T <= {STEPS_LIMIT} (with --sampling-rate)")
    dpsgd.add_argument("--epochs", metavar="E",
                       help="epochs E (with --batch-size and --dataset-size; the steps T(E) by --counting)")
    add_output_arguments(parser)


DISCRETE = (("budget", "--budget"), ("laplace", "--laplace"), ("release", "--release"))  # and γ > 0: the API
DPSGD = (("sampling_rate", "--sampling-rate"), ("steps", "--steps"), ("batch_size", "--batch-size"),
         ("dataset_size", "--dataset-size"), ("epochs", "--epochs"), ("counting", "--counting"))


def _check_law(args):
    """--release states its own laws and counts; one law needs --budget; DP-SGD takes neither."""
    training, discrete = given(args, DPSGD), given(args, DISCRETE)
    if training and discrete:
        raise InputError(f"argument {', '.join(discrete)}: not allowed with {', '.join(training)} (discrete noise "
                         f"after C releases, noise/1, or the noise multiplier of a DP-SGD run, "
                         f"dpsgd-calibration/1: give the options of one)")
    if training:
        return
    if args.release is not None and (args.budget is not None or args.laplace):
        raise InputError("argument --release: not allowed with --budget or --laplace (a release states its law, "
                         "scale and count: dg:9x100)")
    if args.release is None and args.budget is None:
        raise InputError("argument --budget is required (or give the pipeline as --release LAW:SCALE[:S]xK ..., "
                         "or a DP-SGD run as --sampling-rate Q --steps T or --batch-size B --dataset-size N "
                         "--epochs E)")


def run(args):
    _check_law(args)
    if given(args, DPSGD):
        certificate = api.noise(args.epsilon, args.delta, gamma=args.gamma, sampling_rate=args.sampling_rate,
                                steps=args.steps,
                                batch_size=args.batch_size, dataset_size=args.dataset_size, epochs=args.epochs,
                                counting=args.counting, precision=args.precision, progress=progress_of(args))
    else:
        certificate = api.noise(args.epsilon, args.delta, args.budget, gamma=args.gamma, laplace=args.laplace,
                                precision=args.precision, progress=progress_of(args), releases=args.release)
    return finish(args, certificate)
