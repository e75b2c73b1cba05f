"""The ``dpsgd-calibration/1`` certificate: the DP-SGD training parameter a target (ε, δ) allows, as a crossing.

Question (``input``): the target ε and δ, what is solved (``solve``: the
noise multiplier σ, the steps T, the epochs E or the sampling rate q), the
other parameters of one DP-SGD stage, and for σ and q the relative precision
R; a run given in training terms (batch size B, dataset size N, epochs E
and a step counting, :mod:`producer.training`) is recorded in
``input.training`` beside the q and T it gives.  Result: two values of the
solved parameter and a complete ``dpsgd/1`` certificate at each, in the
ε-points form at the one ε:

- ``meets`` at the answer has ``points[0].upper <= δ``: the run with it
  satisfies δ(ε) <= δ, i.e. it is (ε, δ)-DP;
- ``misses`` at its neighbour has ``points[0].lower > δ``: the run with the
  neighbour is certified not to be.

The neighbours: σ_b < σ <= σ_b·(1 + R) and q < q_a <= min(1, q·(1 + R)),
both points of the relative grid of short decimals of
:mod:`producer.noise_level.grid` (not necessarily adjacent on it: the search
uses the room the ratio leaves, :mod:`producer.noise_level.pairs`);
T and T + 1 steps; E and E + 1 epochs with T(E) and T(E + 1) steps.  The
certificate claims a crossing, not that no smaller σ (no larger T, E or q)
meets the target: δ(ε) grows with q and T and falls with σ, and the search
uses that to look (bisection from a float estimate,
:mod:`producer.noise_level.clt`), but nothing relies on it.

Each grid point is decided by a dpsgd/1 enclosure of δ(ε): first at the
loosest relative width dpsgd takes (1/2), then, while the enclosure
straddles δ, at a width no larger than the enclosure's relative distance
from δ (a short decimal, at least halving), down to dpsgd's narrowest
(10^-6) or the narrowest its work limit reaches; a point no width in reach
separates from δ is left undecided, and the search steps around it where
the ratio allows (σ and q), or says so.  The certificates kept are those
that decided the two answers.

Limits: those of dpsgd/1 (10^-7 <= q <= 1, 1/10 <= σ <= 100, 1 <= T <= 10^6,
ε <= 500, δ >= 10^-30) on the given values and on the range searched, and
R >= 10^-6; checked before the search.  The search refuses in one line when
the range holds no crossing: every value meets the target (σ = 1/10, q = 1,
T = 10^6 steps or the most epochs within them already do) or none does.
"""

import math

from gmpy2 import mpq

from producer.audit_budget import together
from producer.certificates.canonical import make_certificate
from producer.display import rational, show
from producer.errors import InputError, LimitError
from producer.immutable import Immutable
from producer.kinds import dpsgd
from producer.names import entry, option
from producer.noise_level import clt
from producer.noise_level.grid import RelativeGrid, unit_of
from producer.noise_level.pairs import MEETS, MISSES, IntegerLine, RatioLine, Undecided, pair
from producer.noise_level.search import NoCrossing
from producer.pld.mechanism import Stage
from producer.pld.subsampled_gaussian import SubsampledGaussian
from producer.rationals import describe_rational, format_rational, parse_integer, parse_rational
from producer.training import DEFAULT_COUNTING, MAX_EPOCHS, TrainingRun

KIND, VERSION = "dpsgd-calibration", 1
NOISE, STEPS, EPOCHS, RATE = "noise_multiplier", "steps", "epochs", "sampling_rate"
SOLVES = (NOISE, STEPS, EPOCHS, RATE)
ROUTE = "pld"
DEFAULT_PRECISION = mpq(1, 1000)
MIN_PRECISION = dpsgd.MIN_REL_WIDTH          # 10^-6: below it neighbours differ by less than dpsgd resolves
FIRST_WIDTH = dpsgd.MAX_REL_WIDTH            # 1/2: most points are decided by the cheapest enclosure
SYMBOLS = {NOISE: "σ", STEPS: "T", EPOCHS: "E", RATE: "q"}


