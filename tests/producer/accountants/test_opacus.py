"""producer.OpacusAccountant by Opacus's recorded calling pattern, without torch: the training loop's steps
through the optimizer hook (a stand-in DPOptimizer with ``noise_multiplier`` and ``accumulated_iterations``,
attached as PrivacyEngine.make_private attaches it), ``get_epsilon`` as PrivacyEngine.get_epsilon asks it,
the history merged as Opacus's accountants merge it, state_dict/load_state_dict with Opacus's checks, the
history assigned directly as Opacus's get_noise_multiplier does, and the certificate through the auditor.

The recorded values are those of Opacus's own tests (opacus/tests/accountants_test.py, Opacus 1.5):
σ = 1.5, q = 0.04, 2250 steps, δ = 10^-5: the RDP accountant 7.32911117143, the PRV accountant's upper bound
6.777395712150674.  Both are upper bounds of ε(δ), so the certified lower end lies below them."""

import math
import subprocess
import sys
from collections import OrderedDict
from pathlib import Path

import pytest
from gmpy2 import mpq

import producer
from producer.accountants import opacus as module
from producer.errors import InputError, LimitError
from tests.untimed import HANG_GUARD_SECONDS

ROOT = Path(__file__).resolve().parents[3]
SIGMA, RATE, STEPS, DELTA = 1.5, 0.04, int(90 / 0.04), 1e-5
OPACUS_RDP, OPACUS_PRV_UPPER = 7.32911117143, 6.777395712150674


class StandInOptimizer:
    """What Opacus's DPOptimizer shows its step hook: ``noise_multiplier``, ``accumulated_iterations``;
    ``attach_step_hook`` and ``pre_step`` (after clipping and noise, the hook is called with the optimizer)."""

    def __init__(self, noise_multiplier, accumulated_iterations=1):
        self.noise_multiplier, self.accumulated_iterations, self.step_hook = \
            noise_multiplier, accumulated_iterations, None

    def attach_step_hook(self, fn):
        self.step_hook = fn

    def step(self):
        if self.step_hook:
            self.step_hook(self)


class StandInEngine:
    """PrivacyEngine's use of its accountant: ``self.accountant``; make_private attaches the accountant's hook
    at sample_rate = 1 / len(data_loader); get_epsilon(delta) asks the accountant."""

    def __init__(self):
        self.accountant = None  # Opacus: create_accountant(mechanism="prv"); the user assigns ours

    def make_private(self, optimizer, batches):
        sample_rate = 1 / batches
        optimizer.attach_step_hook(self.accountant.get_optimizer_hook_fn(sample_rate=sample_rate))
        return optimizer

    def get_epsilon(self, delta):
        return self.accountant.get_epsilon(delta)


@pytest.fixture(scope="module")
def recorded():
    accountant = producer.OpacusAccountant()
    for _ in range(STEPS):
        accountant.step(noise_multiplier=SIGMA, sample_rate=RATE)
    return accountant, accountant.get_epsilon(delta=DELTA)


def test_opacus_recorded_run_is_certified_below_their_upper_bounds(recorded):
    accountant, epsilon = recorded
    assert accountant.history == [(SIGMA, RATE, STEPS)] and len(accountant) == 1 and accountant.steps == STEPS
    result = accountant.certificate.result
    lo, hi = mpq(result["epsilon_lo"]), mpq(result["epsilon_hi"])
    assert lo <= mpq(OPACUS_PRV_UPPER) and hi < mpq(OPACUS_RDP)  # both peers' values are upper bounds of ε(δ)
    assert mpq(epsilon) >= hi == mpq(accountant.exact_answer) > mpq(math.nextafter(epsilon, 0))
    stage, = result["stages"]
    assert stage == {"count": STEPS, "mechanism": {"mechanism": "gaussian", "sampling": "1/25", "sigma": "3/2"}}


def test_the_certificate_verifies_with_the_auditor(recorded, tmp_path):
    accountant, _ = recorded
    path = tmp_path / "opacus.json"
    accountant.certificate.write(path)
    run = subprocess.run([sys.executable, "-m", "auditor", "verify", str(path)], capture_output=True, text=True,
                         cwd=ROOT, timeout=HANG_GUARD_SECONDS)
    assert run.returncode == 0, run.stdout + run.stderr


