"""producer.CertifiedAccountant: dp_accounting's own calling pattern against it (events built with its dp_event
classes, compose with counts, get_epsilon/get_delta, supports), the answer against dp_accounting's PLD
accountant, the certificate through the auditor, the run-length ledger and the gathered question, the
limits refused before anything changes, and the product without dp_accounting (a subprocess with the import
blocked)."""

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest
from gmpy2 import mpq

import producer
from producer.accountants import dp_accounting as module
from producer.errors import InputError, LimitError
from producer.pld.events import MAX_EVENTS
from producer.references.accounting import gaussian, laplace, poisson, randomized_response
from tests.untimed import HANG_GUARD_SECONDS

dp_accounting = pytest.importorskip("dp_accounting")
from dp_accounting import dp_event  # noqa: E402  (after the skip: the extra is optional)
from dp_accounting.pld import pld_privacy_accountant  # noqa: E402

ROOT = Path(__file__).resolve().parents[3]
STEP = dp_event.PoissonSampledDpEvent(0.01, dp_event.GaussianDpEvent(1.0))


def _python(code):
    """Run ``code`` in a fresh interpreter at the repository root: (exit status, stdout, stderr)."""
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                         timeout=HANG_GUARD_SECONDS)
    return run.returncode, run.stdout, run.stderr


def _audit(path):
    run = subprocess.run([sys.executable, "-m", "auditor", "verify", str(path)], capture_output=True, text=True,
                         cwd=ROOT, timeout=HANG_GUARD_SECONDS)
    return run.returncode, run.stdout


@pytest.fixture(scope="module")
def trained():
    """dp_accounting's pattern: a training loop composing one sampled Gaussian step at a time, an evaluation
    Laplace release, and more steps in bulk; then ε at δ = 10^-5."""
    accountant = producer.CertifiedAccountant()
    for _ in range(300):
        accountant.compose(STEP)
    accountant.compose(dp_event.LaplaceDpEvent(20.0)).compose(STEP, 700)
    epsilon = accountant.get_epsilon(1e-5)
    return accountant, epsilon


def test_it_is_a_dp_accounting_privacy_accountant():
    accountant = producer.CertifiedAccountant()
    assert isinstance(accountant, dp_accounting.PrivacyAccountant)
    assert accountant.neighboring_relation is dp_accounting.NeighboringRelation.ADD_OR_REMOVE_ONE
    assert issubclass(module.UnsupportedEventError, dp_accounting.UnsupportedEventError)
    assert issubclass(module.UnsupportedEventError, InputError)
    assert issubclass(module.EventLimitError, module.UnsupportedEventError)
    assert issubclass(module.EventLimitError, LimitError)
    replace = producer.CertifiedAccountant(dp_accounting.NeighboringRelation.REPLACE_ONE)
    assert replace.neighboring_relation is dp_accounting.NeighboringRelation.REPLACE_ONE
    special = producer.CertifiedAccountant(dp_accounting.NeighboringRelation.REPLACE_SPECIAL)
    assert special.neighboring_relation is dp_accounting.NeighboringRelation.REPLACE_SPECIAL


def test_compose_returns_the_accountant_and_the_ledger_is_a_dp_event(trained):
    accountant, _ = trained
    assert accountant.ledger == dp_event.ComposedDpEvent([dp_event.SelfComposedDpEvent(STEP, 300),
                                                          dp_event.LaplaceDpEvent(20.0),
                                                          dp_event.SelfComposedDpEvent(STEP, 700)])
    gathered = accountant.question["events"]
    assert [part.get("count", 1) for part in gathered] == [1000, 1]
    assert gathered[0]["event"] == {"class_name": "PoissonSampledDpEvent", "sampling_probability": "1/100",
                                    "event": {"class_name": "GaussianDpEvent", "noise_multiplier": "1"}}


