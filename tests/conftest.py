import os
import sys
from pathlib import Path

import mpmath
import pytest
from hypothesis import HealthCheck, settings

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

settings.register_profile("default", deadline=None, max_examples=60,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("ci", deadline=None, max_examples=60, derandomize=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ci" if os.environ.get("CI") else "default")

SLOW_CASES = Path(__file__).with_name("slow_cases.txt")


def slow_cases():
    """The node ids listed in tests/slow_cases.txt (bench/slow_cases.py says how the list is measured)."""
    lines = SLOW_CASES.read_text(encoding="utf-8").splitlines()
    return {line for line in lines if line and not line.startswith("#")}


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    """Mark the listed cases ``slow`` before ``-m`` selects (SLOW_CASES_OFF=1 leaves them unmarked).

    The default run (`make test`) then leaves them to `make references`, which CI runs too.
    """
    if os.environ.get("SLOW_CASES_OFF"):
        return
    slow = slow_cases()
    for item in items:
        if item.nodeid in slow:
            item.add_marker(pytest.mark.slow)


@pytest.fixture(autouse=True)
def _mpmath_precision():
    """Every test starts with 800-bit mpmath (a shared global); restored afterwards.

    Reference computations in tests compare certified enclosures with mpmath,
    so they need far more than the default 53 bits whatever ran before.
    """
    saved = mpmath.mp.prec
    mpmath.mp.prec = 800
    yield
    mpmath.mp.prec = saved


@pytest.fixture(scope="module")
def cluster():
    """A real two-worker Dask LocalCluster (in-process), one per test module that asks for it."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as local:
        yield local