def test_a_training_loop_through_the_engine_and_the_optimizer_hook():
    engine = StandInEngine()
    engine.accountant = producer.OpacusAccountant()  # before make_private, which attaches the accountant's hook
    optimizer = engine.make_private(StandInOptimizer(1.1), batches=235)
    for _ in range(3 * 235):  # three epochs
        optimizer.step()
    assert engine.accountant.history == [(1.1, 1 / 235, 705)]
    epsilon = engine.get_epsilon(1e-5)
    # the float 1/235 is certified as its shortest decimal, 0.00425531914893617, not as 1/235
    assert repr(1 / 235) == "0.00425531914893617"
    assert mpq(engine.accountant.certificate.input["event"]["event"]["sampling_probability"]) == \
        mpq("0.00425531914893617")
    assert 0 < epsilon == engine.get_epsilon(1e-5)


def test_the_hook_scales_the_sample_rate_by_the_accumulated_iterations():
    accountant = producer.OpacusAccountant()
    hook = accountant.get_optimizer_hook_fn(sample_rate=0.01)
    hook(StandInOptimizer(1.0))
    hook(StandInOptimizer(1.0, accumulated_iterations=3))  # as Opacus: sample_rate * accumulated_iterations
    hook(StandInOptimizer(1.0, accumulated_iterations=3))
    hook(StandInOptimizer(0.8))
    assert accountant.history == [(1.0, 0.01, 1), (1.0, 0.01 * 3, 2), (0.8, 0.01, 1)]
    # each float certified as its shortest decimal: 0.01 * 3 is 0.03 as a float
    question = module.history_event(accountant.history)
    assert [part["event"]["sampling_probability"] for part in question["events"]] == ["1/100", "3/100", "1/100"]


def test_the_history_merges_as_opacus_merges_it():
    accountant = producer.OpacusAccountant()
    for sigma, rate in [(1.0, 0.01), (1.0, 0.01), (1.2, 0.01), (1.0, 0.01), (1.0, 0.02), (1.0, 0.02)]:
        accountant.step(noise_multiplier=sigma, sample_rate=rate)
    assert accountant.history == [(1.0, 0.01, 2), (1.2, 0.01, 1), (1.0, 0.01, 1), (1.0, 0.02, 2)]
    assert len(accountant) == 4 and accountant.steps == 6
    # the question gathers equal (σ, q): three parts, the first with 3 steps, in the order each first appeared
    parts = module.history_event(accountant.history)["events"]
    assert [(p["event"]["event"]["noise_multiplier"], p["event"]["sampling_probability"], p["count"])
            for p in parts] == [("1", "1/100", 3), ("6/5", "1/100", 1), ("1", "1/50", 2)]


def test_state_dict_round_trip_with_opacus_checks(recorded):
    accountant, epsilon = recorded
    state = accountant.state_dict()
    assert isinstance(state, OrderedDict) and state == {"history": accountant.history, "mechanism": "certified"}
    assert state["history"] is not accountant.history
    destination = {"dummy_k": "dummy_v"}
    assert accountant.state_dict(destination) is destination and destination["dummy_k"] == "dummy_v"
    fresh = producer.OpacusAccountant()
    for bad, message in [({}, "None or empty"), ({"1": 2}, "no 'history' key"), ({"history": []}, "no 'mechanism'"),
                         ({"history": [], "mechanism": "rdp"}, "the 'rdp' accountant cannot be loaded"),
                         ({"history": [(0.01, 0.1, 3)], "mechanism": "certified"},
                          r"^history\[0\].noise_multiplier: σ = 0.01 is outside"),
                         ({"history": None, "mechanism": "certified"}, "its 'history' must be a list"),
                         ({"history": 5, "mechanism": "certified"}, "its 'history' must be a list")]:
        with pytest.raises(ValueError, match=message):
            fresh.load_state_dict(bad)
        assert fresh.history == []
    fresh.load_state_dict(state)
    assert fresh.state_dict() == state and fresh.get_epsilon(DELTA) == epsilon
    assert fresh.certificate == accountant.certificate


def test_a_resumed_run_is_the_uninterrupted_one():
    first = producer.OpacusAccountant()
    for _ in range(200):
        first.step(noise_multiplier=1.0, sample_rate=0.02)
    resumed = producer.OpacusAccountant()
    resumed.load_state_dict(first.state_dict())
    for _ in range(100):
        resumed.step(noise_multiplier=1.0, sample_rate=0.02)
    assert resumed.history == [(1.0, 0.02, 300)]


