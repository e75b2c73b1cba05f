"""producer.api: the same validation and the same bytes as the command line."""

import doctest
import json
import os
import re
import subprocess
import sys
from fractions import Fraction

import pytest

import producer
from producer import api
from producer.errors import InputError, LimitError, ReachError
from tests.untimed import HANG_GUARD_SECONDS

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
QUERIES = os.path.join(ROOT, "data", "envelope", "t2-k1.json")
BANK = os.path.join(ROOT, "data", "brace", "synthetic.json")
BRACE_ARGS = ["--bank", BANK, "--query", "0.3,0.2", "--r2", "16/25", "--horizon", "2", "--kappa", "128",
              "--epsilon", "128", "--delta", "1e-5", "--seed", "5"]
BRACE_KW = dict(r2="16/25", horizon=2, kappa=128, epsilon=128, delta="1e-5", seed=5)

# the small C = 3 control of certificates/hierarchy/ (about a second)
HIERARCHY_C3_ARGS = ["hierarchy", "--gamma", "1/3", "--sigma2", "9", "--budget", "3", "--depth", "2",
                     "--epsilon", "2", "--priors", "100", "--radius", "12", "--source-scale", "2^40",
                     "--logit-range", "8"]

# (command-line arguments, the same request through the API)
CASES = {
    "game": (["game", "--gamma", "2/5", "--weights", "2,0,1,3", "--offset", "-1", "--budget", "2",
              "--threshold", "1/3", "--point", "3/2,1", "--curve"],
             lambda: api.finite_game("2/5", [2, 0, 1, 3], 2, offset=-1, thresholds=["1/3"],
                                     points=[("3/2", 1)], curve=True)),
    "game-pending": (["game", "--gamma", "1/3", "--weights", "1,2,1", "--budget", "1", "--pending", "1,0",
                      "--threshold", "2"],
                     lambda: api.finite_game(Fraction(1, 3), "1,2,1", 1, pending=(1, 0), thresholds=2)),
    "dg": (["dg", "--gamma", "1/3", "--sigma2", "9/4", "--budget", "1", "--epsilon", "4.91",
            "--radius", "6", "--scale", "1000000", "--method", "reduced"],
           lambda: api.dg_interval("1/3", Fraction(9, 4), 1, "4.91", radius=6, scale=10**6, method="reduced")),
    "dg-width": (["dg", "--gamma", "1/2", "--sigma2", "1", "--budget", "2", "--epsilon", "1",
                  "--width", "1e-6"],
                 lambda: api.dg_interval("1/2", 1, 2, 1, width=Fraction(1, 10**6))),
    "calibrate": (["calibrate", "--gamma", "1/2", "--sigma2", "1", "--budget", "1", "--delta", "1e-3",
                   "--width", "1e-2"],
                  lambda: api.calibration("1/2", "1", "1", Fraction(1, 1000), width="0.01")),
    "envelope": (["envelope", "--universe", "2", "--records", "2", "--queries", QUERIES, "--rounds", "1",
                  "--hedge", "1/2", "--select", "1", "--epsilon", "1"],
                 lambda: api.pmw_envelope(2, 2, json.load(open(QUERIES))["queries"], 1, "1/2", 1, 1)),
    "brace": (["brace", *BRACE_ARGS], lambda: api.brace_run(BANK, "0.3,0.2", **BRACE_KW)),
    "brace-compare": (["brace-compare", *BRACE_ARGS],
                      lambda: api.brace_compare(BANK, ["0.3", "0.2"], **BRACE_KW)),
    "hierarchy": (HIERARCHY_C3_ARGS,
                  lambda: api.hierarchy_upper("1/3", 9, 3, depth=2, epsilon=2, priors=100, radius=12,
                                        source_scale=2**40, logit_range=8)),
    "hierarchy-cuts": (["hierarchy", "--gamma", "1/3", "--sigma2", "9", "--budget", "3", "--cuts", "0,1",
                        "--delta", "1e-2", "--priors", "50", "--radius", "12", "--source-scale", "2^40",
                        "--logit-range", "8"],
                       lambda: api.hierarchy_upper(Fraction(1, 3), "9", 3, cuts=[0, 1], delta=Fraction(1, 100),
                                             priors=50, radius=12, source_scale="2^40", logit_range="8")),
    "deadline": (["deadline", "--gamma", "1/3", "--sigma2", "9", "--budget", "2", "--epsilon", "2", "--radius", "16",
                  "--scale", "1e24", "--deadline", "4", "--deadline", "3"],
                 lambda: api.deadline_witness("1/3", 9, 2, 16, 10**24, [3, 4], budget=2)),
    "deadline-reference": (["deadline", "--gamma", "1/3", "--sigma2", "9", "--budget", "2", "--epsilon", "2",
                            "--radius", "16", "--scale", "1e24", "--deadline", "3", "--reference"],
                           lambda: api.deadline_witness("1/3", 9, 2, 16, 10**24, 3, budget="2", reference=True)),
    "workload": (["workload", "--dimension", "10", "--no-identity"], lambda: api.workload(dimension=10,
                                                                                       identity=False)),
    "separation": (["separation", "--claim", "finite-relaxation"], lambda: api.separation("finite-relaxation")),
    "calibrate-lower": (["calibrate-lower", "--claim", "capped-preparation", "--delta", "1e-4"],
                        lambda: api.calibration_lower("capped-preparation", delta=Fraction(1, 10**4))),
}


