"""Count the work units of :mod:`auditor.game.work` that a game actually does (a test helper).

:func:`auditor.game.work.estimated_work` bounds "curve points built or
looked up".  This helper counts them on a real evaluation, from outside the
evaluator (its functions are wrapped while a count runs, never changed):

* points built: every edge walked by a Minkowski sum or a built slope range
  (``sums._walk_edges``) and every point entering a hull scan
  (``hull_of_points``, also the envelopes); the passes over a built curve
  that cost a constant per vertex (its transpose, its lookup keys) are part
  of building it;
* look-ups: every binary search on a curve (``bisect_left`` in the look-ups,
  curves and sums modules: the lazy exploration's are one per term and
  slope range), every F / G value or bound asked (memo hits included: a hit
  costs a key and a dict look-up), every summed output of an echo, and
  every (row, item) cell of the numpy root screening.

The count is of the whole query, from a fresh :class:`Game`, as a check runs
it (``values``: G_C(1, t) and the witness's value).
"""

from contextlib import contextmanager

from gmpy2 import mpq

from auditor.game import bounds, curves, lookups, screen, sums
from auditor.game.game import Game

__all__ = ["Counter", "counting", "root_query_work", "pending_query_work", "curve_query_work"]


class Counter:
    """Units counted: ``built`` and ``looked`` (see the module docstring), by
    kind (``parts``) and by the curve being built when they were done
    (``phases``: "G c" inside the G_c curve, "F q" inside an F_q curve, "top"
    outside every curve; each unit goes to the innermost)."""

    __slots__ = ("built", "looked", "parts", "phases", "stack")

    def __init__(self):
        self.built = 0
        self.looked = 0
        self.parts = {}
        self.phases = {}
        self.stack = ["top"]

    def add(self, part, n, built):
        if built:
            self.built += n
        else:
            self.looked += n
        self.parts[part] = self.parts.get(part, 0) + n
        phase = self.stack[-1]
        self.phases[phase] = self.phases.get(phase, 0) + n

    @property
    def total(self):
        return self.built + self.looked


def _wrap_len(counter, part, fn, size, built=True):
    def wrapped(*args, **kwargs):
        counter.add(part, size(*args, **kwargs), built)
        return fn(*args, **kwargs)
    return wrapped


def _phase(counter, label, fn):
    def wrapped(self, level, *args):
        counter.stack.append(f"{label} {level}")
        try:
            return fn(self, level, *args)
        finally:
            counter.stack.pop()
    return wrapped


@contextmanager
def counting():
    """A :class:`Counter` of the work done by the auditor's game inside the block."""
    c = Counter()
    saved = []

    def patch(obj, name, new):
        saved.append((obj, name, obj.__dict__.get(name)))
        setattr(obj, name, new)

    def one(*_a, **_k):
        return 1

    walk = sums._walk_edges
    patch(sums, "_walk_edges", _wrap_len(c, "edges walked", walk, lambda das, *_: len(das)))
    hull = curves.hull_of_points
    for mod in (curves, sums):
        patch(mod, "hull_of_points", _wrap_len(c, "hull points", hull, lambda pts, *_: len(pts)))
    for mod in (lookups, curves, sums):
        patch(mod, "bisect_left", _wrap_len(c, f"searches ({mod.__name__.rsplit('.', 1)[1]})",
                                             mod.bisect_left, one, built=False))
    for name in ("F_ratio", "G_ratio", "_F_bounds", "echo_ratio"):
        patch(Game, name, _wrap_len(c, name, getattr(Game, name), one, built=False))
    patch(Game, "_G_upper", _wrap_len(c, "_G_upper", bounds.EchoBounds._G_upper, one, built=False))
    echo_sum = Game._echo_sum

    def counted_echo_sum(self, kP, kQ, t, value):
        c.add("echo outputs", len(self._relative(kP, kQ, 0)[1]), False)
        return echo_sum(self, kP, kQ, t, value)
    patch(Game, "_echo_sum", counted_echo_sum)
    part_sums = screen._Screen._part_sums

    def counted_part_sums(self, items, rows, crv):
        c.add("screen cells", len(rows[0]) * items[2], False)
        return part_sums(self, items, rows, crv)
    patch(screen._Screen, "_part_sums", counted_part_sums)
    for name, label in (("G_curve", "G"), ("general_curve", "F")):
        patch(Game, name, _phase(c, label, getattr(Game, name)))
    try:
        yield c
    finally:
        for obj, name, old in reversed(saved):
            if old is None:
                delattr(obj, name)     # an inherited method: the base's again
            else:
                setattr(obj, name, old)


def _mpq(t):
    return mpq(t.numerator, t.denominator)


def root_query_work(law, budget, ts, witness=None):
    """The counted work of G_budget(1, t) for each t of ``ts`` on one fresh
    game (and of the root participation ``witness`` = (k, sign) at the first
    t), as a check does it: a :class:`Counter`."""
    g = Game(law)
    with counting() as c:
        g.use_curves_below(budget)
        for t in ts:
            g.G_ratio(budget, _mpq(t))
        if witness is not None:
            k, sign = witness
            g.participate_ratio(budget, k, k, sign, _mpq(ts[0]))
    return c


def pending_query_work(law, budget, kP, kQ, ts):
    """The counted work of F_budget((kP, kQ); 1, t) for each t of ``ts``."""
    g = Game(law)
    with counting() as c:
        g.use_curves_below(budget)
        for t in ts:
            g.F_general(budget, kP, kQ, _mpq(t))
    return c


def curve_query_work(law, budget):
    """The counted work of the whole G_budget curve."""
    g = Game(law)
    with counting() as c:
        g.use_curves_below(budget + 1)
        g.G_curve(budget)
    return c
