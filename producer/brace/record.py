"""An import path kept only for tests/auditor/test_brace_audit_run.py;
the code is in :mod:`producer.kinds.brace_run`.

Nothing in producer/ imports this module (tests/test_layout.py checks it); it goes
when the auditor's tests import the new path.
"""

from producer.kinds.brace_run import Request  # noqa: F401
