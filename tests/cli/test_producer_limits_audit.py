"""Issue 10: the auditor verifies what the producer emits at the producer's own size limit.

For each root method the largest radius the producer accepts (uniform law on
[-r, r], gamma = 86/257, C = 2) is found by bisection over the producer CLI's
refusals only (a refused request exits 2 with "exceeds the limit" before any
work; an accepted probe is stopped after a few seconds), then the certificate
at that radius is produced and must verify (auditor exit 0).
"""

import subprocess
import sys
from pathlib import Path

import pytest

BIN = Path(sys.executable).parent
GAMMA, BUDGET, THRESHOLD = "86/257", 2, "7"
PROBE_SECONDS = 5


def _args(radius, method, out):
    weights = ",".join(["1"] * (2 * radius + 1))
    return [str(BIN / "producer"), "game", "--gamma", GAMMA, "--weights", weights,
            "--budget", str(BUDGET), "--threshold", THRESHOLD, "--method", method, "--quiet", "-o", str(out)]


def _refused(radius, method, tmp_path):
    try:
        done = subprocess.run(_args(radius, method, tmp_path / "probe.json"), capture_output=True,
                              text=True, timeout=PROBE_SECONDS)
    except subprocess.TimeoutExpired:
        return False                      # still working: the request was accepted
    if done.returncode == 2 and "exceeds the limit" in done.stderr:
        return True
    assert done.returncode == 0, done.stderr
    return False


def largest_accepted_radius(method, tmp_path, hi=256):
    """Largest r in [0, hi] the producer accepts, assuming acceptance is monotone in r."""
    if _refused(1, method, tmp_path):
        return 0
    lo = 1                                # accepted
    assert _refused(hi, method, tmp_path), f"the producer accepts radius {hi}; raise hi"
    while hi - lo > 1:                    # invariant: lo accepted, hi refused
        mid = (lo + hi) // 2
        if _refused(mid, method, tmp_path):
            hi = mid
        else:
            lo = mid
    return lo


# At B = 257, C = 2 the producer accepts radius 27 (enumerate), 50 (reduced) and
# 52 (compiled).  The auditor's estimate counts the distinct F_1 point values the
# root can reach (root outputs of one likelihood ratio share them: a uniform law has
# one such group per sign), about 5e7 units at radius 52, within its limit 1.5e8.
@pytest.mark.slow
@pytest.mark.parametrize("method", ["enumerate", "reduced", "compiled"])
def test_auditor_verifies_the_producers_largest_certificate(method, tmp_path):
    radius = largest_accepted_radius(method, tmp_path)
    assert radius >= 1
    cert = tmp_path / f"{method}-r{radius}.json"
    subprocess.run(_args(radius, method, cert), check=True, timeout=600)
    done = subprocess.run([str(BIN / "auditor"), "verify", str(cert)], capture_output=True,
                          text=True, timeout=1200)
    assert done.returncode == 0, f"radius {radius}: {done.stdout}{done.stderr}"
