"""The values a check asks of the finite game, at the API (Fractions in, Fractions out).

Each function takes the :class:`auditor.game.rows.Law` and a budget C and
answers from a cached :class:`auditor.game.game.Game` with the default routes:
G_C(x, y) (:func:`root_value`), F_C((kP, kQ); x, y) (:func:`pending_value`),
the value of one first action (:func:`root_action_value`,
:func:`pending_action_value`) and the canonical vertex lists of the curves
(:func:`root_curve`, :func:`pending_curve`).  A point with x*y = 0 is
answered x + y (every value is x + y there; *Hidden Integer Feedback* §3.1).
Every value is positively homogeneous, so V(x, y) = x V(1, y/x) for x > 0.
"""

import gc
from contextlib import contextmanager
from fractions import Fraction

from gmpy2 import mpq

from auditor.game.game import Game

__all__ = [
    "game_for", "root_value", "pending_value", "root_action_value", "pending_action_value",
    "root_curve", "pending_curve",
]


def _frac(q):
    return Fraction(int(q.numerator), int(q.denominator))


_GAMES = {}


def game_for(law):
    """A cached :class:`Game` (default routes) for this :class:`Law`."""
    key = (law.weights, law.offset, law.a, law.B)
    g = _GAMES.get(key)
    if g is None:
        if len(_GAMES) > 16:
            _GAMES.clear()
        g = Game(law)
        _GAMES[key] = g
    return g


def _check_budget(budget, participate=False, sign=None):
    if budget < 0:
        raise ValueError("budget must be >= 0")
    if participate:
        if budget < 1:
            raise ValueError("no participation is possible with budget 0")
        if sign not in (-1, 1):
            raise ValueError("sign must be -1 or +1")


@contextmanager
def _collector_paused():
    """Pause the cyclic garbage collector while the game runs: it allocates
    millions of tuples and integers that reference counting frees, and every
    collection their allocation triggers would walk the large caches for
    nothing (about a tenth of the time at C = 4).  Speed only; it changes no value."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _at(law, budget, x, y, value):
    """x * value(game, y/x) as a Fraction, or x + y when x*y == 0."""
    x, y = Fraction(x), Fraction(y)
    if x == 0 or y == 0:
        return x + y
    g = game_for(law)
    g.use_curves_below(budget)
    t = Fraction(y / x)
    with _collector_paused():
        return x * _frac(value(g, mpq(t.numerator, t.denominator)))


def root_value(law, budget, x, y):
    """G_budget(x, y) as a Fraction."""
    _check_budget(budget)
    return _at(law, budget, x, y, lambda g, t: g.G_ratio(budget, t))


def pending_value(law, budget, kP, kQ, x, y):
    """F_budget((kP, kQ); x, y) as a Fraction."""
    _check_budget(budget)
    return _at(law, budget, x, y, lambda g, t: g.F_general(budget, int(kP), int(kQ), t))


def root_action_value(law, budget, x, y, k, sign):
    """Value at the root of preparing state k and participating with ``sign``."""
    _check_budget(budget, True, sign)
    return _at(law, budget, x, y, lambda g, t: g.participate_ratio(budget, int(k), int(k), sign, t))


def pending_action_value(law, budget, kP, kQ, x, y, action, sign=None):
    """Value at pending state (kP, kQ) of ``action`` in stop / echo / participate."""
    _check_budget(budget)
    if action == "stop":
        return max(Fraction(x), Fraction(y))
    if action == "echo":
        return _at(law, budget, x, y, lambda g, t: g.echo_ratio(budget, int(kP), int(kQ), t))
    if action != "participate":
        raise ValueError(f"unknown action {action!r}")
    _check_budget(budget, True, sign)
    return _at(law, budget, x, y, lambda g, t: g.participate_ratio(budget, int(kP), int(kQ), sign, t))


def root_curve(law, budget):
    """Canonical vertex list of the G_budget curve (Fractions)."""
    _check_budget(budget)
    with _collector_paused():
        return game_for(law).G_curve(budget).vertices()


def pending_curve(law, budget, kP, kQ):
    """Canonical vertex list of the F_budget((kP, kQ); .) curve (Fractions)."""
    _check_budget(budget)
    with _collector_paused():
        return game_for(law).general_curve(budget, int(kP), int(kQ)).vertices()
