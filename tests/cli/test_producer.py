"""The producer's command line as a user meets it: refused abbreviations, one answer
line, bad output paths, broken pipes, digit limits, the same γ error everywhere."""

import json
import os
import re
import subprocess
import sys

import pytest

from tests.untimed import HANG_GUARD_SECONDS

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GAME = ["game", "--gamma", "1/3", "--weights", "1,2,1", "--budget", "2", "--threshold", "1/2"]
DG = ["dg", "--gamma", "1/3", "--sigma2", "9", "--budget", "2", "--epsilon", "2", "--radius", "6",
      "--scale", "1000000"]
CALIBRATE = ["calibrate", "--gamma", "1/2", "--sigma2", "1", "--budget", "1", "--delta", "1e-3",
             "--width", "1e-2"]
ENVELOPE = ["envelope", "--universe", "2", "--records", "2", "--queries",
            os.path.join(ROOT, "data", "envelope", "t2-k1.json"), "--rounds", "1", "--hedge", "1/2",
            "--select", "1", "--epsilon", "1"]


def producer(*args, **kwargs):
    env = {k: v for k, v in os.environ.items() if k != "DP_CERTIFY_DEBUG"}
    return subprocess.run([sys.executable, "-m", "producer", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=HANG_GUARD_SECONDS, env=env, **kwargs)


def one_error_line(p, status=2):
    lines = p.stderr.strip().splitlines()
    assert p.returncode == status, p.stderr
    assert len(lines) == 1 and "Traceback" not in p.stderr, p.stderr
    return lines[0]


@pytest.mark.parametrize("args", [
    ["dg", "--gamma", "1/3", "--sigma", "3", "--sigma2", "9", "--budget", "2", "--epsilon", "2",
     "--width", "1e-3"],
    ["dg", "--gamma", "1/3", "--sigma", "3", "--budget", "2", "--epsilon", "2", "--width", "1e-3"],
    ["dg", "--gamma", "1/3", "--sigma2", "9", "--budget", "2", "--eps", "2", "--width", "1e-3"],
    ["calibrate", "--gamma", "1/3", "--sigma2", "9", "--budget", "2", "--del", "1e-3"],
    ["game", "--gamma", "1/3", "--weight", "1,2,1", "--budget", "2", "--threshold", "1"],
])
def test_abbreviated_options_are_refused(args):
    p = producer(*args)
    line = one_error_line(p)
    assert "error" in line and p.stdout == ""


@pytest.mark.parametrize("args, answer", [
    (GAME, "G_2(1, 0.5) = 4/3 (hockey-stick 5/6) for γ = 1/3, ν = (1, 2, 1)/4"),
    (DG, "Δ*_2(2) ∈ ["),
    (CALIBRATE, "ε*_1(0.001) ∈ ["),
    (ENVELOPE, "envelope (selection) with T = 2, n = 2, k = 1, J = 1"),
])
def test_the_answer_line_ends_stderr_and_quiet_removes_everything(args, answer, tmp_path):
    p = producer(*args)
    assert p.returncode == 0, p.stderr
    last = p.stderr.strip().splitlines()[-1]
    assert answer in last
    quiet = producer(*args, "--quiet")
    assert quiet.returncode == 0 and quiet.stderr == "" and quiet.stdout == p.stdout


def test_the_dg_answer_echoes_the_inputs_with_outward_decimals():
    import json
    from gmpy2 import mpq
    p = producer(*DG)
    assert p.returncode == 0, p.stderr
    last = p.stderr.strip().splitlines()[-1]
    assert "for γ = 1/3, σ² = 9, C = 2 (discrete Gaussian, hidden integer feedback)" in last
    shown = last.split("∈ [", 1)[1].split("]", 1)[0].split(", ")
    interval = json.loads(p.stdout)["result"]["interval"]
    assert mpq(shown[0]) <= mpq(interval["lower"]) and mpq(interval["upper"]) <= mpq(shown[1])


@pytest.mark.parametrize("where", ["missing-folder", "directory", "file-as-folder"])
def test_bad_output_path_is_one_line_and_leaves_nothing(where, tmp_path):
    (tmp_path / "plain").write_text("x")
    target = {"missing-folder": tmp_path / "nope" / "x.json", "directory": tmp_path,
              "file-as-folder": tmp_path / "plain" / "x.json"}[where]
    before = sorted(os.listdir(tmp_path))
    p = producer(*GAME, "-o", str(target))
    assert "cannot write" in one_error_line(p) or "directory" in p.stderr
    assert sorted(os.listdir(tmp_path)) == before


@pytest.mark.parametrize("args", [
    CALIBRATE,
    ["plain", "--sigma2", "9", "--budget", "8", "--epsilons", "1/2,1,2,4"],
    ["dpsgd", "--sampling-rate", "0.01", "--noise-multiplier", "1", "--steps", "100", "--delta", "1e-5"],
    ["hierarchy", "--gamma", "1/3", "--sigma2", "9", "--budget", "3", "--depth", "2", "--epsilon", "2",
     "--priors", "100", "--radius", "12", "--source-scale", "2^40", "--logit-range", "8"],
    ["plot", os.path.join(ROOT, "README.md")],
    ["bracket", os.path.join(ROOT, "README.md"), os.path.join(ROOT, "README.md")],
])
def test_a_missing_output_folder_is_reported_before_the_work(args, tmp_path):
    # one line (no progress lines of a computation that could not be written), exit 2, nothing made
    p = producer(*args, "-o", str(tmp_path / "missing" / "out.json"))
    line = one_error_line(p)
    assert "cannot write" in line and "missing does not exist" in line and p.stdout == ""
    assert os.listdir(tmp_path) == []


def test_brace_plot_and_sweep_outputs_are_checked_first(tmp_path):
    (tmp_path / "file").write_text("x")
    p = producer("brace-plot", "--compare", "none.json", "--trajectories", str(tmp_path / "no" / "t.png"),
                 "--errors", str(tmp_path / "e.png"))
    assert "no does not exist" in one_error_line(p)
    p = producer("sweep", "--epsilons", "1", "--budgets", "1", "--sigma2s", "9", "--workers", "0",
                 "--out", str(tmp_path / "file"))
    assert "exists and is not a folder" in one_error_line(p)


@pytest.mark.parametrize("args", [GAME, DG, CALIBRATE])
def test_decimal_gamma_is_read_exactly_like_its_fraction(args):
    # --gamma 0.5 is 1/2 (as --gamma 0.0 is 0): the same certificate bytes
    fraction, decimal = list(args), list(args)
    fraction[fraction.index("--gamma") + 1] = "1/2"
    decimal[decimal.index("--gamma") + 1] = "0.5"
    a, b = producer(*fraction, "--quiet"), producer(*decimal, "--quiet")
    assert a.returncode == 0 and b.returncode == 0, b.stderr
    assert a.stdout == b.stdout


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0, reason="root may write anywhere")
def test_output_without_permission(tmp_path):
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        p = producer(*GAME, "-o", str(folder / "x.json"))
        assert "cannot write" in one_error_line(p)
        assert os.listdir(folder) == []
    finally:
        folder.chmod(0o755)