def test_get_epsilon_is_the_certified_upper_end_rounded_up(trained):
    accountant, epsilon = trained
    cert = accountant.certificate
    assert cert.kind == "accounting/1" and cert.input["delta"] == "1/100000"
    assert cert.input["event"] == accountant.question
    exact = mpq(cert.result["epsilon_hi"])
    assert accountant.exact_answer == cert.result["epsilon_hi"]
    assert mpq(epsilon) >= exact > mpq(math.nextafter(epsilon, 0))
    assert mpq(cert.result["epsilon_lo"]) <= exact <= mpq(cert.result["epsilon_lo"]) * mpq(1001, 1000)


@pytest.mark.slow  # seconds: make references runs it
def test_the_answer_against_dp_accountings_pld_accountant(trained):
    accountant, epsilon = trained
    theirs = pld_privacy_accountant.PLDAccountant().compose(accountant.ledger).get_epsilon(1e-5)
    # their estimate (pessimistic, interval 10^-4) lies within the certified enclosure: below the float we hand
    # out, above the certified lower end
    assert mpq(accountant.certificate.result["epsilon_lo"]) <= mpq(theirs) <= mpq(epsilon)
    delta = accountant.get_delta(2)
    their_delta = pld_privacy_accountant.PLDAccountant().compose(accountant.ledger).get_delta(2)
    point, = accountant.certificate.result["points"]
    assert mpq(point["lower"]) <= mpq(their_delta) <= mpq(delta)
    assert mpq(delta) >= mpq(point["upper"]) == mpq(accountant.exact_answer)


def test_the_certificate_verifies_with_the_auditor(trained, tmp_path):
    accountant, _ = trained
    accountant.get_epsilon(1e-5)
    path = tmp_path / "epsilon.json"
    accountant.certificate.write(path)
    status, output = _audit(path)
    assert status == 0, output
    assert json.loads(path.read_text(encoding="utf-8"))["input"]["event"] == accountant.question


def test_an_answer_is_reused_until_the_ledger_changes(monkeypatch):
    calls = []
    real = module.epsilon_hi

    def counted(*args):
        calls.append(args[1])
        return real(*args)
    monkeypatch.setattr(module, "epsilon_hi", counted)
    accountant = producer.CertifiedAccountant().compose(STEP, 10)
    first = accountant.get_epsilon(1e-5)
    assert accountant.get_epsilon("1e-5") == first and len(calls) == 1  # the same question, exactly
    accountant.compose(STEP)
    assert accountant.get_epsilon(1e-5) > first and len(calls) == 2


def test_supports_and_unsupported_events_as_dp_accounting_names_them():
    accountant = producer.CertifiedAccountant().compose(STEP, 5)
    ledger = accountant.ledger
    unsupported = [dp_event.SampledWithoutReplacementDpEvent(1000, 10, dp_event.GaussianDpEvent(1.0)),
                   dp_event.SampledWithReplacementDpEvent(1000, 10, dp_event.GaussianDpEvent(1.0)),
                   dp_event.NonPrivateDpEvent(), dp_event.UnsupportedDpEvent(),
                   dp_event.RandomizedResponseDpEvent(0.5, 4),  # replace-one only, as in dp_accounting
                   dp_event.GaussianDpEvent(0.01)]  # outside the kind's domain
    for event in unsupported:
        assert not accountant.supports(event)
        # dp_accounting's own supports() goes through the abstract hook _maybe_compose: the same answer
        assert not dp_accounting.PrivacyAccountant.supports(accountant, event)
        with pytest.raises(dp_accounting.UnsupportedEventError, match="^event: "):
            accountant.compose(event)
        assert accountant.ledger == ledger  # refused before anything changed
    for event in (STEP, dp_event.LaplaceDpEvent(1.0), dp_event.NoOpDpEvent(), accountant.ledger,
                  dp_event.ComposedDpEvent([STEP, dp_event.GaussianDpEvent(2.0)])):
        assert accountant.supports(event) and dp_accounting.PrivacyAccountant.supports(accountant, event)
    assert not accountant.supports("GaussianDpEvent") and not accountant.supports(None)
    with pytest.raises(LimitError, match=r"^event: GaussianDpEvent.noise_multiplier: σ = 0.01 is outside the domain"):
        accountant.compose(dp_event.GaussianDpEvent(0.01))  # a LimitError for the producer's callers too
    assert producer.CertifiedAccountant("replace_one").supports(dp_event.RandomizedResponseDpEvent(0.5, 4))


