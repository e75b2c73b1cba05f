"""An import path kept only for tests/auditor/test_dg_audit_calibration.py;
the code is in :mod:`producer.kinds.calibration`.

Nothing in producer/ imports this module (tests/test_layout.py checks it); it goes
when the auditor's tests import the new path.
"""

from producer.kinds.calibration import Request as CalibrationRequest, build  # noqa: F401
