"""The grid of a sweep: points (γ, law parameter, C, ε or δ), their file names and their groups.

A point is one certificate: a dg-interval/1 for Δ*_C(ε) when it carries an ε,
a calibration/1 for ε*_C(δ) when it carries a δ.  The innovation law is the
discrete Gaussian of parameter σ² (law "sigma2") or the discrete Laplace
L_t(n) ∝ e^{−|n|/t} of scale t (law "laplace").  Every point asks the same
widths: an absolute width W alone, or a relative width R with W as its floor
(:mod:`producer.sweep.refine`).  The file name is a function of the point alone (``dg-g1_3-s9-c2-e1_2.json``,
``dg-g1_3-t2-c2-e1_2.json`` for t = 2), so the same grid writes the same files
whatever the order of the work.

Points that share a game (same σ², hence the same law family, same γ and C)
form one group, run as one task in one process: consecutive queries on one
law then reuse its memoised curves (:func:`producer.game.values.shared_game`).

A DP-SGD grid (:class:`DpsgdPoint`) is a product of sampling rates q, noise
multipliers σ, step counts T and δ: one ``dpsgd/1`` certificate of ε(δ) per
point, named ``dpsgd-q1_1000-s4_5-t1000-d1_100000.json``.  Its points share
no work, so each is a task of its own.
"""

from itertools import product

from gmpy2 import mpq

from producer.errors import InputError, LimitError
from producer.rationals import format_rational, parse_integer, parse_rational

# Refused before any work: a sweep is a batch of single certificates, each up to
# seconds or minutes; beyond this many points split the grid into several runs.
MAX_POINTS = 2000
MAX_RANGE_POINTS = 1000


# The innovation laws of a sweep: the name of the law's parameter (the key of the
# summary column and of the producer.api argument) -> (file-name letter, symbol, name).
SIGMA2, LAPLACE = "sigma2", "laplace"
LAWS = {SIGMA2: ("s", "σ²", "discrete Gaussian"), LAPLACE: ("t", "t", "discrete Laplace")}


class GridPoint:
    """One certificate of the sweep; ``kind`` is "dg" (an ε) or "calibration" (a δ).

    ``law_value`` is σ² when ``law`` is "sigma2" and the Laplace scale t when
    ``law`` is "laplace".
    """

    __slots__ = ("kind", "gamma", "law_value", "budget", "value", "width", "law", "rel_width")

    def __init__(self, kind, gamma, law_value, budget, value, width, law=SIGMA2, rel_width=None):
        if law not in LAWS:
            raise ValueError(f"unknown innovation law {law!r} (expected one of {sorted(LAWS)})")
        self.kind, self.gamma, self.law_value, self.law = kind, gamma, law_value, law
        self.budget, self.value, self.width, self.rel_width = budget, value, width, rel_width

    def sort_key(self):
        return (self.kind, self.gamma, self.law, self.law_value, self.budget, self.value)

    def group_key(self):
        """Points with one key share a law, γ and C: one task."""
        return (self.kind, self.gamma, self.law, self.law_value, self.budget, self.width, self.rel_width)

    @property
    def parameter(self):
        return "epsilon" if self.kind == "dg" else "delta"

    def file_name(self):
        letter = "e" if self.kind == "dg" else "d"
        return (f"{self.kind}-g{_token(self.gamma)}-{LAWS[self.law][0]}{_token(self.law_value)}-c{self.budget}"
                f"-{letter}{_token(self.value)}.json")

    def as_json(self):
        return {"kind": self.kind, "gamma": format_rational(self.gamma), self.law: format_rational(self.law_value),
                "budget": self.budget, self.parameter: format_rational(self.value),
                "width": format_rational(self.width),
                "rel_width": None if self.rel_width is None else format_rational(self.rel_width)}


class DpsgdPoint:
    """One dpsgd/1 certificate of a DP-SGD grid: ε(δ) after ``steps`` steps at sampling rate q and noise
    multiplier σ, to the relative width ``rel_width`` (dpsgd/1's default 1/1000 when None), at dpsgd/1's opt-in
    ``effort`` (1: none)."""

    __slots__ = ("sampling_rate", "noise_multiplier", "steps", "delta", "rel_width", "effort")
    kind, parameter = "dpsgd", "delta"

    def __init__(self, sampling_rate, noise_multiplier, steps, delta, rel_width=None, effort=1):
        self.sampling_rate, self.noise_multiplier, self.steps = sampling_rate, noise_multiplier, steps
        self.delta, self.rel_width, self.effort = delta, rel_width, effort

    def sort_key(self):
        return (self.kind, self.sampling_rate, self.noise_multiplier, self.delta, self.steps)

    def group_key(self):
        """Every point is a task of its own: DP-SGD points share no work."""
        return self.sort_key()

    def file_name(self):
        return (f"dpsgd-q{_token(self.sampling_rate)}-s{_token(self.noise_multiplier)}-t{self.steps}"
                f"-d{_token(self.delta)}.json")

    def request_texts(self):
        """(q, σ, T, δ, R, effort) as ``producer.api.dpsgd`` takes them (R None: the default)."""
        return (format_rational(self.sampling_rate), format_rational(self.noise_multiplier), self.steps,
                format_rational(self.delta), None if self.rel_width is None else format_rational(self.rel_width),
                self.effort)

    def as_json(self):
        from producer.kinds.dpsgd import DEFAULT_REL_WIDTH
        return {"kind": self.kind, "sampling_rate": format_rational(self.sampling_rate),
                "noise_multiplier": format_rational(self.noise_multiplier), "steps": self.steps,
                "delta": format_rational(self.delta),
                "rel_width": format_rational(DEFAULT_REL_WIDTH if self.rel_width is None else self.rel_width),
                **({"effort": self.effort} if self.effort > 1 else {})}


