"""Machinery of the resource-law checks (``rate/1``, ``frontier/1``, ``window-request/1``, ``finite-budget/1``).

Every claim of these kinds is a finite set of exact equalities and
inequalities over rationals, plus a few enclosure claims about transcendental
numbers; the auditor solves nothing (no LP, no Poisson system):

- :mod:`.model`: γ, σ², the exact constants R, H, L, the window's state order;
- :mod:`.source`: the common rational source (its DG claims three-way);
- :mod:`.rows`: residue, window and descent rows rebuilt by counting the hidden draw;
- :mod:`.kl` (with :mod:`.fixed`): the auditor's own enclosures of the KL rewards;
- :mod:`.rewards`: the stored reward table and its three-way decisions;
- :mod:`.potentials`, :mod:`.bellman`: spans, Lipschitz constants, Bellman/Poisson rows;
- :mod:`.tails`: e_M, p_exit, p_out and log(1/p), three-way;
- :mod:`.display`: outward decimal displays (also in scientific notation);
- :mod:`.limits`: work estimates, refused (UNCHECKED) before any work.
"""
