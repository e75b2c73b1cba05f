"""Reference dg-interval certificates: published values and small controls.

(*Exact Compilation and Resource Laws for Hidden Integer Feedback*, §4.3.)

- the published C = 2 interval: γ = 1/3, σ² = 9, ε = 2, width below 2·10^-14
  (the paper's §4.3 reports [0.000084311988514885295528, 0.000084311988530665157923]);
- small controls: an explicit source (radius, scale) at C = 1, and a width
  request at γ = 1/2, σ² = 1, C = 2 with a decimal ε.
"""

from gmpy2 import mpq, mpz

from producer.kinds.dg_interval import Request, build
from producer.output import stderr_progress
from producer.references import write_all

REFERENCES = [
    ("dg-interval-published-c2-eps2.json",
     dict(gamma="1/3", sigma2=mpq(9), budget=2, epsilon=mpq(2), width=mpq(2, 10**14))),
    ("dg-interval-c1-explicit-source.json",
     dict(gamma="1/3", sigma2=mpq(9), budget=1, epsilon=mpq(1, 2), radius=12, scale=mpz(2) ** 40)),
    ("dg-interval-gamma1_2-sigma2_1-c2.json",
     dict(gamma="1/2", sigma2=mpq(1), budget=2, epsilon=mpq(491, 100), width=mpq(1, 10**10))),
]


def generate(outdir, names=None):
    return write_all(outdir, "dg", REFERENCES, lambda fields: build(Request(**fields), stderr_progress("dg")),
    names=names)
