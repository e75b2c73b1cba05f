"""``producer envelope-sample``: draw one release from p̃_x / Z_x exactly."""

import json
import sys

from producer.commands.envelope import _check_precision, add_instance_arguments, instance_from_args
from producer.envelope.histograms import histogram_of
from producer.envelope.sampling import sample
from producer.errors import InputError
from producer.rationals import parse_integer

HELP = "sample one release of the envelope mechanism exactly (inversion with refinement)"


def add_arguments(parser):
    add_instance_arguments(parser)
    parser.add_argument("--database", required=True, metavar="x1,...,xn",
                        help="the private database: n comma-separated values in 0..T-1")
    parser.add_argument("--seed", required=True, metavar="N", help="seed of the uniform bits")
    parser.add_argument("-o", "--output", metavar="FILE", help="write the release JSON here (default stdout)")


def run(args):
    _check_precision(args.precision)
    inst = instance_from_args(args)
    values = [parse_integer(v.strip(), "--database") for v in args.database.split(",") if v.strip()]
    if len(values) != inst.records:
        raise InputError(f"--database: {len(values)} values given, n = {inst.records}")
    for v in values:
        if not 0 <= v < inst.universe:
            raise InputError(f"--database: value {v} is outside 0..{inst.universe - 1}")
    seed = parse_integer(args.seed, "--seed")
    release = sample(inst, histogram_of(values, inst.universe), seed, args.precision or 128)
    text = json.dumps(release, indent=2, sort_keys=True) + "\n"
    if args.output:
        with open(args.output, "w", encoding="utf-8") as fh:
            fh.write(text)
    else:
        sys.stdout.write(text)
    return 0
