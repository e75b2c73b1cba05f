"""The auditor's own recomputation of envelope certificates (SPEC §6, seed 003).

No floats and no shared code with the producer: intervals of Fractions with
directed rounding (:mod:`.interval`), exp / log / sqrt by rational series with
explicit remainders (:mod:`.elementary`), the instance model and PMW law
(:mod:`.model`, :mod:`.pmw`), and the decision rules (:mod:`.rules`).
"""
