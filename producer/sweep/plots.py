"""PNG plots of a sweep (matplotlib with the Agg backend; floats only draw, never decide).

* ``profile.png``: Δ*_C(ε) against ε, one series per (γ, σ² or t, C), on a log
  scale.
* ``epsilon-star.png``: ε*_C(δ) against δ, one series per (γ, σ² or t, C) -
  the ε*(δ) curves per budget.

A series' curve joins its two-sided points only (status ``two-sided`` in the
summary: a positive lower end, and the relative width met when one was
asked).  Both Δ*_C(ε) and ε*_C(δ) are non-increasing (in ε, in δ), so at a
point x the value is also at most every upper end at x' <= x and at least
every lower end at x' >= x: the curve is drawn at the least such upper end
and its band down to the greatest such lower end, both computed exactly from
``upper_exact``/``lower_exact`` and non-increasing by construction.
Upper-only points are downward triangles at the least such upper end (their
own, or a smaller one to their left), never joined to the curve, with their
own legend entry.  A point certified exactly 0 has no place on a log scale
and is left out of ``profile.png``.

Each plot function returns the data it drew, read back from the drawn
artists (the tests check the curves with it, not with the image).  Legends
and titles name the law: σ² for discrete-Gaussian innovations, t for
discrete-Laplace ones.
"""

from fractions import Fraction

from producer.sweep.grid import LAWS
from producer.sweep.refine import TWO_SIDED
from producer.sweep.summary import law_of


def _pyplot():
    try:
        import matplotlib  # optional extra
    except ImportError:
        return None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def _series(rows, parameter):
    """{(γ, law, σ² or t, C): [row]}, each series in exact order of ε or δ, the series sorted."""
    series = {}
    for row in rows:
        law = law_of(row)
        series.setdefault((row["gamma"], law, row[law], row["budget"]), []).append(row)
    return {key: sorted(values, key=lambda row: Fraction(row[parameter])) for key, values in sorted(
        series.items(), key=lambda kv: (Fraction(kv[0][0]), kv[0][1], Fraction(kv[0][2]), kv[0][3]))}


def envelope(rows, parameter):
    """(x, lower, upper, status) exact for every row, in order of x, tightened by monotonicity.

    The function is non-increasing in x, so its value at x lies below every
    upper end at x' <= x and above every lower end at x' >= x (of any point,
    two-sided or not): upper is the running least upper end from the left,
    lower the running greatest lower end from the right.  Both are then
    non-increasing in x, and still enclose the value.
    """
    points = [(Fraction(row[parameter]), Fraction(row["lower_exact"]), Fraction(row["upper_exact"]), row["status"])
              for row in rows]
    uppers, least = [], None
    for _x, _lower, upper, _status in points:
        least = upper if least is None else min(least, upper)
        uppers.append(least)
    lowers, greatest = [], None
    for _x, lower, _upper, _status in reversed(points):
        greatest = lower if greatest is None else max(greatest, lower)
        lowers.append(greatest)
    return [(x, lower, upper, status) for (x, _, _, status), lower, upper in zip(points, reversed(lowers), uppers)]


def _label(key):
    gamma, law, value, budget = key
    return f"γ = {gamma}, {LAWS[law][1]} = {value}, C = {budget}"


def _law_names(rows):
    """"discrete Gaussian", "discrete Laplace" or both: the title names the innovation law."""
    laws = sorted({law_of(row) for row in rows}, reverse=True)  # sigma2 before laplace
    return " and ".join(LAWS[law][2] for law in laws)


# One size and resolution for every sweep plot: 770 x 495 pixels.
FIGURE_SIZE = (7, 4.5)
DPI = 110


def _new_axes():
    """(pyplot, figure, axes), or None when matplotlib is missing."""
    plt = _pyplot()
    if plt is None:
        return None
    fig, ax = plt.subplots(figsize=FIGURE_SIZE)
    return plt, fig, ax


def _finish(plt, fig, ax, path, *, xlabel, ylabel, title):
    """The tail both plots share: labels, legend, grid, a fixed-metadata PNG at ``path``."""
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend(fontsize=7)
    ax.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=DPI, metadata={"Software": None})
    plt.close(fig)


def _draw(ax, rows, parameter, *, log_y, bound):
    """Each series' curve, band and upper-only markers on ``ax``; the drawn data, read back from the artists.

    ``bound`` names the value in the upper-only legend entry (δ or ε*).  On a
    log scale points whose value is 0 (or below a float's range) are not drawn.
    """
    drawn = []
    for key, series in _series(rows, parameter).items():
        label = _label(key)
        tight = envelope(series, parameter)
        curve = [(float(x), float(lower), float(upper)) for x, lower, upper, status in tight if status == TWO_SIDED]
        if log_y:
            curve = [(x, lower, upper) for x, lower, upper in curve if upper > 0]
        line, = ax.plot([c[0] for c in curve], [c[2] for c in curve], marker=".",
                        label=label if curve else f"{label} (no two-sided point)")
        color = line.get_color()
        ax.fill_between([c[0] for c in curve], [c[1] for c in curve], [c[2] for c in curve], color=color,
                        alpha=0.3, linewidth=0)
        marks = [(float(x), float(upper)) for x, _lower, upper, status in tight if status != TWO_SIDED]
        if log_y:
            marks = [(x, upper) for x, upper in marks if upper > 0]
        only, only_label = None, f"{label}: upper end only, {bound} ≤ ▽ (not joined)"
        if marks:
            only, = ax.plot([m[0] for m in marks], [m[1] for m in marks], linestyle="none", marker="v",
                            markerfacecolor="none", color=color, label=only_label)
        drawn.append({"label": line.get_label(), "curve": _points(line), "band": curve,
                      "upper_only": [] if only is None else _points(only),
                      "upper_only_label": None if only is None else only.get_label()})
    return drawn


def _points(line):
    """The (x, y) a matplotlib line draws, as floats."""
    xs, ys = line.get_data()
    return [(float(x), float(y)) for x, y in zip(xs, ys)]


def plot_profile(rows, path):
    """Δ*_C(ε) against ε; returns the drawn series (see :func:`_draw`), or None when matplotlib is missing."""
    drawing = _new_axes()
    if drawing is None:
        return None
    plt, fig, ax = drawing
    drawn = _draw(ax, rows, "epsilon", log_y=True, bound="δ")
    ax.set_yscale("log")
    _finish(plt, fig, ax, path, xlabel="ε", ylabel="δ = Δ*_C(ε) (certified band)",
            title=f"Privacy profile δ(ε), {_law_names(rows)} innovations, certified enclosures")
    return drawn


def plot_epsilon_star(rows, path):
    """ε*_C(δ) against δ, one series per budget; returns the drawn series, or None when matplotlib is missing."""
    drawing = _new_axes()
    if drawing is None:
        return None
    plt, fig, ax = drawing
    drawn = _draw(ax, rows, "delta", log_y=False, bound="ε*")
    ax.set_xscale("log")
    _finish(plt, fig, ax, path, xlabel="δ", ylabel="ε*_C(δ) (certified band)",
            title=f"ε*(δ) per budget, {_law_names(rows)} innovations, certified enclosures")
    return drawn
