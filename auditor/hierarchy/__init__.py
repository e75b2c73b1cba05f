"""The auditor's own re-computation of ``hierarchy/1`` certificates.

*Hidden Integer Feedback* §5, App. E, G and docs/hierarchy.md: a game above G_C (cut games
U_S, proof hierarchies P_H) whose node functions are sampled at a grid of
priors with upper values in integer fixed point.  Modules:

- :mod:`.words`: digit words of hidden integer states, moved by plain integer
  arithmetic (the successor base b(k) = −floor(a·k/B));
- :mod:`.model`: the allowed group lengths of each game;
- :mod:`.graph`: the reachable graph, its counts and every alternative's row
  and children, rows counted over the hidden draws (:mod:`auditor.game.rows`);
- :mod:`.grid`: the grid, the interval locating each term, the one-step excess;
- :mod:`.limbs`: exact weighted sums of gathered tables in int64 limbs;
- :mod:`.tables`: the integer recursion of docs/hierarchy.md §4;
- :mod:`.estimate`: the work estimate and the documented limits;
- :mod:`.curves`, :mod:`.exact`: exact node functions as testing-curve chains
  and the root functions of the games and of the portfolio Q_H
  (``hierarchy-exact/1``);
- :mod:`.lines`: proof-function lower lines (``minimum-deletion/1``,
  ``minimum-depth/1``);
- :mod:`.sides`: the upper and lower side of a model-capacity statement;
- :mod:`.source`: the discrete-Gaussian side of the bound (atoms, τ, λ±).

No floating point anywhere: numpy is used only with int64 arrays whose sums
are proved (by explicit bounds checked at run time) never to overflow.
"""
