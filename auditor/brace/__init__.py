"""The auditor's own BRACE routines (no producer code, no flint, no floats).

- :mod:`enclosures`  exp / log / sqrt bounds by rational Taylor series with
  explicit remainders and integer square roots
- :mod:`geometry`    gates, Φ_B, truncated ball projections
- :mod:`calibration` ρ, α and eq. (8) enclosures
- :mod:`sensitivity` the count envelope of Δ̄_t
- :mod:`replay`      recomputation of a certificate's steps
"""
