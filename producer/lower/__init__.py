"""Lower witnesses, separations and the static workload: the mathematics of the lower certificates.

(*Exact Compilation and Resource Laws for Hidden Integer Feedback*, §7.)
The certificates themselves are kinds in producer/kinds/ (``deadline_witness``,
``separation``, ``calibration_lower``, ``workload``).  One module per concept:

- :mod:`threshold` — decimal-denominator thresholds λ₋ = floor(N·e^ε)/N;
- :mod:`suffix` — fixed-suffix likelihood tests h(k) with exact P(A), Q(A);
- :mod:`waiting` — the public waiting recursion V_s(k) and its stopping table;
- :mod:`capped` — the capped-preparation witness (first hit, suffix event);
- :mod:`target_lines` — target-{0} witness lines for large budgets;
- :mod:`relaxations` — exact values of the one-digit and offset relaxations;
- :mod:`events` — explicit witness events on the exact discrete Gaussian;
- :mod:`renyi` — the 29-band Rényi cover;
- :mod:`workload` — the static-workload matrix program and the G.6 identity;
- :mod:`bounds` — embedded dg-interval/1 upper ends for the claim's own mechanism;
- :mod:`fields` — the source claims shared by the lower certificates;
- :mod:`auditability` — the auditor's deadline-witness limits, refused before the work.
"""
