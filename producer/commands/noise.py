"""``producer noise``: the noise a target (ε, δ) after C releases needs, tight to a relative precision
(noise/1)."""

from producer import api
from producer.errors import InputError
from producer.commands.common import GAMMA_HELP, add_epsilon_argument, add_output_arguments, finish, progress_of
from producer.game.work import MAX_BUDGET as GAME_MAX_BUDGET
from producer.kinds.plain_composition import MAX_BUDGET as PLAIN_MAX_BUDGET

HELP = ("a noise (discrete Gaussian σ² or discrete Laplace t) on a relative grid of step R at which "
        "ε*_C(δ) <= ε is certified, with the grid point just below certified not to meet it (noise/1; a crossing "
        "of the grid, not a claim that no smaller noise meets it)")
DESCRIPTION = (f"{HELP}.  γ = 0 (route product-pair): two plain-composition/1 certificates of δ_C(ε) at the one "
               f"ε, any C <= {PLAIN_MAX_BUDGET}, noise in [1/100, 10^6]; γ > 0 (route exact-game): two "
               f"dg-interval/1 certificates, C <= {GAME_MAX_BUDGET} (the exact game's reach; beyond it "
               "`producer calibrate` answers ε*_C(δ) at a given σ²).  The grid points are short decimals "
               "(R = 1/1000: four significant digits) and noise <= below·(1 + R).  Limits: those of the "
               "embedded kinds (plain: ε <= 10^4, δ >= 10^-45; exact game: ε <= 64 and the game's and the "
               "auditor's work at each σ² the search reaches), R >= 10^-12.  With --release (γ = 0 only) the "
               "question is a pipeline of different releases and the answer one common factor f on every "
               "release's scale (σ² -> f·σ², t -> f·t), searched on the same grid.")
USAGE = ("producer noise --epsilon E --delta D (--budget C [--gamma A/B] [--laplace] | --release LAW:SCALE[:S]xK "
         "...) [--precision R] [-o FILE] [--quiet]")


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
    law.add_argument("--precision", default="1/1000", metavar="R",
                     help="relative grid step: noise <= below·(1 + R), 0 < R < 1 (default 1/1000)")
    add_output_arguments(parser)


def _check_law(args):
    """--release states its own laws and counts; one law needs --budget."""
    if args.release is not None and (args.budget is not None or args.laplace):
        raise InputError("argument --release: not allowed with --budget or --laplace (a release states its law, "
                         "scale and count: dg:9x100)")
    if args.release is None and args.budget is None:
        raise InputError("argument --budget is required (or give the pipeline as --release LAW:SCALE[:S]xK ...)")


def run(args):
    _check_law(args)
    certificate = api.noise(args.epsilon, args.delta, args.budget, gamma=args.gamma, laplace=args.laplace,
                            precision=args.precision, progress=progress_of(args), releases=args.release)
    return finish(args, certificate)
