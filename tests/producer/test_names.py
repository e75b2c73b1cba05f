"""producer.names: a refusal names the API's parameters from Python and the options on the command line."""

import ast
import doctest
import re
from pathlib import Path

import pytest

import producer
from producer import api, cli, names
from producer.errors import InputError

ROOT = Path(__file__).resolve().parents[2]

# code the API never reaches: the command line itself, and `producer sweep` (a command with no API function)
COMMAND_LINE_ONLY = ("producer/commands/", "producer/sweep/", "producer/cli.py", "producer/references/tour.py")
FLAG = re.compile(r"--[a-z]")
COMMAND = re.compile(r"\bproducer (" + "|".join(re.escape(name) for name, _ in cli.COMMANDS) + r")\b")


def test_the_module_examples_run():
    assert doctest.testmod(names).failed == 0


def test_each_command_named_has_its_function():
    commands = {name for name, _ in cli.COMMANDS}
    for command, function in names.FUNCTIONS.items():
        assert command in commands, command
        assert function in producer.__all__ and function in api.__all__, function


def test_python_is_the_default_and_the_command_line_a_scope():
    assert names.option("rel_width", "R") == "rel_width=R"
    with names.command_line():
        assert names.option("rel_width", "R") == "--rel-width R"
        assert names.option("stages", "q:σxT", flag="--stage", python='["q:σxT"]') == "--stage q:σxT"
        assert names.option("curve", True) == "--curve"
    assert names.option("stages", "q:σxT", flag="--stage", python='["q:σxT"]') == 'stages=["q:σxT"]'
    assert names.option("curve", True) == "curve=True"


def test_a_parameter_leading_a_message_keeps_the_command_lines_own_spelling_there():
    assert names.subject("rel_width") == "rel_width"
    with names.command_line():
        assert names.subject("rel_width") == "rel-width"


def _strings_outside_docstrings(tree):
    """String constants of ``tree`` that are neither docstrings nor the ``flag=`` of an option()."""
    skipped = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                skipped.add(id(first.value))
        if isinstance(node, ast.keyword) and node.arg == "flag":
            skipped.add(id(node.value))
    return [node for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skipped]


def test_no_option_or_command_is_written_out_where_the_api_reaches():
    """A message the API can raise names options and commands through producer.names, never as text."""
    found = []
    for path in sorted((ROOT / "producer").rglob("*.py")):
        name = path.relative_to(ROOT).as_posix()
        if name.startswith(COMMAND_LINE_ONLY):
            continue
        for node in _strings_outside_docstrings(ast.parse(path.read_text(encoding="utf-8"))):
            if "auditor verify" in node.value:  # the auditor's command, written the same way for every caller
                continue
            if FLAG.search(node.value) or COMMAND.search(node.value):
                found.append(f"{name}:{node.lineno}: {node.value[:60]!r}")
    assert not found, "; ".join(found)


# (the API call, its message, the same request on the command line, its message)
PAIRS = [
    (lambda: api.dpsgd("0.01", delta="1e-5"),
     'give all three of sampling_rate, noise_multiplier and steps (or use stages=["q:σxT"])',
     ["dpsgd", "--sampling-rate", "0.01", "--delta", "1e-5"],
     "give all three of --sampling-rate, --noise-multiplier and --steps (or use --stage q:σxT)"),
    (lambda: api.hierarchy_upper("0", 9, 8, depth=2, delta="1e-4"),
     "producer.calibrate(gamma=0) answers ε at δ, producer.plain_composition δ at ε",
     ["hierarchy", "--gamma", "0", "--sigma2", "9", "--budget", "8", "--depth", "2", "--delta", "1e-4"],
     "producer calibrate --gamma 0 answers ε at δ, producer plain δ at ε"),
    (lambda: api.calibrate("0", None, None, "1e-4", releases=["dg:9x8"], method="reduced"),
     "(no finite game); omit method",
     ["calibrate", "--gamma", "0", "--release", "dg:9x8", "--delta", "1e-4", "--method", "reduced"],
     "(no finite game); omit --method"),
    (lambda: api.calibrate("1/3", 9, 8, "1e-4", method="reduced"),
     "without method, producer.calibrate answers beyond C = 6",
     ["calibrate", "--gamma", "1/3", "--sigma2", "9", "--budget", "8", "--delta", "1e-4", "--method", "reduced"],
     "without --method, producer calibrate answers beyond C = 6"),
    (lambda: api.dpsgd("0.01", 1, 10, delta="1e-5", rel_width=0), "rel_width: must be positive, got 0",
     ["dpsgd", "--sampling-rate", "0.01", "--noise-multiplier", "1", "--steps", "10", "--delta", "1e-5",
      "--rel-width", "0"], "error: rel-width: must be positive, got 0"),
    (lambda: api.plain_composition(9, 2, 1, rel_width="1e-31"), "rel_width: 1e-31 is below the limit 10^-30",
     ["plain", "--sigma2", "9", "--budget", "2", "--epsilon", "1", "--rel-width", "1e-31"],
     "error: rel-width: 1e-31 is below the limit 10^-30"),
]


@pytest.mark.parametrize("call, python, argv, command_line", PAIRS)
def test_the_api_and_the_command_line_name_their_own_words(call, python, argv, command_line, capsys):
    with pytest.raises(InputError) as caught:
        call()
    assert python in str(caught.value) and "--" not in str(caught.value)
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and command_line in err, err
    assert names.option("width") == "width"  # the command line's scope ended with it
