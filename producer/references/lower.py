"""Reference lower certificates: witnesses, separations, workload.

Published values of *Exact Compilation and Resource Laws for Hidden Integer Feedback*:

- deadline witnesses at γ = 1/3, σ² = 9, ε = 2, L = 24, S = 10^24, N = 10^30,
  T = 3, 44, 100, fixed suffix (+1, +1, echo) and the per-state "max" reading
  (§7.1, Appendix D.1), and the Appendix D.2 law (L = 16, T = 3);
- the static-workload bound (§7.4, Appendix J.1) and the Appendix G.6 identity;
- separations (§3.3, Appendices B.1–B.5);
- the K.2 capped-preparation calibration lower witness (fast); the target-{0}
  line trees at C = 8 and C = 16 are in :mod:`producer.references.lower_slow`.
"""

from gmpy2 import mpz

from producer.kinds import calibration_lower, separation
from producer.kinds import deadline_witness as dw
from producer.kinds import workload
from producer.output import stderr_progress
from producer.references import write_all

# The published ratios are against the upper end of Δ*_2(2) at L = 24, S = 10^24 (the paper's Appendix B):
# the embedded reference dg-interval/1 is that interval, so the ratios are reproduced and checked.
DEADLINES = [
    ("deadline-witness-published-fixed.json",
     dict(gamma="1/3", sigma2=9, budget=2, epsilon=2, radius=24, scale=mpz(10)**24, denominator=mpz(10)**30,
          patterns=dw.FIXED, deadlines=[3, 44, 100], reference=True)),
    ("deadline-witness-published-max.json",
     dict(gamma="1/3", sigma2=9, budget=2, epsilon=2, radius=24, scale=mpz(10)**24, denominator=mpz(10)**30,
          patterns=dw.MAX_READING, deadlines=[3, 44, 100], reference=True)),
    ("deadline-witness-d2-law.json",
     dict(gamma="1/3", sigma2=9, budget=2, epsilon=2, radius=16, scale=mpz(10)**24, denominator=mpz(10)**30,
          patterns=dw.FIXED, deadlines=[3])),
]


def generate(outdir, names=None):
    paths = write_all(outdir, "lower", DEADLINES,
                      lambda fields: dw.build(dw.Request(**fields), stderr_progress("deadline")), names=names)
    for module in (workload, separation, calibration_lower):
        paths += write_all(outdir, "lower", module.REFERENCES, module.build_reference, names=names)
    return paths
