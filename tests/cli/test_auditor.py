"""``auditor verify`` as a process: hostile files, standard input, --json, progress, broken pipes.

Every hostile file is given to a fresh ``python -m auditor verify`` (its
timeout only a hang guard, :data:`tests.untimed.HANG_GUARD_SECONDS`); the exit
status must be in the expected set, the file must get exactly one line, and no
traceback may appear anywhere.  That a refusal comes before the work is
asserted in-process, by the checks' work (:func:`tests.untimed.check_calls`).
"""

import io
import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from auditor import api, cli
from auditor.checks import finite_game
from tests.auditor.mutation import mutants
from tests.untimed import HANG_GUARD_SECONDS, check_calls

ROOT = Path(__file__).resolve().parents[2]
HOSTILE = ROOT / "tests" / "auditor" / "hostile"
EXPECTED = json.loads((HOSTILE / "expected.json").read_text())
REFERENCE = ROOT / "certificates" / "finite-game-c2-121-g1_3.json"



def auditor(*args, stdin=None):
    return subprocess.run([sys.executable, "-m", "auditor", "verify", *args],
                          input=stdin, capture_output=True, timeout=HANG_GUARD_SECONDS, cwd=ROOT)


def _one_verdict(run, name, statuses, phrase=""):
    out, err = run.stdout.decode("utf-8", "replace"), run.stderr.decode("utf-8", "replace")
    assert "Traceback" not in out + err, out + err
    assert run.returncode in statuses, (run.returncode, out, err)
    lines = [line for line in out.splitlines() if line.startswith(f"{name}: ")]
    assert len(lines) == 1 and out.count("\n") == 1, out
    assert phrase in lines[0], lines[0]
    return lines[0]


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_hostile_corpus(name):
    path = HOSTILE / name
    run = auditor(str(path))
    if run.returncode == 1:  # a false claim: one line per failed claim, each naming the file
        out = run.stdout.decode("utf-8", "replace")
        assert "Traceback" not in out + run.stderr.decode("utf-8", "replace")
        assert all(line.startswith(f"{path}: FAIL ") for line in out.splitlines()), out
        assert 1 in EXPECTED[name]["status"]
        return
    _one_verdict(run, str(path), EXPECTED[name]["status"], EXPECTED[name]["says"])


@pytest.mark.parametrize("name", sorted(n for n, e in EXPECTED.items() if set(e["status"]) <= {2, 3}))
def test_hostile_corpus_refusals_come_before_the_work(name):
    with check_calls() as work:
        report = api.verify_file(HOSTILE / name)
    assert report.status in EXPECTED[name]["status"], (report.outcome, report.error or report.unchecked)
    assert work.before_the_work, work


def test_hostile_corpus_is_small():
    assert sum(p.stat().st_size for p in HOSTILE.iterdir()) < 200_000


def _write(tmp_path, name, data):
    p = tmp_path / name
    p.write_bytes(data)
    return str(p)


def test_ten_thousand_deep_nesting(tmp_path):
    p = _write(tmp_path, "deep.json", b'{"schema": ' + b"[" * 10_000 + b"]" * 10_000 + b"}")
    _one_verdict(auditor(p), p, {2}, "nested 10001 levels deep, beyond the limit of 64")


def _reference_with(change):
    cert = json.loads(REFERENCE.read_text())
    change(cert)
    return json.dumps(cert).encode()


def test_hundred_thousand_digits_in_result_and_input(tmp_path):
    big = "1" + "0" * 99_999
    def result(c):
        c["result"]["queries"][0]["value"] = big
    def inp(c):
        c["input"]["gamma"] = "1/" + big
    for name, change in (("result.json", result), ("input.json", inp)):
        p = _write(tmp_path, name, _reference_with(change))
        _one_verdict(auditor(p), p, {2}, "exceeds the limit")


def test_named_pipe_does_not_block(tmp_path):
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    _one_verdict(auditor(str(fifo)), str(fifo), {2}, "a named pipe, not a regular file")


def test_dev_zero_and_a_directory(tmp_path):
    _one_verdict(auditor("/dev/zero"), "/dev/zero", {2}, "a character device")
    _one_verdict(auditor(str(tmp_path)), str(tmp_path), {2}, "a directory")


