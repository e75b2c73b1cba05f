"""``producer account`` on the command line: the event file (or standard input), the same bytes as the API,
and refusals in one line (exit 2, no file) naming the command's flags, before the work."""

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

import producer
from producer import cli
from producer.references.accounting import compose, gaussian, laplace, poisson, randomized_response, repeat
from tests.untimed import HANG_GUARD_SECONDS

ROOT = Path(__file__).resolve().parents[2]


def main(capsys, *args):
    status = None
    try:
        status = cli.main(["account", *args])
    except SystemExit as exc:      # argparse usage errors exit directly
        status = exc.code
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def _event_file(tmp_path, tree, name="event.json"):
    path = tmp_path / name
    path.write_text(json.dumps(tree), encoding="utf-8")
    return path


def refused(capsys, tmp_path, *args):
    """The one error line of a refused request; asserts exit 2, nothing on stdout, no file."""
    out = tmp_path / "refused.json"
    status, stdout, stderr = main(capsys, *args, "-o", str(out))
    assert status == 2 and stdout == "" and not out.exists(), stderr
    assert stderr.count("\n") == 1 and stderr.startswith("producer account: error: "), stderr
    return stderr


def test_the_command_writes_the_apis_bytes_and_states_the_claim(capsys, tmp_path):
    tree = compose(repeat(20, poisson(0.05, gaussian(1))), laplace(4))
    out = tmp_path / "c.json"
    status, _, err = main(capsys, "--event", str(_event_file(tmp_path, tree)), "--delta", "1e-5",
                          "--rel-width", "1/100", "-o", str(out))
    assert status == 0, err
    assert err.splitlines()[-1].startswith("ε(1e-05) ∈ [")
    assert "Gaussian σ = 1 sampled at q = 0.05 ×20; Laplace b = 4 ×1 (add/remove; certified PLD" in err
    assert out.read_bytes() == producer.account(tree, delta="1e-5", rel_width="1/100").to_json()


def test_the_event_may_come_from_standard_input_and_the_relation_from_a_flag(monkeypatch, capsys):
    tree = repeat(3, randomized_response("1/2", 4))
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(json.dumps(tree).encode())))  # as a real stdin
    status, out, err = main(capsys, "--event", "-", "--relation", "replace_one", "--epsilons", "1,2", "--quiet")
    assert status == 0 and err == ""
    assert out.encode("utf-8") == producer.account(tree, epsilons="1,2", neighboring_relation="replace_one").to_json()


def test_a_python_session_and_a_subprocess_agree_byte_for_byte(tmp_path):
    tree = compose(laplace(2), repeat(4, poisson("1/10", gaussian(1))))
    out = tmp_path / "s.json"
    done = subprocess.run([sys.executable, "-m", "producer", "account", "--event",
                           str(_event_file(tmp_path, tree)), "--epsilons", "1/2,1", "-o", str(out), "--quiet"],
                          cwd=ROOT, capture_output=True, text=True, timeout=HANG_GUARD_SECONDS)
    assert done.returncode == 0, done.stderr
    assert out.read_bytes() == producer.account(tree, epsilons=[0.5, 1]).to_json()


@pytest.mark.parametrize("tree,args,words", [
    (gaussian(1), ("--delta", "1e-31"), "--delta: 1e-31 is below the limit 10^-30"),
    (gaussian(1), ("--delta", "1e-5", "--rel-width", "1e-7"), "--rel-width: 1e-07 is outside the limits"),
    (gaussian(1), ("--epsilons", "1,1"), "--epsilons: 1 is given twice"),
    ({"class_name": "DiscreteLaplaceDpEvent", "noise_parameter": 1, "sensitivity": 1001}, ("--delta", "1e-5"),
     "--event: DiscreteLaplaceDpEvent.sensitivity: 1001 exceeds the limit 1 000"),
    (compose(gaussian(1), {"class_name": "NonPrivateDpEvent"}), ("--delta", "1e-5"),
     "--event: events[1] (NonPrivateDpEvent) is not accounted"),
    (randomized_response("1/2", 3), ("--delta", "1e-5"), "--event: RandomizedResponseDpEvent: randomized response "
                                                        "is defined under replace_one and replace_special only"),
    (repeat(0, gaussian(1)), ("--delta", "1e-5"), "--event: the tree has no privacy loss"),
    (gaussian("1/20"), ("--delta", "1e-5"), "--event: GaussianDpEvent.noise_multiplier: σ = 0.05 is outside"),
    (repeat(10**6, poisson("0.02", gaussian(1))), ("--delta", "1e-5", "--rel-width", "1e-6"), "--rel-width"),
])
def test_refusals_are_one_line_naming_the_flags(capsys, tmp_path, tree, args, words):
    line = refused(capsys, tmp_path, "--event", str(_event_file(tmp_path, tree)), *args)
    assert words in line and "rel_width" not in line and "neighboring_relation" not in line


def test_an_unreadable_or_malformed_event_file_is_refused_in_one_line(capsys, tmp_path):
    assert "--event: cannot read" in refused(capsys, tmp_path, "--event", str(tmp_path / "missing.json"),
                                             "--delta", "1e-5")
    bad = tmp_path / "bad.json"
    bad.write_text("{\"class_name\": ", encoding="utf-8")
    assert "is not JSON" in refused(capsys, tmp_path, "--event", str(bad), "--delta", "1e-5")
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100000 + "]" * 100000, encoding="utf-8")
    line = refused(capsys, tmp_path, "--event", str(deep), "--delta", "1e-5")
    assert "--event" in line