def test_output_replaces_an_existing_file_completely(tmp_path):
    out = tmp_path / "x.json"
    out.write_text("old content that is much longer than nothing" * 100)
    p = producer(*GAME, "--quiet", "-o", str(out))
    assert p.returncode == 0 and out.read_text() == producer(*GAME, "--quiet").stdout
    assert os.listdir(tmp_path) == ["x.json"]


def test_broken_pipe_is_one_line_and_exit_2():
    env = {k: v for k, v in os.environ.items() if k != "DP_CERTIFY_DEBUG"}
    proc = subprocess.Popen([sys.executable, "-m", "producer", *GAME], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=env)
    proc.stdout.close()  # the reader is gone before the producer writes
    _, err = proc.communicate(timeout=HANG_GUARD_SECONDS)
    err = err.decode()
    assert proc.returncode == 2, err
    assert len(err.strip().splitlines()) == 1 and "broken pipe" in err and "Traceback" not in err


@pytest.mark.parametrize("value, fragment", [
    ("1" * 10_001, "10001 digits"),
    ("1/" + "3" * 10_001, "denominator has 10001 digits"),
    ("1e-99999999", "exponent"),
    ("1e-20000", "denominator"),
    ("1e20000", "numerator"),
    ("9" * 30_000 + ".5", "characters long"),
])
def test_numbers_beyond_the_digit_limit_are_refused(value, fragment):
    p = producer(*GAME[:-1], value)
    line = one_error_line(p)
    assert fragment in line and "limit" in line


def test_numbers_just_under_the_limit_are_read():
    # read, but G at λ = 1/(10^9999/3) is a fraction of 20,003 characters, beyond what the auditor's
    # reader reads (20,002): the producer refuses to seal it (one line) instead of writing an unreadable file
    p = producer(*GAME[:-1], "1/" + "3" * 9_999, "--quiet")
    line = one_error_line(p)
    assert "auditor's reader limit" in line and "hockey_stick" in line
    half = producer(*GAME[:-1], "1/" + "3" * 5_000, "--quiet")
    assert half.returncode == 0, half.stderr


