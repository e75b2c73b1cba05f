"""``producer brace-compare``: BRACE against naive, global-noise and
clean-endpoint baselines on the same bank, draws and start (brace-compare/1)."""

from producer import api
from producer.commands.brace import add_run_arguments, api_arguments
from producer.commands.common import add_output_arguments, finish

HELP = ("compare BRACE with the naive, global-noise and clean-endpoint baselines "
        "(same bank, draws and start; brace-compare/1)")


def add_arguments(p):
    add_run_arguments(p)
    add_output_arguments(p)


def run(args):
    return finish(args, api.brace_compare(args.bank, args.query, **api_arguments(args)))
