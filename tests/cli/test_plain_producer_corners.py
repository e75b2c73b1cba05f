"""Issue 19: the auditor checks every plain-composition/1 certificate the producer writes, at its corners.

The producer is run as a black box (its command line).  Each certificate must
verify (exit 0).  The corners of the issue (σ² = 2000 up to 10^5 with
C ∈ {1000, 1024}) were UNCHECKED before the auditor's convolution was cut to
windows; the largest σ² the producer accepts at C = 1024 is found by
bisection over its refusals (a refused request exits 2 before any work; an
accepted probe, the same command line run in this process, is stopped where
the sum's law would be built) and its certificate must verify too.
"""

import subprocess
import sys
from pathlib import Path

import pytest

from tests.untimed import HANG_GUARD_SECONDS, reaches

BIN = Path(sys.executable).parent


def _arguments(sigma2, budget, width, out):
    return ["plain", "--sigma2", str(sigma2), "--budget", str(budget), "--epsilons", "0,1/2,1",
            "--width", width, "--quiet", "-o", str(out)]


def _produce(sigma2, budget, width, out):
    return subprocess.run([str(BIN / "producer"), *_arguments(sigma2, budget, width, out)],
                          capture_output=True, text=True, timeout=HANG_GUARD_SECONDS)


def _verify(path):
    done = subprocess.run([str(BIN / "auditor"), "verify", "--quiet", str(path)], capture_output=True, text=True,
                          timeout=HANG_GUARD_SECONDS)
    return done.returncode, done.stdout + done.stderr


def _produced_and_verified(sigma2, budget, width, tmp_path):
    out = tmp_path / f"plain-{sigma2}-{budget}.json"
    done = _produce(sigma2, budget, width, out)
    assert done.returncode == 0, done.stderr
    status, text = _verify(out)
    assert status == 0, text


def test_the_issue_corner_verifies(tmp_path):
    """σ² = 2000, C = 1024, W = 10^-15: 1,054,721 coefficients before the windows (UNCHECKED), now OK."""
    _produced_and_verified(2000, 1024, "1e-15", tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("sigma2", [2000, 100000])
@pytest.mark.parametrize("budget", [1000, 1024])
def test_the_corners_verify(sigma2, budget, tmp_path):
    _produced_and_verified(sigma2, budget, "1e-15", tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("budget", [1000, 1024])
def test_the_smallest_width_verifies(budget, tmp_path):
    _produced_and_verified(2000, budget, "1e-60", tmp_path)


def _refused(sigma2, width, tmp_path):
    """Whether ``producer plain`` refuses σ² at C = 1024 before it builds the sum's law (exit 2)."""
    from producer import cli
    from producer.plain import gaussian
    accepted, status = reaches(gaussian, "SumEnclosures",
                               lambda: cli.main(_arguments(sigma2, 1024, width, tmp_path / "probe.json")))
    assert accepted or status == 2, status
    return not accepted


@pytest.mark.slow
@pytest.mark.parametrize("width, hi", [("1e-15", 10 ** 6), ("1e-60", 10 ** 5)])
def test_the_producers_largest_sigma2_verifies(width, hi, tmp_path):
    """Bisection on σ² (to 2%) over the producer's refusals, then the largest accepted certificate."""
    lo = 1000
    assert not _refused(lo, width, tmp_path) and _refused(hi, width, tmp_path)
    while hi - lo > lo // 50:
        mid = (lo + hi) // 2
        if _refused(mid, width, tmp_path):
            hi = mid
        else:
            lo = mid
    _produced_and_verified(lo, 1024, width, tmp_path)
