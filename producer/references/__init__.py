"""Generators of the reference certificates in ``certificates/``.

Each module provides ``generate(outdir, names=None) -> list of written paths``
(``names``: only the certificates of those file names; None: all); it must be
deterministic (same bytes on every run) and report progress on stderr.
:mod:`producer.references.tour` regenerates one of every kind (the README's
main job).
"""

import os
import sys

from producer.certificates.canonical import write_certificate


def write_all(outdir, topic, items, build, names=None):
    """Write ``build(fields)`` as ``outdir/name`` for each (name, fields) (only those in ``names`` when given);
    return the paths."""
    paths = []
    for name, fields in items:
        if names is not None and name not in names:
            continue
        print(f"reference {topic}: {name}", file=sys.stderr, flush=True)
        path = os.path.join(outdir, name)
        write_certificate(build(fields), path)
        paths.append(path)
    return paths


def main_of(topic, references, default_dir, generate):
    """A ``main(argv)`` for ``python -m producer.references.TOPIC [OUTDIR [NAME...]]``: exit 2 on an unknown name."""
    def main(argv=None):
        argv = list(sys.argv[1:] if argv is None else argv)
        outdir = argv[0] if argv else default_dir
        names = set(argv[1:]) or None
        known = {name for name, _ in references}
        if names and not names <= known:
            print(f"{topic} references: unknown name(s) {sorted(names - known)}", file=sys.stderr)
            return 2
        generate(outdir, names)
        return 0
    return main
