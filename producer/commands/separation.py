"""``producer separation``: certified strict separations (separation/1) at the published parameters."""

from producer.certificates.canonical import write_certificate
from producer.errors import InputError
from producer.lower.separation import CLAIMS, REFERENCES, build, build_reference
from producer.rationals import parse_rational

HELP = "a certified lower end strictly above a certified upper end: relaxations, offset event, binary pair, Rényi cover (separation)"

_DEFAULTS = {fields["claim"] + ("" if fields["claim"] != "dg-relaxation" else ":" + fields["relaxation"]): fields
             for _, fields in REFERENCES}


def add_arguments(parser):
    parser.add_argument("--claim", required=True, choices=sorted(_DEFAULTS),
                        help="which separation (dg-relaxation:one-digit / dg-relaxation:offset name the relaxation)")
    parser.add_argument("--separator", help="override the separator s (rational), where the claim has one")
    parser.add_argument("-o", "--output", help="write the certificate here (default stdout)")


def run(args):
    fields = dict(_DEFAULTS[args.claim])
    if args.separator is not None:
        if "separator" not in fields:
            raise InputError(f"--separator: the claim {args.claim} has no separator")
        fields["separator"] = parse_rational(args.separator, "separator")
    write_certificate(build_reference(fields), args.output)
    return 0
