"""PNG plots of a sweep (matplotlib with the Agg backend; floats only draw, never decide).

* ``profile.png``: the certified band [lower, upper] of Δ*_C(ε) against ε, one
  curve per (γ, σ², C), on a log scale (points whose lower end is 0 are drawn
  at the upper end only).
* ``epsilon-star.png``: the certified band of ε*_C(δ) against δ, one curve per
  (γ, σ², C) - the ε*(δ) curves per budget.
"""

from fractions import Fraction


def _pyplot():
    try:
        import matplotlib  # noqa: PLC0415 - optional extra
    except ImportError:
        return None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # noqa: PLC0415
    return plt


def _series(rows, parameter):
    series = {}
    for row in rows:
        key = (row["gamma"], row["sigma2"], row["budget"])
        series.setdefault(key, []).append(
            (float(Fraction(row[parameter])), float(row["lower"]), float(row["upper"])))
    return {key: sorted(values) for key, values in sorted(series.items(),
                                                          key=lambda kv: tuple(Fraction(str(v)) for v in kv[0]))}


def _label(key):
    gamma, sigma2, budget = key
    return f"γ = {gamma}, σ² = {sigma2}, C = {budget}"


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
        lows = [max(v[1], 1e-300) for v in values]
        highs = [max(v[2], 1e-300) for v in values]
        line, = ax.plot(xs, highs, marker=".", label=_label(key))
        ax.fill_between(xs, lows, highs, color=line.get_color(), alpha=0.3)
    ax.set_yscale("log")
    return _finish(plt, fig, ax, path, xlabel="ε", ylabel="δ = Δ*_C(ε) (certified band)",
                   title="Privacy profile δ(ε), certified enclosures")


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
                   title="ε*(δ) per budget, certified enclosures")
