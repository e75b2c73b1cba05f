"""The producer refuses a dg-interval source the auditor would answer UNCHECKED.

Each limit of producer/sources/auditability.py is probed on both sides: just
inside, the producer writes a certificate and ``auditor verify`` answers OK
(exit 0); just outside, the producer refuses with one line and exit 2.
"""

import subprocess
import sys
from pathlib import Path

import pytest
from gmpy2 import mpz

from producer.errors import LimitError
from producer.sources.auditability import (MAX_BITS, MAX_TERMS, auditor_precision,
                                           check_auditable_source, normaliser_terms)
from tests.untimed import HANG_GUARD_SECONDS

BIN = Path(sys.executable).parent
LARGEST_SCALE_BITS = MAX_BITS // 4 - 64          # 4·(bits(S) + 64) <= 16,384


def _largest_sigma2(scale):
    """The largest integer σ² whose normaliser sum the auditor accepts at this scale (bisection)."""
    bits = 4 * auditor_precision(scale)
    lo, hi = 1, 10 ** 7
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if normaliser_terms(mid, bits) <= MAX_TERMS else (lo, mid)
    return lo


EDGES = [  # (label, law option, radius, scale, refused one step further by (radius, scale))
    ("kernel exponent", ["--sigma2", "9"], 948, 1000, (949, 1000)),
    ("Laplace kernel exponent", ["--laplace", "1/1000"], 50, 10 ** 6, (51, 10 ** 6)),
    ("precision", ["--sigma2", "9"], 4, 2 ** (LARGEST_SCALE_BITS - 1), (4, 2 ** LARGEST_SCALE_BITS)),
    ("atoms x bits", ["--sigma2", "1000"], 1369, 2 ** 300, (1370, 2 ** 300)),
]
SLOW_EDGES = {"atoms x bits"}  # about half a minute: make references (CI) runs it


def _dg(law, radius, scale, out):
    return subprocess.run([str(BIN / "producer"), "dg", "--gamma", "1/3", *law, "--budget", "1",
                           "--epsilon", "2", "--radius", str(radius), "--scale", str(scale), "--quiet",
                           "-o", str(out)], capture_output=True, text=True, timeout=HANG_GUARD_SECONDS)


def test_the_atoms_times_bits_edge_is_where_the_table_says():
    bits = 4 * auditor_precision(2 ** 300)     # S = 2^300 has 301 bits
    assert (2 * 1369 + 1) * bits <= 4_000_000 < (2 * 1370 + 1) * bits


@pytest.mark.parametrize("label,law,radius,scale,beyond",
                         [pytest.param(*e, id=e[0], marks=[pytest.mark.slow] if e[0] in SLOW_EDGES else [])
                          for e in EDGES])
def test_edge_certificate_verifies_and_one_step_beyond_is_refused(label, law, radius, scale, beyond, tmp_path):
    done = _dg(law, radius, scale, tmp_path / "edge.json")
    assert done.returncode == 0, done.stderr
    audit = subprocess.run([str(BIN / "auditor"), "verify", str(tmp_path / "edge.json")],
                           capture_output=True, text=True, timeout=HANG_GUARD_SECONDS)
    assert audit.returncode == 0, audit.stdout + audit.stderr
    refused = _dg(law, *beyond, tmp_path / "beyond.json")
    assert refused.returncode == 2
    assert len(refused.stderr.strip().splitlines()) == 1 and "auditor" in refused.stderr
    assert not (tmp_path / "beyond.json").exists()


def test_largest_sigma2_verifies_and_the_next_is_refused(tmp_path):
    scale = 10 ** 6
    sigma2 = _largest_sigma2(scale)
    check_auditable_source(4, scale, sigma2=sigma2)
    with pytest.raises(LimitError, match="normaliser terms"):
        check_auditable_source(4, scale, sigma2=sigma2 + 1)
    done = _dg(["--sigma2", str(sigma2)], 4, scale, tmp_path / "s.json")
    assert done.returncode == 0, done.stderr
    audit = subprocess.run([str(BIN / "auditor"), "verify", str(tmp_path / "s.json")],
                           capture_output=True, text=True, timeout=HANG_GUARD_SECONDS)
    assert audit.returncode == 0, audit.stdout + audit.stderr


def test_width_mode_sources_are_checked_too():
    # The width rule picks (L, S) itself; an impossible one is refused by the same check.
    with pytest.raises(LimitError):
        check_auditable_source(2048, mpz(2) ** 4000, sigma2=9)