def producer_cli(*args):
    return subprocess.run([sys.executable, "-m", "producer", *args], cwd=ROOT, capture_output=True,
                          timeout=HANG_GUARD_SECONDS)


@pytest.mark.parametrize("name", sorted(CASES))
def test_cli_and_api_give_the_same_bytes_and_claim(name, tmp_path):
    argv, call = CASES[name]
    cert = call()
    out = tmp_path / "cli.json"
    p = producer_cli(*argv, "-o", str(out))
    assert p.returncode == 0, p.stderr.decode()
    assert out.read_bytes() == cert.to_json()
    assert p.stderr.decode().strip().splitlines()[-1] == cert.claim
    written = tmp_path / "api.json"
    cert.write(written)
    assert written.read_bytes() == cert.to_json()
    assert cert.kind == json.loads(cert.to_json())["schema"]


def test_certificate_is_immutable_and_hands_out_copies():
    cert = api.finite_game("1/3", [1, 2, 1], 2, thresholds=["1/2"])
    assert not hasattr(cert, "__dict__")
    with pytest.raises(AttributeError):
        cert.kind = "x"
    with pytest.raises(AttributeError):
        cert.extra = 1
    with pytest.raises(AttributeError):
        del cert._data
    cert.result["queries"][0]["value"] = "99"
    cert.input["budget"] = 7
    cert.as_dict()["digest"] = "0"
    assert cert.result["queries"][0]["value"] == "4/3" and cert.input["budget"] == 2
    assert json.loads(cert.to_json()) == cert.as_dict()
    assert cert.digest == cert.as_dict()["digest"]


def test_exports_from_the_package():
    for name in ("Certificate", "finite_game", "dg_interval", "calibration", "pmw_envelope", "brace_run",
                 "brace_compare", "hierarchy_upper", "deadline_witness", "workload", "separation", "calibration_lower",
                 "bracket", "InputError", "LimitError"):
        assert getattr(producer, name) is not None and name in dir(producer)
    assert producer.InputError is InputError
    import importlib
    for module in ("producer.hierarchy.models", "producer.kinds.separation"):
        importlib.import_module(module)  # a subpackage must not shadow an API name
    assert all(callable(getattr(producer, name)) for name in producer._API)
    with pytest.raises(AttributeError):
        _ = producer.no_such_function


