"""The ``finite-game/1`` certificate: exact values of G_C or F_C of a finite law at queries.

Question (``input``): γ, the finite innovation law ν, the budget C, the
queries (each threshold L asks for G_C(1, L) and its hockey-stick
G_C(1, L) − L; each point (x, y) for G_C(x, y)), an optional pending state
(k_P, k_Q) (then F_C((k_P, k_Q); x, y) is asked instead) and whether the
testing curve is wanted.  Result: the root method, and per query the exact
value with its optimising first action; the curve's vertices.  The game is
that of *Exact Compilation and Resource Laws for Hidden Integer Feedback*
(§3.1, §4; docs/mechanism.md).

Limits, refused before any game is solved: C <= :data:`MAX_BUDGET` (the
engine's, producer/game/work.py), pending hidden states within
±:data:`MAX_PENDING_STATE`, and the auditor's finite-game limits (query count
and work estimate, producer/game/auditability.py).
"""

from gmpy2 import mpq, mpz

from producer.certificates.canonical import make_certificate
from producer.display import MECHANISM, law_text, rational, show, show_value
from producer.errors import InputError, LimitError, ReachError
from producer.game.auditability import check_auditable_game
from producer.game.engine import FiniteGame
from producer.game.values import check_method, choose_method, pending_curve, pending_value, root_curve, root_value
from producer.game.work import MAX_BUDGET
from producer.immutable import Immutable
from producer.laws import FiniteLaw, parse_gamma
from producer.rationals import format_rational, is_sequence, list_items, parse_integer, parse_rational, parse_switch

KIND, VERSION = "finite-game", 1
MAX_PENDING_STATE = 10**6  # |kP|, |kQ|: 10^6 takes about a second, 10^8 half a minute
QUIET_QUERIES = 3  # so few queries finish quickly: no progress lines


def check_budget(budget, beyond=None):
    """C of a finite game: an integer 0 <= C <= MAX_BUDGET; ``beyond`` names what answers a larger C."""
    budget = parse_integer(budget, "budget")
    if budget < 0:
        raise InputError(f"budget: C must be >= 0, got {mpz(budget)}")
    if budget > MAX_BUDGET:
        raise ReachError(f"budget: C = {mpz(budget)} exceeds the exact game's limit C <= {MAX_BUDGET}", beyond)
    return int(budget)


def _nonnegative(value, what):
    if value < 0:
        raise InputError(f"{what}: must be >= 0, got {value}")
    return value


def _items(value, what):
    """A list from a comma-separated string or a sequence."""
    if isinstance(value, str):
        return [part.strip() for part in value.split(",")]
    if isinstance(value, (list, tuple)):
        return list(value)
    raise InputError(f"{what}: expected 'A,B' or a pair, got {value!r}")


def parse_pair(value, parse, what, form):
    """Two numbers from ``"A,B"`` or a pair, each read by ``parse``."""
    parts = _items(value, what)
    if len(parts) != 2:
        raise InputError(f"{what}: {value!r} must be two numbers {form}")
    return tuple(parse(p, what) for p in parts)


