"""The commitment hierarchy: games above G_C for large budgets.

(*Exact Compilation and Resource Laws for Hidden Integer Feedback*, §5, §7.2 and Appendices E, G;
docs/hierarchy.md.)  One module per concept:

- :mod:`models` — which block lengths may be committed where (P_H, U_S);
- :mod:`graph` — the game's graph of nodes, groups and alternatives;
- :mod:`pl` and :mod:`exact` — exact piecewise-linear curves and the exact games, for small laws;
- :mod:`grid` — the sample priors of the numerical sandwich;
- :mod:`sampled` and :mod:`limbs` — the certified numerical sandwich (upper side) and its int64 fast path;
- :mod:`dg_bound` — the discrete-Gaussian upper bound through the hierarchy and its inverse;
- :mod:`auditability` — the auditor's hierarchy limits, refused before the recursion.

The certificate is the kind :mod:`producer.kinds.hierarchy`.
"""
