"""Reference certificates of the resource laws, in ``certificates/resource/``.

``make resource-references`` (a prerequisite of ``make certificates``)
regenerates them; they are byte-identical on every run.  Until the auditor
checks these kinds they are not part of ``make verify``.

Published values (*Exact Compilation and Resource Laws for Hidden Integer Feedback*):

- §7.3: γ = 1/2, σ = 1: 1.02784055 < a* < 1.02784057 (period-32 upper, descent
  lower), ρ = 5/4, ρ − a* ∈ [0.22215943, 0.22215945];
- §7.3: γ = 1/2, σ² = 1/4, radius 12: the frontier's gap on τ ∈ [1, 10] below 1.7·10^-12;
- Table S2: γ ∈ {1/2, 1/3}, σ² = 1/4, τ = 2, b ∈ {4, 8}: widths below 2^-b, 306 dual rows;
- H.4: γ = 1/2, σ² = 1/4, M = 12, C = 10^5, T = 2C, δ = 10^-4.

and requests the paper never made (other γ, σ², τ, b, C), to show the engine is general.
"""

import sys

from producer.kinds import finite_budget, frontier, rate, window_request
from producer.references import write_all

RATE = [
    ("rate-published-gamma1_2-sigma2_1-n32.json", ("1/2", "1", 32)),
    ("rate-gamma1_2-sigma2_1_4-n32.json", ("1/2", "1/4", 32)),
    ("rate-gamma1_3-sigma2_2.json", ("1/3", "2", None)),
    ("rate-gamma1_33-sigma2_1-n1.json", ("1/33", "1", None)),  # B > 32: the default period is 1
]
FRONTIER = [
    ("frontier-published-gamma1_2-sigma2_1_4-m12.json", ("1/2", "1/4", 12, ("1", "2", "5", "10"))),
    ("frontier-gamma2_5-sigma2_1-m10.json", ("2/5", "1", 10, ("1/2", "2", "3", "5"))),
]
WINDOW = [
    (f"window-request-published-gamma{g.replace('/', '_')}-tau2-b{b}.json", (g, "1/4", "2", b))
    for g in ("1/2", "1/3") for b in (4, 8)
] + [
    ("window-request-gamma3_7-sigma2_2-tau3_2-b10.json", ("3/7", "2", "3/2", 10)),
]
FINITE = [
    ("finite-budget-published-c100000.json", ("1/2", "1/4", 10**5, 2 * 10**5, "1e-4", 12)),
    ("finite-budget-c10.json", ("1/2", "1/4", 10, 20, "1e-4", 12)),
    ("finite-budget-gamma1_3-sigma2_1-c1000000.json", ("1/3", "1", 10**6, 3 * 10**6, "1e-6", 12)),
]


def generate(outdir, names=None):
    paths = write_all(outdir, "resource", RATE, lambda a: rate.build(rate.Request(*a)), names=names)
    paths += write_all(outdir, "resource", FRONTIER,
                       lambda a: frontier.build(frontier.Request(a[0], a[1], a[2], a[3])), names=names)
    paths += write_all(outdir, "resource", WINDOW, lambda a: window_request.build(window_request.Request(*a)),
                       names=names)
    paths += write_all(outdir, "resource", FINITE, lambda a: finite_budget.build(finite_budget.Request(*a)),
                       names=names)
    return paths


if __name__ == "__main__":
    import os
    out = sys.argv[1] if len(sys.argv) > 1 else "certificates/resource"
    os.makedirs(out, exist_ok=True)
    generate(out)
