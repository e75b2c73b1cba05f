"""Reference hierarchy/1 certificates, in ``certificates/hierarchy/``.

Published upper ends (γ = 1/3, σ² = 9, δ = 10^-4; *Exact Compilation and Resource Laws for Hidden Integer Feedback*,
§7.2 and Appendices E.5, G.5):

- ε*_8(δ) <= 4.875282 through P_4 and ε*_16(δ) <= 7.582102 through P_3;
- C = 8, ε = 5, S* = S_all ∖ {1}: D <= 0.000099672197505791;
- C = 32, ε = 12, cuts ≡ 1 (mod 4) removed: <= 0.000099882780447748;
- C = 64, ε = 19, odd cuts removed: <= 0.000091539571900235.

These take minutes, so they are not part of ``make certificates``; run
``make hierarchy-references`` (or ``python -m producer.references.hierarchy
OUTDIR [NAME...]``).  The small C = 3 control takes about a second.
"""

import os
import sys

from gmpy2 import mpq, mpz

from producer.kinds.hierarchy import Request, build
from producer.hierarchy.models import parse_cuts
from producer.output import stderr_progress
from producer.references import main_of, write_all

COMMON = dict(gamma="1/3", sigma2=mpq(9))
DELTA = mpq(1, 10**4)

REFERENCES = [
    ("hierarchy-c3-p2-eps2-small.json",
     dict(COMMON, budget=3, depth=2, epsilon=mpq(2), priors=100, radius=12, source_scale=mpz(2) ** 40,
          logit_range=mpq(8))),  # F = 56: the int64 path
    ("hierarchy-c8-p4-delta1e-4.json", dict(COMMON, budget=8, depth=4, delta=DELTA)),
    ("hierarchy-c16-p3-delta1e-4.json", dict(COMMON, budget=16, depth=3, delta=DELTA)),
    ("hierarchy-c8-cuts-all-minus-1-eps5.json",
     dict(COMMON, budget=8, cuts=parse_cuts("all-minus:1", 8), epsilon=mpq(5), priors=6000)),
    ("hierarchy-c32-cuts-minus-1mod4-eps12.json",
     dict(COMMON, budget=32, cuts=parse_cuts("all-minus-mod:4:1", 32), epsilon=mpq(12), priors=1500,
          logit_range=mpq(16), source_scale=mpz(2) ** 64, scale_bits=64)),
    ("hierarchy-c64-cuts-minus-odd-eps19.json",
     dict(COMMON, budget=64, cuts=parse_cuts("all-minus-mod:2:1", 64), epsilon=mpq(19), priors=1500,
          logit_range=mpq(24), radius=26, source_scale=mpz(2) ** 72, scale_bits=64)),
]
SMALL = REFERENCES[:1]
DEFAULT_DIR = os.path.join("certificates", "hierarchy")


def generate(outdir, names=None):
    items = REFERENCES
    os.makedirs(outdir, exist_ok=True)
    return write_all(outdir, "hierarchy", items, lambda fields: build(Request(**fields), stderr_progress("hierarchy")),
                     names=names)


main = main_of("hierarchy", REFERENCES, DEFAULT_DIR, generate)


if __name__ == "__main__":
    sys.exit(main())
