"""Edge-of-limit helpers for the kinds' tests (tests/producer/kinds/test_<kind>.py).

For each limit the producer restates from the auditor (docs/certificates.md):
just inside, the producer writes a certificate and ``auditor verify`` answers
OK (exit 0); one step beyond, the producer refuses with one line on stderr,
exit 2 and no file.  Where the edge is too expensive to produce here, the
kind's test compares the restated estimate with the auditor's own code instead.
"""

import subprocess
import sys
from pathlib import Path

import pytest

from producer.errors import LimitError
from tests.untimed import HANG_GUARD_SECONDS

BIN = Path(sys.executable).parent
ROOT = Path(__file__).resolve().parents[3]


def run_producer(*args, out):
    """Run ``producer ARGS --quiet -o OUT`` (the installed command line)."""
    return subprocess.run([str(BIN / "producer"), *map(str, args), "--quiet", "-o", str(out)],
                          capture_output=True, text=True, timeout=HANG_GUARD_SECONDS)


def verifies(path):
    audit = subprocess.run([str(BIN / "auditor"), "verify", "--quiet", str(path)],
                           capture_output=True, text=True, timeout=HANG_GUARD_SECONDS)
    assert audit.returncode == 0, audit.stdout + audit.stderr


def edge_verifies(args, out):
    done = run_producer(*args, out=out)
    assert done.returncode == 0, done.stderr
    verifies(out)


def built_edge_verifies(build, out):
    """A certificate only the Python builder can write (its command fixes the parameters): write, verify."""
    from producer.certificates.canonical import write_certificate
    write_certificate(build(), out)
    verifies(out)


def built_refused(build, words):
    with pytest.raises(LimitError) as info:
        build()
    assert words in str(info.value) and "\n" not in str(info.value)


def refused(args, out, words="auditor"):
    done = run_producer(*args, out=out)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and words in lines[0], done.stderr
    assert not out.exists()
