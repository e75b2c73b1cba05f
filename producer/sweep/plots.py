"""PNG plots of a sweep (matplotlib with the Agg backend; floats only draw, never decide).

* ``profile.png``: the certified band [lower, upper] of Δ*_C(ε) against ε, one
  curve per (γ, σ² or t, C), on a log scale (points whose lower end is 0 are drawn
  at the upper end only; points certified Δ* = 0 are left out).
* ``epsilon-star.png``: the certified band of ε*_C(δ) against δ, one curve per
  (γ, σ² or t, C) - the ε*(δ) curves per budget.

Legends and titles name the law: σ² for discrete-Gaussian innovations, t for
discrete-Laplace ones.
"""

from fractions import Fraction

from producer.sweep.grid import LAWS
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
    """{(γ, law, σ² or t, C): [(ε or δ, lower, upper)]} as floats for drawing, in exact order."""
    series = {}
    for row in rows:
        law = law_of(row)
        key = (row["gamma"], law, row[law], row["budget"])
        series.setdefault(key, []).append(
            (float(Fraction(row[parameter])), float(row["lower"]), float(row["upper"])))
    return {key: sorted(values) for key, values in sorted(
        series.items(), key=lambda kv: (Fraction(kv[0][0]), kv[0][1], Fraction(kv[0][2]), kv[0][3]))}


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
    return True


def plot_profile(rows, path):
    """Δ*_C(ε) bands against ε; returns False when matplotlib is missing."""
    drawing = _new_axes()
    if drawing is None:
        return False
    plt, fig, ax = drawing
    for key, values in _series(rows, "epsilon").items():
        xs = [v[0] for v in values]
        # Log scale: a lower end 0 is drawn at the upper end (the band's bottom would be at
        # -infinity); a point whose upper end is 0 too (Δ* = 0 certified) cannot be drawn at all.
        highs = [v[2] if v[2] > 0 else float("nan") for v in values]
        lows = [v[1] if v[1] > 0 else high for v, high in zip(values, highs)]
        line, = ax.plot(xs, highs, marker=".", label=_label(key))
        ax.fill_between(xs, lows, highs, color=line.get_color(), alpha=0.3)
    ax.set_yscale("log")
    return _finish(plt, fig, ax, path, xlabel="ε", ylabel="δ = Δ*_C(ε) (certified band)",
                   title=f"Privacy profile δ(ε), {_law_names(rows)} innovations, certified enclosures")


def plot_epsilon_star(rows, path):
    """ε*_C(δ) bands against δ, one curve per budget; returns False when matplotlib is missing."""
    drawing = _new_axes()
    if drawing is None:
        return False
    plt, fig, ax = drawing
    for key, values in _series(rows, "delta").items():
        xs = [v[0] for v in values]
        line, = ax.plot(xs, [v[2] for v in values], marker=".", label=_label(key))
        ax.fill_between(xs, [v[1] for v in values], [v[2] for v in values], color=line.get_color(), alpha=0.3)
    ax.set_xscale("log")
    return _finish(plt, fig, ax, path, xlabel="δ", ylabel="ε*_C(δ) (certified band)",
                   title=f"ε*(δ) per budget, {_law_names(rows)} innovations, certified enclosures")
