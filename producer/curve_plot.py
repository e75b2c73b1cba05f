"""A PNG of the testing curve in a finite-game/1 certificate (matplotlib, Agg).

A certificate written with ``producer game --curve`` holds in ``result.curve``
the vertices (A_i, B′_i) = (P(E_i), Q(E_iᶜ)) of the root's upper-right convex
chain, from the vertex maximising B′ to the one maximising A, so that

    V(x, y) = max_i (x·A_i + y·B′_i),     x, y >= 0       (docs/mechanism.md §3).

The picture shows

* the exact vertices (dots) and the chain through them: the upper-right
  boundary of the achievable (A, B′); dotted, its continuation to the axes;
* on the top and right axes, α = 1 − A = P(Eᶜ) and β = 1 − B′ = Q(E): read
  there, the same chain is the trade-off curve β = T(α) of testing P against Q;
* each query (x, y) with its certified value v: the supporting line
  x·A + y·B′ = v, and the vertex where it touches the chain;
* the no-information segment (0, 1)–(1, 0) of P = Q, for reference.

Which vertex a line touches is found exactly (rationals); floats only draw.
Reading the certificate never proves it: ``auditor verify`` does that.
"""

import io
from fractions import Fraction

from producer.errors import InputError
from producer.names import entry, option
from producer.rationals import parse_rational

SCHEMA = "finite-game/1"
# 600 x 600 pixels: figure size in inches times the resolution.
FIGURE_SIZE = (6, 6)
DPI = 100
# An exact value longer than this is shown as a 7-digit decimal in the legend.
MAX_SHOWN_CHARS = 15


class CurvePicture:
    """What the picture needs, read exactly from a finite-game/1 certificate."""

    __slots__ = ("vertices", "queries", "title")

    def __init__(self, vertices, queries, title):
        self.vertices = vertices  # [(A, B′)] as Fractions, in the certificate's order
        self.queries = queries    # [(x, y, value)] as Fractions
        self.title = title


def _rational(text, where):
    if not isinstance(text, str):
        raise InputError(f"{where}: expected a rational \"p/q\" string, got {type(text).__name__}")
    value = parse_rational(text, where)
    return Fraction(int(value.numerator), int(value.denominator))


def _pair(item, where):
    if not isinstance(item, list) or len(item) != 2:
        raise InputError(f"{where}: expected a pair [A, B'] of rationals")
    return _rational(item[0], f"{where}/0"), _rational(item[1], f"{where}/1")


_SUBSCRIPTS = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")


def _title(cert):
    data = cert.get("input") if isinstance(cert.get("input"), dict) else {}
    budget = str(data.get("budget", "C")).translate(_SUBSCRIPTS)
    gamma, pending = data.get("gamma", "?"), data.get("pending")
    law = data.get("law") if isinstance(data.get("law"), dict) else {}
    weights = [str(w) for w in law.get("weights", [])] if isinstance(law.get("weights"), list) else []
    shown = ",".join(weights) if len(weights) <= 7 else ",".join(weights[:3] + ["…"] + weights[-3:])
    if pending is None:
        game = f"G{budget}"
    elif isinstance(pending, list) and len(pending) == 2:
        game = f"F{budget}(({pending[0]}, {pending[1]}); ·)"
    else:
        game = f"F{budget}"
    return f"Testing curve of {game}: γ = {gamma}, ν ∝ ({shown}) from {law.get('offset', '?')}"


def picture_of(cert, name="certificate"):
    """The curve and queries of ``cert``; InputError (one line) when it has no testing curve."""
    if not isinstance(cert, dict) or not isinstance(cert.get("schema"), str):
        raise InputError(f"{name} is not a certificate (no \"schema\" field)")
    schema = cert["schema"]
    if schema != SCHEMA:
        raise InputError(f"{name} is a {schema} certificate, which has no testing curve: only {SCHEMA} "
                         f"certificates written with '{entry('game', curve=True)}' have one")
    result = cert.get("result")
    curve = result.get("curve") if isinstance(result, dict) else None
    if curve is None:
        raise InputError(f"{name}: this {SCHEMA} certificate was written without {option('curve', True)} "
                         f"(result.curve is null); rerun '{entry('game')}' with {option('curve', True)}")
    if not isinstance(curve, list) or not curve:
        raise InputError(f"{name}: /result/curve must be a non-empty list of vertices [A, B']")
    vertices = [_pair(item, f"/result/curve/{i}") for i, item in enumerate(curve)]
    queries = []
    for i, query in enumerate(result.get("queries") or []):
        where = f"/result/queries/{i}"
        if not isinstance(query, dict):
            raise InputError(f"{where}: expected an object")
        queries.append(tuple(_rational(query.get(key), f"{where}/{key}") for key in ("x", "y", "value")))
    return CurvePicture(vertices, queries, _title(cert))


