"""Builds ``dpsgd-calibration/1`` certificates for the auditor tests.

The embedded ``dpsgd/1`` certificates come from the producer as a black box:
``producer dpsgd --sampling-rate Q --noise-multiplier S --steps T --epsilons E``
(its default relative width 1/1000).  The calibration certificate around them
is assembled here by hand (canonical JSON, the digest of
:func:`auditor.certificate.digest` through :func:`tests.reseal.seal`), so these
tests do not depend on the producer's calibration command; :func:`references`
adds every ``dpsgd-calibration/1`` certificate committed under
``certificates/`` once there are some.

Each question below was set up with a few producer calls at ε = 1 (δ(1) of the
two runs, the certified enclosures rounded outward):

- q = 1/100, T = 100: σ = 101/100 gives δ ∈ [4.98864e-7, 4.99213e-7], σ = 1
  gives [6.66983e-7, 6.67446e-7]; δ = 6·10^-7 lies between (R = 1/100:
  101/100 <= 1·(1 + 1/100)).  The training runs B = 10 of N = 1000 (TF
  Privacy: q = 10/1000, T(1) = ⌈1000/10⌉ = 100) and B = 10 of N = 995 (Opacus:
  q = 1/⌈99.5⌉ = 1/100, T(1) = 100; TF Privacy's count would give q = 2/199)
  ask the same question.
- q = 1/100, σ = 1: T = 100 above, T = 101 gives [6.80553e-7, 6.81029e-7];
  δ = 6.7·10^-7.
- σ = 1, T = 100: q = 1/100 above, q = 101/10000 gives [7.20800e-7,
  7.21309e-7]; δ = 7·10^-7 (R = 1/100).
- σ = 1, B = 30 of N = 1000, δ = 1/2000: TF Privacy q = 3/100, T(1) = 34 ([1.892e-4,
  1.894e-4]), T(2) = ⌈2000/30⌉ = 67 ([1.0787e-3, 1.0790e-3]); Opacus q = 1/34,
  T(1) = 34 ([1.663e-4, 1.665e-4]), T(2) = 68 ([9.907e-4, 9.910e-4]).
"""

import json
from functools import lru_cache
from pathlib import Path

from tests.auditor.bracket_corpus import _produced
from tests.reseal import seal

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = "dpsgd-calibration/1"
PRODUCER = {"name": "dp-certify-tests", "version": "0"}
# the stage key each solve replaces (epochs replace the steps, by the training's counting)
STAGE_KEY = {"noise_multiplier": "noise_multiplier", "steps": "steps", "epochs": "steps",
             "sampling_rate": "sampling_rate"}
NEIGHBOUR = {"noise_multiplier": "noise_multiplier_below", "steps": "steps_above", "epochs": "epochs_above",
             "sampling_rate": "sampling_rate_above"}


class Case:
    """One question (``input``) and its answer (the ``result`` fields but route, meets and misses)."""

    __slots__ = ("input", "answer")

    def __init__(self, inp, answer):
        self.input, self.answer = inp, answer

    @property
    def solve(self):
        return self.input["solve"]

    def stage(self, meets):
        """(q, σ, T) of the embedded run: the question's, the solved parameter at the answer (``meets``) or at
        its neighbour (in steps T(E), T(E + 1) for epochs)."""
        solve = self.solve
        stage = {key: self.input.get(key) for key in ("sampling_rate", "noise_multiplier", "steps")}
        if solve == "epochs":
            stage["steps"] = self.answer["steps" if meets else "steps_above"]
        else:
            stage[STAGE_KEY[solve]] = self.answer[solve if meets else NEIGHBOUR[solve]]
        return stage


def _question(solve, epsilon, delta, **given):
    return {"solve": solve, "epsilon": epsilon, "delta": delta, **given}


