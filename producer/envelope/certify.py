"""An import path kept only for tests/auditor/test_envelope_checks.py;
the code is in :mod:`producer.envelope.evaluation`.

Nothing in producer/ imports this module (tests/test_import_cycles.py checks it); it goes
when the auditor's tests import the new path.
"""

from producer.envelope.evaluation import certify  # noqa: F401
