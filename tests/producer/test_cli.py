"""The producer's argument parsers: no abbreviations, help text everywhere, exit statuses."""

import argparse

import pytest

from producer import cli


def subparsers():
    parser = cli.build_parser()
    [action] = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return parser, action.choices


def test_every_parser_refuses_abbreviations():
    parser, commands = subparsers()
    assert set(commands) == {name for name, _ in cli.COMMANDS}
    assert parser.allow_abbrev is False
    for name, sub in commands.items():
        assert sub.allow_abbrev is False, name


@pytest.mark.parametrize("name", [name for name, _ in cli.COMMANDS])
def test_every_option_has_help_text(name):
    _, commands = subparsers()
    for action in commands[name]._actions:
        assert action.help and action.help is not argparse.SUPPRESS, (name, action.option_strings)


@pytest.mark.parametrize("name", [name for name, _ in cli.COMMANDS])
def test_every_command_has_quiet_and_output_or_is_plot(name):
    _, commands = subparsers()
    options = {o for a in commands[name]._actions for o in a.option_strings}
    assert "--quiet" in options
    assert name == "brace-plot" or {"-o", "--output"} <= options


def test_top_level_options_have_help():
    parser, _ = subparsers()
    for action in parser._actions:
        assert action.help, action.option_strings


def test_dg_and_calibrate_share_one_declaration_of_the_mechanism_options():
    _, commands = subparsers()

    def described(name):  # C's help states each command's own limits (dg: the game's; calibrate: every route's)
        return {a.dest: (a.help if a.dest != "budget" else None, a.metavar, a.required and a.dest != "budget",
                         a.choices)
                for a in commands[name]._actions
                if a.dest in ("gamma", "sigma2", "budget", "method", "output", "quiet")}
    assert described("dg") == described("calibrate") and len(described("dg")) == 6

    def budget_required(name):
        return next(a.required for a in commands[name]._actions if a.dest == "budget")
    # calibrate takes a list of releases instead of a budget (--release), dg never does
    assert budget_required("dg") and not budget_required("calibrate")


def _fail_with(exc):
    def run(args):
        raise exc
    return run


@pytest.fixture
def broken_game(monkeypatch):
    from producer.commands import game

    def install(exc):
        monkeypatch.setattr(game, "run", _fail_with(exc))
    return install


def test_an_unexpected_exception_is_one_line_and_status_70(broken_game, capsys, monkeypatch):
    monkeypatch.delenv(cli.DEBUG_VARIABLE, raising=False)
    broken_game(RuntimeError("engine state out of step\nsecond line"))
    status = cli.main(["game", "--gamma", "1/3", "--weights", "1", "--budget", "0", "--threshold", "1"])
    err = capsys.readouterr().err
    assert status == 70
    assert err == ("producer game: internal error: RuntimeError: engine state out of step "
                   "(set DP_CERTIFY_DEBUG=1 for the traceback)\n")


def test_the_traceback_is_available_on_request(broken_game, capsys, monkeypatch):
    monkeypatch.setenv(cli.DEBUG_VARIABLE, "1")
    broken_game(ZeroDivisionError("division by zero"))
    status = cli.main(["game", "--gamma", "1/3", "--weights", "1", "--budget", "0", "--threshold", "1"])
    err = capsys.readouterr().err
    assert status == 70 and "Traceback" in err and err.rstrip().endswith("for the traceback)")


def test_interrupt_is_status_130(broken_game, capsys):
    broken_game(KeyboardInterrupt())
    assert cli.main(["game", "--gamma", "1/3", "--weights", "1", "--budget", "0", "--threshold", "1"]) == 130
    assert capsys.readouterr().err == "producer game: interrupted\n"


def test_usage_errors_exit_2(capsys):
    with pytest.raises(SystemExit) as stop:
        cli.main(["dg", "--sigma", "3"])
    assert stop.value.code == 2