def touching_vertices(vertices, x, y, value):
    """Indices i with x·A_i + y·B′_i = value = max over the chain (exact), else []."""
    levels = [x * a + y * b for a, b in vertices]
    if max(levels) != value:
        return []
    return [i for i, level in enumerate(levels) if level == value]


def _shown(q):
    text = str(q)
    return text if len(text) <= MAX_SHOWN_CHARS else f"{float(q):.7g}"


def _query_label(x, y, value):
    if x == 1:
        return f"λ = {_shown(y)}: value {_shown(value)}, hockey-stick {_shown(value - y)}"
    return f"(x, y) = ({_shown(x)}, {_shown(y)}): value {_shown(value)}"


def _supporting_line(ax, x, y, value, top, colour):
    """x·A + y·B′ = value across the picture (vertical when y = 0)."""
    if y == 0:
        ax.axvline(float(value / x), color=colour, linestyle="--", linewidth=1)
        return
    ends = [Fraction(0), top]
    ax.plot([float(a) for a in ends], [float((value - x * a) / y) for a in ends], color=colour,
            linestyle="--", linewidth=1)


def _draw_queries(ax, picture, top):
    colours = ["tab:red", "tab:green", "tab:purple", "tab:orange", "tab:brown", "tab:pink"]
    for n, (x, y, value) in enumerate(picture.queries):
        colour = colours[n % len(colours)]
        if x == 0 and y == 0:
            continue  # V(0, 0) = 0: no line
        _supporting_line(ax, x, y, value, top, colour)
        touched = touching_vertices(picture.vertices, x, y, value)
        label = _query_label(x, y, value) + ("" if touched else " (does not touch the chain)")
        points = [picture.vertices[i] for i in touched]
        ax.plot([float(a) for a, _ in points], [float(b) for _, b in points], linestyle="none", marker="o",
                markersize=9, markerfacecolor="none", markeredgecolor=colour, label=label)


def _draw_chain(ax, vertices, top):
    a_values, b_values = [float(a) for a, _ in vertices], [float(b) for _, b in vertices]
    size = 4 if len(vertices) <= 200 else 1.5
    ax.plot(a_values, b_values, color="tab:blue", marker="o", markersize=size,
            label=f"testing curve: {len(vertices)} exact vertices (A, B′)")
    # The chain's continuation to the axes: B′ stays at its maximum left of the first
    # vertex, and A at its maximum below the last one.
    ax.plot([0, a_values[0]], [b_values[0]] * 2, color="tab:blue", linestyle=":", linewidth=1)
    ax.plot([a_values[-1]] * 2, [b_values[-1], 0], color="tab:blue", linestyle=":", linewidth=1)
    ax.plot([0, 1], [1, 0], color="0.6", linewidth=0.8, label="P = Q (no information)")
    ax.set_xlim(0, float(top))
    ax.set_ylim(0, float(top))


def _pyplot():
    import matplotlib  # optional extra "plots"; ImportError goes to the caller
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def curve_png(picture):
    """The PNG bytes (600 x 600) of ``picture``; ImportError when matplotlib is missing."""
    plt = _pyplot()
    top = max(Fraction(1), *(a for a, _ in picture.vertices), *(b for _, b in picture.vertices)) * Fraction(51, 50)
    fig, ax = plt.subplots(figsize=FIGURE_SIZE)
    try:
        _draw_chain(ax, picture.vertices, top)
        _draw_queries(ax, picture, top)
        ax.set_aspect("equal")
        ax.set_xlabel("A = P(E)")
        ax.set_ylabel("B′ = Q(Eᶜ)")
        flip = (lambda v: 1 - v, lambda v: 1 - v)
        ax.secondary_xaxis("top", functions=flip).set_xlabel("α = 1 − A = P(Eᶜ)  (trade-off curve β = T(α))")
        ax.secondary_yaxis("right", functions=flip).set_ylabel("β = 1 − B′ = Q(E)")
        ax.set_title(picture.title, fontsize=9)
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=7, loc="lower left")
        fig.tight_layout()
        buffer = io.BytesIO()
        fig.savefig(buffer, format="png", dpi=DPI, metadata={"Software": None})
    finally:
        plt.close(fig)
    return buffer.getvalue()
