"""An import path kept only for tests/auditor/test_envelope_checks.py;
the code is in :mod:`producer.kinds.envelope`.

Nothing in producer/ imports this module (tests/test_layout.py checks it); it goes
when the auditor's tests import the new path.
"""

from producer.kinds.envelope import Request, build


def certify(instance, precision=None):
    """The envelope/1 certificate of ``instance`` (``producer.kinds.envelope.build``)."""
    return build(Request(instance, precision))