class Request(Immutable):
    """A validated calibration request: what is solved, ε, δ, the given parameters, the training run, R.

    ``rate``, ``noise`` and ``steps`` are the given q, σ and T (None for the solved one; with a training run
    q, and T unless the epochs are solved, come from it); ``line``, ``bottom`` and ``top`` the search's
    indices (:mod:`producer.noise_level.pairs`).
    """

    __slots__ = ("solve", "epsilon", "delta", "rate", "noise", "steps", "training", "precision", "line",
                 "bottom", "top")

    def __init__(self, solve, epsilon, delta, *, sampling_rate=None, noise_multiplier=None, steps=None,
                 training=None, precision=None):
        if solve not in SOLVES:
            raise InputError(f"solve: {solve!r} is not one of {', '.join(SOLVES)}")
        self.solve = solve
        self.epsilon, self.delta = self._target(mpq(epsilon), mpq(delta))
        self.training = training
        self._given(sampling_rate, noise_multiplier, steps)
        self._init_precision(precision)
        self._init_range()

    @staticmethod
    def _target(epsilon, delta):
        if epsilon < 0:
            raise InputError(f"epsilon: must be >= 0, got {describe_rational(epsilon)}")
        if epsilon > dpsgd.MAX_EPSILON:
            raise LimitError(f"epsilon: {describe_rational(epsilon)} exceeds the limit 500 of dpsgd/1")
        if not 0 < delta < 1:
            raise InputError(f"delta: need 0 < δ < 1, got {describe_rational(delta)}")
        if delta < dpsgd.MIN_DELTA:
            raise LimitError(f"delta: {describe_rational(delta)} is below the limit 10^-30 of dpsgd/1")
        return epsilon, delta

    def _given(self, rate, noise, steps):
        """The given q, σ, T: each present exactly when the question needs it, each within dpsgd's limits."""
        solve, run = self.solve, self.training
        if run is not None:
            if solve not in (NOISE, EPOCHS):
                raise InputError(f"batch_size: a training run answers the noise multiplier or the epochs, not the "
                                 f"{solve.replace('_', ' ')}; give {option('sampling_rate')} instead")
            if rate is not None or steps is not None:
                raise InputError(_one_form(solve))
            if run.epochs is None and solve == NOISE:
                raise InputError(f"epochs: required with {option('batch_size')} and {option('dataset_size')} "
                                 f"(give {option('epochs')}, or {option('sampling_rate')} and {option('steps')})")
            if run.epochs is not None and solve == EPOCHS:
                raise InputError("epochs: they are what is solved here; omit them")
            rate = mpq(run.sampling_rate.numerator, run.sampling_rate.denominator)
            steps = run.steps if solve == NOISE else None
        elif solve == EPOCHS:
            raise InputError(f"the epochs are solved from {option('batch_size')} and {option('dataset_size')}: "
                             f"give both")
        elif rate is None and solve in (NOISE, STEPS):
            raise InputError(_one_form(solve))
        needed = {NOISE: ("sampling_rate", "steps"), STEPS: ("sampling_rate", "noise_multiplier"),
                  EPOCHS: ("noise_multiplier",), RATE: ("noise_multiplier", "steps")}[solve]
        values = {"sampling_rate": rate, "noise_multiplier": noise, "steps": steps}
        for name, value in values.items():
            if value is None and name in needed:
                raise InputError(f"{name}: required to solve the {solve.replace('_', ' ')} (give {option(name)})")
            if value is not None and name == solve:
                raise InputError(f"{name}: it is what is solved here; omit it")
        self.rate = None if rate is None else _rate(mpq(rate), run)
        self.noise = None if noise is None else _noise(mpq(noise))
        self.steps = None if steps is None else _steps(int(steps), run)

    def _init_precision(self, precision):
        if self.solve in (STEPS, EPOCHS):
            if precision is not None:
                raise InputError(f"precision: the {self.solve} are whole numbers, answered as a count and the "
                                 f"next one; omit {option('precision')}")
            self.precision = None
            return
        R = DEFAULT_PRECISION if precision is None else mpq(precision)
        if not 0 < R < 1:
            raise InputError(f"precision: need 0 < R < 1, got {describe_rational(R)}")
        if R < MIN_PRECISION:
            raise LimitError(f"precision: R = {describe_rational(R)} is below the limit 10^-6 (dpsgd's narrowest "
                             f"relative width)")
        self.precision = R

    def _init_range(self):
        """The search's line and index range, the solved parameter's range within dpsgd's limits."""
        if self.solve in (NOISE, RATE):
            grid = RelativeGrid(self.precision)
            if self.solve == NOISE:
                self.line = RatioLine(grid, self.precision, +1)
                self.bottom, self.top = self.line.index_of(dpsgd.MIN_NOISE), self.line.index_of(dpsgd.MAX_NOISE,
                                                                                                 above=False)
            else:
                self.line = RatioLine(grid, self.precision, -1)
                self.bottom, self.top = self.line.index_of(1), self.line.index_of(dpsgd.MIN_RATE, above=False)
            return
        self.line = IntegerLine()
        if self.solve == STEPS:
            self.bottom, self.top = -dpsgd.MAX_TOTAL_STEPS, -1
            return
        # the most epochs within the step limit, by bisection on T(E) (which grows with E); at q < 10^-6 one
        # epoch may already be beyond it
        run, most = self.training, 1
        if run.steps_after(1) > dpsgd.MAX_TOTAL_STEPS:
            raise LimitError(f"epochs: one epoch is T = {run.steps_after(1)} steps (q = "
                             f"{describe_rational(self.rate)}), beyond dpsgd/1's limit of {dpsgd.STEPS_LIMIT} steps")
        low, high = 2, MAX_EPOCHS
        while low <= high:
            middle = (low + high) // 2
            if run.steps_after(middle) <= dpsgd.MAX_TOTAL_STEPS:
                most, low = middle, middle + 1
            else:
                high = middle - 1
        self.bottom, self.top = -most, -1

    @classmethod
    def from_strings(cls, solve, epsilon, delta, *, sampling_rate=None, noise_multiplier=None, steps=None,
                     batch_size=None, dataset_size=None, epochs=None, counting=None, precision=None):
        """Parse user text (or Python numbers: floats as their shortest decimal) exactly; ``batch_size`` and
        ``dataset_size`` (with ``epochs`` unless they are solved) give the run in training terms."""
        epsilon, delta = parse_rational(epsilon, "epsilon"), parse_rational(delta, "delta")
        training = _training(batch_size, dataset_size, epochs, counting)
        if training is None and epochs is not None:
            raise InputError(f"epochs: give {option('batch_size')} and {option('dataset_size')} with it (or "
                             f"{option('steps')})")
        return cls(solve, epsilon, delta,
                   sampling_rate=None if sampling_rate is None else parse_rational(sampling_rate, "sampling_rate"),
                   noise_multiplier=None if noise_multiplier is None else
                   parse_rational(noise_multiplier, "noise_multiplier"),
                   steps=None if steps is None else parse_integer(steps, "steps"), training=training,
                   precision=None if precision is None else parse_rational(precision, "precision"))

    def as_json(self):
        data = {"solve": self.solve, "epsilon": format_rational(self.epsilon), "delta": format_rational(self.delta)}
        if self.rate is not None:
            data["sampling_rate"] = format_rational(self.rate)
        if self.noise is not None:
            data["noise_multiplier"] = format_rational(self.noise)
        if self.steps is not None:
            data["steps"] = self.steps
        if self.precision is not None:
            data["precision"] = format_rational(self.precision)
        if self.training is not None:
            data["training"] = self.training.to_json()
        return data

    # ---- the run at a search index ----

    def run_at(self, index):
        """(q, σ, T) of the run at the search index."""
        value = self.line.value(index)
        if self.solve == NOISE:
            return self.rate, value, self.steps
        if self.solve == RATE:
            return value, self.noise, self.steps
        steps = value if self.solve == STEPS else self.training.steps_after(value)
        return self.rate, self.noise, steps

    def named(self, index):
        """The solved parameter at the index as messages name it: ``σ = 0.9684``, ``E = 12 (T = 2813)``."""
        value = self.line.value(index)
        text = f"{SYMBOLS[self.solve]} = {show(value)}"
        return text + (f" (T = {self.training.steps_after(value)})" if self.solve == EPOCHS else "")

    def probe(self, index, width):
        """(certificate, lower, upper): the dpsgd/1 enclosure of δ(ε) at the index, relative width ``width``."""
        rate, noise, steps = self.run_at(index)
        request = dpsgd.Request([Stage(SubsampledGaussian(rate, noise), steps)], epsilons=[self.epsilon],
                                rel_width=width)
        cert = dpsgd.build(request)
        point = cert["result"]["points"][0]
        return cert, rational(point["lower"]), rational(point["upper"])

    def start(self):
        """The search index of the float estimate (:mod:`producer.noise_level.clt`), within the range."""
        try:
            index = self._estimate()
        except (ArithmeticError, ValueError):  # an estimate out of float range: start in the middle
            index = (self.bottom + self.top) // 2
        return min(max(index, self.bottom), self.top)

    def _estimate(self):
        mu = clt.mu_star(float(self.epsilon), float(self.delta))
        if self.solve == NOISE:
            value = clt.noise_multiplier(mu, float(self.rate), self.steps)
            return self.line.index_of(mpq(min(max(value, 0.1), 100.0)))
        if self.solve == RATE:
            value = clt.sampling_rate(mu, float(self.noise), self.steps)
            return self.line.index_of(mpq(min(max(value, 1e-7), 1.0)))
        steps = clt.steps(mu, 1.0 if self.rate == 1 else float(self.rate), float(self.noise))
        if self.solve == STEPS:
            return -round(min(steps, 1e7))
        return -round(min(steps * float(self.rate), 1e8))  # T(E) is about E/q under both countings


