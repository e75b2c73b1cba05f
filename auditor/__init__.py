"""Auditor: independent re-verification of producer certificates.

The auditor never imports ``producer``; it shares only the JSON schemas and
the mathematical specification, and reaches every number by its own route.
"""

__version__ = "0.1.0"