class Request(Immutable):
    """A validated finite-game request: law, γ, C, thresholds, points, pending state, curve, method."""

    __slots__ = ("law", "gamma", "budget", "thresholds", "points", "pending", "curve", "method")

    def __init__(self, law, gamma, budget, thresholds=(), points=(), pending=None, curve=False, method=None):
        self.law = law if isinstance(law, FiniteLaw) else FiniteLaw(*law)
        self.gamma = parse_gamma(gamma)
        self.budget = check_budget(budget)
        self.thresholds = tuple(_nonnegative(mpq(t), "threshold") for t in thresholds)
        self.points = tuple((_nonnegative(mpq(x), "point"), _nonnegative(mpq(y), "point")) for x, y in points)
        if pending is not None:
            pending = (int(pending[0]), int(pending[1]))
            if max(abs(k) for k in pending) > MAX_PENDING_STATE:
                raise LimitError(f"pending: hidden states beyond ±{MAX_PENDING_STATE} are refused "
                                 f"(the work grows with |k|)")
        self.pending = pending
        self.curve = bool(curve)
        if not self.thresholds and not self.points and not self.curve:
            raise InputError("nothing to compute: give a threshold, a point or the curve")
        check_auditable_game(self.law, self.gamma, self.budget, len(self.thresholds) + len(self.points),
                             self.curve, self.pending is not None)
        check_method(method)
        self.method = method

    @classmethod
    def from_strings(cls, gamma, weights, budget, *, offset=None, thresholds=(), points=(), pending=None,
                     curve=False, method=None):
        """Parse user text exactly: ``weights`` as ``"1,2,1"`` or a list, points as ``"X,Y"`` or pairs."""
        gamma = parse_gamma(gamma)
        if not isinstance(weights, str) and not is_sequence(weights):
            raise InputError(f"weights: expected \"1,2,1\" or a list of integers, got {type(weights).__name__}")
        law = FiniteLaw.from_strings(weights if isinstance(weights, str) else list(weights),
                                     None if offset is None else parse_integer(offset, "offset"))
        budget = parse_integer(budget, "budget")
        # None is none; thresholds "1/2,1" or a list, one point "X,Y" or a list of them
        thresholds = [parse_rational(t, "threshold") for t in ([] if thresholds is None else
                                                                list_items(thresholds, "thresholds"))]
        if isinstance(points, str):
            points = [points]
        points = [parse_pair(p, parse_rational, "point", "X,Y") for p in (points or [])]
        pending = None if pending is None else parse_pair(pending, parse_integer, "pending", "KP,KQ")
        return cls(law, gamma, budget, thresholds, points, pending, parse_switch(curve, "curve"), method)

    @property
    def queries(self):
        """The queries in certificate order: thresholds (1, L) first, then points."""
        return [(mpq(1), t) for t in self.thresholds] + list(self.points)

    def as_json(self):
        return {
            "gamma": str(self.gamma),
            "law": self.law.as_json(),
            "budget": self.budget,
            "thresholds": [format_rational(t) for t in self.thresholds],
            "points": [[format_rational(x), format_rational(y)] for x, y in self.points],
            "pending": None if self.pending is None else list(self.pending),
            "curve": self.curve,
        }


def query_entry(x, y, result):
    entry = {"x": format_rational(x), "y": format_rational(y),
             "value": format_rational(result.value), "witness": result.witness}
    if x == 1:
        entry["hockey_stick"] = format_rational(result.value - y)
    return entry


def build(request, progress=None):
    """The sealed certificate: every query solved, then the curve if asked for."""
    law, gamma, budget, pending = request.law, request.gamma, request.budget, request.pending
    method = choose_method(law, gamma, budget, request.method) if pending is None else "enumerate"
    game = FiniteGame(law, gamma, reduced=(method == "reduced"))
    queries = request.queries
    if len(queries) <= QUIET_QUERIES:
        progress = None
    entries = []
    for i, (x, y) in enumerate(queries):
        if pending is None:
            result = root_value(law, gamma, budget, x, y, method=method, game=game)
        else:
            result = pending_value(law, gamma, budget, pending[0], pending[1], x, y, game=game)
        entries.append(query_entry(x, y, result))
        if progress:
            progress(f"query {i + 1}/{len(queries)} done")
    vertices = None
    if request.curve:
        verts = (root_curve(law, gamma, budget, game=game) if pending is None
                 else pending_curve(law, gamma, budget, pending[0], pending[1], game=game))
        vertices = [[format_rational(a), format_rational(b)] for a, b in verts]
    result = {"method": method, "queries": entries, "curve": vertices}
    return make_certificate(KIND, VERSION, request.as_json(), result)


def claim(cert):
    inp, res = cert["input"], cert["result"]
    C, pending = inp["budget"], inp["pending"]
    name = f"G_{C}" if pending is None else f"F_{C}(({pending[0]}, {pending[1]});"
    parts = []
    queries = res["queries"]
    for q in queries[:2]:
        x, y = show(rational(q["x"])), show(rational(q["y"]))
        at = f"{name}({x}, {y})" if pending is None else f"{name} {x}, {y})"
        text = f"{at} {show_value(rational(q['value']))}"
        if "hockey_stick" in q:
            text += f" (hockey-stick {show_value(rational(q['hockey_stick']))[2:]})"
        parts.append(text)
    if len(queries) > 2:
        parts.append(f"and {len(queries) - 2} more queries")
    if res.get("curve") is not None:
        parts.append(f"testing curve with {len(res['curve'])} vertices")
    return (f"{'; '.join(parts)} for γ = {inp['gamma']}, {law_text(inp['law'])}, C = {C} "
            f"({'plain composition' if inp['gamma'] == '0' else MECHANISM}, finite law; "
            f"method {res['method']})")