@pytest.mark.parametrize("call, fragment", [
    (lambda: api.finite_game("2/6", [1, 2, 1], 2, thresholds=[1]), "not reduced"),
    (lambda: api.finite_game("3/3", [1, 2, 1], 2, thresholds=[1]), "0 < a < B"),
    (lambda: api.dg_interval(Fraction(1, 1), 9, 2, 2, width="1e-3"), "at least 2"),
    (lambda: api.calibration("1/3", 9, True, "1e-6"), "not an integer"),
    (lambda: api.finite_game("1/3", [1, 2, 1], 2), "nothing to compute"),
    (lambda: api.finite_game("1/3", [1, 2, 1], 2, points=["1,2,3"]), "X,Y"),
    (lambda: api.finite_game("1/3", [1, 2, 1], 2, thresholds=["-1"]), ">= 0"),
    (lambda: api.dg_interval("1/3", 9, 2, 2), "width=W, or radius=L"),
    (lambda: api.dg_interval("1/3", 9, 2, 2, width="1e-3", radius=3, scale=9), "width=W, or radius=L"),
    (lambda: api.pmw_envelope(2, 2, [["1", "0"]], 1, "1/2", 1, 1, precision=4), "outside 8..4096"),
    (lambda: api.brace_run(BANK, "0.3,0.2", horizon=2, kappa=1, epsilon=1, delta="1e-5", seed=1),
     "r2"),
    (lambda: api.hierarchy_upper("1/3", 9, 3, depth=2, cuts="all", epsilon=2), "exactly one of depth"),
    (lambda: api.hierarchy_upper("1/3", 9, 3, depth=2), "exactly one of delta"),
    (lambda: api.hierarchy_upper("1/3", 9, 3, depth=2, epsilon=2, radius="1.5"), "radius"),
    (lambda: api.hierarchy_upper("1/3", 9, 3, depth=2, epsilon=2, source_scale="2^x"), "source scale"),
    (lambda: api.hierarchy_upper("1/3", 9, 3, depth=2, delta="1.5"), "δ"),
    (lambda: api.deadline_witness("1/3", 9, 2, 16, "1.5", [3], budget=2), "scale"),
    (lambda: api.deadline_witness("1/3", 9, 2, 16, 10**24, [3], budget=2, reading="min"), "reading"),
    (lambda: api.deadline_witness("1/3", 9, 2, 16, 10**24, [3], budget=1), "more than the budget"),
    (lambda: api.deadline_witness("1/3", 9, 2, 16, 10**24, [3], budget="1.5"), "budget"),
    (lambda: api.deadline_witness("1/3", 9, 2, 16, 10**24, [3], budget=2, reference="yes"), "reference"),
    (lambda: api.separation("no-such-claim"), "unknown claim"),
    (lambda: api.separation("finite-relaxation", separator="1/2"), "no separator"),
    (lambda: api.separation("binary-pair", separator=1), "no strict separation"),
    (lambda: api.separation("binary-pair", separator=10**400), "separator 1e+400"),
    (lambda: api.dg_interval("1/3", None, 2, 2, width="1e-3"), "innovation law: sigma2=Q (discrete Gaussian) or "
     "laplace=T (discrete Laplace), none was given"),
    (lambda: api.plain_composition(None, 2, epsilons="1"), "none was given"),
    (lambda: api.plain_composition(9, 2, epsilons="1", laplace=2), "not both"),
    (lambda: api.calibration_lower("capped-preparation", budget=3), "only delta"),
    (lambda: api.calibration_lower("capped-preparation", delta=2), "(0, 1)"),
    (lambda: api.calibration_lower("other"), "claim"),
])
def test_bad_input_raises_input_error(call, fragment):
    with pytest.raises(InputError) as info:
        call()
    assert fragment in str(info.value)


@pytest.mark.parametrize("call, fragment", [
    (lambda: api.pmw_envelope(2, 2, [["1", "0"]], 1, "1/2", 10**400, 1), "η = 1e+400 exceeds the auditor's limit"),
    (lambda: api.pmw_envelope(2, 2, [["1", "0"]], 1, "1/2", 1, "1e400"), "= 1e+400 exceeds the auditor's limit"),
    (lambda: api.pmw_sample(2, 2, [["1", "0"]], 1, "1/2", 10**30, 1, "0,1", 1), "η = 1e+30 exceeds the sampler's"),
    (lambda: api.pmw_sample(2, 2, [["1", "0"]], 1, "1/2", 1, 2**80, "0,1", 1), "exceeds the sampler's limit"),
])
def test_huge_envelope_exponents_are_refused_in_one_line(call, fragment):
    with pytest.raises(LimitError, match=re.escape(fragment)):
        call()


