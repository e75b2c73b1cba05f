"""An import path kept only for tests/auditor/test_dg_audit_interval.py;
the code is in :mod:`producer.game.values`.

Nothing in producer/ imports this module (tests/test_layout.py checks it); it goes
when the auditor's tests import the new path.
"""

from producer.game.values import root_value  # noqa: F401