def _training(batch_size, dataset_size, epochs, counting):
    """The TrainingRun of the given training terms (None without them); its errors name the parameters."""
    if batch_size is None and dataset_size is None:
        if counting is not None:
            raise InputError(f"counting: it says how {option('batch_size')}, {option('dataset_size')} and "
                             f"{option('epochs')} give the steps; give them, or omit it")
        return None
    if batch_size is None or dataset_size is None:
        raise InputError(f"give both {option('batch_size')} and {option('dataset_size')}")
    names = tuple(option(n) for n in ("batch_size", "dataset_size", "epochs", "counting"))
    return TrainingRun(batch_size, dataset_size, epochs, DEFAULT_COUNTING if counting is None else counting,
                       names=names)


def _one_form(solve):
    """The refusal of a run given both ways, or neither: name the two forms."""
    if solve == NOISE:
        return (f"give {option('sampling_rate')} and {option('steps')}, or {option('batch_size')}, "
                f"{option('dataset_size')} and {option('epochs')} (one of the two)")
    return f"give {option('sampling_rate')}, or {option('batch_size')} and {option('dataset_size')} (one of the two)"


def _rate(rate, run):
    where = f"{option('batch_size')}/{option('dataset_size')}" if run is not None else "sampling_rate"
    if not 0 < rate <= 1:
        raise InputError(f"{where}: q must lie in (0, 1], got {describe_rational(rate)}")
    if rate < dpsgd.MIN_RATE:
        raise LimitError(f"{where}: q = {describe_rational(rate)} is below the limit {dpsgd.RATE_LIMIT} "
                         f"of dpsgd/1")
    return rate


