"""The ``finite-game/1`` certificate: exact values of G_C or F_C at queries."""

from gmpy2 import mpq

from producer.certificates.canonical import make_certificate
from producer.game.values import choose_method, pending_curve, pending_value, root_curve, root_value
from producer.game.engine import FiniteGame
from producer.rationals import format_rational

KIND, VERSION = "finite-game", 1


def query_points(thresholds, points):
    """The queries in certificate order: thresholds (1, L) first, then points."""
    return [(mpq(1), mpq(t)) for t in thresholds] + [(mpq(x), mpq(y)) for x, y in points]


def query_entry(x, y, result):
    entry = {"x": format_rational(x), "y": format_rational(y),
             "value": format_rational(result.value), "witness": result.witness}
    if x == 1:
        entry["hockey_stick"] = format_rational(result.value - y)
    return entry


def build(law, gamma, budget, thresholds=(), points=(), pending=None, curve=False, progress=None,
          method=None):
    """Compute every query and return the sealed certificate."""
    method = choose_method(law, gamma, budget, method) if pending is None else "enumerate"
    game = FiniteGame(law, gamma, reduced=(method == "reduced"))
    queries = query_points(thresholds, points)
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
    if curve:
        verts = (root_curve(law, gamma, budget, game=game) if pending is None
                 else pending_curve(law, gamma, budget, pending[0], pending[1], game=game))
        vertices = [[format_rational(a), format_rational(b)] for a, b in verts]
    input_ = {
        "gamma": str(gamma),
        "law": law.as_json(),
        "budget": budget,
        "thresholds": [format_rational(t) for t in thresholds],
        "points": [[format_rational(x), format_rational(y)] for x, y in points],
        "pending": None if pending is None else [int(pending[0]), int(pending[1])],
        "curve": bool(curve),
    }
    result = {"method": method, "queries": entries, "curve": vertices}
    return make_certificate(KIND, VERSION, input_, result)
