"""Reference calibration certificates.

(*Exact Compilation and Resource Laws for Hidden Integer Feedback*, §4.3 and Appendix K.1.)

- γ = 1/3, σ² = 9, C = 2, δ = 10^-4, enclosure narrower than 10^-6;
- the same mechanism with δ = 1/4 >= Δ*_2(0), so ε* = 0 exactly;
- a small control: γ = 1/2, σ² = 1, C = 1, δ = 10^-3, width 10^-3.
"""

from gmpy2 import mpq

from producer.kinds.calibration import Request, build
from producer.output import stderr_progress
from producer.references import write_all

REFERENCES = [
    ("calibration-c2-delta1e-4.json",
     dict(gamma="1/3", sigma2=mpq(9), budget=2, delta=mpq(1, 10**4), width=mpq(1, 10**6))),
    ("calibration-c2-zero.json",
     dict(gamma="1/3", sigma2=mpq(9), budget=2, delta=mpq(1, 4), width=mpq(1, 10**6))),
    ("calibration-gamma1_2-sigma2_1-c1.json",
     dict(gamma="1/2", sigma2=mpq(1), budget=1, delta=mpq(1, 10**3), width=mpq(1, 10**3))),
]


def generate(outdir, names=None):
    return write_all(outdir, "calibration", REFERENCES,
                     lambda fields: build(Request(**fields), stderr_progress("calibrate")), names=names)
