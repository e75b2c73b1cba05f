"""``producer envelope-sample``: draw one release from p̃_x / Z_x exactly."""

import json

from producer import api
from producer.commands.common import add_output_arguments, say
from producer.commands.envelope import add_instance_arguments, instance_fields
from producer.envelope.histograms import histogram_of
from producer.envelope.sampling import sample
from producer.errors import InputError
from producer.output import write_output
from producer.rationals import parse_integer

HELP = "sample one release of the envelope mechanism exactly (inversion with refinement)"
DEFAULT_BITS = 128


def add_arguments(parser):
    add_instance_arguments(parser)
    parser.add_argument("--database", required=True, metavar="x1,...,xn",
                        help="the private database: n comma-separated values in 0..T-1")
    parser.add_argument("--seed", required=True, metavar="N", help="seed of the uniform bits")
    add_output_arguments(parser, what="the release JSON")


def database_values(text, instance):
    values = [parse_integer(v.strip(), "database") for v in text.split(",") if v.strip()]
    if len(values) != instance.records:
        raise InputError(f"database: {len(values)} values given, n = {instance.records}")
    for v in values:
        if not 0 <= v < instance.universe:
            raise InputError(f"database: value {v} is outside 0..{instance.universe - 1}")
    return values


def run(args):
    bits = api._precision(args.precision) or DEFAULT_BITS
    instance = api.envelope_instance(*instance_fields(args), variant=args.variant)
    values = database_values(args.database, instance)
    seed = api.parse_seed(args.seed)
    release = sample(instance, histogram_of(values, instance.universe), seed, bits)
    write_output((json.dumps(release, indent=2, sort_keys=True) + "\n").encode("utf-8"), args.output)
    say(args, f"drew transcript {release['transcript_index']} with seed {seed} for the database "
              f"{args.database} (T = {instance.universe}, n = {instance.records}, k = {instance.k}, "
              f"J = {instance.rounds}, ε = {args.epsilon}, {release['uniform_bits']} uniform bits)")
    return 0
