"""The auditor's own BRACE routines (no producer code, no flint, no floats).

- :mod:`enclosures`  the replay's precision schedule for the exp / log series
  of :mod:`auditor.enclosures.exponential`, and integer square roots
- :mod:`draws`       the standard-normal draws re-derived from the seed
- :mod:`geometry`    gates, Φ_B, truncated ball projections
- :mod:`calibration` ρ, α and eq. (8) enclosures
- :mod:`sensitivity` the count envelope of Δ̄_t
- :mod:`replay`      recomputation of a certificate's steps
"""
