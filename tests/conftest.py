import os
import sys

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
