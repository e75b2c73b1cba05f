"""Reference envelope certificates (*Pure-DP Statistical Query Release at the Conjectured Square-Root Rate*).

Five small instances, chosen so that every branch of the claims appears:

- T = 4, n = 3, k = 2, J = 2 and T = 3, n = 4, k = 3, J = 2 (selection variant)
  with η large enough that the base PMW law alone is *not* ε-DP, while the
  envelope is;
- a §9 sign-variant instance (T = 3, n = 3, k = 2, J = 3);
- T = 2, n = 3, k = 1, J = 2 with η small enough for the §7 hypothesis
  κ ≤ ε²/(900·log(T² + 1));
- T = 2, n = 2, k = 1, J = 1, ε = 600: the theorem's bound (in the checked form, docs/envelope.md)
  is below 1/2 and the certificate *refutes* it for these non-§8 parameters.
"""

import os
from pathlib import Path

from producer.certificates.canonical import write_certificate
from producer.envelope.instance import Instance
from producer.kinds.envelope import Request, build

DATA = Path(__file__).resolve().parent.parent.parent / "data" / "envelope"

# (file stem, query file, T, n, J, gamma, eta, epsilon, variant)
INSTANCES = [
    ("envelope-t4-n3-k2-j2", "t4-k2.json", 4, 3, 2, "1/2", "4", "1", "selection"),
    ("envelope-t3-n4-k3-j2", "t3-k3.json", 3, 4, 2, "1/4", "2", "1/2", "selection"),
    ("envelope-sign-t3-n3-k2-j3", "t3-k2-sign.json", 3, 3, 3, "1/2", "3", "1", "sign"),
    ("envelope-t2-n3-k1-j2-hypothesis", "t2-k1.json", 2, 3, 2, "1/2", "1/30", "1", "selection"),
    ("envelope-t2-n2-k1-j1-refuted", "t2-k1.json", 2, 2, 1, "1/2", "1", "600", "selection"),
]


def reference_instances():
    """(stem, Instance) for every reference certificate."""
    out = []
    for stem, qfile, T, n, J, gamma, eta, eps, variant in INSTANCES:
        text = (DATA / qfile).read_text(encoding="utf-8")
        out.append((stem, Instance.from_strings(str(T), str(n), text, str(J), gamma, eta, eps, variant)))
    return out


def generate(outdir, names=None):
    paths = []
    for stem, inst in reference_instances():
        if names is not None and f"{stem}.json" not in names:
            continue
        path = os.path.join(outdir, f"{stem}.json")
        write_certificate(build(Request(inst)), path)
        paths.append(path)
    return paths
