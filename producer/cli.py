"""The ``producer`` command line.

Each subcommand lives in ``producer/commands/<name>.py`` and provides
``HELP`` (optionally ``DESCRIPTION`` and ``USAGE``), ``add_arguments(parser)``
and ``run(args) -> int``; the commands are thin layers over
:mod:`producer.api`, run inside :func:`producer.names.command_line` so that a
refusal names the option (``--width``) where the API names the parameter.
Options are never abbreviated (``--sigma`` is not ``--sigma2``).  Bad input
raises :class:`producer.errors.InputError`, which becomes one line on stderr
and exit status 2; anything unexpected becomes one line and exit status 70
(the traceback with ``DP_CERTIFY_DEBUG=1``).
"""

import argparse
import importlib
import os
import re
import sys
import traceback

from producer.version import __version__
from producer.errors import EXIT_BAD_INPUT, EXIT_INTERRUPTED, EXIT_SOFTWARE, InputError
from producer.names import command_line
from producer.output import check_output_file, check_output_folder, silence_stdout

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
    ("hierarchy", "producer.commands.hierarchy"),
    ("deadline", "producer.commands.deadline"),
    ("workload", "producer.commands.workload"),
    ("separation", "producer.commands.separation"),
    ("calibrate-lower", "producer.commands.calibrate_lower"),
    ("bracket", "producer.commands.bracket"),
    ("sweep", "producer.commands.sweep"),
    ("plot", "producer.commands.plot"),
    ("plain", "producer.commands.plain"),
    ("rate", "producer.commands.rate"),
    ("frontier", "producer.commands.frontier"),
    ("window", "producer.commands.window"),
    ("finite-budget", "producer.commands.finite_budget"),
    ("dpsgd", "producer.commands.dpsgd"),
    ("curve", "producer.commands.curve"),
    ("account", "producer.commands.account"),
    ("hierarchy-exact", "producer.commands.hierarchy_exact"),
    ("blocks", "producer.commands.blocks"),
    ("minimum-deletion", "producer.commands.minimum_deletion"),
    ("minimum-depth", "producer.commands.minimum_depth"),
    ("noise", "producer.commands.noise"),
    ("steps", "producer.commands.steps"),
    ("sampling-rate", "producer.commands.sampling_rate"),
]

_NAMES = frozenset(name for name, _module in COMMANDS)