def test_sparse_100_megabyte_file(tmp_path):
    p = tmp_path / "big.json"
    with open(p, "wb") as fh:
        fh.truncate(100 * 1024 * 1024)
    _one_verdict(auditor(str(p)), str(p), {2}, "larger than the limit of 67108864 bytes")


def test_standard_input():
    run = auditor("-", stdin=REFERENCE.read_bytes())
    line = _one_verdict(run, "<stdin>", {0})
    assert line == ("<stdin>: OK finite-game/1: G_2(1, 1/2) = 4/3, with the testing curve of G_2 "
                    "(12 points) for gamma = 1/3, law (1,2,1)/4 on [-1..1], C = 2 (35 checks)")
    _one_verdict(auditor("-", stdin=b"[" * 50_000), "<stdin>", {2}, "nested")


def test_ok_line_states_kind_and_claim():
    line = _one_verdict(auditor(str(REFERENCE)), str(REFERENCE), {0})
    assert line.startswith(f"{REFERENCE}: OK finite-game/1: G_2(1, 1/2) = 4/3")


def test_most_severe_status_wins_and_each_file_gets_its_line(tmp_path):
    bad = _write(tmp_path, "bad.json", b"{")
    run = auditor(str(REFERENCE), bad)
    assert run.returncode == 2
    out = run.stdout.decode()
    assert out.count(f"{REFERENCE}: OK") == 1 and out.count(f"{bad}: MALFORMED") == 1


def test_json_report(tmp_path):
    bad = _write(tmp_path, "bad.json", b'{"a": 1.5}')
    run = subprocess.run([sys.executable, "-m", "auditor", "verify", "--json", str(REFERENCE), bad],
                         capture_output=True, timeout=HANG_GUARD_SECONDS, cwd=ROOT)
    report = json.loads(run.stdout)
    assert run.returncode == 2 and (report["status"], report["outcome"], report["ok"]) == (2, "MALFORMED", False)
    good, malformed = report["files"]
    assert (good["kind"], good["status"], good["outcome"]) == ("finite-game/1", 0, "OK")
    assert good["claim"].startswith("G_2(1, 1/2) = 4/3")
    assert malformed["outcome"] == "MALFORMED" and "1.5 is not an integer" in malformed["error"]
    assert malformed["failures"] == [] and malformed["claim"] is None


