"""Auditor: independent re-verification of producer certificates.

The auditor never imports ``producer``; it shares only the JSON schemas and
the mathematical specification, and reaches every number by its own route.

Python API (:mod:`auditor.api`)::

    from auditor import verify_file, verify_certificate
    report = verify_file("certificates/finite-game-c2-121-g1_3.json")
    report.outcome   # "OK", "FAIL", "MALFORMED", "UNCHECKED" or "ERROR"
    report.claim     # e.g. "G_2(1, 1/2) = 4/3 for gamma = 1/3, law (1,2,1)/4 on [-1..1], C = 2"
"""

__version__ = "0.1.0"

from auditor.api import Report, verify_certificate, verify_file

__all__ = ["verify_file", "verify_certificate", "Report", "__version__"]
