"""Generators of the reference certificates in ``certificates/``.

Each module provides ``generate(outdir) -> list of written paths``; it must be
deterministic (same bytes on every run) and report progress on stderr.
"""