def _noise(noise):
    if noise <= 0:
        raise InputError(f"noise_multiplier: σ must be positive, got {describe_rational(noise)}")
    if not dpsgd.MIN_NOISE <= noise <= dpsgd.MAX_NOISE:
        raise LimitError(f"noise_multiplier: σ = {describe_rational(noise)} is outside the limits "
                         f"{dpsgd.NOISE_RANGE} of dpsgd/1")
    return noise


def _steps(steps, run):
    where = option("epochs") if run is not None else "steps"
    if steps < 1:
        raise InputError(f"{where}: T must be at least 1, got {steps}")
    if steps > dpsgd.MAX_TOTAL_STEPS:
        raise LimitError(f"{where}: T = {steps} steps exceed the limit of {dpsgd.MAX_TOTAL_STEPS} of dpsgd/1")
    return steps


def next_width(lower, upper, delta, width):
    """The next relative width for an enclosure [lower, upper] that straddles δ, or None past dpsgd's narrowest.

    Aimed at the midpoint's relative distance from δ, but no more than a decade below the enclosure's own
    relative width (a wide enclosure's midpoint says little) and at most half ``width``; a short decimal
    (1, 2 or 5 times 10^-k), at least dpsgd's narrowest.
    """
    if width <= dpsgd.MIN_REL_WIDTH:
        return None
    middle = (lower + upper) / 2
    distance = abs(middle - delta) / middle if middle > 0 else 0
    aim = min(width / 2, max(distance, (upper - lower) / upper / 10))
    return max(unit_of(aim), dpsgd.MIN_REL_WIDTH) if aim >= dpsgd.MIN_REL_WIDTH else dpsgd.MIN_REL_WIDTH


