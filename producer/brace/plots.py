"""Figure-1 style pictures from a ``brace-compare`` certificate (display only).

Left: the bank and the trajectories of noiseless DAM, naive DAM and BRACE
(plus global-noise DAM).  Right: per-coordinate squared error to noiseless
DAM by update.  Needs matplotlib (extra ``plots``); uses the Agg backend.
Floats appear here only for drawing.
"""

from fractions import Fraction


def _f(x):
    return float(Fraction(x))  # display only


def _traj(points):
    return [_f(p[0]) for p in points], [_f(p[1]) for p in points]


def _pyplot():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def plot_trajectories(cert, path):
    plt = _pyplot()
    inp, res = cert["input"], cert["result"]
    q = inp["query"]
    fig, ax = plt.subplots(figsize=(5.5, 4.5), dpi=120)
    bx, by = _traj(inp["bank"]["points"])
    ax.scatter(bx, by, s=6, c="0.75", label="memory bank", zorder=1)
    series = [
        ("noiseless DAM", res["clean"], "k", "o"),
        ("naive DAM", [q] + [s["Y"] for s in res["baselines"]["naive"]["steps"]], "tab:red", "s"),
        ("global-noise DAM", [q] + [s["Y"] for s in res["baselines"]["global"]["steps"]], "tab:green", "^"),
        ("BRACE", [q] + [s["Y"] for s in res["brace"]["steps"]], "tab:blue", "D"),
    ]
    for label, pts, colour, marker in series:
        x, y = _traj(pts)
        ax.plot(x, y, color=colour, marker=marker, ms=4, lw=1.4, label=label, zorder=3)
    ax.scatter([_f(q[0])], [_f(q[1])], marker="*", s=120, c="gold", edgecolors="k", zorder=4, label="query q")
    ax.set_aspect("equal", adjustable="datalim")
    ax.set_title(f"retrieval trajectories (r^2 = {inp['r2']}, T = {inp['horizon']}, eps = {inp['epsilon']})",
                 fontsize=9)
    ax.legend(fontsize=7, loc="best")
    fig.tight_layout()
    fig.savefig(path, metadata={"Software": None})
    plt.close(fig)


def plot_errors(cert, path):
    plt = _pyplot()
    res = cert["result"]
    fig, ax = plt.subplots(figsize=(5, 3.6), dpi=120)
    T = len(res["brace_errors"])
    ts = list(range(1, T + 1))
    for label, errs, colour, marker in (
            ("naive DAM", res["baselines"]["naive"]["errors"], "tab:red", "s"),
            ("global-noise DAM", res["baselines"]["global"]["errors"], "tab:green", "^"),
            ("BRACE", res["brace_errors"], "tab:blue", "D")):
        ax.plot(ts, [_f(e) for e in errs], color=colour, marker=marker, label=label)
    ax.scatter([T], [_f(res["baselines"]["endpoint"]["errors"][0])], c="tab:purple", marker="x",
               label="clean endpoint + noise", zorder=3)
    ax.set_yscale("symlog", linthresh=1e-4)
    ax.set_xlabel("update t")
    ax.set_ylabel("per-coordinate squared error")
    ax.set_xticks(ts)
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, metadata={"Software": None})
    plt.close(fig)
