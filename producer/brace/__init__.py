"""BRACE private retrieval for log-sum-ReLU dense associative memory.

(*BRACE: Differential Privacy for Dense Associative Memory with LSR Energy*:
§2–§4, Algorithm 1, Appendices B and C.2, §6.)

Modules, one concept each:

- :mod:`bank`         memory banks with exact rational coordinates (JSON / CSV)
- :mod:`retrieval`    gates, the LSR update Φ_B and clean trajectories
- :mod:`projection`   exact ball projections truncated onto a dyadic grid
- :mod:`enclosures`   certified rational enclosures via python-flint ``arb``
- :mod:`calibration`  ρ, α and the right-hand sides of eq. (8)
- :mod:`sensitivity`  certified brackets of Δ̄_t and the noise scale rule
- :mod:`draws`        the seeded standard-normal generator
- :mod:`algorithm`    BRACE Algorithm 1, steps 1–6
- :mod:`baselines`    naive DAM, global-noise DAM, clean endpoint plus noise
- :mod:`data`         the synthetic and digits banks
- :mod:`plots`        Figure-1 style pictures (matplotlib, optional)

The certificates (request, limits, JSON, claim lines) are the kinds
:mod:`producer.kinds.brace_run` and :mod:`producer.kinds.brace_compare`;
``record`` here is only an import path kept for the auditor's tests.
"""