@pytest.mark.parametrize("gamma", ["2/6", "3/3", "5/3", "1/1"])
def test_the_same_gamma_error_in_every_command(gamma):
    commands = [GAME, DG, CALIBRATE]
    messages = set()
    for args in commands:
        args = list(args)
        args[args.index("--gamma") + 1] = gamma
        line = one_error_line(producer(*args))
        messages.add(line.split(": error: ", 1)[1])
    assert len(messages) == 1 and messages.pop().startswith("gamma: ")


@pytest.mark.parametrize("args, fragment", [
    (DG[:-4], "give --width W, or --radius L with --scale S"),
    (DG[:-2], "--radius needs --scale"),
    (DG[:-4] + ["--width", "1e-3", "--scale", "100"], "--scale goes with --radius"),
    (DG + ["--width", "1e-3"], "not allowed with"),
])
def test_dg_source_forms_are_named_in_the_error(args, fragment):
    assert fragment in one_error_line(producer(*args))


def test_dg_usage_shows_the_required_source_forms():
    p = producer("dg", "--help")
    assert p.returncode == 0
    usage = " ".join(p.stdout.split("\n\n", 1)[0].split())
    assert "(--width W | --radius L --scale S)" in usage
    for option in ("--sigma2 Q", "--budget C", "--epsilon E"):
        assert option in usage and f"[{option}" not in usage
    assert "[--gamma A/B]" in usage  # γ = 0 unless given, as for calibrate and noise
    text = " ".join(p.stdout.split())
    assert "discrete-Gaussian hockey-stick value" not in text and "not plain discrete-Gaussian" in text


def test_help_texts_name_no_internal_seeds_or_issues():
    for command in ("game", "dg", "calibrate", "envelope", "envelope-sample", "brace", "brace-compare",
                    "brace-plot"):
        text = producer(command, "--help").stdout.lower()
        assert "seed 00" not in text and "issue" not in text, command


def test_exit_statuses_are_documented():
    text = producer("--help").stdout
    for status in ("0 ", "2 ", "70 ", "130 "):
        assert f"\n  {status}" in text


def test_internal_errors_are_one_line_with_status_70():
    # A γ denominator far beyond anything the game can handle, but within the
    # digit limit, reaches the engine's work estimate (a defect kept out of
    # the user's face): either a clear refusal (2) or one line (70), never a traceback.
    p = producer("game", "--gamma", "1/" + "1" * 400, "--weights", "1,2,1", "--budget", "1",
                 "--threshold", "1")
    line = one_error_line(p, status=p.returncode)
    assert p.returncode in (2, 70)
    if p.returncode == 70:
        assert "internal error" in line and "DP_CERTIFY_DEBUG=1" in line


def test_output_follows_a_symbolic_link(tmp_path):
    (tmp_path / "target.json").write_text("old")
    (tmp_path / "link.json").symlink_to("target.json")
    p = producer(*GAME, "--quiet", "-o", str(tmp_path / "link.json"))
    assert p.returncode == 0, p.stderr
    assert (tmp_path / "link.json").is_symlink()
    assert (tmp_path / "target.json").read_text().startswith('{"digest":')
    assert sorted(os.listdir(tmp_path)) == ["link.json", "target.json"]


def test_output_to_a_device_writes_into_it_and_leaves_it_a_device():
    before = os.stat(os.devnull)
    p = producer(*GAME, "--quiet", "-o", os.devnull)
    assert p.returncode == 0, p.stderr
    after = os.stat(os.devnull)
    assert (after.st_mode, after.st_rdev, after.st_ino) == (before.st_mode, before.st_rdev, before.st_ino)


def test_output_dash_is_standard_output():
    p = producer(*GAME, "--quiet", "-o", "-")
    assert p.returncode == 0 and p.stdout.startswith('{"digest":')
    assert not os.path.exists(os.path.join(ROOT, "-"))


def test_a_closed_stderr_keeps_progress_out_of_the_certificate():
    args = " ".join(["'%s'" % a for a in CALIBRATE])
    p = subprocess.run(["sh", "-c", f"exec 2>&-; '{sys.executable}' -m producer {args}"], cwd=ROOT,
                       capture_output=True, text=True, timeout=HANG_GUARD_SECONDS)
    assert p.returncode == 0
    assert p.stdout.startswith('{"digest":') and p.stdout.count("\n") == 1


@pytest.mark.parametrize("args", [
    GAME + ["--offset", "7" * 5000],
    ["game", "--gamma", "1/3", "--weights", "1,-" + "7" * 5000 + ",1", "--budget", "1", "--threshold", "1"],
    DG[:6] + ["7" * 5000] + DG[7:],
])
def test_long_numbers_in_error_lines_are_shortened(args):
    line = one_error_line(producer(*args))
    assert "(5000 digits)" in line and len(line) < 300


