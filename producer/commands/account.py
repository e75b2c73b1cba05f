"""``producer account``: certified ε(δ) or δ(ε) of a tree of mechanisms written as dp_accounting events
(accounting/1)."""

import json

from producer import api, json_input
from producer.commands.common import add_output_arguments, add_pld_question, finish, progress_of
from producer.errors import InputError
from producer.input_files import read_limited
from producer.pld.events import RELATIONS

MAX_FILE_BYTES = 64 * 2**20

HELP = ("certified ε(δ) or δ(ε) of a pipeline described as dp_accounting events: Gaussian, Laplace, "
        "discrete Laplace, discrete Gaussian, mixture-of-Gaussians and randomized-response mechanisms, DP-FTRL's "
        "tree aggregation, Poisson sampling (of a Gaussian also truncated to batches of at most B), fixed-size "
        "batches (sampling without replacement of a Gaussian or Laplace mechanism) and composition, under "
        "add/remove, replace-one or replace-special neighbours "
        "(accounting/1)")
DESCRIPTION = (f"{HELP}.  --event FILE holds one event in dp_accounting's JSON form (its to_named_tuple() "
               "fields: class_name and the event's fields; - reads standard input); numbers are read exactly "
               "(a JSON float as the decimal written, digit for digit); a key repeated in one object is refused.  "
               "The tree is read into stages, each a mechanism with its dominating pair and a count; δ(ε) is the "
               "larger of the two orders' hockey-stick divergences of their product, enclosed by a "
               "connect-the-dots discretisation of the privacy-loss distribution above and events of the bucketed "
               "losses below, with exact big-integer compositions (trees of unsampled Gaussians use the closed "
               "form; one randomized-response stage its exact lattice).  "
               "Refused before the work, in one line: event classes not accounted (the line names what answers "
               "instead), leaves the relation does not define, a "
               "tree without privacy loss, and sizes beyond the limits (at most 10^4 events, 16 stages, "
               "10^7 steps in all; σ in [1/10, 10^4], b in [1/100, 10^4], Δ in [0, 100], a in [1/100, 100], "
               "σ² in [1/100, 10^6], integer sensitivities up to 1000, n up to 10^12; "
               "10^-30 <= δ < 1, at most 64 ε in [0, 500], 10^-6 <= R <= 1/2; docs/accounting.md §6).  A refusal "
               "that only more work would answer names the --effort N that does (N times the work limit, "
               "recorded in the certificate).")
USAGE = ("producer account --event FILE.json (--delta D | --epsilons E,...) [--relation REL] "
         "[--rel-width R] [--effort N] [-o FILE] [--quiet]")


def add_arguments(parser):
    group = parser.add_argument_group("the pipeline")
    group.add_argument("--event", required=True, metavar="FILE.json",
                       help="a dp_accounting DpEvent in JSON form (class_name and fields), - for standard input")
    group.add_argument("--relation", choices=RELATIONS, default=RELATIONS[0],
                       help="the neighbouring relation (default add_or_remove_one, as dp_accounting; "
                            "replace_special, a record replaced by one that contributes nothing, reads as "
                            "add_or_remove_one, randomized response aside: the special record answers uniformly; tree "
                            "aggregation is defined under it alone; a truncated Poisson sampling under "
                            "add_or_remove_one or replace_one)")
    add_pld_question(parser)
    add_output_arguments(parser)


def read_event(path):
    """The JSON value in ``path`` (- for standard input), or one line naming --event."""
    data = read_limited(path, MAX_FILE_BYTES, "--event")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise InputError(f"--event: cannot read {path}: it is not UTF-8 text (byte {error.start})") from None
    try:
        # floats as their literal text: the event reader reads strings exactly, a binary float would round
        # 0.0100000000000000001 to 1/100 and 1e-400 to 0
        return json_input.loads(text, literal_floats=True)
    except json.JSONDecodeError as error:
        raise InputError(f"--event: {path} is not JSON ({error.msg} at line {error.lineno}, column {error.colno})") \
            from None
    except json_input.NestingError:
        raise InputError(f"--event: {path} is nested too deep to read (the tree's limit is 100 levels)") from None
    except json_input.JSONInputError as error:
        raise InputError(f"--event: {path} {error}") from None


def run(args):
    event = read_event(args.event)
    cert = api.account(event, delta=args.delta, epsilons=args.epsilon, neighboring_relation=args.relation,
                       rel_width=args.rel_width, effort=args.effort, progress=progress_of(args))
    return finish(args, cert)
