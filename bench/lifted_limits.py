"""A measurement, never a product path: the C = 4 calibration on the exact game with both sides' limits lifted.

    python bench/lifted_limits.py [DIR]

``producer calibrate --gamma 1/3 --sigma2 9 --budget 4 --delta 1e-4`` answers
on the hierarchy-witness route because the auditor's estimate of the exact
game's witnesses (two dg intervals at radius 21, about 1.8·10⁸ units each) is
beyond its one-query limit (1.5·10⁸) and beyond the budget of one file.  This
script lifts those limits in two fresh processes (the producer's restatement
of them, then the auditor's own) to measure what the exact route would cost:
CPU seconds and peak memory of each side, and the auditor's verdict.  It shows
how far the estimate lies above the work (docs/benchmarks.md, "Budgets 3, 4
and 5"); the limits themselves are unchanged.
"""

import os
import subprocess
import sys
import tempfile

PRODUCE = """
import resource, sys, time
import producer.audit_budget as budget
import producer.game.auditability as game
game.MAX_WORK = 10 ** 13
budget.MAX_MULTIPLE = 10 ** 6
from producer import api
start = time.process_time()
cert = api.calibrate(gamma="1/3", sigma2="9", budget=4, delta="1e-4")
cert.write(sys.argv[1])
print(f"producer: {cert!r}")
print(f"producer: {time.process_time() - start:.1f} s CPU, "
      f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024} MiB")
"""

AUDIT = """
import resource, sys, time
import auditor.budget as budget
import auditor.checks.dg_interval as dg
import auditor.checks.finite_game as game
game.MAX_WORK = dg.MAX_WORK = 10 ** 13
budget.MAX_WORK = 10 ** 16
from auditor import api
start = time.process_time()
report = api.verify_file(sys.argv[1])
print(f"auditor: {report!r}, {time.process_time() - start:.1f} s CPU, "
      f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024} MiB")
"""


def main(argv):
    folder = argv[1] if len(argv) > 1 else tempfile.mkdtemp(prefix="lifted-")
    path = os.path.join(folder, "calibration-c4-exact.json")
    for script in (PRODUCE, AUDIT):
        subprocess.run([sys.executable, "-c", script, path], check=True)


if __name__ == "__main__":
    main(sys.argv)
