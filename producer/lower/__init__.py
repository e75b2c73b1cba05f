"""Lower certificates: witnesses, separations, calibration lower ends (SPEC-lower §7).

One module per concept:

- :mod:`threshold` — decimal-denominator thresholds λ₋ = floor(N·e^ε)/N;
- :mod:`suffix` — fixed-suffix likelihood tests h(k) with exact P(A), Q(A);
- :mod:`waiting` — the public waiting recursion V_s(k) and its stopping table;
- :mod:`deadline_witness` — the ``deadline-witness/1`` certificate (7.1);
- :mod:`workload` — the ``workload/1`` certificate (7.6);
- :mod:`separation` — the ``separation/1`` certificates (7.2–7.4);
- :mod:`calibration_lower` — the ``calibration-lower/1`` certificate (7.5);
- :mod:`bounds` — embedded dg-interval/1 upper ends for the claim's own mechanism;
- :mod:`fields` — the source claims shared by the lower certificates.
"""
