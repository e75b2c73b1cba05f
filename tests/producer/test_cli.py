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


@pytest.mark.parametrize("words, named", [
    (["dpsgd", "--bogus", "1"], "--bogus"),
    (["dpsgd", "--sampling-rate", "0.01", "--noise-multiplier", "1", "--steps", "10", "--delt", "1e-5"], "--delt"),
    (["plain", "--sigma2", "9", "--budgets", "2", "--epsilons", "1"], "--budgets"),
])
def test_a_mistyped_option_is_named_before_the_required_ones_it_leaves_out(capsys, words, named):
    with pytest.raises(SystemExit) as stop:
        cli.main(words)
    err = capsys.readouterr().err
    assert stop.value.code == 2 and f"error: unrecognized arguments: {named}" in err, err


def test_a_missing_option_is_still_named_when_every_word_is_known(capsys):
    with pytest.raises(SystemExit):
        cli.main(["dpsgd", "--sampling-rate", "0.01", "--noise-multiplier", "1", "--steps", "10"])
    assert "one of the arguments --delta --epsilon/--epsilons is required" in capsys.readouterr().err


# ε is the privacy parameter of the mechanism here, not a point of the question; sweep has its own grid options
EPSILON_ELSEWHERE = {"brace", "brace-compare", "envelope", "envelope-sample", "sweep"}
# a minimal request of each command with an ε: the arguments before the ε
EPSILON_COMMANDS = {
    "dg": ["--sigma2", "9", "--budget", "2", "--width", "1e-3"],
    "noise": ["--delta", "1e-5", "--budget", "10"],
    "hierarchy": ["--gamma", "1/3", "--sigma2", "9", "--budget", "3", "--depth", "2"],
    "blocks": ["--gamma", "1/2", "--sigma2", "4", "--budget", "3"],
    "deadline": ["--gamma", "1/3", "--sigma2", "9", "--budget", "2", "--radius", "8", "--scale", "1e6",
                 "--deadline", "3"],
    "minimum-deletion": ["--gamma", "1/3", "--sigma2", "9", "--budget", "8", "--delta", "1e-4"],
    "minimum-depth": ["--gamma", "1/3", "--sigma2", "9", "--budget", "8", "--delta", "1e-4", "--depth", "3"],
    "workload": [],
    "plain": ["--sigma2", "9", "--budget", "2"],
    "dpsgd": ["--sampling-rate", "1", "--noise-multiplier", "1", "--steps", "10"],
    "account": ["--event", "-"],
    "steps": ["--delta", "1e-5", "--noise-multiplier", "1", "--sampling-rate", "0.01"],
    "sampling-rate": ["--delta", "1e-5", "--noise-multiplier", "1", "--steps", "10"],
}
MANY = {"plain", "dpsgd", "account"}


def test_every_epsilon_option_has_both_names():
    """--epsilon and --epsilons are one option wherever the question has ε points: a user's first guess works."""
    _, commands = subparsers()
    with_epsilon = set()
    for name, sub in commands.items():
        names = {o for a in sub._actions for o in a.option_strings if o in ("--epsilon", "--epsilons")}
        if names and name not in EPSILON_ELSEWHERE:
            [action] = [a for a in sub._actions if "--epsilon" in a.option_strings]
            assert set(action.option_strings) == {"--epsilon", "--epsilons"}, name
            with_epsilon.add(name)
    assert with_epsilon == set(EPSILON_COMMANDS)


def parse(name, *args):
    parser, _ = subparsers()
    return parser.parse_args([name, *EPSILON_COMMANDS[name], *args])


@pytest.mark.parametrize("name", sorted(EPSILON_COMMANDS))
def test_both_names_give_the_same_request(name):
    one = parse(name, "--epsilon", "2").epsilon
    assert one == parse(name, "--epsilons", "2").epsilon == (["2"] if name in MANY else "2")


@pytest.mark.parametrize("name", sorted(set(EPSILON_COMMANDS) - MANY))
@pytest.mark.parametrize("given", [["--epsilons", "1,2"], ["--epsilon", "1", "--epsilons", "2"]])
def test_a_list_where_one_epsilon_is_asked_is_refused_in_one_line(name, given, capsys):
    with pytest.raises(SystemExit) as exit_:
        parse(name, *given)
    err = capsys.readouterr().err
    assert exit_.value.code == 2 and len(err.splitlines()) == 1
    assert "argument --epsilon/--epsilons: one ε per certificate here, got 2 (1, 2); " in err


@pytest.mark.parametrize("name", sorted(MANY))
def test_a_list_comes_by_commas_or_repeats_under_either_name(name, capsys):
    assert parse(name, "--epsilon", "1/2,1", "--epsilons", "4").epsilon == ["1/2", "1", "4"]
    with pytest.raises(SystemExit):
        parse(name, "--epsilons", "1,,2")
    assert "an empty ε in '1,,2'" in capsys.readouterr().err


@pytest.mark.parametrize("name", ["calibrate", "dg", "noise"])
def test_gamma_defaults_to_zero_on_each_command_with_a_plain_route(name):
    _, commands = subparsers()
    [gamma] = [a for a in commands[name]._actions if "--gamma" in a.option_strings]
    assert gamma.default == "0" and not gamma.required and "(default 0)" in gamma.help


def test_a_command_line_imports_only_its_command():
    import subprocess
    import sys
    code = ("import sys; from producer import cli\n"
            "try:\n    cli.main(['dg', '--help'])\nexcept SystemExit:\n    pass\n"
            "print(sorted(m for m in sys.modules if m.startswith('producer.commands.')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip().splitlines()[-1] == "['producer.commands.common', 'producer.commands.dg']"


@pytest.mark.parametrize("words", [["dg", "--gamma", "1/3", "--sigma2", "9", "--budget", "3", "--epsilon", "2",
                                    "--radius", "24", "--scale", "10"], ["plain", "--sigma2", "2", "--budget", "3",
                                                                          "--epsilon", "1"]])
def test_the_one_command_parser_reads_what_the_whole_parser_reads(words):
    whole = vars(cli.build_parser().parse_args(words))
    alone = vars(cli.build_parser(words[0]).parse_args(words))
    assert whole.keys() == alone.keys()
    assert all(whole[k] == alone[k] for k in whole)


@pytest.mark.parametrize("words, read", [
    (["game", "--pending", "-2,-1"], ["game", "--pending=-2,-1"]),
    (["plain", "--epsilons", "-1"], ["plain", "--epsilons=-1"]),
    (["game", "--offset", "-3", "--budget", "2"], ["game", "--offset=-3", "--budget", "2"]),
    (["game", "--pending=-2,-1", "-o", "-"], ["game", "--pending=-2,-1", "-o", "-"]),
    (["game", "--weights", "1,2"], ["game", "--weights", "1,2"]),
])
def test_a_value_that_starts_with_a_minus_sign_stays_the_option_value(words, read):
    assert cli.negative_values_attached(words) == read


def test_a_pending_state_with_negative_coordinates_is_read(capsys):
    status = cli.main(["game", "--gamma", "1/4", "--weights", "1,2,4", "--offset", "-1", "--budget", "1",
                       "--point", "4,4", "--pending", "-1,1", "--quiet", "-o", "-"])
    assert status == 0 and '"pending"' in capsys.readouterr().out
    assert cli.main(["plain", "--sigma2", "4", "--budget", "2", "--epsilons", "-1"]) == 2
    assert "must be >= 0" in capsys.readouterr().err
