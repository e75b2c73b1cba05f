"""The ``producer`` command line.

Each subcommand lives in ``producer/commands/<name>.py`` and provides
``HELP``, ``add_arguments(parser)`` and ``run(args) -> int``.  Bad input
raises :class:`producer.errors.InputError`, which becomes one line on stderr
and exit status 2.
"""

import argparse
import importlib
import sys

from producer import __version__
from producer.errors import InputError

# (subcommand, module) in the order shown by --help.
COMMANDS = [
    ("game", "producer.commands.game"),
    ("dg", "producer.commands.dg"),
    ("calibrate", "producer.commands.calibrate"),
    ("envelope", "producer.commands.envelope"),
    ("envelope-sample", "producer.commands.envelope_sample"),
    ("brace", "producer.commands.brace"),
    ("brace-compare", "producer.commands.brace_compare"),
    ("brace-plot", "producer.commands.brace_plot"),
    ("deadline", "producer.commands.deadline"),
    ("workload", "producer.commands.workload"),
    ("separation", "producer.commands.separation"),
    ("calibrate-lower", "producer.commands.calibrate_lower"),
]


def _load_commands():
    loaded = []
    for name, module_name in COMMANDS:
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name == module_name:  # not built yet
                continue
            raise
        loaded.append((name, module))
    return loaded


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message}\n")


def build_parser():
    parser = _Parser(prog="producer", description="Compute exact DP certificates.")
    parser.add_argument("--version", action="version", version=f"producer {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    for name, module in _load_commands():
        p = sub.add_parser(name, help=module.HELP, description=module.HELP)
        module.add_arguments(p)
        p.set_defaults(_run=module.run)
    return parser


def main(argv=None):
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args._run(args)
    except InputError as exc:
        print(f"producer {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("producer: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
