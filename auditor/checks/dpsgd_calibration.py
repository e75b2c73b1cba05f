"""Checks of ``dpsgd-calibration/1`` certificates: the DP-SGD parameter a target (ε, δ) allows, as a crossing.

The question is (solve, ε, δ and the given parameters of one DP-SGD stage: q,
σ, T, with the relative grid R and the training run (B, N, E, counting) where
they apply); the claim is a crossing of the solved parameter's grid: one value
meets the target and its neighbour does not,

- meets: δ(ε) <= δ at the answer, so the training run with the answer is
  (ε, δ)-DP (δ(ε) of DP-SGD as ``dpsgd/1`` defines it, the larger of the two
  orders' hockey-stick divergences);
- misses: δ(ε) > δ at the neighbour: that run is not (ε, δ)-DP by this
  accounting (its ε(δ) lies above ε, δ(ε) being non-increasing in ε);
- the neighbour is the grid's next point: σ_b < σ <= σ_b·(1 + R) (solve
  ``noise_multiplier``), T + 1 (``steps``), E + 1 with T(E) and T(E + 1) of the
  training's step counting (``epochs``), q < q_a <= min(1, q·(1 + R))
  (``sampling_rate``).

It is not a minimality (or maximality) claim: δ(ε) need not be monotone in the
parameter between grid points, and the certificate says nothing of the other
grid points.

Each side is backed by one embedded ``dpsgd/1`` certificate (the claims, in
the order checked):

1. each verifies by itself: checked in full by the ``dpsgd/1`` checks
   (:mod:`auditor.embedded`: its own schema, digest, limits and every claim,
   pointers prefixed), at ``input.epsilons`` exactly [ε] and with exactly one
   stage (another list, a δ question or a schedule answer another question:
   FAIL);
2. its stage is the question's (q, σ, T) with the solved one replaced by the
   answer (meets) or the neighbour (misses), every other field equal, compared
   exactly;
3. meets: ``points[0].upper`` <= δ;
4. misses: ``points[0].lower`` > δ;
5. the neighbour relation above, exact;
6. with ``input.training``, the step counting: ``tf-privacy`` (TF Privacy's
   compute_dp_sgd_privacy_statement) q = B/N, T(E) = ⌈E·N/B⌉; ``opacus``
   (Opacus's PrivacyEngine with Poisson sampling, sample_rate =
   1/len(data_loader) with ⌈N/B⌉ batches an epoch) q = 1/⌈N/B⌉, T(E) =
   E·⌈N/B⌉; ``input.sampling_rate`` must be that q, and ``input.steps`` T(E)
   (solve ``noise_multiplier``), or ``result.steps`` and ``result.steps_above``
   T(E) and T(E + 1) (solve ``epochs``).

The result must hold the solved parameter's answer (``noise_multiplier`` and
``noise_multiplier_below``, ``steps`` and ``steps_above``, ``epochs``,
``epochs_above``, ``steps`` and ``steps_above``, or ``sampling_rate`` and
``sampling_rate_above``): another pair answers another question (FAIL).  Every
decision is exact (Fractions and integers).

Domain (MALFORMED): ε >= 0, 0 < δ < 1, 0 < q <= 1, σ > 0, T >= 1, 0 < R < 1,
1 <= B <= N, E >= 1; each given parameter present exactly when it is not the
one solved (``steps`` absent for ``epochs`` too), ``precision`` exactly for
``noise_multiplier`` and ``sampling_rate``, ``training`` only for
``noise_multiplier`` (with ``epochs``) and ``epochs`` (where it is required,
without ``epochs``).  The embedded certificates' own domain (10^-7 <= q <= 1,
1/10 <= σ <= 100, T <= 10^6, ...) is theirs, applied by their check.  Limits
(UNCHECKED): both embedded certificates' estimated work together within the
file's one budget (:func:`auditor.embedded.reserve_embedded`, before either is
checked), and those of ``dpsgd/1``, applied by its check; an embedded
certificate refused by a limit makes the certificate UNCHECKED unless some
claim is false (then FAIL); an embedded claim its recipe does not establish is
a FAIL.
"""

from fractions import Fraction

from auditor import common
from auditor.certificate import Malformed
from auditor.claims import lower_text, rational_text
from auditor.embedded import check_digest, raise_pending, reserve_embedded, validated, verify_embedded
from auditor.rationals import read_rational, show