NOISE = Case(_question("noise_multiplier", "1", "3/5000000", sampling_rate="1/100", steps=100, precision="1/100"),
             {"noise_multiplier": "101/100", "noise_multiplier_below": "1"})
NOISE_TF = Case(dict(NOISE.input, training={"batch_size": 10, "dataset_size": 1000, "epochs": 1,
                                            "counting": "tf-privacy"}), NOISE.answer)
NOISE_OPACUS = Case(dict(NOISE.input, training={"batch_size": 10, "dataset_size": 995, "epochs": 1,
                                                "counting": "opacus"}), NOISE.answer)
STEPS = Case(_question("steps", "1", "67/100000000", sampling_rate="1/100", noise_multiplier="1"),
             {"steps": 100, "steps_above": 101})
EPOCHS_TF = Case(_question("epochs", "1", "1/2000", sampling_rate="3/100", noise_multiplier="1",
                           training={"batch_size": 30, "dataset_size": 1000, "counting": "tf-privacy"}),
                 {"epochs": 1, "epochs_above": 2, "steps": 34, "steps_above": 67})
EPOCHS_OPACUS = Case(_question("epochs", "1", "1/2000", sampling_rate="1/34", noise_multiplier="1",
                               training={"batch_size": 30, "dataset_size": 1000, "counting": "opacus"}),
                     {"epochs": 1, "epochs_above": 2, "steps": 34, "steps_above": 68})
RATE = Case(_question("sampling_rate", "1", "7/10000000", noise_multiplier="1", steps=100, precision="1/100"),
            {"sampling_rate": "1/100", "sampling_rate_above": "101/10000"})
CASES = {"noise": NOISE, "noise-tf-privacy": NOISE_TF, "noise-opacus": NOISE_OPACUS, "steps": STEPS,
         "epochs-tf-privacy": EPOCHS_TF, "epochs-opacus": EPOCHS_OPACUS, "sampling-rate": RATE}


@lru_cache(maxsize=None)
def _dpsgd_text(sampling_rate, noise_multiplier, steps, epsilon):
    return _produced(("dpsgd", "--sampling-rate", sampling_rate, "--noise-multiplier", noise_multiplier,
                      "--steps", str(steps), "--epsilons", epsilon))


def dpsgd(stage, epsilon):
    """A fresh dpsgd/1 certificate (the producer's) of the one stage {sampling_rate, noise_multiplier, steps} at
    the single ε ``epsilon``."""
    return json.loads(_dpsgd_text(stage["sampling_rate"], stage["noise_multiplier"], stage["steps"], epsilon))


def assemble(inp, answer, meets, misses):
    """The sealed dpsgd-calibration/1 certificate of ``inp`` with the given answer and embedded certificates."""
    result = {"route": "pld", **answer, "meets": meets, "misses": misses}
    return seal({"schema": SCHEMA, "producer": PRODUCER, "input": inp, "result": result})


def certificate(case):
    """The true certificate of ``case`` (a :class:`Case` or a key of :data:`CASES`)."""
    case = CASES[case] if isinstance(case, str) else case
    epsilon = case.input["epsilon"]
    return assemble(json.loads(json.dumps(case.input)), dict(case.answer), dpsgd(case.stage(True), epsilon),
                    dpsgd(case.stage(False), epsilon))


def references():
    """Every committed dpsgd-calibration/1 certificate under certificates/ as (name, certificate)."""
    out = []
    for path in sorted((ROOT / "certificates").rglob("*.json")):
        text = path.read_text(encoding="utf-8")
        if f'"schema":"{SCHEMA}"' in text.replace(" ", ""):
            cert = json.loads(text)
            if cert.get("schema") == SCHEMA:
                out.append((str(path.relative_to(ROOT)), cert))
    return out


def produced(*args):
    """A fresh dpsgd/1 certificate of ``producer dpsgd ARGS`` (a schedule, several ε, a δ question, ...)."""
    return json.loads(_produced(("dpsgd", *args)))