def wider(width):
    """The short decimal (1, 2 or 5 times 10^-k) next above ``width``."""
    k = 0
    while mpq(1, 10**k) > width:
        k += 1
    base = mpq(1, 10**k)      # 10^-k <= width < 10^-(k-1)
    return next(m * base for m in (1, 2, 5, 10) if m * base > width)


class RunDecisions:
    """Each search index decided once, by the loosest dpsgd/1 enclosure that separates δ(ε) from δ.

    ``guide(n)``, the float log(midpoint/δ) of a decided point's enclosure, only steers the search.
    """

    def __init__(self, request, log):
        self.request, self.log = request, log
        self.found = {}  # index -> (side or None, certificate or the reason, guide)

    def __call__(self, index):
        if index not in self.found:
            self.found[index] = self._decide(index)
        side, kept, _ = self.found[index]
        if side is None:
            raise Undecided(index, kept)
        return side

    def guide(self, index):
        return self.found[index][2] if index in self.found else None

    def certificate(self, index):
        return self.found[index][1]

    def _decide(self, index):
        """(side, certificate, guide), or (None, why, guide) for a point no width in reach decides.

        Widths only narrow; one the work limit refuses (refused before its work) is followed by the next short
        decimal above it, never narrower than one refused, nor as wide as the last that straddled.
        """
        r, where = self.request, self.request.named(index)
        width, straddled, refused, guide = FIRST_WIDTH, None, None, None
        while True:
            try:
                cert, lower, upper = r.probe(index, width)
            except LimitError as error:
                if straddled is None:  # the run itself is beyond dpsgd's reach
                    raise LimitError(f"at {where}: {_reason(error)}") from None
                refused, width = (width, error), wider(width)
                if width >= straddled:
                    return None, (f"at {where} the enclosure of δ({show(r.epsilon)}) straddles δ = "
                                  f"{show(r.delta)} at every relative width in reach (the next, "
                                  f"{show(refused[0])}: {_reason(refused[1])})"), guide
                continue
            side = MEETS if upper <= r.delta else MISSES if lower > r.delta else None
            middle = (lower + upper) / 2
            guide = math.log(middle / r.delta) if middle > 0 else None
            self.log(f"{where}: delta in [{float(lower):.6e}, {float(upper):.6e}] (rel width {show(width)}) -> "
                     f"{('straddles delta', 'meets', 'misses')[side or 0]}")
            if side is not None:
                return side, cert, guide
            straddled, following = width, next_width(lower, upper, r.delta, width)
            if following is not None and refused is not None and following <= refused[0]:
                following = wider(refused[0])
                if following >= straddled:
                    return None, (f"at {where} δ({show(r.epsilon)}) ∈ [{float(lower):.6e}, {float(upper):.6e}] "
                                  f"straddles δ = {show(r.delta)} at the narrowest relative width in reach, "
                                  f"{show(width)} ({show(refused[0])}: {_reason(refused[1])})"), guide
            if following is None:
                return None, (f"at {where} δ({show(r.epsilon)}) ∈ [{float(lower):.6e}, {float(upper):.6e}] "
                              f"straddles δ = {show(r.delta)} at dpsgd's narrowest relative width 10^-6"), guide
            width = following