__all__ = ["verify", "claim"]

I, R = "/input", "/result"
MEETS, MISSES = R + "/meets", R + "/misses"
KIND = "dpsgd"
SCHEMA = KIND + "/1"
ROUTE = "pld"

NOISE, STEPS, EPOCHS, RATE = "noise_multiplier", "steps", "epochs", "sampling_rate"
TF_PRIVACY, OPACUS = "tf-privacy", "opacus"
# the given parameters of each solve (present in input exactly then), and whether R is asked
GIVEN = {NOISE: (RATE, STEPS), STEPS: (RATE, NOISE), EPOCHS: (RATE, NOISE), RATE: (NOISE, STEPS)}
WITH_PRECISION = (NOISE, RATE)
WITH_TRAINING = (NOISE, EPOCHS)
# the result's answer of each solve: (the answer's key, the neighbour's key)
ANSWER = {NOISE: (NOISE, NOISE + "_below"), STEPS: (STEPS, STEPS + "_above"), EPOCHS: (EPOCHS, EPOCHS + "_above"),
          RATE: (RATE, RATE + "_above")}
ANSWER_KEYS = (NOISE, NOISE + "_below", STEPS, STEPS + "_above", EPOCHS, EPOCHS + "_above", RATE, RATE + "_above")
# the stage field each solve replaces (epochs replace the steps, by the training's counting)
STAGE_FIELD = {NOISE: NOISE, STEPS: STEPS, EPOCHS: STEPS, RATE: RATE}


# ---- the question --------------------------------------------------------------------------------

