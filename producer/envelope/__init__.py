"""Exact small-instance certificates for the pure-DP query-release envelope.

(After *Pure-DP Statistical Query Release at the Conjectured Square-Root Rate*.)

Modules, one concept each:

- :mod:`.instance`     the instance (universe, records, queries, J, γ, η, ε) and its enumeration limits
- :mod:`.histograms`   database histograms, their Hamming distance and neighbours
- :mod:`.enclosures`   rational interval arithmetic with outward rounding; arb → rationals
- :mod:`.transcripts`  the PMW prefix tree, transcript laws p_h(ω) and decoded answers
- :mod:`.envelope`     the envelope p̃_h(ω) and normalisers Z_h
- :mod:`.utility`      expected ℓ∞ and normalised ℓ2 errors of the released answers
- :mod:`.bounds`       e^ε, 1 + 2e and the theorems' error bounds as enclosures
- :mod:`.claims`       deciding claims from enclosures (proved / refuted / unresolved)
- :mod:`.evaluation`   every enclosure of the result at one precision, and the claims decided
- :mod:`.auditability` the auditor's limits on an instance, refused before any work
- :mod:`.sampling`     exact sampling from p̃_x / Z_x by inversion with refinement
- :mod:`.parameters`   the §8 parameter rules (γ, J, η for a target error)

The certificate (request, precision escalation, claim line) is the kind
:mod:`producer.kinds.envelope`; ``certify`` here is only an import path kept
for the auditor's tests.
"""
