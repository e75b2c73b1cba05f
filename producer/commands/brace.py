"""``producer brace``: a certified BRACE private retrieval run (brace-run/1)."""

import sys

from producer.brace.algorithm import DEFAULT_GRID_BITS
from producer.brace.bank import Bank, parse_point
from producer.brace.record import Request
from producer.brace import record
from producer.certificates.canonical import make_certificate, write_certificate
from producer.errors import InputError
from producer.rationals import parse_integer, parse_rational

HELP = "run BRACE private retrieval on a memory bank and certify its calibration"
KIND, VERSION = "brace-run", 1


def add_run_arguments(p):
    """The request arguments shared by ``brace`` and ``brace-compare``."""
    p.add_argument("--bank", required=True, metavar="FILE",
                   help='bank file: JSON {"points": [["x","y"],...]} or CSV, exact rationals/decimals')
    p.add_argument("--query", required=True, metavar="X,Y,...", help="the public query q")
    r = p.add_mutually_exclusive_group(required=True)
    r.add_argument("--r2", metavar="R2", help="squared retrieval radius r^2 (rational)")
    r.add_argument("--beta", metavar="BETA", help="inverse temperature; r^2 = 2/beta")
    p.add_argument("--horizon", required=True, metavar="T", help="number of released steps")
    p.add_argument("--kappa", required=True, metavar="K", help="activation threshold kappa")
    p.add_argument("--epsilon", required=True, metavar="E")
    p.add_argument("--delta", required=True, metavar="D")
    p.add_argument("--gamma", default="auto", metavar="G|auto",
                   help="smoothing parameter, or 'auto' for the largest certified admissible one")
    p.add_argument("--seed", required=True, metavar="N", help="seed of the noise generator")
    p.add_argument("--grid-bits", default=str(DEFAULT_GRID_BITS), metavar="G",
                   help=f"released points lie on q + 2^-G Z^d (default {DEFAULT_GRID_BITS})")
    p.add_argument("--noise-multiplier", default="1", metavar="M",
                   help="multiply every noise variance by M (M < 1 is refused as uncalibrated)")
    p.add_argument("--allow-uncalibrated", action="store_true",
                   help="write a certificate claiming 'not private' instead of refusing")
    p.add_argument("-o", "--output", metavar="FILE", help="write here instead of stdout")


def request_from_args(args):
    bank = Bank.from_path(args.bank)
    query = parse_point(args.query, bank.dimension)
    if args.r2 is not None:
        r2 = parse_rational(args.r2, "r2")
    else:
        beta = parse_rational(args.beta, "beta")
        if beta <= 0:
            raise InputError("beta: must be positive")
        r2 = 2 / beta
    gamma = args.gamma.strip()
    if gamma != "auto":
        gamma = parse_rational(gamma, "gamma")
    return Request(bank, query, r2, parse_integer(args.horizon, "horizon"),
                   parse_rational(args.kappa, "kappa"), parse_rational(args.epsilon, "epsilon"),
                   parse_rational(args.delta, "delta"), gamma, parse_integer(args.seed, "seed"),
                   parse_integer(args.grid_bits, "grid bits"),
                   parse_rational(args.noise_multiplier, "noise multiplier"),
                   args.allow_uncalibrated, bank_name=args.bank)


def add_arguments(p):
    add_run_arguments(p)


def progress(message):
    print(message, file=sys.stderr)


def certificate_for(req, progress=None):
    input_, result = record.run(req, progress)
    return make_certificate(KIND, VERSION, input_, result)


def run_command(args):
    req = request_from_args(args)
    cert = certificate_for(req, progress)
    write_certificate(cert, args.output)
    return 0


run = run_command  # the CLI calls module.run(args)
