"""``producer brace``: a certified BRACE private retrieval run (brace-run/1)."""

from producer import api
from producer.brace.algorithm import DEFAULT_GRID_BITS
from producer.commands.common import add_output_arguments, finish, progress_of
from producer.kinds.brace_run import build as certificate_for  # noqa: F401  (the path tests/auditor imports)

BRACE_PAPER = "BRACE: Differential Privacy for Dense Associative Memory with LSR Energy"
HELP = "run BRACE private retrieval on a memory bank and certify its calibration (brace-run/1)"
DESCRIPTION = (f"{HELP}, after '{BRACE_PAPER}'.  Uncalibrated requests are refused unless "
               "--allow-uncalibrated.")


def add_run_arguments(p):
    """The request arguments shared by ``brace`` and ``brace-compare``."""
    p.add_argument("--bank", required=True, metavar="FILE",
                   help='bank file: JSON {"points": [["x","y"],...]} or CSV, exact rationals/decimals')
    p.add_argument("--query", required=True, metavar="X,Y,...", help="the public query point q")
    r = p.add_mutually_exclusive_group(required=True)
    r.add_argument("--r2", metavar="R2", help="squared retrieval radius r^2 (rational)")
    r.add_argument("--beta", metavar="BETA", help="inverse temperature β; r^2 = 2/β")
    p.add_argument("--horizon", required=True, metavar="T", help="number of released steps T")
    p.add_argument("--kappa", required=True, metavar="K", help="activation threshold κ (rational)")
    p.add_argument("--epsilon", required=True, metavar="E", help="target ε of (ε, δ)-DP (rational)")
    p.add_argument("--delta", required=True, metavar="D", help="target δ of (ε, δ)-DP (rational)")
    p.add_argument("--gamma", default="auto", metavar="G|auto",
                   help="smoothing parameter, or 'auto' for the largest certified admissible one")
    p.add_argument("--seed", required=True, metavar="N", help="seed of the noise generator")
    p.add_argument("--grid-bits", default=str(DEFAULT_GRID_BITS), metavar="G",
                   help=f"released points lie on q + 2^-G Z^d (default {DEFAULT_GRID_BITS})")
    p.add_argument("--noise-multiplier", default="1", metavar="M",
                   help="multiply every noise variance by M (M < 1 is refused as uncalibrated)")
    p.add_argument("--allow-uncalibrated", action="store_true",
                   help="write a certificate claiming 'not private' instead of refusing")


def api_arguments(args):
    """The keyword arguments of api.brace_run / api.brace_compare."""
    return dict(horizon=args.horizon, kappa=args.kappa, epsilon=args.epsilon, delta=args.delta,
                seed=args.seed, r2=args.r2, beta=args.beta, gamma=args.gamma, grid_bits=args.grid_bits,
                noise_multiplier=args.noise_multiplier, allow_uncalibrated=args.allow_uncalibrated,
                progress=progress_of(args))


def add_arguments(p):
    add_run_arguments(p)
    add_output_arguments(p)


def run(args):
    return finish(args, api.brace_run(args.bank, args.query, **api_arguments(args)))
