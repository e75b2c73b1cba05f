"""Reference BRACE certificates on the synthetic bank of ``data/brace/``.

The paper's §6.1 setting: n = 256 in R^2, r^2 = 16/25 (r = 0.8, β = 3.125),
T = 5, (ε, δ) = (128, 10^-5), κ = 128 (the paper's MNIST value; then
(2t+1)^2 <= κT for every t <= 5, so every bracket is the exact count
envelope) and γ = auto (the largest certified admissible γ under eq. (8)).
Writes ``brace-synthetic.json`` (brace-run) and ``brace-synthetic-compare.json``
(brace-compare, the data of the Figure-1 style pictures).
"""

import os
import sys

from producer.brace.bank import Bank
from producer.certificates.canonical import write_certificate
from producer.kinds import brace_compare, brace_run
from producer.kinds.brace_run import Request

DATA_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                        "data", "brace")
SYNTHETIC_BANK = os.path.join(DATA_DIR, "synthetic.json")
QUERY = ("3/10", "1/5")
SEED = 20261006


def synthetic_request():
    from gmpy2 import mpq
    bank = Bank.from_path(SYNTHETIC_BANK)
    return Request(bank, tuple(mpq(c) for c in QUERY), mpq(16, 25), 5, mpq(128), mpq(128),
                   mpq(1, 100000), "auto", SEED, bank_name="synthetic.json")


def generate(outdir, names=None):
    req = synthetic_request()
    paths = []
    for name, module in (("brace-synthetic.json", brace_run), ("brace-synthetic-compare.json", brace_compare)):
        if names is not None and name not in names:
            continue
        path = os.path.join(outdir, name)
        write_certificate(module.build(req), path)
        print(f"reference: brace: wrote {name}", file=sys.stderr)
        paths.append(path)
    return paths
