"""An import path kept only for tests/auditor/test_dg_audit_interval.py and test_dg_audit_calibration.py;
the code is in :mod:`producer.kinds.dg_interval`.

Nothing in producer/ imports this module (tests/test_layout.py checks it); it goes
when the auditor's tests import the new path.
"""

from producer.display import display_digits  # noqa: F401
from producer.kinds.dg_interval import Request as DgRequest, build  # noqa: F401
