"""Exact game values with their witnesses, for the certificate kinds and other modules.

``root_value`` gives G_C(x, y) at the synchronised root; ``pending_value``
gives F_C((k_P, k_Q); x, y).  Both return a :class:`GameValue` whose witness
is the optimising first action in certificate form.

This module only chooses: the root method (a root cover, producer/game/roots.py)
and whether the request is within the limits (producer/game/work.py); the
engine (producer/game/engine.py) does the rest.
"""

import threading
from math import lcm

from gmpy2 import invert, mpq, mpz

from producer.errors import InputError
from producer.game import work
from producer.game.compilation import cover_size
from producer.game.engine import FiniteGame
from producer.game.roots import cover_named
from producer.game.support import reduced_root_alternatives, reduction_applies
from producer.names import option

METHODS = ("enumerate", "reduced", "compiled")


class GameValue:
    """An exact value with the first action that attains it."""

    __slots__ = ("value", "witness", "method")

    def __init__(self, value, witness, method):
        self.value = value
        self.witness = witness
        self.method = method

    def __repr__(self):
        return f"GameValue({self.value}, {self.witness}, {self.method!r})"


def integer_point(x, y):
    """Integers (X, Y, M) with (x, y) = (X, Y)/M."""
    x, y = mpq(x), mpq(y)
    if x < 0 or y < 0:
        raise InputError(f"query point ({x}, {y}) must have x >= 0 and y >= 0")
    m = lcm(int(x.denominator), int(y.denominator))
    return mpz(x * m), mpz(y * m), mpz(m)


def check_method(method):
    """Refuse a root method name that is not one of METHODS (None means: choose)."""
    if method is not None and method not in METHODS:
        raise InputError(f"method: {method!r} is not one of {', '.join(METHODS)}")


def choose_method(law, gamma, budget, method=None):
    """The root method: ``reduced`` (support reduction), ``compiled`` (closed
    carry-cell cover) or ``enumerate`` (all B^C pure roots).

    By default the reduction is used wherever it is proved (symmetric law,
    budget one or two) and has fewer roots than B^C; otherwise the compiled
    cover when it is smaller than B^C; otherwise plain enumeration.
    """
    check_method(method)
    applies = reduction_applies(law.trimmed(), budget)
    if method == "reduced" and not applies:
        raise InputError("method: the support reduction needs a symmetric law and budget 1 or 2 "
                         f"(law symmetric: {law.trimmed().is_symmetric()}, budget {budget}); "
                         f"use {option('method', 'enumerate')}")
    if method is None:
        fewer = applies and len(reduced_root_alternatives(law.trimmed(), gamma, budget)) < gamma.B ** budget
        if fewer:
            method = "reduced"
        elif budget >= 2 and cover_size(law.trimmed(), gamma, budget) < gamma.B ** budget:
            method = "compiled"
        else:
            method = "enumerate"
    return method


def check_limits(law, gamma, budget, method="enumerate"):
    """Refuse G_budget at a point beyond the documented limits (before any work)."""
    work.check_budget(budget)
    estimate = work.root_estimate(law, gamma, budget, cover_named(method))
    work.check_estimate(estimate, law, gamma, budget, f"the root value ({method})")


def _root_witness(game, budget, witness):
    if witness[0] == "stop":
        return {"action": "stop"}
    _, r, j = witness
    period = mpz(game.B) ** budget
    z = (r * invert(game.a, period)) % period
    return {"action": "participate", "k": int(game.B * z), "sign": j}


# Per thread: a FiniteGame's memo tables are filled as it is queried, so one game must never serve two
# threads at once (a sweep on Dask workers with several threads each, or an in-process cluster).
_LAST_GAME = threading.local()


def shared_game(method, law, gamma):
    """A game for (law, gamma) and the method's root cover that keeps its memoised
    curves between calls (of this thread).

    Repeated queries on one law (a threshold search, a calibration) then pay
    for the curves once.  Only the most recent game is kept, to bound memory.
    """
    key = (method, law, gamma)
    last = getattr(_LAST_GAME, "entry", None)
    if last is None or last[0] != key:
        if last is not None:
            # the game and its float copies refer to each other: break the cycle so that the
            # old game's arrays go now, not at some later garbage collection (a calibration's
            # probes each change the law, and two or three games at once were ~4.6 GB at C = 4)
            last[1].floats = None
            _LAST_GAME.entry = None
            last = None
        last = _LAST_GAME.entry = (key, FiniteGame(law, gamma, cover=cover_named(method)))
    return last[1]


def game_for(method, law, gamma, game=None):
    """``game`` when it searches the method's cover, else the shared game of the method."""
    if game is not None and game.cover.name == method and game.law == law.trimmed() and game.gamma == gamma:
        return game
    return shared_game(method, law, gamma)


def root_value(law, gamma, budget, x, y, method=None, game=None):
    """G_budget(x, y) exactly, with the optimising root action."""
    method = choose_method(law, gamma, budget, method)
    check_limits(law, gamma, budget, method)
    game = game_for(method, law, gamma, game)
    X, Y, M = integer_point(x, y)
    num, witness = game.g_value(budget, X, Y)
    value = mpq(num, game.D ** (2 * budget) * M)
    return GameValue(value, _root_witness(game, budget, witness), method)


def pending_value(law, gamma, budget, k_p, k_q, x, y, game=None):
    """F_budget((k_P, k_Q); x, y) exactly, with the optimising action."""
    work.check_budget(budget)
    work.check_estimate(work.pending_estimate(law, gamma, budget), law, gamma, budget, "the pending value")
    game = game or FiniteGame(law, gamma)
    X, Y, M = integer_point(x, y)
    num, witness = game.f_value(budget, int(k_p), int(k_q), X, Y, g_curve=False)
    value = mpq(num, game.D ** (2 * budget + 1) * M)
    w = {"action": witness[0]}
    if witness[0] == "participate":
        w["sign"] = witness[1]
    return GameValue(value, w, "enumerate")


def _check_curve_limits(law, gamma, budget):
    work.check_budget(budget)
    work.check_estimate(work.curve_estimate(law, gamma, budget), law, gamma, budget, "the whole curve")


def root_curve(law, gamma, budget, game=None):
    """The vertices of G_budget's testing curve, as exact rationals."""
    _check_curve_limits(law, gamma, budget)
    game = game or FiniteGame(law, gamma)
    den = game.D ** (2 * budget)
    return [(mpq(a, den), mpq(b, den)) for a, b in game.g_curve(budget).vertices()]


def pending_curve(law, gamma, budget, k_p, k_q, game=None):
    """The vertices of F_budget((k_P, k_Q); ·)'s testing curve, as exact rationals."""
    _check_curve_limits(law, gamma, budget)
    game = game or FiniteGame(law, gamma)
    den = game.D ** (2 * budget + 1)
    return [(mpq(a, den), mpq(b, den)) for a, b in game.pending_curve(budget, int(k_p), int(k_q)).vertices()]