def test_usage_errors_exit_2(capsys, tmp_path):
    event = str(_event_file(tmp_path, gaussian(1)))
    assert main(capsys, "--event", event)[0] == 2  # no question
    assert main(capsys, "--event", event, "--delta", "1e-5", "--relation", "replace_all")[0] == 2


@pytest.mark.parametrize("file,args,reference", [
    ("pipeline.json", ("--delta", "1e-5"), "accounting-tree-heterogeneous-delta1e-5.json"),
    ("randomized-response.json", ("--relation", "replace_one", "--epsilons", "1,2,4"),
     "accounting-randomized-response-p0_9-k4-x20-replace-epsilons.json"),
    ("fixed-batches.json", ("--relation", "replace_one", "--delta", "1e-5"),
     "accounting-replace-without-replacement-gaussian-m256-n60000-s1_1-x1000-delta1e-5.json"),
    ("fixed-batches-laplace.json", ("--relation", "replace_one", "--delta", "1e-5"),
     "accounting-replace-without-replacement-laplace-m256-n60000-b2-x1000-delta1e-5.json"),
    ("sampled-composition.json", ("--delta", "1e-5"),
     "accounting-poisson-gaussian-composition-q0_01-s1_1-s10-x1000-delta1e-5.json"),
])
def test_the_readmes_event_files_give_the_reference_certificates(capsys, tmp_path, file, args, reference):
    out = tmp_path / "r.json"
    status, _, err = main(capsys, "--event", str(ROOT / "data" / "events" / file), *args, "-o", str(out), "--quiet")
    assert status == 0, err
    assert out.read_bytes() == (ROOT / "certificates" / "accounting" / reference).read_bytes()


def test_randomized_response_takes_the_lattice_route_and_an_epsilon_beyond_2000_is_refused(capsys, tmp_path):
    out = tmp_path / "rr.json"
    event = str(_event_file(tmp_path, repeat(10**6, randomized_response("99/100", 2))))
    status, stdout, err = main(capsys, "--event", event, "--relation", "replace_one", "--delta", "1e-5",
                               "--rel-width", "1e-6", "-o", str(out))
    assert status == 0, err
    assert "exact lattice, K = " in stdout + err and json.loads(out.read_text())["result"]["route"] == "lattice"
    event = str(_event_file(tmp_path, repeat(10**4, randomized_response("1/10", 2)), "far.json"))
    line = refused(capsys, tmp_path, "--event", event, "--relation", "replace_one", "--delta", "1e-5")
    assert "above the ε <= 2000" in line and "--epsilons" in line


def test_a_key_repeated_in_one_object_is_refused_not_read_as_its_last_value(capsys, tmp_path):
    path = tmp_path / "twice.json"
    path.write_text('{"class_name": "GaussianDpEvent", "noise_multiplier": 1, "noise_multiplier": 2}')
    line = refused(capsys, tmp_path, "--event", str(path), "--delta", "1e-5")
    assert f"--event: {path} has the key 'noise_multiplier' twice in one object" in line


def _read_tree(tmp_path, text):
    """The exact event tree of the event file ``text``, as ``producer account`` reads it."""
    from producer.commands.account import read_event
    from producer.pld.events import event_json
    path = tmp_path / "event.json"
    path.write_text(text, encoding="utf-8")
    return event_json(read_event(str(path)))


def test_a_json_float_is_read_as_the_decimal_written_not_as_a_binary_float(tmp_path):
    sampled = ('{"class_name": "PoissonSampledDpEvent", "sampling_probability": 0.0100000000000000001, '
               '"event": {"class_name": "GaussianDpEvent", "noise_multiplier": 1.1}}')
    tree = _read_tree(tmp_path, sampled)
    assert tree["sampling_probability"] == "100000000000000001/10000000000000000000"  # not 1/100
    assert tree["event"]["noise_multiplier"] == "11/10"
    counted = '{"class_name": "SelfComposedDpEvent", "count": 2.0, "event": {"class_name": "NoOpDpEvent"}}'
    assert _read_tree(tmp_path, counted)["count"] == 2


@pytest.mark.parametrize("field, value, words", [
    ("sampling_probability", "1e-400", "sampling_probability: 1e-400 "),  # not 0: no "no privacy loss"
    ("count", "2.0000000000000001", "count: '2.0000000000000001' is not an integer"),  # not the integer 2
])
def test_a_json_float_beyond_binary_precision_is_refused_as_written(capsys, tmp_path, field, value, words):
    inner = '{"class_name": "GaussianDpEvent", "noise_multiplier": 1}'
    text = ('{"class_name": "PoissonSampledDpEvent", "sampling_probability": %s, "event": %s}' % (value, inner)
            if field == "sampling_probability" else
            '{"class_name": "SelfComposedDpEvent", "count": %s, "event": %s}' % (value, inner))
    path = tmp_path / "event.json"
    path.write_text(text, encoding="utf-8")
    assert words in refused(capsys, tmp_path, "--event", str(path), "--delta", "1e-5")
