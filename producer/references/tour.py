"""``python -m producer.references.tour OUTDIR``: one reference certificate of every kind, in minutes.

The README's main job.  It regenerates, into ``OUTDIR`` (the repository's
folder layout below it), one committed reference certificate of every kind
with the same generator that ``make certificates`` runs, and compares each
with the committed bytes: the output is deterministic, so a difference is an
error (exit 1).  ``--list OUTDIR`` prints the paths it writes, one per line,
for ``auditor verify`` (the Makefile's ``tour`` target runs both).

The full reproduction - every reference, the large budgets and the C = 32
and C = 64 brackets - is ``make certificates``.
"""

import contextlib
import importlib
import io
import os
import sys
import time

REPOSITORY = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# (kind, generator topic of producer.references, folder, file name): the quick reference of each kind
TOUR = [
    ("finite-game/1", "finite_game", "certificates", "finite-game-c2-121-g1_3.json"),
    ("dg-interval/1", "dg", "certificates", "dg-interval-published-c2-eps2.json"),
    ("calibration/1", "calibration", "certificates", "calibration-c2-delta1e-4.json"),
    ("plain-composition/1", "plain", "certificates/plain", "plain-composition-dg-sigma2_9-c8.json"),
    ("epsilon-bracket/1", "plain", "certificates/plain", "epsilon-bracket-dg-sigma2_9-c1000-delta1e-5.json"),
    ("noise/1", "plain", "certificates/plain", "noise-dg-c100-eps2-delta1e-5.json"),
    ("dpsgd/1", "dpsgd", "certificates/dpsgd", "dpsgd-q0_01-s1-t1000-delta1e-5.json"),
    ("dpsgd-calibration/1", "dpsgd", "certificates/dpsgd",
     "dpsgd-calibration-noise-b100-n10000-e10-eps2-delta1e-5.json"),
    ("accounting/1", "accounting", "certificates/accounting", "accounting-tree-heterogeneous-delta1e-5.json"),
    ("envelope/1", "envelope", "certificates", "envelope-t2-n2-k1-j1-refuted.json"),
    ("brace-run/1", "brace", "certificates", "brace-synthetic.json"),
    ("brace-compare/1", "brace", "certificates", "brace-synthetic-compare.json"),
    ("hierarchy/1", "hierarchy", "certificates/hierarchy", "hierarchy-c8-cuts-all-minus-1-eps5.json"),
    ("calibration-lower/1", "lower", "certificates", "calibration-lower-k2-capped-c4.json"),
    ("deadline-witness/1", "lower", "certificates", "deadline-witness-d2-law.json"),
    ("separation/1", "lower", "certificates", "separation-one-digit-dg-c2-eps2.json"),
    ("workload/1", "lower", "certificates", "workload-published-static.json"),
    ("rate/1", "resource", "certificates/resource", "rate-published-gamma1_2-sigma2_1-n32.json"),
    ("frontier/1", "resource", "certificates/resource", "frontier-published-gamma1_2-sigma2_1_4-m12.json"),
    ("window-request/1", "resource", "certificates/resource", "window-request-published-gamma1_2-tau2-b8.json"),
    ("finite-budget/1", "resource", "certificates/resource", "finite-budget-published-c100000.json"),
    ("hierarchy-exact/1", "paper", "certificates/paper", "hierarchy-exact-c4-uniform-g1_2-depths.json"),
    ("block-composition/1", "paper", "certificates/paper", "block-composition-table2-g1_2-sigma2_4-c3-eps5.json"),
    ("minimum-deletion/1", "paper", "certificates/paper", "minimum-deletion-c8-g1_3-sigma2_9-eps5.json"),
    ("minimum-depth/1", "paper", "certificates/paper", "minimum-depth-c8-g1_3-sigma2_9-eps4_94.json"),
]


def paths(outdir):
    """The paths the tour writes below ``outdir``, in order."""
    return [os.path.join(outdir, folder, name) for _, _, folder, name in TOUR]


def regenerate(outdir, out=sys.stderr):
    """Write every tour certificate below ``outdir``; return the names whose bytes differ from the committed."""
    differ = []
    for kind, topic, folder, name in TOUR:
        target = os.path.join(outdir, folder)
        os.makedirs(target, exist_ok=True)
        generator = importlib.import_module(f"producer.references.{topic}")
        start = time.process_time()
        with contextlib.redirect_stderr(io.StringIO()):  # the generators' progress lines
            written = generator.generate(target, {name})
        if len(written) != 1:
            raise RuntimeError(f"tour: {topic} wrote {len(written)} files for {name}")
        committed = os.path.join(REPOSITORY, folder, name)
        same = os.path.isfile(committed) and _read(written[0]) == _read(committed)
        if not same:
            differ.append(f"{folder}/{name}")
        verdict = "same bytes as the committed one" if same else "DIFFERS from the committed one"
        print(f"tour: {kind:22} {folder}/{name}: {time.process_time() - start:.1f} s, {verdict}",
              file=out, flush=True)
    return differ


def _read(path):
    with open(path, "rb") as fh:
        return fh.read()


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["--list"] and len(argv) == 2:
        print("\n".join(paths(argv[1])))
        return 0
    if len(argv) != 1 or argv[0].startswith("-"):
        print("usage: python -m producer.references.tour OUTDIR | --list OUTDIR", file=sys.stderr)
        return 2
    differ = regenerate(argv[0])
    if differ:
        print(f"tour: {len(differ)} certificate(s) differ from the committed bytes: {', '.join(differ)}",
              file=sys.stderr)
        return 1
    print(f"tour: {len(TOUR)} kinds regenerated byte-identically into {argv[0]}; the auditor verifies them next",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