def test_history_assigned_as_get_noise_multiplier_assigns_it():
    accountant = producer.OpacusAccountant()
    accountant.history = [(2.0, 0.04, 500)]
    epsilon = accountant.get_epsilon(delta=1e-5, eps_error=0.01, alphas=[2, 4])  # their tuning keywords: ignored
    accountant.history = [(4.0, 0.04, 500)]
    assert accountant.get_epsilon(delta=1e-5) < epsilon  # more noise, less ε: a fresh answer for the new history
    with pytest.raises(InputError, match="^poisson: only Poisson sampling is certified"):
        accountant.get_epsilon(1e-5, poisson=False)
    accountant.history = [(2.0, 0.04)]
    with pytest.raises(InputError, match=r"^history\[0\]: expected \(noise_multiplier, sample_rate, num_steps\)"):
        accountant.get_epsilon(1e-5)
    accountant.history = [(2.0, 0.04, 10**7), (3.0, 0.04, 1)]
    with pytest.raises(LimitError, match="^history: the tree composes more than 10 000 000 mechanism steps"):
        accountant.get_epsilon(1e-5)


def test_before_the_first_step_epsilon_is_zero_without_a_certificate():
    accountant = producer.OpacusAccountant()
    assert len(accountant) == 0 and accountant.get_epsilon(1e-5) == 0.0 and accountant.certificate is None
    accountant.step(noise_multiplier=1.0, sample_rate=0)  # a step that samples no one
    assert accountant.get_epsilon(1e-5) == 0.0 and accountant.exact_answer == "0"


def test_the_mechanism_name_and_construction_as_opacus_registry_does_it():
    registry = {"certified": producer.OpacusAccountant}  # register_accountant("certified", OpacusAccountant)
    accountant = registry[producer.OpacusAccountant.mechanism()]()
    assert accountant.mechanism() == "certified" and accountant.history == []
    assert producer.OpacusAccountant(rel_width="1/100").rel_width == "1/100"


@pytest.mark.parametrize("step, message", [
    (dict(noise_multiplier=0.05, sample_rate=0.01), "^noise_multiplier: σ = 0.05 is outside accounting/1's domain"),
    (dict(noise_multiplier=0, sample_rate=0.01), "^noise_multiplier: must be positive, got 0$"),
    (dict(noise_multiplier=1.0, sample_rate=1.5), r"^sample_rate: must lie in \[0, 1\], got 1.5$"),
    (dict(noise_multiplier=float("inf"), sample_rate=0.1), "^noise_multiplier: inf is not a finite number$"),
    (dict(noise_multiplier=None, sample_rate=0.1), "^noise_multiplier: expected a number, got None$"),
])
def test_a_bad_step_is_refused_when_it_is_taken(step, message):
    accountant = producer.OpacusAccountant()
    with pytest.raises(InputError, match=message):
        accountant.step(**step)
    assert accountant.history == []


@pytest.mark.parametrize("delta, message", [
    (0, r"^delta: must lie in \(0, 1\), got 0$"), (1, r"^delta: must lie in \(0, 1\), got 1$"),
    ("1e-40", r"^delta: 1e-40 is below accounting/1's limit 10\^-30$"),
])
def test_a_bad_delta_names_the_parameter(delta, message):
    accountant = producer.OpacusAccountant()
    accountant.step(noise_multiplier=1.0, sample_rate=0.01)
    with pytest.raises(InputError, match=message):
        accountant.get_epsilon(delta)


def test_make_private_with_epsilon_calibrates_through_the_history_pattern():
    """Opacus's get_noise_multiplier (utils.py) with this accountant registered: it assigns
    ``history = [(σ, q, steps)]`` and asks get_epsilon(delta=...) while doubling σ from 10 until ε is below the
    target, then bisects until the target is met within its tolerance.  Each answer is certified; the σ
    returned meets the target by its certified ε_hi."""
    target, rate, steps, tolerance = 4.0, 0.04, 250, 0.05
    accountant = producer.OpacusAccountant()
    low, high, eps_high = 0, 10, math.inf
    while eps_high > target:
        high *= 2
        accountant.history = [(high, rate, steps)]
        eps_high = accountant.get_epsilon(delta=1e-5)
    while target - eps_high > tolerance:
        sigma = (low + high) / 2
        accountant.history = [(sigma, rate, steps)]
        eps = accountant.get_epsilon(delta=1e-5)
        if eps < target:
            high, eps_high = sigma, eps
        else:
            low = sigma
    accountant.history = [(high, rate, steps)]
    assert target - tolerance <= accountant.get_epsilon(delta=1e-5) == eps_high <= target
    assert mpq(accountant.certificate.result["epsilon_hi"]) <= target


@pytest.mark.parametrize("rate, message", [(None, "sample_rate: expected a number"), (2, r"must lie in \[0, 1\]")])
def test_the_hooks_sample_rate_is_checked_when_the_hook_is_made(rate, message):
    with pytest.raises(ValueError, match=message):
        producer.OpacusAccountant().get_optimizer_hook_fn(rate)