def test_broken_pipe_exits_quietly_with_status_2():
    proc = subprocess.Popen([sys.executable, "-m", "auditor", "verify", *[str(REFERENCE)] * 50],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
    proc.stdout.close()  # nobody reads: the first line written meets a broken pipe
    _, err = proc.communicate(timeout=HANG_GUARD_SECONDS)
    assert proc.returncode == 2
    assert b"Traceback" not in err and b"BrokenPipe" not in err


def test_internal_error_is_one_line_and_status_4(monkeypatch, capsys):
    def crash(cert, report):
        raise RecursionError("maximum recursion depth exceeded")
    monkeypatch.setattr(finite_game, "verify", crash)
    assert cli.main(["verify", str(REFERENCE)]) == 4
    out = capsys.readouterr()
    assert out.out == f"{REFERENCE}: ERROR internal: RecursionError: maximum recursion depth exceeded\n"
    assert "Traceback" not in out.err


def test_no_abbreviated_options(capsys):
    with pytest.raises(SystemExit) as info:
        cli.main(["verify", "--qui", str(REFERENCE)])
    assert info.value.code == 2


class _Lines(io.StringIO):
    """A stream that signals its first complete line."""

    def __init__(self):
        super().__init__()
        self.line = threading.Event()

    def write(self, text):
        written = super().write(text)
        if "\n" in self.getvalue():
            self.line.set()
        return written


def test_progress_lines_while_a_file_is_checked():
    stream = _Lines()
    with cli.Progress("cert.json", interval=0.01, stream=stream):
        assert stream.line.wait(timeout=HANG_GUARD_SECONDS)     # waits for the line, however slow the machine
    assert stream.getvalue().startswith("auditor: verifying cert.json ... ")
    assert stream.getvalue().splitlines()[0].endswith(" s")
    quiet = io.StringIO()
    before = set(threading.enumerate())
    with cli.Progress("cert.json", interval=0.01, stream=quiet, enabled=False):
        assert set(threading.enumerate()) <= before     # no thread was started to print
    assert quiet.getvalue() == ""


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(mutants())
def test_mutants_through_the_command(tmp_path, mutant):
    label, data, may_verify = mutant
    p = _write(tmp_path, "mutant.json", data)
    _one_verdict_or_failures(auditor(p), p, {0, 1, 2, 3} if may_verify else {1, 2, 3})


def _one_verdict_or_failures(run, name, statuses):
    out, err = run.stdout.decode("utf-8", "replace"), run.stderr.decode("utf-8", "replace")
    assert "Traceback" not in out + err
    assert run.returncode in statuses, out
    lines = out.splitlines()
    assert lines and all(line.startswith(f"{name}: ") for line in lines)
    if run.returncode != 1:  # only a FAIL may take one line per false claim
        assert len(lines) == 1


def test_quiet_prints_only_what_is_not_ok_and_one_summary(tmp_path, capsys):
    """--quiet: no line for an OK file, the failure lines of a bad one, then the count of each outcome."""
    bad = json.loads(REFERENCE.read_text())
    bad["result"]["queries"][0]["value"] = "5/3"
    bad_path = tmp_path / "bad.json"
    bad_path.write_text(json.dumps(bad))
    assert cli.main(["verify", "--quiet", str(REFERENCE), str(bad_path)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert not any(line.startswith(f"{REFERENCE}:") for line in lines), lines
    assert lines[0].startswith(f"{bad_path}: FAIL ")
    assert lines[-1] == "auditor: 2 files: 1 OK, 1 FAIL"
    assert cli.main(["verify", "--quiet", str(REFERENCE)]) == 0
    assert capsys.readouterr().out == "auditor: 1 file: 1 OK\n"


# ---- bad command-line usage and unwritable output: one line on stderr, exit 2, never 1 (FAIL) ----

def _no_verification(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("a file was verified before the usage error")
    monkeypatch.setattr(api, "verify_file", refuse)


@pytest.mark.parametrize("workers", ["65", "1000000", "-1", "99999999999999999999", "two"])
def test_workers_beyond_64_refused_before_work(workers, capsys):
    with pytest.raises(SystemExit) as info:  # refused by the parser: before any cluster or verification
        cli._parser().parse_args(["verify", "--workers", workers, str(REFERENCE)])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--workers: must be in [0, 64]" in err, err


@pytest.mark.parametrize("address", ["foo", "", "tcp://256.1.1.1:99999", "tcp://127.0.0.1:0",
                                     "tcp://127.0.0.1", "tcp://host:8786x", "http://127.0.0.1:8786"])
def test_scheduler_address_of_the_wrong_form_is_refused_before_connecting(address, capsys):
    with pytest.raises(SystemExit) as info:  # refused by the parser: before any connection or verification
        cli._parser().parse_args(["verify", "--scheduler", address, str(REFERENCE)])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--scheduler: want an address scheme://host:port" in err, err


@pytest.mark.parametrize("address", ["tcp://127.0.0.1:8786", "tls://scheduler.example.org:8786", "tcp://[::1]:8786",
                                     "inproc://192.0.2.2/1850/1"])
def test_scheduler_addresses_of_the_right_form_are_accepted(address):
    assert cli._address(address) == address


def test_report_to_a_full_device_is_one_line_and_status_2():
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full")
    with open("/dev/full", "w") as full:
        run = subprocess.run([sys.executable, "-m", "auditor", "verify", str(REFERENCE)], stdout=full,
                             stderr=subprocess.PIPE, timeout=HANG_GUARD_SECONDS, cwd=ROOT)
    err = run.stderr.decode("utf-8", "replace")
    assert run.returncode == 2, err
    assert err == "auditor: cannot write the report to standard output: No space left on device\n", err


class _Full(io.StringIO):
    def write(self, text):
        raise OSError(28, "No space left on device")


@pytest.mark.parametrize("flag", [[], ["--json"], ["--quiet"]])
def test_write_error_on_standard_output_is_not_a_fail(flag, monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdout", _Full())
    assert cli.main(["verify", *flag, str(REFERENCE)]) == 2
    assert capsys.readouterr().err == "auditor: cannot write the report to standard output: No space left on device\n"


def test_closed_standard_output_is_one_line_and_status_2(monkeypatch, capsys):
    _no_verification(monkeypatch)
    monkeypatch.setattr(sys, "stdout", None)  # what Python sets when started with fd 1 closed (>&-)
    assert cli.main(["verify", str(REFERENCE)]) == 2
    assert capsys.readouterr().err == "auditor: cannot write the report: standard output is closed\n"
