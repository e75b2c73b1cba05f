"""The finite game G_C / F_q and its exact evaluator: the auditor's trusted core
for ``finite-game/1`` (*Hidden Integer Feedback* §3–4).

Modules, in reading order (each states its proof in its docstring):

* :mod:`auditor.game.rows`: the definition: rows of the hidden-rounding
  transition counted over the hidden draws, and the immutable ``Law``
  every other module takes;
* :mod:`auditor.game.curves`: testing curves (concave chains), their
  envelope (hull of a union) and its pruned route;
* :mod:`auditor.game.sums`: Minkowski sums of scaled curves, and the envelope
  of a sum explored by slope;
* :mod:`auditor.game.cover`: the closed-carry-cell cover of root preparations;
* :mod:`auditor.game.screen`: integer screening of root alternatives (only discards);
* :mod:`auditor.game.game`: ``Game``, the evaluator (the recursion at
  points), with its ``Routes`` fixed when it is built, and its bases
  :mod:`auditor.game.levels` (whole curves of the low levels),
  :mod:`auditor.game.lookups` (integer vertex searches) and
  :mod:`auditor.game.bounds` (upper bounds that skip an echo);
* :mod:`auditor.game.values`: the values and curves a check asks, at the API;
* :mod:`auditor.game.work`: the work estimates a check refuses by.

This file imports nothing, so a module that needs only rows or curves does
not load the evaluator (docs/trusted-base.md §14 lists what each kind's
OK depends on).
"""
