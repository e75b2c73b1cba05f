"""``python -m producer.reference OUTDIR [TOPIC...]``: regenerate reference certificates.

Topics are the modules of :mod:`producer.references`; with none named, all run.
"""

import importlib
import os
import sys
import time

TOPICS = ["finite_game", "dg", "calibration", "general_budget", "envelope", "brace", "lower"]
SLOW_TOPICS = ["lower_slow", "bracket_slow"]  # only when named (their certificates live in certificates/slow/)


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv:
        print("usage: python -m producer.reference OUTDIR [TOPIC...]", file=sys.stderr)
        return 2
    outdir, topics = argv[0], argv[1:] or TOPICS
    os.makedirs(outdir, exist_ok=True)
    for topic in topics:
        if topic not in TOPICS + SLOW_TOPICS:
            print(f"reference: unknown topic {topic!r} (known: {', '.join(TOPICS + SLOW_TOPICS)})", file=sys.stderr)
            return 2
        module_name = f"producer.references.{topic}"
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name == module_name:
                continue
            raise
        start = time.monotonic()
        paths = module.generate(outdir)
        print(f"reference: {topic}: wrote {len(paths)} certificate(s) "
              f"in {time.monotonic() - start:.1f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