def build_dpsgd_grid(sampling_rates, noise_multipliers, steps, deltas, rel_width=None, effort=1):
    """Every point of the DP-SGD product q × σ × T × δ, sorted; refused beyond MAX_POINTS before any work."""
    size = len(sampling_rates) * len(noise_multipliers) * len(steps) * len(deltas)
    if size > MAX_POINTS:
        raise LimitError(f"grid: {size} points exceed the limit {MAX_POINTS} of one sweep "
                         f"(split it into several sweeps)")
    points = [DpsgdPoint(q, s, t, d, rel_width, effort)
              for q, s, t, d in product(sampling_rates, noise_multipliers, steps, deltas)]
    return sorted(points, key=DpsgdPoint.sort_key)


def _token(value):
    """A rational as a file-name token: 1/3 -> 1_3, 9 -> 9."""
    return format_rational(value).replace("/", "_")


def parse_list(text, what, parse=parse_rational):
    """Comma-separated exact values, duplicates removed, sorted."""
    parts = [part.strip() for part in str(text).split(",")]
    if not all(parts):
        raise InputError(f"--{what}: empty entry in {text!r}")
    return sorted({parse(part, what) for part in parts})


def parse_range(text, what):
    """``A:B:N``: N evenly spaced exact rationals from A to B (both included)."""
    parts = str(text).split(":")
    if len(parts) != 3:
        raise InputError(f"--{what}: {text!r} must be A:B:N (from A to B in N points)")
    lo, hi = parse_rational(parts[0], what), parse_rational(parts[1], what)
    count = parse_integer(parts[2], what)
    if count < 1 or (count == 1 and lo != hi):
        raise InputError(f"--{what}: N = {count} must be >= 2 (or 1 with A = B)")
    if count > MAX_RANGE_POINTS:
        raise LimitError(f"--{what}: N = {count} exceeds the limit {MAX_RANGE_POINTS}")
    if hi < lo:
        raise InputError(f"--{what}: {text!r} has B < A")
    if count == 1:
        return [lo]
    step = (hi - lo) / (count - 1)
    return sorted({mpq(lo) + i * mpq(step) for i in range(count)})


def build_grid(gammas, sigma2s, budgets, width, epsilons=None, deltas=None, laplaces=None, rel_width=None):
    """Every point of the product, sorted; refused beyond MAX_POINTS before any work.

    The law axis is ``sigma2s`` (discrete Gaussian) or ``laplaces`` (discrete
    Laplace scales t, with ``sigma2s`` None): exactly one of the two.  A
    relative width ``rel_width`` applies to an ε grid only (``width`` is then its floor).
    """
    if (epsilons is None) == (deltas is None):
        raise InputError("give the ε grid (--epsilons or --epsilon-range) or the δ grid (--deltas), not both")
    if (sigma2s is None) == (laplaces is None):
        raise InputError("give the σ² grid (--sigma2s) or the Laplace grid (--laplace), not both")
    law, law_values = (SIGMA2, sigma2s) if laplaces is None else (LAPLACE, laplaces)
    kind, values = ("dg", epsilons) if epsilons is not None else ("calibration", deltas)
    if rel_width is not None and kind == "calibration":
        raise InputError("--rel-width: a δ grid's ε* enclosures take the absolute --width only "
                         "(--rel-width applies to an ε grid)")
    for value in values:
        if value < 0 or kind == "calibration" and not 0 < value < 1:
            raise InputError(f"--{'epsilons' if kind == 'dg' else 'deltas'}: {format_rational(value)} "
                             f"is outside {'[0, ∞)' if kind == 'dg' else '(0, 1)'}")
    size = len(gammas) * len(law_values) * len(budgets) * len(values)
    if size > MAX_POINTS:
        raise LimitError(f"grid: {size} points exceed the limit {MAX_POINTS} of one sweep "
                         f"(split it into several sweeps)")
    points = [GridPoint(kind, g, s, c, v, width, law, rel_width)
              for g, s, c, v in product(gammas, law_values, budgets, values)]
    return sorted(points, key=GridPoint.sort_key)


# A group is cut into tasks of at most this many consecutive points: a one-group grid
# (one γ, σ², C) still spreads over the workers, and the progress counter moves.
# Neighbouring ε usually pick the same finite source, so a task still reuses its curves.
TASK_POINTS = 4


def groups_of(points, task_points=TASK_POINTS):
    """The tasks: points grouped by game, each group cut into runs of ``task_points``.

    The cut depends on the grid alone, never on the number of workers (and the
    certificates depend on their point alone, whatever the cut).
    """
    groups = {}
    for point in sorted(points, key=lambda p: p.sort_key()):
        groups.setdefault(point.group_key(), []).append(point)
    return [groups[key][i:i + task_points] for key in sorted(groups)
            for i in range(0, len(groups[key]), task_points)]
