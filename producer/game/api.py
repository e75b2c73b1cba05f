"""Exact game values with their witnesses, for commands and other modules.

``root_value`` gives G_C(x, y) at the synchronised root; ``pending_value``
gives F_C((k_P, k_Q); x, y).  Both return a :class:`GameValue` whose witness
is the optimising first action in certificate form.
"""

from math import lcm

from gmpy2 import invert, mpq, mpz

from producer.errors import InputError, LimitError
from producer.game.engine import FiniteGame
from producer.game.support import reduced_root_alternatives, reduction_applies

MAX_BUDGET = 6
MAX_WORK = 5 * 10**8  # estimated work units; 5e7 units took about 13 s here


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


def estimated_work(law, gamma, budget, pending=False):
    """A rough work estimate for budget C, used only to refuse huge requests.

    Measured curve sizes grow like ℓ^(q+1) for G_q (ℓ = support length + 2),
    so building the curves costs about Σ_{q<C} B^q·ℓ^(q+2) and the top two
    point levels about C·B^C·ℓ².  A pending query evaluates G_C at ℓ points.
    """
    ell = len(law.trimmed().weights) + 2
    B = gamma.B
    work = max(budget, 1) * B ** budget * ell ** 2
    work += sum(B ** q * ell ** (q + 2) for q in range(1, budget))
    return work * ell if pending else work


def check_limits(law, gamma, budget, pending=False):
    if budget < 0:
        raise InputError(f"budget: must be >= 0, got {budget}")
    if budget > MAX_BUDGET:
        raise LimitError(f"budget: C = {budget} exceeds the limit C <= {MAX_BUDGET}")
    work = estimated_work(law, gamma, budget, pending)
    if work > MAX_WORK:
        raise LimitError(f"estimated work {work:.3g} units for B = {gamma.B}, support length "
                         f"{len(law.trimmed().weights)}, C = {budget} exceeds the limit {MAX_WORK:.0e}; "
                         f"reduce the budget, the support or B")


def _root_witness(game, budget, witness):
    if witness[0] == "stop":
        return {"action": "stop"}
    _, r, j = witness
    period = mpz(game.B) ** budget
    z = (r * invert(game.a, period)) % period
    return {"action": "participate", "k": int(game.B * z), "sign": j}


METHODS = ("enumerate", "reduced", "compiled")


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
                         f"(law symmetric: {law.trimmed().is_symmetric()}, budget {budget}); use --method enumerate")
    if method is None:
        from producer.game.compilation import cover_size  # the compiler builds on this module
        fewer = applies and len(reduced_root_alternatives(law.trimmed(), gamma, budget)) < gamma.B ** budget
        if fewer:
            method = "reduced"
        elif budget >= 2 and cover_size(law.trimmed(), gamma, budget) < gamma.B ** budget:
            method = "compiled"
        else:
            method = "enumerate"
    return method


def check_reduced_limits(law, gamma, budget):
    """The reduction still tabulates one F_0 curve per residue mod B (both signs)."""
    ell = len(law.trimmed().weights) + 2
    roots = len(reduced_root_alternatives(law.trimmed(), gamma, budget))
    work = (2 * gamma.B + roots) * ell ** 2 * max(budget, 1)
    if work > MAX_WORK:
        raise LimitError(f"estimated work {work:.3g} units for the support reduction (B = {gamma.B}, "
                         f"support length {ell - 2}, {roots} roots) exceeds the limit {MAX_WORK:.0e}")


_LAST_GAME = {}  # (kind, law, gamma) -> the most recent game, so repeated queries reuse its curves


def shared_game(kind, law, gamma):
    """A game for (law, gamma) that keeps its memoised curves between calls.

    Repeated queries on one law (a threshold search, a calibration) then pay
    for the curves once.  Only the most recent game is kept, to bound memory.
    """
    key = (kind, law, gamma)
    game = _LAST_GAME.get(key)
    if game is None:
        if kind == "compiled":
            from producer.game.compilation import CompiledGame
            game = CompiledGame(law, gamma)
        else:
            game = FiniteGame(law, gamma, reduced=(kind == "reduced"))
        _LAST_GAME.clear()
        _LAST_GAME[key] = game
    return game


def root_value(law, gamma, budget, x, y, method=None, game=None):
    """G_budget(x, y) exactly, with the optimising root action."""
    method = choose_method(law, gamma, budget, method)
    if method == "compiled":
        from producer.game.compilation import root_value_compiled
        return root_value_compiled(law, gamma, budget, x, y, game=game or shared_game("compiled", law, gamma))
    if method == "enumerate":
        check_limits(law, gamma, budget)
    elif method == "reduced":
        check_reduced_limits(law, gamma, budget)
    game = game or shared_game(method, law, gamma)
    alternatives = reduced_root_alternatives(game.law, gamma, budget) if method == "reduced" else None
    X, Y, M = integer_point(x, y)
    num, witness = game.g_value(budget, X, Y, alternatives)
    value = mpq(num, game.D ** (2 * budget) * M)
    return GameValue(value, _root_witness(game, budget, witness), method)


def pending_value(law, gamma, budget, k_p, k_q, x, y, game=None):
    """F_budget((k_P, k_Q); x, y) exactly, with the optimising action."""
    check_limits(law, gamma, budget, pending=True)
    game = game or FiniteGame(law, gamma)
    X, Y, M = integer_point(x, y)
    num, witness = game.f_value(budget, int(k_p), int(k_q), X, Y, g_curve=False)
    value = mpq(num, game.D ** (2 * budget + 1) * M)
    w = {"action": witness[0]}
    if witness[0] == "participate":
        w["sign"] = witness[1]
    return GameValue(value, w, "enumerate")


def root_curve(law, gamma, budget, game=None):
    """The vertices of G_budget's testing curve, as exact rationals."""
    check_limits(law, gamma, budget + 1)
    game = game or FiniteGame(law, gamma)
    den = game.D ** (2 * budget)
    return [(mpq(a, den), mpq(b, den)) for a, b in game.g_curve(budget).vertices()]


def pending_curve(law, gamma, budget, k_p, k_q, game=None):
    """The vertices of F_budget((k_P, k_Q); ·)'s testing curve, as exact rationals."""
    check_limits(law, gamma, budget + 1)
    game = game or FiniteGame(law, gamma)
    den = game.D ** (2 * budget + 1)
    return [(mpq(a, den), mpq(b, den)) for a, b in game.pending_curve(budget, int(k_p), int(k_q)).vertices()]
