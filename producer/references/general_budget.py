"""Reference certificates for budgets C >= 3.

(*Exact Compilation and Resource Laws for Hidden Integer Feedback*, §4.2, §7.1, Appendix K.1.)

- γ = 1/3, σ² = 9, C = 3, ε = 2, L = 24, S = 10²⁴: the published interval is
  [0.001471784810259119, 0.001471784810282800];
- γ = 336/1009, σ² = 1, C = 3, ε = 4, L = 6 (the carry-cell compiled method;
  B³ ≈ 10⁹ plain roots): published [0.110138846336863912, 0.110138858532574647];
- calibration at γ = 1/2, σ² = 1, C = 4, δ = 10⁻⁴, width ≤ 10⁻⁵: published
  14.740484552831 < ε*_4 <= 14.740489644244.
"""

from gmpy2 import mpq, mpz

from producer.kinds import calibration, dg_interval
from producer.output import stderr_progress
from producer.references import write_all

INTERVALS = [
    ("dg-interval-published-c3-eps2.json",
     dict(gamma="1/3", sigma2=mpq(9), budget=3, epsilon=mpq(2), radius=24, scale=mpz(10) ** 24)),
    ("dg-interval-published-c3-gamma336_1009-eps4.json",
     dict(gamma="336/1009", sigma2=mpq(1), budget=3, epsilon=mpq(4), radius=6, scale=mpz(2) ** 60)),
]
CALIBRATIONS = [
    ("calibration-published-c4-delta1e-4.json",
     dict(gamma="1/2", sigma2=mpq(1), budget=4, delta=mpq(1, 10**4), width=mpq(1, 10**5))),
]


def generate(outdir, names=None):
    return (write_all(outdir, "general_budget", INTERVALS,
                      lambda fields: dg_interval.build(dg_interval.Request(**fields), stderr_progress("dg")),
                      names=names)
            + write_all(outdir, "general_budget", CALIBRATIONS,
                        lambda fields: calibration.build(calibration.Request(**fields),
                                                          stderr_progress("calibrate")), names=names))
