"""PNG plots of a sweep (matplotlib with the Agg backend; floats only draw, never decide).

* ``profile.png``: Δ*_C(ε) against ε, one series per (γ, σ² or t, C), on a log
  scale.
* ``epsilon-star.png``: ε*_C(δ) against δ, one series per (γ, σ² or t, C) -
  the ε*(δ) curves per budget.
* ``epsilon-steps.png``: ε(δ) of DP-SGD against the number of steps T, one
  series per (q, σ, δ), on log scales; ``producer curve`` draws its one
  series the same way (:func:`plot_epsilon_steps`).

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

The DP-SGD plots draw each certificate's own ends, not tightened: ε(δ) does
not decrease with T (the first T steps' output is a function of the first
T + k steps'), but the plots use no such argument, so every drawn number is
one certificate's claim.  Both ends are drawn, the upper end joined, the
lower end dashed (at a relative width of 10^-3 the band between them is
thinner than a line).

Each plot function returns the data it drew, read back from the drawn
artists (the tests check the curves with it, not with the image).  Legends
and titles name the law: σ² for discrete-Gaussian innovations, t for
discrete-Laplace ones.
"""

from fractions import Fraction

from producer.rationals import describe_rational
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


def new_axes():
    """(pyplot, figure, axes), or None when matplotlib is missing."""
    plt = _pyplot()
    if plt is None:
        return None
    fig, ax = plt.subplots(figsize=FIGURE_SIZE)
    return plt, fig, ax


def finish(plt, fig, ax, path, *, xlabel, ylabel, title):
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
    """Each series' curve, band and upper-only markers on ``ax``, tightened by monotonicity (:func:`envelope`);
    the drawn data, read back from the artists (see :func:`draw_series`)."""
    return [draw_series(ax, _label(key), envelope(series, parameter), log_y=log_y, bound=bound)
            for key, series in _series(rows, parameter).items()]


def draw_series(ax, label, points, *, log_y, bound, lower_line=None):
    """One series on ``ax``: ``points`` are (x, lower, upper, status), exact and in order of x.

    The two-sided points are joined at their upper ends, with the band down to
    their lower ends (and, with ``lower_line`` a legend label, a dashed line
    along the lower ends, for bands too narrow to see); the others are hollow downward
    triangles at their upper ends, never joined, with their own legend entry
    naming the bound (``bound`` ≤ ▽).  On a log scale (``log_y``) a value 0 is
    not drawn.  Returns the drawn data, read back from the artists: ``label``,
    ``curve`` (the joined (x, upper)), ``band``, ``lower`` (the dashed (x,
    lower), empty without ``lower_line``), ``upper_only`` and its label.
    """
    curve = [(float(x), float(lower), float(upper)) for x, lower, upper, status in points if status == TWO_SIDED]
    if log_y:
        curve = [(x, lower, upper) for x, lower, upper in curve if upper > 0]
    line, = ax.plot([c[0] for c in curve], [c[2] for c in curve], marker=".",
                    label=label if curve else f"{label} (no two-sided point)")
    color = line.get_color()
    ax.fill_between([c[0] for c in curve], [c[1] for c in curve], [c[2] for c in curve], color=color,
                    alpha=0.3, linewidth=0)
    lower = None
    if lower_line is not None:
        ends = [(x, low) for x, low, _upper in curve if low > 0 or not log_y]
        lower, = ax.plot([e[0] for e in ends], [e[1] for e in ends], linestyle="--", linewidth=0.8, color=color,
                         label=lower_line)
    marks = [(float(x), float(upper)) for x, _lower, upper, status in points if status != TWO_SIDED]
    if log_y:
        marks = [(x, upper) for x, upper in marks if upper > 0]
    only, only_label = None, f"{label}: upper end only, {bound} ≤ ▽ (not joined)"
    if marks:
        only, = ax.plot([m[0] for m in marks], [m[1] for m in marks], linestyle="none", marker="v",
                        markerfacecolor="none", color=color, label=only_label)
    return {"label": line.get_label(), "curve": _points(line), "band": curve,
            "lower": [] if lower is None else _points(lower),
            "upper_only": [] if only is None else _points(only),
            "upper_only_label": None if only is None else only.get_label()}


