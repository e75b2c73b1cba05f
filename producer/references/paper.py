"""Reference certificates of the hidden-feedback paper's remaining claims (issue 23), in ``certificates/paper/``.

*Exact Compilation and Resource Laws for Hidden Integer Feedback*:

- §5.2, App. G.3: the exact chain (G_4, P_3, P_2, Q_2, P_1)(1/2) = (3737, 3740,
  3746, 3748, 3753)/3888 for the uniform law on {−1, 0, 1}, γ = 1/2, C = 4, its
  strict gaps 3, 6, 2, 5 (/3888); the depths P_1..P_4 with their pending counts
  16, 40, 72, 104 (Thm 6, App. G.1) and P_4 = G_4; the eight cut sets of C = 4
  (the five with blocks <= 2 give Q_2 = 3748 at best) — hierarchy-exact/1;
- §7.1, Table 2: block accounting at γ = 1/2, σ² = 4, T = C = 3, ε = 5 — either
  two-step block certifies 10^-4, only the full computation certifies every
  target in [4·10^-5, 6·10^-5] — block-composition/1;
- §7.2, App. E.5: the minimum-deletion statement at C = 8, γ = 1/3, σ² = 9,
  ε = 5, δ = 10^-4 — minimum-deletion/1;
- §7.2, App. G.4, Table S1: the depth diagnosis at the same query, ε = 4.91
  (depth two fails structurally, depth three certifies) and ε = 4.94 (depth
  two certifies once refined) — minimum-depth/1.

``make paper-references`` (or ``python -m producer.references.paper OUTDIR
[NAME...]``) writes them in about two and a half minutes.  Until the auditor checks these
kinds they are not in the Makefile's ALL_CERTIFICATES.
"""

import os
import sys

from producer.kinds import block_composition, hierarchy_exact, minimum_deletion, minimum_depth
from producer.references import main_of, write_all

CHAIN = ("hierarchy-exact", dict(gamma="1/2", weights="1,1,1", budget="4", priors="1/2", models="G,P3,P2,Q2,P1"))
DEPTHS = ("hierarchy-exact", dict(gamma="1/2", weights="1,1,1", budget="4", priors="1/2", models="G,P4,P3,P2,P1"))
CUTS = ("hierarchy-exact", dict(gamma="1/2", weights="1,1,1", budget="4", priors="1/2",
                                models="U:none,U:2,U:0,U:1,U:1+2,U:0+2,Q2,U:0+1,U:all"))
TABLE2 = ("block-composition", dict(gamma="1/2", budget="3", epsilon="5", sigma2="4", splits="1+1+1,2+1,1+2,3",
                                    targets="1e-4,4e-5:6e-5"))
DELETION = ("minimum-deletion", dict(gamma="1/3", sigma2="9", budget="8", epsilon="5", delta="1e-4", remove="1"))
DEPTH_491 = ("minimum-depth", dict(gamma="1/3", sigma2="9", budget="8", epsilon="4.91", delta="1e-4", depth="3",
                                   upper_priors="1500"))
DEPTH_494 = ("minimum-depth", dict(gamma="1/3", sigma2="9", budget="8", epsilon="4.94", delta="1e-4", depth="2",
                                   upper_priors="1500"))

REFERENCES = [
    ("hierarchy-exact-c4-uniform-g1_2-chain.json", CHAIN),
    ("hierarchy-exact-c4-uniform-g1_2-depths.json", DEPTHS),
    ("hierarchy-exact-c4-uniform-g1_2-cuts.json", CUTS),
    ("block-composition-table2-g1_2-sigma2_4-c3-eps5.json", TABLE2),
    ("minimum-deletion-c8-g1_3-sigma2_9-eps5.json", DELETION),
    ("minimum-depth-c8-g1_3-sigma2_9-eps4_91.json", DEPTH_491),
    ("minimum-depth-c8-g1_3-sigma2_9-eps4_94.json", DEPTH_494),
]
KINDS = {"hierarchy-exact": hierarchy_exact, "block-composition": block_composition,
         "minimum-deletion": minimum_deletion, "minimum-depth": minimum_depth}
DEFAULT_DIR = os.path.join("certificates", "paper")


def _progress(message):
    print(f"  {message}", file=sys.stderr, flush=True)


def build(spec):
    kind, fields = spec
    module = KINDS[kind]
    return module.build(module.Request.from_strings(**fields), progress=_progress)


def generate(outdir, names=None):
    os.makedirs(outdir, exist_ok=True)
    return write_all(outdir, "paper", REFERENCES, build, names=names)


main = main_of("paper", REFERENCES, DEFAULT_DIR, generate)


if __name__ == "__main__":
    sys.exit(main())
