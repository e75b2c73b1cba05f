"""``auditor verify`` on a real Dask LocalCluster gives exactly the serial answer.

The cluster has two workers with ``processes=False`` (threads in this
process): worker processes take several seconds each to start on this
shared two-core machine, and the property under test, reports handed back in
input order whatever the completion order, does not depend on the kind of
worker.  The CLI's own ``--workers N`` path (worker processes) is exercised
once, by a subprocess.
"""

import socket
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from auditor import api, cli
from tests.untimed import HANG_GUARD_SECONDS

distributed = pytest.importorskip("distributed")

from auditor import parallel  # noqa: E402 - after the importorskip

ROOT = Path(__file__).resolve().parents[2]
HOSTILE = ROOT / "tests" / "auditor" / "hostile"

# OK, FAIL, MALFORMED and an unreadable path, in an order where the slow ones come first
FILES = [
    str(ROOT / "certificates" / "finite-game-c2-radius24-g1_3.json"),
    str(ROOT / "certificates" / "dg-interval-published-c2-eps2.json"),
    str(HOSTILE / "digits-5000-result.json"),
    str(HOSTILE / "bom.json"),
    str(ROOT / "certificates" / "finite-game-c0-121.json"),
    "/nonexistent/cert.json",
    str(ROOT / "certificates" / "finite-game-c0-121.json"),
]


def test_reports_equal_serial_in_input_order(cluster):
    with distributed.Client(cluster) as client:
        seen = []
        reports = parallel.verify_files(FILES, client, on_report=lambda i, r: seen.append(i))
    serial = [api.verify_file(path).as_dict() for path in FILES]
    assert [r.as_dict() for r in reports] == serial
    assert seen == list(range(len(FILES)))
    assert {r.outcome for r in reports} == {"OK", "FAIL", "MALFORMED"}


def test_cli_scheduler_output_and_status_equal_serial(cluster, capsys):
    serial_status = cli.main(["verify", "--quiet", *FILES])
    serial_out = capsys.readouterr().out
    status = cli.main(["verify", "--quiet", "--scheduler", cluster.scheduler_address, *FILES])
    out = capsys.readouterr().out
    assert (status, out) == (serial_status, serial_out)
    assert status == 2  # MALFORMED outranks FAIL, as in a serial run


def test_cli_json_with_scheduler_equals_serial(cluster, capsys):
    ok_files = FILES[:2]
    assert cli.main(["verify", "--json", *ok_files]) == 0
    serial_out = capsys.readouterr().out
    assert cli.main(["verify", "--json", "--quiet", "--scheduler", cluster.scheduler_address,
                     *ok_files]) == 0
    assert capsys.readouterr().out == serial_out


def test_unreachable_scheduler_is_one_line(capsys, monkeypatch):
    monkeypatch.setattr(parallel, "CONNECT_TIMEOUT_SECONDS", 2)
    status = cli.main(["verify", "--scheduler", "tcp://127.0.0.1:9", FILES[0]])
    err = capsys.readouterr().err
    assert status == 2
    assert err.count("\n") == 1 and err.startswith("auditor: cannot reach scheduler"), err


def test_negative_workers_refused(capsys):
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["verify", "--workers", "-1", FILES[0]])
    assert exit_info.value.code == 2
    assert "--workers: must be in [0, 64]" in capsys.readouterr().err


def _listener():
    """A TCP listener that answers every connection with bytes that are no Dask message."""
    server = socket.create_server(("127.0.0.1", 0))

    def serve():
        while True:
            try:
                conn, _ = server.accept()
                conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n" * 3)
            except OSError:
                return

    threading.Thread(target=serve, daemon=True).start()
    return server


def test_listener_that_is_no_scheduler_is_one_line(capsys, monkeypatch):
    """Dask's handshake may read a huge frame length from the junk (once a MemoryError traceback, exit 1)."""
    monkeypatch.setattr(parallel, "CONNECT_TIMEOUT_SECONDS", 2)
    server = _listener()
    try:
        status = cli.main(["verify", "--scheduler", f"tcp://127.0.0.1:{server.getsockname()[1]}", FILES[0]])
    finally:
        server.close()
    err = capsys.readouterr().err
    assert status == 2
    assert err.count("\n") == 1 and err.startswith("auditor: cannot reach scheduler tcp://127.0.0.1:"), err
    assert "(--scheduler)" in err


def test_any_failure_to_connect_is_one_line(capsys, monkeypatch):
    def fail(*args, **kwargs):
        raise MemoryError("Unable to allocate 3.01 EiB for an array")

    monkeypatch.setattr(distributed, "Client", fail)
    status = cli.main(["verify", "--scheduler", "tcp://127.0.0.1:8786", FILES[0]])
    err = capsys.readouterr().err
    assert status == 2
    assert err == ("auditor: cannot reach scheduler tcp://127.0.0.1:8786 (--scheduler): "
                   "MemoryError: Unable to allocate 3.01 EiB for an array\n"), err


def test_workers_subprocess_local_cluster():
    """The default parallel path: a LocalCluster of two worker processes, same output as serial."""
    args = [sys.executable, "-m", "auditor", "verify", "--quiet", *FILES[:5]]
    serial = subprocess.run(args, capture_output=True, timeout=HANG_GUARD_SECONDS, cwd=ROOT)
    run = subprocess.run([*args, "--workers", "2"], capture_output=True, timeout=HANG_GUARD_SECONDS, cwd=ROOT)
    assert b"Traceback" not in run.stderr, run.stderr
    assert (run.returncode, run.stdout) == (serial.returncode, serial.stdout)