def test_no_ops_and_empty_ledgers_answer_zero_without_a_certificate():
    accountant = producer.CertifiedAccountant()
    assert accountant.ledger == dp_event.NoOpDpEvent()
    assert accountant.get_epsilon(1e-5) == 0.0 and accountant.certificate is None
    accountant.compose(dp_event.NoOpDpEvent(), 3).compose(dp_event.SelfComposedDpEvent(STEP, 0))
    assert accountant.ledger == dp_event.NoOpDpEvent()
    accountant.compose(dp_event.PoissonSampledDpEvent(0.0, dp_event.GaussianDpEvent(1.0)), 5)  # never sampled
    assert accountant.get_delta(0) == 0.0 and accountant.exact_answer == "0" and accountant.certificate is None


@pytest.mark.slow  # seconds: make references runs it
def test_ten_thousand_single_steps_are_one_step_composed_ten_thousand_times():
    one_by_one = producer.CertifiedAccountant()
    for _ in range(10**4):
        one_by_one.compose(STEP)
    at_once = producer.CertifiedAccountant().compose(STEP, 10**4)
    assert one_by_one.ledger == at_once.ledger == dp_event.SelfComposedDpEvent(STEP, 10**4)
    assert one_by_one.get_epsilon(1e-5) == at_once.get_epsilon(1e-5)
    assert one_by_one.certificate == at_once.certificate  # the same bytes


def test_a_self_composed_event_is_its_inner_event_counted_as_dp_accountings_builder_does():
    wrapped = producer.CertifiedAccountant().compose(dp_event.SelfComposedDpEvent(STEP, 4), 3).compose(STEP)
    assert wrapped.ledger == dp_event.SelfComposedDpEvent(STEP, 13)
    builder = dp_accounting.DpEventBuilder()
    builder.compose(dp_event.SelfComposedDpEvent(STEP, 4), 3)
    builder.compose(STEP)
    assert builder.build() == wrapped.ledger


def test_an_interleaved_loop_asks_a_question_of_two_events():
    release = dp_event.LaplaceDpEvent(50.0)
    accountant = producer.CertifiedAccountant()
    for _ in range(MAX_EVENTS):  # more runs than the kind's limit on events: the question stays two events
        accountant.compose(STEP).compose(release)
    assert len(accountant.ledger.events) == 2 * MAX_EVENTS
    assert accountant.question == {"class_name": "ComposedDpEvent", "events": [
        {"class_name": "SelfComposedDpEvent", "count": MAX_EVENTS, "event": module.event_json(STEP)},
        {"class_name": "SelfComposedDpEvent", "count": MAX_EVENTS, "event": laplace("50")}]}


def test_json_events_compose_beside_dp_events_and_floats_are_their_shortest_decimal():
    accountant = producer.CertifiedAccountant()
    accountant.compose(poisson("0.01", gaussian("1")), 2).compose(STEP)
    assert accountant.ledger == {"class_name": "SelfComposedDpEvent", "count": 3,
                                 "event": poisson("1/100", gaussian("1"))}
    accountant.question["event"]["sampling_probability"] = "1/2"  # copies: the accountant's state is its own
    accountant.ledger["count"] = 7
    assert accountant.question == accountant.ledger and accountant.question["count"] == 3
    np = pytest.importorskip("numpy")
    accountant.compose(dp_event.PoissonSampledDpEvent(np.float64(0.01), dp_event.GaussianDpEvent(np.float32(1))),
                       np.int64(2))
    assert accountant.question["count"] == 5