class Training:
    """The training run (B, N, E or None, counting) and its step counting."""

    __slots__ = ("batch_size", "dataset_size", "epochs", "counting")

    def __init__(self, node, solve):
        P = I + "/training"
        if not isinstance(node, dict):
            raise Malformed(f"{P}: expected an object {{batch_size, dataset_size, epochs, counting}}")
        self.batch_size = common.integer(node.get("batch_size"), P + "/batch_size", 1)
        self.dataset_size = common.integer(node.get("dataset_size"), P + "/dataset_size", 1)
        if self.batch_size > self.dataset_size:
            raise Malformed(f"{P}/batch_size: {self.batch_size} exceeds the dataset size {self.dataset_size} "
                            "(need 1 <= B <= N)")
        if solve == EPOCHS:
            if "epochs" in node:
                raise Malformed(f"{P}/epochs: given, but the epochs are what is solved for")
            self.epochs = None
        else:
            self.epochs = common.integer(node.get("epochs"), P + "/epochs", 1)
        self.counting = node.get("counting")
        if self.counting not in (TF_PRIVACY, OPACUS):
            raise Malformed(f"{P}/counting: unknown step counting {show(self.counting)} "
                            f"(known: {TF_PRIVACY}, {OPACUS})")

    @property
    def batches(self):
        """⌈N/B⌉: the batches of one epoch (Opacus's len(data_loader))."""
        return -(-self.dataset_size // self.batch_size)

    @property
    def sampling_rate(self):
        """q: B/N (TF Privacy), 1/⌈N/B⌉ (Opacus, sample_rate = 1/len(data_loader))."""
        if self.counting == TF_PRIVACY:
            return Fraction(self.batch_size, self.dataset_size)
        return Fraction(1, self.batches)

    def steps(self, epochs):
        """T(E): ⌈E·N/B⌉ (TF Privacy), E·⌈N/B⌉ (Opacus)."""
        if self.counting == TF_PRIVACY:
            return -(-(epochs * self.dataset_size) // self.batch_size)
        return epochs * self.batches

    def counting_text(self, epochs_text):
        """How q and T(E) follow from (B, N): the text of a failure's reason."""
        if self.counting == TF_PRIVACY:
            return f"tf-privacy counting: q = B/N, T(E) = ceil(E*N/B), B = {self.batch_size}, N = " \
                   f"{self.dataset_size}{epochs_text}"
        return f"opacus counting: q = 1/ceil(N/B), T(E) = E*ceil(N/B), B = {self.batch_size}, N = " \
               f"{self.dataset_size}{epochs_text}"


class Question:
    """The input: solve, ε, δ, the given parameters of the stage, R and the training run (or None)."""

    __slots__ = ("solve", "epsilon", "delta", "sampling_rate", "noise_multiplier", "steps", "precision",
                 "training")

    def __init__(self, inp):
        self.solve = inp["solve"]
        if self.solve not in GIVEN:
            raise Malformed(f"{I}/solve: unknown parameter {show(self.solve)} (known: {', '.join(GIVEN)})")
        self.epsilon = read_rational(inp["epsilon"], I + "/epsilon")
        if self.epsilon < 0:
            raise Malformed(f"{I}/epsilon: {inp['epsilon']} is negative")
        self.delta = _open_unit(inp["delta"], I + "/delta")
        self._present(inp)
        self.sampling_rate = self.noise_multiplier = self.steps = self.precision = self.training = None
        if RATE in inp:
            self.sampling_rate = read_rational(inp[RATE], I + "/" + RATE)
            if not 0 < self.sampling_rate <= 1:
                raise Malformed(f"{I}/{RATE}: {inp[RATE]} is not in (0, 1]")
        if NOISE in inp:
            self.noise_multiplier = read_rational(inp[NOISE], I + "/" + NOISE)
            if self.noise_multiplier <= 0:
                raise Malformed(f"{I}/{NOISE}: {inp[NOISE]} is not positive")
        if STEPS in inp:
            self.steps = common.integer(inp[STEPS], I + "/" + STEPS, 1)
        if "precision" in inp:
            self.precision = _open_unit(inp["precision"], I + "/precision")
        if "training" in inp:
            self.training = Training(inp["training"], self.solve)

    def _present(self, inp):
        """Each parameter present exactly when the solve needs it (the schema says so too; the domain does
        not rest on it)."""
        solve = self.solve
        wanted = set(GIVEN[solve]) | ({"precision"} if solve in WITH_PRECISION else set())
        for key in (RATE, NOISE, STEPS, "precision"):
            if key in wanted and key not in inp:
                raise Malformed(f"{I}: missing {key} (given when solving for {solve})")
            if key not in wanted and key in inp:
                raise Malformed(f"{I}/{key}: present, but not part of the question when solving for {solve}")
        if "training" in inp and solve not in WITH_TRAINING:
            raise Malformed(f"{I}/training: only with solve noise_multiplier or epochs, not {solve}")
        if solve == EPOCHS and "training" not in inp:
            raise Malformed(f"{I}: missing training (the epochs are counted in steps by its counting)")

    def stage(self, value):
        """The question's stage (q, σ, T) with the solved parameter (in steps, for epochs) set to ``value``."""
        stage = {RATE: self.sampling_rate, NOISE: self.noise_multiplier, STEPS: self.steps}
        stage[STAGE_FIELD[self.solve]] = value
        return stage


def _open_unit(text, pointer):
    value = read_rational(text, pointer)
    if not 0 < value < 1:
        raise Malformed(f"{pointer}: {text} is not in (0, 1)")
    return value


# ---- the checks ----------------------------------------------------------------------------------

def verify(cert, report):
    """Every claim of a schema-valid ``dpsgd-calibration/1`` certificate, in the order of the module docstring
    (the embedded certificates' own checks last, after the budget of both is reserved)."""
    inp, res = cert["input"], cert["result"]
    q = Question(inp)
    keys = ANSWER[q.solve] + ((STEPS, STEPS + "_above") if q.solve == EPOCHS else ())
    held = [k for k in ANSWER_KEYS if k in res]
    if not report.check(sorted(held) == sorted(keys), f"{R}/{keys[0]}", held, list(keys),
                        f"solving for {q.solve}, the answer is result.{' and result.'.join(keys)}"):
        return
    report.check(res["route"] == ROUTE, R + "/route", res["route"], ROUTE,
                 "the route is pld (the answer is decided by the embedded dpsgd/1 certificates)")
    meets, misses = res["meets"], res["misses"]
    validated(meets, MEETS, (SCHEMA,), "the meets certificate")
    validated(misses, MISSES, (SCHEMA,), "the misses certificate")
    answer, neighbour = _neighbours(q, res, report)
    if q.training is not None:
        _check_training(q, res, report)
    _answers(meets, MEETS, q, answer, report, meets=True)
    _answers(misses, MISSES, q, neighbour, report, meets=False)
    pending = []
    reserve_embedded(report, [(meets, MEETS, KIND), (misses, MISSES, KIND)])
    check_digest(meets, MEETS, report, SCHEMA)
    check_digest(misses, MISSES, report, SCHEMA)
    verify_embedded(meets, MEETS, KIND, report, pending)
    verify_embedded(misses, MISSES, KIND, report, pending)
    raise_pending(pending, report)


def _neighbours(q, res, report):
    """(the stage value at the answer, at the neighbour), with the neighbour relation checked (claim 5)."""
    solve = q.solve
    if solve == NOISE:
        sigma = read_rational(res[NOISE], f"{R}/{NOISE}")
        below = read_rational(res[NOISE + "_below"], f"{R}/{NOISE}_below")
        report.check(below < sigma, f"{R}/{NOISE}_below", below, sigma,
                     "need noise_multiplier_below < noise_multiplier (the grid point below is smaller)")
        report.check(sigma <= below * (1 + q.precision), f"{R}/{NOISE}", sigma, below * (1 + q.precision),
                     "need noise_multiplier <= noise_multiplier_below·(1 + precision): the neighbour is not the "
                     "grid point below")
        return sigma, below
    if solve == RATE:
        rate = read_rational(res[RATE], f"{R}/{RATE}")
        above = read_rational(res[RATE + "_above"], f"{R}/{RATE}_above")
        ceiling = min(Fraction(1), rate * (1 + q.precision))
        report.check(rate < above, f"{R}/{RATE}_above", above, rate,
                     "need sampling_rate_above > sampling_rate (the grid point above is larger)")
        report.check(above <= ceiling, f"{R}/{RATE}_above", above, ceiling,
                     "need sampling_rate_above <= min(1, sampling_rate·(1 + precision)): the neighbour is not the "
                     "grid point above")
        return rate, above
    if solve == EPOCHS:
        epochs = common.integer(res[EPOCHS], f"{R}/{EPOCHS}", 1)
        report.equal(f"{R}/{EPOCHS}_above", res[EPOCHS + "_above"], epochs + 1,
                     "epochs_above (the neighbour of E is E + 1)")
    steps = common.integer(res[STEPS], f"{R}/{STEPS}", 1)
    above = common.integer(res[STEPS + "_above"], f"{R}/{STEPS}_above", 1)
    if solve == STEPS:
        report.equal(f"{R}/{STEPS}_above", above, steps + 1, "steps_above (the neighbour of T is T + 1)")
    return steps, above


def _check_training(q, res, report):
    """The step counting of the training run (claim 6): q, and T(E) (or T(E) and T(E + 1) of the answer)."""
    training = q.training
    epochs = training.epochs if q.solve == NOISE else res[EPOCHS]
    shown = f", E = {epochs}" if q.solve == NOISE else ""
    report.check(q.sampling_rate == training.sampling_rate, f"{I}/{RATE}", q.sampling_rate,
                 training.sampling_rate, "the sampling rate is not the training's: " + training.counting_text(""))
    if q.solve == NOISE:
        report.check(q.steps == training.steps(epochs), f"{I}/{STEPS}", q.steps, training.steps(epochs),
                     "the steps are not the training's T(E): " + training.counting_text(shown))
        return
    for key, count in ((STEPS, epochs), (STEPS + "_above", epochs + 1)):
        report.check(res[key] == training.steps(count), f"{R}/{key}", res[key], training.steps(count),
                     f"result.{key} is not T({count}) of the training: " + training.counting_text(""))


def _answers(witness, pointer, q, value, report, meets):
    """The embedded certificate answers the question at ``value`` (claims 1 and 2), and its one point decides
    (claim 3 or 4)."""
    inner = witness["input"]
    P = pointer + "/input"
    epsilons = inner.get("epsilons")
    if not report.check(epsilons is not None, P, sorted(inner), ["epsilons", "rel_width", "stages"],
                        "the embedded dpsgd/1 certificate must enclose δ(ε) at the target ε (epsilons, not delta)"):
        return
    at = [read_rational(e, f"{P}/epsilons/{i}") for i, e in enumerate(epsilons)]
    same_epsilon = report.check(at == [q.epsilon], P + "/epsilons", [show(e) for e in at], [show(q.epsilon)],
                                "the embedded certificate must be at the single ε of the question")
    stages = inner["stages"]
    if report.check(len(stages) == 1, P + "/stages", f"{len(stages)} stages", "1 stage",
                    "the embedded certificate must be of exactly one stage (the question's)"):
        side = ("the answer" if meets else "the neighbour") + (" in steps, T(E)" if q.solve == EPOCHS else "")
        _same_stage(stages[0], P + "/stages/0", q.stage(value), STAGE_FIELD[q.solve], side, report)
    points = witness["result"].get("points")
    if same_epsilon and isinstance(points, list) and len(points) == 1:
        end = "upper" if meets else "lower"
        where = f"{pointer}/result/points/0/{end}"
        found = read_rational(points[0][end], where)
        if meets:
            report.check(found <= q.delta, where, found, q.delta,
                         "the meets certificate must prove δ(ε) <= δ (its upper end at most δ)")
        else:
            report.check(found > q.delta, where, found, q.delta,
                         "the misses certificate must prove δ(ε) > δ (its lower end above δ)")


def _same_stage(stage, pointer, wanted, solved, side, report):
    """Each field of the embedded stage equals the question's, the ``solved`` one ``side`` (the answer or the
    neighbour), exactly."""
    for key in (RATE, NOISE, STEPS):
        found = stage[key] if key == STEPS else read_rational(stage[key], f"{pointer}/{key}")
        role = side if key == solved else "the question's"
        report.check(found == wanted[key], f"{pointer}/{key}", found, wanted[key],
                     f"the embedded stage's {key} must be {role}")


# ---- the one-line claim --------------------------------------------------------------------------

def _exact(value):
    """The exact value of a canonical rational: a short decimal when it has one (1.1), else ``p/q``."""
    q = read_rational(value, "")
    shown = lower_text(q)
    return shown if Fraction(shown) == q else rational_text(q)


def _epochs(count):
    return f"{count} epoch" + ("" if count == 1 else "s")


def _training_text(training, epochs=True):
    """``batches of B = 256 of N = 60000, 15 epochs, tf-privacy counting``."""
    text = f"batches of B = {training['batch_size']} of N = {training['dataset_size']}"
    if epochs:
        text += f", {_epochs(training['epochs'])}"
    return f"{text}, {training['counting']} counting"


def claim(cert):
    """``noise multiplier sigma = 1.1 suffices for eps = 3 at delta = 0.00001 (DP-SGD with q = 1/100, T = 1000)
    and sigma = 1.099 does not (a crossing of the relative grid 1/1000, not a minimality claim)``: every number
    exact."""
    inp, res = cert["input"], cert["result"]
    solve = inp["solve"]
    target = f"eps = {_exact(inp['epsilon'])} at delta = {_exact(inp['delta'])}"
    given = []
    if RATE in inp:
        given.append(f"q = {_exact(inp[RATE])}")
    if NOISE in inp:
        given.append(f"sigma = {_exact(inp[NOISE])}")
    if STEPS in inp:
        given.append(f"T = {inp[STEPS]}")
    if "training" in inp:
        given.append(_training_text(inp["training"], epochs=solve != EPOCHS))
    run = f"(DP-SGD with {', '.join(given)}; Poisson-subsampled Gaussian, sensitivity 1, add/remove)"
    if solve == NOISE:
        return (f"noise multiplier sigma = {_exact(res[NOISE])} suffices for {target} {run} and sigma = "
                f"{_exact(res[NOISE + '_below'])} does not (a crossing of the relative grid "
                f"{_exact(inp['precision'])}, not a minimality claim)")
    if solve == RATE:
        return (f"sampling rate q = {_exact(res[RATE])} suffices for {target} {run} and q = "
                f"{_exact(res[RATE + '_above'])} does not (a crossing of the relative grid "
                f"{_exact(inp['precision'])}, not a maximality claim)")
    if solve == STEPS:
        steps = "T = 1 step suffices" if res[STEPS] == 1 else f"T = {res[STEPS]} steps suffice"
        return (f"{steps} for {target} {run} and T = {res[STEPS + '_above']} do not "
                f"(a crossing of consecutive step counts, not a maximality claim)")
    verb = "suffices" if res[EPOCHS] == 1 else "suffice"
    return (f"{_epochs(res[EPOCHS])} (T = {res[STEPS]} steps) {verb} for {target} {run} and "
            f"{_epochs(res[EPOCHS + '_above'])} (T = {res[STEPS + '_above']}) do not (a crossing of consecutive "
            f"epoch counts, not a maximality claim)")