def _points(line):
    """The (x, y) a matplotlib line draws, as floats."""
    xs, ys = line.get_data()
    return [(float(x), float(y)) for x, y in zip(xs, ys)]


def plot_profile(rows, path):
    """Δ*_C(ε) against ε; returns the drawn series (see :func:`_draw`), or None when matplotlib is missing."""
    drawing = new_axes()
    if drawing is None:
        return None
    plt, fig, ax = drawing
    drawn = _draw(ax, rows, "epsilon", log_y=True, bound="δ")
    ax.set_yscale("log")
    finish(plt, fig, ax, path, xlabel="ε", ylabel="δ = Δ*_C(ε) (certified band)",
            title=f"Privacy profile δ(ε), {_law_names(rows)} innovations, certified enclosures")
    return drawn


def plot_epsilon_star(rows, path):
    """ε*_C(δ) against δ, one series per budget; returns the drawn series, or None when matplotlib is missing."""
    drawing = new_axes()
    if drawing is None:
        return None
    plt, fig, ax = drawing
    drawn = _draw(ax, rows, "delta", log_y=False, bound="ε*")
    ax.set_xscale("log")
    finish(plt, fig, ax, path, xlabel="δ", ylabel="ε*_C(δ) (certified band)",
            title=f"ε*(δ) per budget, {_law_names(rows)} innovations, certified enclosures")
    return drawn


def own_ends(rows, parameter, lower="lower_exact", upper="upper_exact"):
    """(x, lower, upper, status) exact for every row, in order of x: each certificate's own ends, not tightened."""
    return sorted((Fraction(row[parameter]), Fraction(row[lower]), Fraction(row[upper]), row["status"])
                  for row in rows)


def plot_epsilon_steps(series, path, *, title, xlabel, log_x, log_y):
    """ε(δ) against the steps (or epochs) of DP-SGD: ``series`` maps (label of ε_hi, label of ε_lo) to its
    points (x, ε_lo, ε_hi, status), exact, each a certificate's own ends.  Both ends are drawn (the upper end
    joined, the lower end dashed, the band between); returns the drawn series (see :func:`draw_series`), or
    None when matplotlib is missing."""
    drawing = new_axes()
    if drawing is None:
        return None
    plt, fig, ax = drawing
    drawn = [draw_series(ax, label, points, log_y=log_y, bound="ε", lower_line=lower_label)
             for (label, lower_label), points in series.items()]
    if log_x:
        ax.set_xscale("log")
    if log_y:
        ax.set_yscale("log")
    finish(plt, fig, ax, path, xlabel=xlabel, ylabel="ε(δ): certified ends ε_lo (dashed) and ε_hi", title=title)
    return drawn


def dpsgd_series(rows):
    """{(label, lower label): points} of a DP-SGD sweep: one series per (q, σ, δ), its points in order of T."""
    series = {}
    for row in rows:
        key = (Fraction(row["sampling_rate"]), Fraction(row["noise_multiplier"]), Fraction(row["delta"]))
        series.setdefault(key, []).append(row)
    labels = {key: f"q = {describe_rational(key[0])}, σ = {describe_rational(key[1])}, δ = {describe_rational(key[2])}"
              for key in series}
    # the ε_lo lines stay out of the legend (matplotlib skips a label starting "_"): the axis label names them
    return {(labels[key], "_nolegend_"): own_ends(series[key], "steps") for key in sorted(series)}


def plot_dpsgd(rows, path):
    """ε(δ) against T of a DP-SGD sweep, one series per (q, σ, δ), on log scales (``epsilon-steps.png``)."""
    return plot_epsilon_steps(dpsgd_series(rows), path, xlabel="T (steps)", log_x=True, log_y=True,
                              title="DP-SGD ε(δ) against T per (q, σ, δ), certified enclosures")
