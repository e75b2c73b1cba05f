"""Finite sources for the discrete Gaussian and the DG transfer.

(*Exact Compilation and Resource Laws for Hidden Integer Feedback*, §4.3, Appendix A.6.)

- :mod:`enclosures`: rational enclosures of transcendental numbers (python-flint arb).
- :mod:`discrete_gaussian`: the finite discrete-Gaussian source ν and its TV bound τ.
- :mod:`discrete_laplace`: the finite discrete-Laplace source and its TV bound.
- :mod:`auditability`: the auditor's limits on a source, refused before any work.
- :mod:`transfer`: the transfer term b and the final DG interval.
- :mod:`moment`: the moment-envelope upper bound on ε*_C(δ).
- :mod:`calibration`: the search for an enclosure of ε*_C(δ).

The certificates built from them are the kinds ``dg_interval`` and
``calibration`` of producer/kinds/.
"""