def test_digit_limits_apply_to_python_values_too():
    with pytest.raises(LimitError):
        api.finite_game("1/3", [1, 2, 1], 2, thresholds=[Fraction(1, 10**10_000)])
    with pytest.raises(LimitError):
        api.finite_game("1/3", [1, 2, 1], 2, thresholds=[10**10_000])
    cert = api.finite_game("1/3", [1, 2, 1], 0, thresholds=[Fraction(1, 10**9_999)])
    assert cert.input["thresholds"] == ["1/1" + "0" * 9_999]


def test_progress_callback_receives_game_progress():
    lines = []
    api.finite_game("1/3", [1, 2, 1], 1, thresholds=[1, 2, 3, 4], progress=lines.append)
    assert lines[-1] == "query 4/4 done"


def test_the_hierarchy_witness_route_is_silent_unless_asked(capsys):
    """The target-zero witness line's float phase reports through the progress callback only (C = 1: about
    a second; every budget of the route goes through the same game)."""
    silent = api.epsilon_bracket("1/3", 1, "1e-4", sigma2=9)
    assert capsys.readouterr() == ("", "")
    lines = []
    assert api.epsilon_bracket("1/3", 1, "1e-4", sigma2=9, progress=lines.append) == silent
    assert capsys.readouterr() == ("", "")
    assert "lower: float lines 0/110 nodes" in [line.rsplit(",", 1)[0] for line in lines]


def test_calibrate_says_what_it_does_where_the_game_does_not_reach(monkeypatch):
    """C = 5 at σ² = 9: the auditor's work for one game query exceeds its limit, found before the first
    probe; calibrate goes on by the hierarchy-witness route (stubbed: its own tests build it) and says so,
    without the game's advice to reduce the budget."""
    calls = []
    bracket = api.epsilon_bracket("1/3", 1, "1e-4", sigma2=9)   # a stand-in of the route's certificate
    monkeypatch.setattr(api, "epsilon_bracket", lambda *args, **kwargs: calls.append((args, kwargs)) or bracket)
    lines = []
    answer = api.calibrate("1/3", 9, 5, "1e-4", progress=lines.append)
    assert calls == [(("1/3", 5, "1e-4"), {"sigma2": 9, "progress": lines.append})]
    (line,) = [line for line in lines if "does not reach" in line]
    assert "estimated work" in line and "reduce" not in line
    assert line.endswith("; answering it by the route hierarchy-witness instead")
    # the answer line says why (the certificate's bytes are the route's own)
    assert answer.to_json() == bracket.to_json()
    assert answer.claim.startswith(bracket.claim + "; not the exact game: estimated work")


def test_calibrate_refuses_a_width_the_hierarchy_route_cannot_aim_at(monkeypatch):
    """Where the game does not reach (C = 5 at σ² = 9) the route is hierarchy-witness, which cannot aim at a
    width: a width asked for is refused before that route's work starts, never dropped."""
    monkeypatch.setattr(api, "epsilon_bracket", lambda *args, **kwargs: pytest.fail("the hierarchy was started"))
    with pytest.raises(InputError) as caught:
        api.calibrate("1/3", 9, 5, "1e-4", width="1e-6")
    message = str(caught.value)
    assert message.startswith("width: the exact game does not reach this request (estimated work ")
    assert "hierarchy-witness, which cannot aim at a width" in message and message.endswith("; omit width")


def test_calibrate_names_both_reasons_when_neither_route_answers():
    """γ = 1/10^6, C = 2: the game's estimate is past its limit, and the hierarchy's pending-node bound 2·B·C
    too; the one line says both, the game's first."""
    with pytest.raises(LimitError) as caught:
        api.calibrate("1/1000000", 9, 2, "1e-4")
    message = str(caught.value)
    assert message.startswith("the exact game does not reach this request (estimated work ") and "\n" not in message
    assert "), and the route hierarchy-witness refuses it: budget: C = 2 gives the auditor's pending-node bound" \
        in message
    assert message.endswith("the hierarchy answers no C >= 1 for this γ")   # not "C <= 0"


