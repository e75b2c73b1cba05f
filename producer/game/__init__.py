"""The finite-law game G_C / F_q.

(*Exact Compilation and Resource Laws for Hidden Integer Feedback*, §3.1, §4 and Appendices A, C, F;
docs/mechanism.md §4.)  One module per concept:

- :mod:`values` — G_C and F_C values with their witnesses (the entry point; it chooses the root method);
- :mod:`engine` — the recursion on exact testing curves, finite by R1 and R2;
- :mod:`roots` — root covers: which preparations a synchronised root may choose;
- :mod:`support` — the C1/C2 support reduction for symmetric laws;
- :mod:`compilation` — the closed-carry-cell cover for large B;
- :mod:`points` — screened point evaluation of the top levels (C >= 3);
- :mod:`pruning` — exact F_q curves without the whole echo curve;
- :mod:`screening`, :mod:`floats` — float screening, every decision confirmed exactly;
- :mod:`work` — the estimated-work model and the engine's limits;
- :mod:`auditability` — the auditor's finite-game limits, refused before the work.

``api`` is only an import path kept for the auditor's tests.
"""
