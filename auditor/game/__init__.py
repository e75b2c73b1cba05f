"""The finite game G_C / F_q and its exact evaluator: the auditor's trusted core
for ``finite-game/1`` (*Hidden Integer Feedback* §3–4).

Modules, in reading order (each states its proof in its docstring):

* :mod:`auditor.game.rows`: the definition: rows of the hidden-rounding
  transition counted over the hidden draws, and the immutable :class:`Law`
  every other module takes;
* :mod:`auditor.game.curves`: testing curves (concave chains) and the exact
  hull operations on them (envelope, scaled Minkowski sums, pruned routes);
* :mod:`auditor.game.cover`: the closed-carry-cell cover of root preparations;
* :mod:`auditor.game.reduction`: the support reduction for symmetric laws, C <= 2;
* :mod:`auditor.game.screen`: integer screening of root alternatives (only discards);
* :mod:`auditor.game.game`: :class:`Game`, the evaluator, with its
  :class:`Routes` fixed when it is built;
* :mod:`auditor.game.values`: the values and curves a check asks, at the API;
* :mod:`auditor.game.work`: the work estimates a check refuses by.

This file imports nothing, so a module that needs only rows or curves does
not load the evaluator (see docs/trusted-base.md for what each kind's OK
depends on).
"""
