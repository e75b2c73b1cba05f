"""The auditor's own computation of block accounting (docs/paper-claims.md §2, ``block-composition/1``).

- :mod:`.deadline`: the deadline game W_n of T physical releases as exact
  testing curves (:class:`auditor.game.curves.Chain`), memoised by periodicity;
- :mod:`.compose`: a block's dominating curve (the zero start or the envelope
  over every start class), the atoms of a curve, and the product pair's
  testing value evaluated by its perspective sums.
"""