DEBUG_VARIABLE = "DP_CERTIFY_DEBUG"
EPILOG = f"""\
Every command writes its certificate to standard output or -o FILE and ends
with one line on stderr that echoes the parsed inputs and states the answer
(--quiet suppresses it and the progress lines).  Numbers are read exactly:
3/7, 2, 0.25, 1e-6 (at most 10,000 digits in a numerator or denominator).

exit status:
  0    success
  2    bad input, a size beyond a documented limit, or an output that cannot
       be written (one line on stderr; -o FILE's folder is checked before the
       work starts)
  70   internal error (one line; set {DEBUG_VARIABLE}=1 for the traceback)
  130  interrupted
"""


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser that never abbreviates options and exits 2 on a usage error."""

    words = ()   # the command line being parsed (set by main)

    def __init__(self, *args, **kwargs):
        kwargs["allow_abbrev"] = False
        super().__init__(*args, **kwargs)

    def error(self, message):
        if message.startswith(("the following arguments are required", "one of the arguments")):
            # argparse checks the required options before it looks for unknown ones, so a mistyped
            # --delta would read as a missing one: name the word that is not an option first
            unknown = [w for w in self.words if w.startswith("-") and w != "-" and not w[1:2].isdigit()
                       and w.split("=", 1)[0] not in self._option_string_actions]
            message = f"unrecognized arguments: {' '.join(unknown)}" if unknown else message
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: error: {message}\n")


def _load_commands(only=None):
    return [(name, importlib.import_module(module)) for name, module in COMMANDS if only in (None, name)]


def build_parser(only=None):
    """The parser of every command, or with ``only`` (a command's name) of that command alone.

    A command line that starts with a command's name is parsed the same way
    by either (the other commands' modules are then never imported: most of
    the start-up time of a short run).
    """
    parser = _Parser(prog="producer", description="Compute exact differential-privacy certificates.",
                     epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"producer {__version__}",
                        help="print the producer's version and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser,
                                help="what to certify; 'producer COMMAND --help' lists its options")
    sub.required = True
    for name, module in _load_commands(only):
        p = sub.add_parser(name, help=module.HELP, description=getattr(module, "DESCRIPTION", module.HELP),
                           usage=getattr(module, "USAGE", None), allow_abbrev=False)
        module.add_arguments(p)
        p.set_defaults(_run=module.run, _files=getattr(module, "OUTPUT_FILES", ("output",)),
                       _folders=getattr(module, "OUTPUT_FOLDERS", ()))
    return parser


def check_outputs(args):
    """Every file and folder the command will write can be written: refused now, not after the work.

    A command's files are the options named by its ``OUTPUT_FILES`` (default
    ``("output",)``: ``-o FILE``; ``-`` is standard output), its folders those
    named by ``OUTPUT_FOLDERS``.
    """
    for dest in args._files:
        path = getattr(args, dest, None)
        if path is not None and path != "-":
            check_output_file(path)
    for dest in args._folders:
        path = getattr(args, dest, None)
        if path is not None:
            check_output_folder(path)


_LONG_NUMBER = re.compile(r"\d{61,}")


def _shorten_numbers(text):
    """Long digit runs in a message as ``head…(N digits)…tail``: the line stays readable."""
    return _LONG_NUMBER.sub(lambda m: f"{m[0][:20]}…({len(m[0])} digits)…{m[0][-20:]}", text)


def _say(line):
    if sys.stderr is None:  # started with stderr closed: print(file=None) would go to stdout
        return
    try:
        print(line, file=sys.stderr, flush=True)
    except (OSError, ValueError):
        pass  # stderr itself is gone: nothing left to tell


def _first_line(exc):
    try:
        text = str(exc)
    except Exception:  # a message that cannot even be rendered
        return "(message unavailable)"
    lines = text.splitlines()
    return lines[0][:300] if lines else ""


def quiet_blas():
    """One BLAS thread unless the user set it: numpy's OpenBLAS otherwise starts a thread per core at
    import, which costs about 0.1 s of CPU, while no command does float linear algebra large enough to
    gain from them (the work is exact integer arithmetic)."""
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


_NEGATIVE = re.compile(r"-[0-9]")


def negative_values_attached(words):
    """``--pending -2,-1`` read as ``--pending=-2,-1``: argparse takes a word that starts with a dash for an
    option unless it is one plain negative number, but no option's name starts with a dash and a digit."""
    out = []
    for word in words:
        if out and _NEGATIVE.match(word) and out[-1].startswith("--") and "=" not in out[-1]:
            out[-1] = f"{out[-1]}={word}"
        else:
            out.append(word)
    return out


def main(argv=None):
    command = "producer"
    quiet_blas()
    if sys.stderr is None:  # started with stderr closed: keep progress lines out of stdout
        sys.stderr = open(os.devnull, "w", encoding="utf-8")
    if hasattr(sys, "set_int_max_str_digits"):
        # Every number read is already bounded by producer.rationals.MAX_DIGITS before
        # conversion; Python's own 4,300-digit str/int limit would only turn a long but
        # legitimate value (in a message or a JSON integer) into an internal error.
        sys.set_int_max_str_digits(0)
    try:
        words = negative_values_attached(sys.argv[1:] if argv is None else list(argv))
        first = words[0] if words else None
        parser = build_parser(first if first in _NAMES else None)
        _Parser.words = tuple(words)
        args = parser.parse_args(words)
        command = f"producer {args.command}"
        check_outputs(args)
        with command_line():  # refusals name the command line's options, not the API's parameters
            status = args._run(args)
        sys.stdout.flush()
        return status
    except InputError as exc:
        _say(_shorten_numbers(f"{command}: error: {exc}"))
        return EXIT_BAD_INPUT
    except BrokenPipeError:
        silence_stdout()   # after a broken pipe, so that the exit-time flush cannot fail again
        _say(f"{command}: error: standard output was closed before the output was written (broken pipe)")
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        _say(f"{command}: interrupted")
        return EXIT_INTERRUPTED
    except Exception as exc:  # the last line of defence: one line, not a traceback
        if os.environ.get(DEBUG_VARIABLE, "") not in ("", "0"):
            traceback.print_exc()
        message = _first_line(exc)
        _say(_shorten_numbers(f"{command}: internal error: {type(exc).__name__}: {message} "
                              f"(set {DEBUG_VARIABLE}=1 for the traceback)"))
        return EXIT_SOFTWARE


if __name__ == "__main__":
    sys.exit(main())