@pytest.mark.parametrize("count, message", [
    (0, "^count: must be a positive integer, got 0$"), (-3, "^count: must be a positive integer"),
    (True, "^count: expected a positive integer"), (1.5, "^count: 1.5 is not an integer$"),
    ("x", "^count: 'x' is not an integer$"),
])
def test_a_bad_count_names_the_parameter(count, message):
    with pytest.raises(InputError, match=message):
        producer.CertifiedAccountant().compose(STEP, count)


def test_counts_beyond_the_kinds_limits_are_refused_before_anything_changes():
    accountant = producer.CertifiedAccountant().compose(STEP, "1e7")  # exactly the limit on one count
    with pytest.raises(LimitError, match=r"^count: this event would be composed 10 000 001 times in all, beyond "
                                         r"accounting/1's limit of 10 000 000"):
        accountant.compose(STEP)
    with pytest.raises(LimitError, match=r"^count: the ledger would compose 10 000 001 mechanism steps in all"):
        accountant.compose(dp_event.LaplaceDpEvent(1.0))
    assert accountant.ledger == dp_event.SelfComposedDpEvent(STEP, 10**7)
    many = producer.CertifiedAccountant()
    for k in range(16):
        many.compose(dp_event.GaussianDpEvent(1 + k))
    with pytest.raises(LimitError, match="^event: the ledger would read into 17 distinct stages, more than "
                                         "accounting/1's limit of 16$"):
        many.compose(dp_event.GaussianDpEvent(17))
    assert len(many.question["events"]) == 16


