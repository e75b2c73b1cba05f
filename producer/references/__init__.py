"""Generators of the reference certificates in ``certificates/``.

Each module provides ``generate(outdir) -> list of written paths``; it must be
deterministic (same bytes on every run) and report progress on stderr.
"""

import os
import sys

from producer.certificates.canonical import write_certificate


def write_all(outdir, topic, items, build):
    """Write ``build(fields)`` as ``outdir/name`` for each (name, fields); return the paths."""
    paths = []
    for name, fields in items:
        print(f"reference {topic}: {name}", file=sys.stderr, flush=True)
        path = os.path.join(outdir, name)
        write_certificate(build(fields), path)
        paths.append(path)
    return paths