def _reason(error):
    """A dpsgd refusal without its advice, which names dpsgd's own options (its relative width), not ours."""
    return error.reason.split("; ask for ")[0]


# ---- refusals ----

def _question(request):
    return f"ε = {show(request.epsilon)} at δ = {show(request.delta)}"


def _no_crossing(request, error):
    """The end of the range already meets the target (nothing beyond it to miss), or the other end misses it:
    one line naming what answers instead.  Nothing is said of the values between."""
    r, where, question = request, request.named(error.index), _question(request)
    if error.meets:
        end = {NOISE: "the smallest noise multiplier dpsgd/1 takes", RATE: "the largest sampling rate",
               STEPS: "the most steps dpsgd/1 takes",
               EPOCHS: f"the most epochs within its {dpsgd.STEPS_LIMIT} steps"}[r.solve]
        beyond = {NOISE: f"{entry('steps')} answers how many steps it allows",
                  RATE: f"{entry('steps')} answers how many steps it allows",
                  STEPS: f"{entry('noise')} answers a smaller noise multiplier for these steps",
                  EPOCHS: f"{entry('noise')} answers a smaller noise multiplier for these epochs"}[r.solve]
        return LimitError(f"{r.solve}: {where}, {end}, already meets {question}: no value beyond it can be "
                          f"certified to miss it, so there is no crossing to certify; {beyond}")
    end = {NOISE: "the largest noise multiplier dpsgd/1 takes", RATE: "the smallest sampling rate dpsgd/1 takes",
           STEPS: "a single step", EPOCHS: "a single epoch"}[r.solve]
    instead = {NOISE: f"ask for fewer steps or a smaller sampling rate ({entry('steps')}, "
                      f"{entry('sampling-rate')} answer them)",
               RATE: f"ask for fewer steps ({entry('steps')} answers them) or more noise",
               STEPS: f"ask for more noise ({entry('noise')} answers the noise multiplier)",
               EPOCHS: f"ask for more noise ({entry('noise')} answers the noise multiplier)"}[r.solve]
    return LimitError(f"{r.solve}: {where}, {end}, does not meet {question} (δ(ε) > δ is certified there), so "
                      f"there is no crossing to certify; {instead}")


def _undecided(request, error):
    step = "the neighbouring counts" if request.solve in (STEPS, EPOCHS) else \
        f"its grid neighbours, which lie more than the ratio 1 + R apart; ask for another {option('precision')}"
    return LimitError(f"{request.solve}: {error.reason}; no crossing is certified beside it ({step})")