def test_a_progress_callback_receives_the_lines_instead_of_stderr(capsys):
    lines = []
    api.dpsgd("1", 1, 10, epsilons="1", progress=lines.append)
    assert capsys.readouterr() == ("", "") and lines == ["Gaussian closed form, μ² = 10"]
    api.dpsgd("1", 1, 10, epsilons="1", progress=True)
    assert capsys.readouterr().err == "dpsgd: Gaussian closed form, μ² = 10\n"


def test_the_python_api_document_runs():
    path = os.path.join(ROOT, "docs", "python-api.md")
    failures, tried = doctest.testfile(path, module_relative=False,
                                       optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert tried >= 20 and failures == 0


def test_the_from_peers_document_runs():
    # docs/from-peers.md: the peers' snippets are plain blocks (not run), ours run here, dp_accounting or not
    path = os.path.join(ROOT, "docs", "from-peers.md")
    failures, tried = doctest.testfile(path, module_relative=False,
                                       optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert tried >= 25 and failures == 0


@pytest.mark.parametrize("call, fragment", [
    (lambda: api.dg_interval("1/3", 9, 10**12, 2, width="1e-3"), "C <= 6"),
    (lambda: api.calibration("1/3", 9, 7, "1e-6"), "C <= 6"),
    (lambda: api.dg_interval("1/3", "1e-12", 2, 1, width="1e-3"), "below the limit"),
    (lambda: api.calibration("1/3", "1e-10", 1, "1e-3"), "below the limit"),
    (lambda: api.dg_interval("1/3", "1/100", 1, 1, radius=2048, scale=1000), "atoms beyond L = 31"),
    (lambda: api.pmw_envelope(2, 2, [["1", "0"]], 10**11, "1/2", 1, 1), "2^J"),
    (lambda: api.pmw_envelope(10**40, 2, [["1", "0"]], 1, "1/2", 1, 1), "universe"),
    (lambda: api.pmw_envelope(2, 10**40, [["1", "0"]], 1, "1/2", 1, 1), "records"),
    (lambda: api.pmw_envelope(1, 20_001, [["1"]], 1, "1/2", 1, 1), "records"),
    (lambda: api.finite_game("1/3", [1, 2, 1], 1, thresholds=[1], offset=10**6 + 1), "offset"),
    (lambda: api.finite_game("1/3", [1, 2, 1], 1, thresholds=[1], pending=(0, -10**6 - 1)), "pending"),
    (lambda: api.brace_run(BANK, "0.3,0.2", **dict(BRACE_KW, seed=2**256)), "seed"),
    (lambda: api.pmw_parameters(10**6, 1001, 1, 1, "1/2"), "min(T - 1, n)"),
])
def test_sizes_are_refused_before_any_work(call, fragment):
    with pytest.raises(LimitError) as info:
        call()
    assert fragment in str(info.value)


@pytest.mark.parametrize("call, answered_by", [
    (lambda: api.calibration("1/3", 9, 1000, "1e-6"), "producer.calibrate answers it (route hierarchy-witness)"),
    (lambda: api.calibration("0", 9, 1000, "1e-6"), "producer.calibrate answers it (route product-pair, C <= 1024)"),
    (lambda: api.dg_interval("1/3", 9, 1000, 2, width="1e-3"), "producer.hierarchy_upper bounds it from above"),
    (lambda: api.dg_interval("0", 9, 1000, 2, width="1e-3"),
     "producer.plain_composition encloses it at γ = 0 (C <= 1024)"),
])
def test_beyond_the_game_the_refusal_names_the_function_that_answers(call, answered_by):
    with pytest.raises(ReachError) as info:
        call()
    assert str(info.value) == f"budget: C = 1000 exceeds the exact game's limit C <= 6; {answered_by}"


def test_size_bounds_do_not_refuse_what_is_small():
    # the largest explicit radius the auditor can check for σ² = 1/100 works: L²/(2σ²) <= 50,000 at L = 31
    assert api.dg_interval("1/3", "1/100", 1, 1, radius=31, scale=1000).kind == "dg-interval/1"
    with pytest.raises(LimitError, match="auditor"):
        api.dg_interval("1/3", "1/100", 1, 1, radius=32, scale=1000)


def test_the_hierarchy_control_has_the_reference_bytes():
    cert = api.hierarchy_upper("1/3", 9, 3, depth=2, epsilon=2, priors=100, radius=12, source_scale="2^40",
                         logit_range=8)
    reference = os.path.join(ROOT, "certificates", "hierarchy", "hierarchy-c3-p2-eps2-small.json")
    with open(reference, "rb") as fh:
        assert cert.to_json() == fh.read()


@pytest.mark.parametrize("extra", [[], ["--json"]])
def test_bracket_writes_its_output_atomically_and_says_the_line(extra, tmp_path):
    lower = os.path.join(ROOT, "certificates", "calibration-lower-k2-capped-c4.json")
    upper = os.path.join(ROOT, "certificates", "calibration-published-c4-delta1e-4.json")
    result = api.bracket(lower, upper)
    out = tmp_path / "bracket.txt"
    p = producer_cli("bracket", lower, upper, *extra, "-o", str(out))
    assert p.returncode == 0 and p.stdout == b""
    expected = json.dumps(result.as_dict(), sort_keys=True) if extra else result.line()
    assert out.read_bytes() == (expected + "\n").encode("utf-8")
    assert p.stderr.decode().strip().splitlines() == [result.line()]
    quiet = producer_cli("bracket", lower, upper, *extra, "--quiet")
    assert quiet.returncode == 0 and quiet.stderr == b"" and quiet.stdout == (expected + "\n").encode("utf-8")


@pytest.mark.parametrize("argv", [
    ["hierarchy", "--gamma", "1/3", "--sigma2", "9", "--budget", "3", "--depth", "2", "--epsilon", "2",
     "--radius", "x"],
    ["hierarchy", "--gamma", "1/3", "--sigma2", "9", "--budget", "3", "--depth", "2", "--cuts", "all",
     "--epsilon", "2"],
    ["hierarchy", "--gamma", "1/3", "--sigma2", "9", "--budget", "3", "--depth", "2", "--epsilon", "2",
     "--delta", "1e-4"],
    ["deadline", "--gamma", "1/3", "--sigma2", "9", "--budget", "2", "--epsilon", "2", "--radius", "16",
     "--scale", "1.5", "--deadline", "3"],
    ["workload", "--theta", "0"],
    ["separation", "--claim", "binary-pair", "--separator", "1"],
    ["calibrate-lower", "--claim", "capped-preparation", "--radius", "3"],
    ["bracket", os.path.join(ROOT, "certificates", "calibration-lower-k2-capped-c4.json"),
     os.path.join(ROOT, "certificates", "calibration-c2-delta1e-4.json")],
])
def test_bad_input_to_the_new_commands_is_one_line_and_status_2(argv):
    p = producer_cli(*argv)
    lines = p.stderr.decode().strip().splitlines()
    assert p.returncode == 2 and len(lines) == 1 and "error" in lines[0] and p.stdout == b"", lines


def _shown_number(claim, mark):
    from producer.rationals import parse_rational
    return parse_rational(claim.split(mark, 1)[1].split()[0])


@pytest.mark.parametrize("name", ["reference-lower", "hierarchy-upper", "workload-upper"])
def test_answer_lines_round_outward(name):
    """A lower end is shown rounded down after ≥, an upper end rounded up after ≤."""
    from producer.rationals import parse_rational
    if name == "reference-lower":
        cert = api.calibration_lower("capped-preparation")
        exact, mark, sign = parse_rational(cert.result["epsilon_lower"]), " ≥ ", -1
    elif name == "hierarchy-upper":
        cert = api.hierarchy_upper("1/3", 9, 3, depth=2, epsilon=2, priors=100, radius=12, source_scale=2**40,
                             logit_range=8)
        exact, mark, sign = parse_rational(cert.result["upper"]), " ≤ ", +1
    else:
        cert = api.workload(dimension=10, identity=False)
        exact, mark, sign = parse_rational(cert.result["delta_upper"]), " ≤ ", +1
    shown = _shown_number(cert.claim, mark)
    assert (shown - exact) * sign >= 0 and abs(shown - exact) < exact / 10**9


# every producer command and the API function making its certificate (None: the document says it has none)
COMMAND_FUNCTIONS = {
    "game": "finite_game", "dg": "dg_interval", "calibrate": "calibration", "envelope": "pmw_envelope",
    "envelope-sample": "pmw_sample", "brace": "brace_run", "brace-compare": "brace_compare", "brace-plot": None,
    "hierarchy": "hierarchy_upper", "deadline": "deadline_witness", "workload": "workload",
    "separation": "separation", "calibrate-lower": "calibration_lower", "bracket": "bracket", "sweep": None,
    "plot": None, "plain": "plain_composition", "rate": "rate", "frontier": "frontier", "window": "window_request",
    "finite-budget": "finite_budget", "dpsgd": "dpsgd", "curve": "privacy_curve", "hierarchy-exact": "hierarchy_exact",
    "blocks": "block_composition", "minimum-deletion": "minimum_deletion", "minimum-depth": "minimum_depth",
    "noise": "noise", "account": "account", "steps": "dpsgd_steps", "sampling-rate": "dpsgd_sampling_rate",
}


def _python_api_text():
    with open(os.path.join(ROOT, "docs", "python-api.md"), encoding="utf-8") as fh:
        return fh.read()


def test_the_python_api_table_lists_every_function_and_each_is_importable():
    text = _python_api_text()
    for name in api.__all__:
        if name in ("Certificate", "InputError", "pmw_parameters", "pmw_sample"):
            continue
        assert f"| `producer.{name}(" in text, f"{name} is missing from the table of docs/python-api.md"
        assert getattr(producer, name) is getattr(api, name)
        assert name in producer.__all__


def test_the_python_api_document_names_the_commands_without_a_function():
    from producer.cli import COMMANDS
    text = _python_api_text()
    assert set(COMMAND_FUNCTIONS) == {name for name, _ in COMMANDS}
    assert "Everything the `producer` command line computes" not in text
    for command, function in COMMAND_FUNCTIONS.items():
        if function is None:
            assert f"`producer {command}`" in text.split("## Certificates")[0], command
        else:
            assert function in api.__all__, command


# the repository's certificates/ folder, as a path or a path part (a result's .certificates is no path)
REPOSITORY_FOLDER = re.compile(r"""["'/]certificates\b|\bcertificates["'/]""")


def test_the_python_api_examples_read_no_repository_files():
    # a pip-installed package has no certificates/ folder beside it: the examples build what they use
    code = [line for line in _python_api_text().splitlines() if line.startswith((">>> ", "... "))]
    assert code
    for line in code:
        assert "__file__" not in line and not REPOSITORY_FOLDER.search(line), line


def test_floats_and_numpy_scalars_are_read_as_their_shortest_decimal():
    np = pytest.importorskip("numpy")
    certificate = api.dpsgd(sampling_rate=256 / 60000, noise_multiplier=np.float64(1.1), steps=np.int64(10),
                            delta=1e-5)
    stage = certificate.input["stages"][0] if "stages" in certificate.input else certificate.input
    text = json.dumps(stage)
    assert '"11/10"' in text and '"4266666666666667/1000000000000000000"' in text


def test_list_parameters_take_numpy_arrays_and_one_number():
    """epsilons and taus as a notebook writes them: a numpy array is its items, one number a list of one."""
    import numpy as np
    as_list = producer.plain_composition(sigma2=9, budget=8, epsilons=[1, 2])
    assert producer.plain_composition(sigma2=9, budget=8, epsilons=np.array([1, 2])).to_json() == as_list.to_json()
    one = producer.dpsgd(0.01, 1, 100, epsilons=[2])
    assert producer.dpsgd(0.01, 1, 100, epsilons=2).to_json() == one.to_json()
    assert producer.dpsgd(0.01, 1, 100, epsilons=np.array([2.0])).to_json() == one.to_json()
    assert producer.frontier("1/2", "1/4", taus=2).to_json() == producer.frontier("1/2", "1/4", taus=[2]).to_json()
    with pytest.raises(InputError, match=r'^weights: expected "1,2,1" or a list of integers, got int$'):
        producer.finite_game("1/3", 5, 2, thresholds=["1/2"])


def test_a_plain_composition_without_a_budget_is_refused_in_one_line():
    with pytest.raises(InputError, match=r"^budget: give C, the number of releases \(budget=C\), or a list of "
                                         r"releases$"):
        producer.plain_composition(sigma2=9, budget=None, epsilons="2")


# a mistake refused in one line naming the parameter, before any work (each was a TypeError or silently wrong)
REFUSED_MISTAKES = [
    (lambda: api.noise(2, "1e-5"), InputError, "budget: give C, the number of releases (budget=C), or a list of "
                                               "releases"),
    (lambda: api.noise(2, "1e-5", gamma="1/3"), InputError, "budget: give C, the number of releases (budget=C)"),
    (lambda: api.dpsgd(stages=None, delta="1e-5"), InputError, "give a stage: sampling_rate, noise_multiplier"),
    (lambda: api.bracket(None, None), InputError, "lower: give a Certificate, a dict or the path of a certificate "
                                                  "file"),
    (lambda: api.bracket(5, None), InputError, "lower: expected a Certificate, a dict or the path of a certificate "
                                               "file, got an integer"),
    (lambda: api.dpsgd("0.01", 1, 10, epsilons="1,,2"), InputError, "epsilons: an empty ε in '1,,2'"),
    (lambda: api.account({"class_name": "GaussianDpEvent", "noise_multiplier": 2}, epsilons="1,2,"), InputError,
     "epsilons: an empty ε in '1,2,'"),
    (lambda: api.plain_composition(9, 2, "1,2,"), InputError, "epsilons: an empty ε in '1,2,'"),
    (lambda: api.noise(2, "1e-5", 100, laplace="false"), InputError, "laplace: expected True or False, got 'false'"),
    (lambda: api.workload(identity="no"), InputError, "identity: expected True or False, got 'no'"),
    (lambda: api.dpsgd("0.01", 1, 10, delta="1e-5", progress="no"), InputError,
     "progress: expected True, False or a callable receiving each line, got 'no'"),
    (lambda: api.account({"class_name": "GaussianDpEvent", "noise_multiplier": 2}, delta="1e-5", progress="no"),
     InputError, "progress: expected True, False or a callable"),
    (lambda: api.plain_composition(epsilons=1, releases=[("dg", 9, 10)]), InputError,
     "release: ('dg', 9, 10) is not of the form law:scale[:sensitivity]xcount, e.g. dg:9x100"),
    (lambda: api.dpsgd("0.01", 1, 10, delta="1e-5", rel_width=0), InputError, "rel_width: must be positive, got 0"),
    (lambda: api.plain_composition(9, 2, 1, rel_width=0), InputError, "rel_width: must be positive, got 0"),
]


@pytest.mark.parametrize("call, error, message", REFUSED_MISTAKES)
def test_a_mistake_is_one_line_naming_the_parameter(call, error, message):
    with pytest.raises(error) as info:
        call()
    assert str(info.value).startswith(message) and "\n" not in str(info.value), str(info.value)


def test_one_release_text_is_one_release_as_one_stage_text_is_one_stage():
    one = api.plain_composition(epsilons=1, releases=["dg:9x10"], width="1e-12")
    assert api.plain_composition(epsilons=1, releases="dg:9x10", width="1e-12").to_json() == one.to_json()
    assert api.plain_composition(epsilons=1, releases=[("dg", 9, 1, 10)], width="1e-12").to_json() == one.to_json()
    stage = api.dpsgd(stages=["0.01:1x10"], delta="1e-5")
    assert api.dpsgd(stages="0.01:1x10", delta="1e-5").to_json() == stage.to_json()


def test_an_account_event_object_is_read_field_by_field():
    """dp_accounting's to_named_tuple() spells a text field "1.5" out as "['1', '.', '5']"; the event's own
    fields are read instead, as its JSON form; the class itself is refused in one line."""
    dpa = pytest.importorskip("dp_accounting")
    as_json = api.account({"class_name": "GaussianDpEvent", "noise_multiplier": "1.5"}, delta="1e-5")
    assert api.account(dpa.GaussianDpEvent("1.5"), delta="1e-5").to_json() == as_json.to_json()
    with pytest.raises(InputError, match=r"^event: GaussianDpEvent is an event class, not an event: give an "
                                         r"instance"):
        api.account(dpa.GaussianDpEvent, delta="1e-5")