def help_lines(command, monkeypatch):
    """The lines of ``producer COMMAND --help``, one line per option (a wide terminal)."""
    from producer.cli import build_parser
    monkeypatch.setenv("COLUMNS", "1000")
    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    return sub.choices[command].format_help().splitlines()


@pytest.mark.parametrize("command, limit", [
    ("dg", "0 <= C <= 6"), ("calibrate", "0 <= C <= 6"), ("game", "0 <= C <= 6"), ("plain", "1 <= C <= 1024"),
    ("hierarchy-exact", "1 <= C <= 6"), ("blocks", "1 <= C <= 4"), ("calibrate-lower", "1 <= C <= 64"),
    ("sweep", "0 <= C <= 6"), ("finite-budget", "1 <= C <= 10^15"), ("hierarchy", "no fixed upper limit"),
    ("minimum-deletion", "no fixed upper limit"), ("minimum-depth", "no fixed upper limit"),
    ("noise", "1 <= C <= 1024 at γ = 0"),
])
def test_help_states_the_budget_limit(command, limit, monkeypatch):
    budget = [line for line in help_lines(command, monkeypatch) if re.match(r"\s+--budgets? C", line)]
    assert budget and limit in budget[0], budget


def test_hierarchy_help_guides_the_choice_of_depth(monkeypatch):
    depth = [line for line in help_lines("hierarchy", monkeypatch) if line.strip().startswith("--depth H")][0]
    assert "H = 4 at C = 8" in depth and "H = 3 at C = 16" in depth and "--cuts" in depth


def _readme_command(question):
    """The first ``producer ...`` command of the README's row for ``question``, as argv (after 'producer')."""
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as fh:
        row = next(line for line in fh if line.startswith(f"| {question}"))
    return re.search(r"`producer ([^`]*)`", row).group(1).split()


def _options(argv):
    return {argv[i]: argv[i + 1] for i in range(len(argv) - 1) if argv[i].startswith("--")}


def test_the_readme_calibrate_lower_row_shows_its_question_and_matches_the_upper_row():
    from producer.kinds.calibration_lower import Request
    lower = _options(_readme_command("how tight is that"))
    upper = _options(_readme_command("what ε at δ for C = 8, 16"))
    shown = {"--gamma", "--sigma2", "--budget", "--delta"}
    assert shown <= set(lower), "the row relies on defaults it does not show"
    assert {k: lower[k] for k in shown} == {k: upper[k] for k in shown}
    # the shown values are the defaults (the row writes the reference certificate's question)
    given = Request.from_strings("target-zero", gamma=lower["--gamma"], sigma2=lower["--sigma2"],
                                 budget=lower["--budget"], delta=lower["--delta"])
    assert given.as_json() == Request.from_strings("target-zero").as_json()


@pytest.mark.parametrize("request_", [
    ["dpsgd", "--sampling-rate", "1", "--noise-multiplier", "1", "--steps", "10", "--quiet"],
    ["plain", "--sigma2", "9", "--budget", "2", "--quiet"],
])
def test_epsilon_and_epsilons_write_the_same_certificate(request_):
    one = producer(*request_, "--epsilon", "1,2")
    other = producer(*request_, "--epsilons", "1", "--epsilon", "2")
    assert one.returncode == other.returncode == 0, one.stderr + other.stderr
    assert one.stdout == other.stdout and len(json.loads(one.stdout)["result"]["points"]) == 2


def test_a_single_epsilon_command_takes_either_name_and_refuses_a_list():
    base = ["dg", "--sigma2", "9", "--budget", "1", "--width", "1e-6", "--quiet"]
    one, other = producer(*base, "--epsilon", "2"), producer(*base, "--epsilons", "2")
    assert one.returncode == other.returncode == 0 and one.stdout == other.stdout
    line = one_error_line(producer(*base, "--epsilons", "1,2"))
    assert line.endswith("one ε per certificate here, got 2 (1, 2); `producer sweep --epsilons` certifies several")


@pytest.mark.parametrize("request_", [
    ["calibrate", "--sigma2", "9", "--budget", "2", "--delta", "1e-4", "--width", "1e-3", "--quiet"],
    ["dg", "--sigma2", "9", "--budget", "1", "--epsilon", "1", "--width", "1e-6", "--quiet"],
])
def test_gamma_defaults_to_plain_composition_as_noise_does(request_):
    default, zero = producer(*request_), producer(*request_, "--gamma", "0")
    assert default.returncode == zero.returncode == 0, default.stderr
    assert default.stdout == zero.stdout and '"gamma":"0"' in default.stdout