def build(request, progress=None):
    """The sealed dpsgd-calibration/1 certificate of a :class:`Request` (each decision reported to ``progress``)."""
    log = progress or (lambda message: None)
    start = request.start()
    log(f"solve {request.solve}; float estimate {request.named(start)}")
    decide = RunDecisions(request, log)
    try:
        miss, meet = pair(decide, start, request.bottom, request.top, request.line, decide.guide)
    except NoCrossing as error:
        raise _no_crossing(request, error) from None
    except Undecided as error:
        raise _undecided(request, error) from None
    except LimitError as error:
        raise LimitError(f"{request.solve}: the search went beyond the reach of dpsgd/1 {error.reason}") from None
    result = {"route": ROUTE, **_answer(request, miss, meet),
              "meets": decide.certificate(meet), "misses": decide.certificate(miss)}
    return make_certificate(KIND, VERSION, request.as_json(), result)


def _answer(request, miss, meet):
    line, solve = request.line, request.solve
    if solve == NOISE:
        return {"noise_multiplier": format_rational(line.value(meet)),
                "noise_multiplier_below": format_rational(line.value(miss))}
    if solve == RATE:
        return {"sampling_rate": format_rational(line.value(meet)),
                "sampling_rate_above": format_rational(line.value(miss))}
    if solve == STEPS:
        return {"steps": line.value(meet), "steps_above": line.value(miss)}
    run = request.training
    return {"epochs": line.value(meet), "epochs_above": line.value(miss),
            "steps": run.steps_after(line.value(meet)), "steps_above": run.steps_after(line.value(miss))}


def auditor_cost(cert):
    """The auditor's budget estimate: both embedded dpsgd/1 certificates together."""
    res = cert["result"]
    return together([dpsgd.auditor_cost(res["meets"]), dpsgd.auditor_cost(res["misses"])])


# ---- the claim line ----

def _training_text(training):
    epochs = "" if "epochs" not in training else f", {training['epochs']} epochs"
    return (f" (batch {training['batch_size']} of {training['dataset_size']}{epochs}, "
            f"{training['counting']} step counting)")


def _run_text(inp):
    parts = [f"{name} = {show(rational(inp[key]))}" for name, key in (("q", "sampling_rate"),
                                                                       ("σ", "noise_multiplier"))
             if key in inp]
    if "steps" in inp:
        parts.append(f"T = {inp['steps']}")
    training = _training_text(inp["training"]) if "training" in inp else ""
    return f"DP-SGD with {', '.join(parts)}{training}"


def claim(cert):
    """The one-line answer: the value that suffices and its certified neighbour."""
    inp, res = cert["input"], cert["result"]
    eps, delta = show(rational(inp["epsilon"])), show(rational(inp["delta"]))
    upper = res["meets"]["result"]["points"][0]["upper_display"]
    lower = res["misses"]["result"]["points"][0]["lower_display"]
    meets, misses = f"δ({eps}) ≤ {upper} ≤ {delta}", f"δ({eps}) ≥ {lower} > {delta}"
    solve = inp["solve"]
    if solve == NOISE:
        head = (f"noise multiplier σ = {show(rational(res[NOISE]))} suffices ({meets}), "
                f"σ = {show(rational(res[NOISE + '_below']))} does not ({misses})")
    elif solve == RATE:
        head = (f"sampling rate q = {show(rational(res[RATE]))} stays within the target ({meets}), "
                f"q = {show(rational(res[RATE + '_above']))} does not ({misses})")
    elif solve == STEPS:
        head = f"T = {res['steps']} steps stay within the target ({meets}), T = {res['steps_above']} do not ({misses})"
    else:
        head = (f"E = {res['epochs']} epochs (T = {res['steps']}) stay within the target ({meets}), "
                f"E = {res['epochs_above']} (T = {res['steps_above']}) do not ({misses})")
    grid = f"a crossing of the relative grid {show(rational(inp['precision']))}" if "precision" in inp else \
        "a crossing"
    extreme = "minimality" if solve == NOISE else "maximality"
    return (f"{head}; {grid}, not a {extreme} claim: {_run_text(inp)}, ε = {eps} at δ = {delta} "
            f"(Poisson-subsampled Gaussian, sensitivity 1, add/remove)")
