"""The auditor's own recomputation of envelope certificates (*Pure-DP Statistical Query Release*).

No floats and no shared code with the producer: intervals of Fractions with
directed rounding (:mod:`.interval`), exp / log / sqrt by rational series with
explicit remainders (:mod:`.elementary`), the instance model and PMW law
(:mod:`.model`, :mod:`.pmw`), and the decision rules (:mod:`.rules`).
"""
