"""``producer envelope-sample``: draw one release from p̃_x / Z_x exactly."""

import json

from producer import api
from producer.commands.common import add_output_arguments, say
from producer.commands.envelope import add_instance_arguments, instance_fields
from producer.output import write_output

HELP = "sample one release of the envelope mechanism exactly (inversion with refinement)"


def add_arguments(parser):
    add_instance_arguments(parser)
    parser.add_argument("--database", required=True, metavar="x1,...,xn",
                        help="the private database: n comma-separated values in 0..T-1")
    parser.add_argument("--seed", required=True, metavar="N", help="seed of the uniform bits")
    add_output_arguments(parser, what="the release JSON")


def run(args):
    release = api.pmw_sample(*instance_fields(args), args.database, args.seed, variant=args.variant,
                             precision=args.precision)
    write_output((json.dumps(release, indent=2, sort_keys=True) + "\n").encode("utf-8"), args.output)
    histogram = release["histogram"]
    say(args, f"drew transcript {release['transcript_index']} with seed {release['seed']} for the database "
              f"{args.database} (T = {len(histogram)}, n = {sum(histogram)}, k = {len(release['answers'])}, "
              f"J = {len(release['transcript'])}, ε = {args.epsilon}, {release['uniform_bits']} uniform bits)")
    return 0