def test_the_questions_size_and_depth_are_the_kinds_limits():
    accountant = producer.CertifiedAccountant()
    # distinct events without privacy loss (never sampled) leave the stages empty and grow the question: each
    # is two events (the sampling and the Gaussian), and one ComposedDpEvent holds them
    for k in range((MAX_EVENTS - 1) // 2):
        accountant.compose(poisson(0, gaussian(1 + k / 8)))
    assert module._size_and_depth(accountant.question) == (MAX_EVENTS - 1, 2)
    accountant.compose(poisson(0, gaussian(1)))  # again: a SelfComposedDpEvent more, exactly the limit
    assert module._size_and_depth(accountant.question) == (MAX_EVENTS, 3)
    with pytest.raises(LimitError, match=r"^event: the ledger's question would have 10 002 events \(5000 distinct "
                                         r"ones gathered\), more than accounting/1's limit of 10 000$"):
        accountant.compose(poisson(0, gaussian(2000)))
    deep = gaussian(1)
    for _ in range(100):
        deep = poisson(1, deep)
    alone = producer.CertifiedAccountant().compose(deep)  # depth 100, the limit, alone
    with pytest.raises(LimitError, match="nested more than 100 deep"):
        alone.compose(laplace(1))


@pytest.mark.parametrize("call, message", [
    (lambda a: a.get_epsilon(1.5), "^target_delta: must lie in \\(0, 1\\), got 1.5$"),
    (lambda a: a.get_epsilon(0), "^target_delta: must lie in \\(0, 1\\), got 0$"),
    (lambda a: a.get_epsilon("1e-31"), "^target_delta: 1e-31 is below accounting/1's limit 10\\^-30$"),
    (lambda a: a.get_epsilon(float("nan")), "^target_delta: nan is not a finite number$"),
    (lambda a: a.get_delta(-1), "^target_epsilon: must be >= 0, got -1$"),
    (lambda a: a.get_delta(501), "^target_epsilon: ε = 501 exceeds accounting/1's limit 500$"),
    (lambda a: producer.CertifiedAccountant(rel_width=0), "^rel_width: must be positive"),
    (lambda a: producer.CertifiedAccountant(rel_width=1), "^rel_width: 1 is outside accounting/1's limits"),
    (lambda a: producer.CertifiedAccountant("neighbours"), "^neighboring_relation: neighbours is not a"),
])
def test_bad_targets_name_the_api_parameter(call, message):
    accountant = producer.CertifiedAccountant().compose(STEP, 10)
    with pytest.raises(InputError, match=message):
        call(accountant)
    assert accountant.certificate is None


def test_a_refusal_after_the_work_starts_names_the_accountants_parameter():
    accountant = producer.CertifiedAccountant().compose(dp_event.GaussianDpEvent(0.1), 10**4)
    with pytest.raises(LimitError, match="^target_delta: ε"):
        accountant.get_epsilon("1e-20")


def test_replace_one_accounts_randomized_response():
    accountant = producer.CertifiedAccountant("replace_one", rel_width="1/100")
    accountant.compose(randomized_response("1/2", 4), 10)
    delta = accountant.get_delta(1)
    assert accountant.certificate.input["relation"] == "replace_one"
    assert accountant.certificate.input["rel_width"] == accountant.rel_width == "1/100"
    assert 0 < delta < 1 and mpq(delta) >= mpq(accountant.exact_answer)


def test_replace_special_accounts_tree_aggregation_as_dp_accountings_rdp_accountant_does():
    """One epoch over n steps is d = ⌈log2(n + 1)⌉ Gaussian releases; refused (unsupported) under add/remove."""
    epoch = dp_event.SingleEpochTreeAggregationDpEvent(1.5, 1000)
    assert not producer.CertifiedAccountant().supports(epoch)
    special = producer.CertifiedAccountant(dp_accounting.NeighboringRelation.REPLACE_SPECIAL)
    gaussians = producer.CertifiedAccountant("replace_special")
    special.compose(epoch, 20)
    gaussians.compose(dp_event.GaussianDpEvent(1.5), 200)
    assert special.get_epsilon(1e-5) == gaussians.get_epsilon(1e-5)
    assert special.certificate.result["stages"] == gaussians.certificate.result["stages"]


def test_a_truncated_poisson_sampling_is_accounted_under_add_or_remove_and_replace_one():
    step = dp_event.TruncatedSubsampledGaussianDpEvent(60000, 256 / 60000, 300, 1.1)
    assert producer.CertifiedAccountant().supports(step)
    assert producer.CertifiedAccountant(dp_accounting.NeighboringRelation.REPLACE_ONE).supports(step)
    assert not producer.CertifiedAccountant(dp_accounting.NeighboringRelation.REPLACE_SPECIAL).supports(step)
    accountant = producer.CertifiedAccountant().compose(step, 100)
    cert = producer.account(dp_event.SelfComposedDpEvent(step, 100), delta="1e-5")
    assert accountant.certificate is None and accountant.get_epsilon(1e-5) >= float(mpq(cert.result["epsilon_hi"]))
    assert accountant.certificate.result["stages"] == cert.result["stages"]


def test_importing_producer_does_not_import_dp_accounting():
    status, out, err = _python("import sys, producer\nproducer.account\n"
                               "print('dp_accounting' in sys.modules)")
    assert status == 0 and out.strip() == "False", err


def test_the_accountant_runs_without_dp_accounting():
    code = """
import sys
sys.modules["dp_accounting"] = None  # blocks the import, as if it were not installed
import producer
from producer.accountants import dp_accounting as module
accountant = producer.CertifiedAccountant()
step = {"class_name": "PoissonSampledDpEvent", "sampling_probability": 0.01,
        "event": {"class_name": "GaussianDpEvent", "noise_multiplier": 1.0}}
for _ in range(20):
    accountant.compose(step)
epsilon = accountant.get_epsilon(1e-5)
try:
    accountant.compose({"class_name": "SampledWithoutReplacementDpEvent", "source_dataset_size": 10,
                        "sample_size": 2, "event": {"class_name": "GaussianDpEvent", "noise_multiplier": 1}})
except producer.InputError as error:
    refusal = type(error).__name__
print(type(accountant).__bases__ == (object,), accountant.neighboring_relation.name, accountant.ledger["count"],
      epsilon > 0, accountant.certificate.kind, refusal, module.UnsupportedEventError.__mro__[1].__name__)
"""
    status, out, err = _python(code)
    assert status == 0, err
    assert out.split() == ["True", "ADD_OR_REMOVE_ONE", "20", "True", "accounting/1", "UnsupportedEventError",
                           "InputError"]
