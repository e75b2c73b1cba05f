"""dpsgd-calibration/1: true certificates verify; a corpus of wrong ones is rejected with the right outcome.

The embedded dpsgd/1 certificates are the producer's (``producer dpsgd``, a
black box); the calibration certificate around them is assembled by hand
(:mod:`tests.auditor.dpsgd_calibration_corpus`).  Each wrong certificate
changes one thing and is resealed (:mod:`tests.reseal`), so only that change
is wrong.  Every solve is covered: noise_multiplier (with and without a
training run, both step countings), steps, epochs (both countings) and
sampling_rate.
"""

import copy
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings

from auditor import budget
from auditor.api import verify_certificate
from auditor.checks import dpsgd
from auditor.rationals import write_rational
from tests.auditor import dpsgd_calibration_corpus as dc
from tests.auditor.mutation import DPSGD_CALIBRATION_BUILT, mutants
from tests.auditor.notch_corpus import redisplay
from tests.reseal import reseal, seal

M, X = "/result/meets", "/result/misses"
UPPER, LOWER = "/result/points/0/upper", "/result/points/0/lower"


@pytest.fixture(scope="module")
def certs():
    return {name: dc.certificate(name) for name in dc.CASES}


def edited(cert, edit):
    """A resealed copy of ``cert`` after ``edit(input, result)`` (embedded certificates resealed first)."""
    bad = copy.deepcopy(cert)
    edit(bad["input"], bad["result"])
    return reseal(bad)


def with_input(cert, field, value):
    def edit(inp, res):
        inp[field] = value
    return edited(cert, edit)


def with_result(cert, field, value):
    def edit(inp, res):
        res[field] = value
    return edited(cert, edit)


def pointers(report):
    return [f["pointer"] for f in report.failures]


def rejected(cert, outcome, pointer):
    """Verify ``cert``; assert ``outcome`` and that ``pointer`` is named (a failure, or the error's start)."""
    report = verify_certificate(cert)
    assert report.outcome == outcome, (report.failures[:3], report.error, report.unchecked)
    if outcome == "FAIL":
        assert pointer in pointers(report), report.failures
    elif outcome == "MALFORMED":
        assert report.error.startswith(pointer), report.error
    return report


def point(cert, which, end):
    return Fraction(cert["result"][which]["result"]["points"][0][end])


# ---- true certificates -------------------------------------------------------------------------

# the claim tests over every solve: one cheap case by default, all of them in make references
EVERY_CASE_IN_THE_SLOW_SUITE = [name if name == "epochs-tf-privacy" else pytest.param(name, marks=pytest.mark.slow)
                                for name in sorted(dc.CASES)]


@pytest.mark.parametrize("name", sorted(dc.CASES))
def test_true_certificate_verifies(certs, name):
    report = verify_certificate(certs[name])
    assert report.outcome == "OK", (report.failures[:3], report.error, report.unchecked)


def test_committed_certificates_verify():
    found = dc.references()
    if not found:
        pytest.skip("no dpsgd-calibration/1 certificate is committed under certificates/ yet")
    for name, cert in found:
        report = verify_certificate(cert)
        assert report.outcome == "OK", (name, report.failures[:3], report.error, report.unchecked)


RUN = "Poisson-subsampled Gaussian, sensitivity 1, add/remove"


@pytest.mark.slow  # seconds: make references runs it
def test_claim_lines_state_a_crossing_not_an_optimum(certs):
    claims = {name: verify_certificate(cert).claim for name, cert in certs.items()}
    assert claims["noise"] == (
        f"noise multiplier sigma = 1.01 suffices for eps = 1 at delta = 0.0000006 (DP-SGD with q = 0.01, T = 100; "
        f"{RUN}) and sigma = 1 does not (a crossing of the relative grid 0.01, not a minimality claim)")
    assert claims["noise-opacus"].startswith(
        "noise multiplier sigma = 1.01 suffices for eps = 1 at delta = 0.0000006 (DP-SGD with q = 0.01, T = 100, "
        "batches of B = 10 of N = 995, 1 epoch, opacus counting;")
    assert claims["steps"] == (
        f"T = 100 steps suffice for eps = 1 at delta = 0.00000067 (DP-SGD with q = 0.01, sigma = 1; {RUN}) and "
        "T = 101 do not (a crossing of consecutive step counts, not a maximality claim)")
    assert claims["epochs-opacus"] == (
        "1 epoch (T = 34 steps) suffices for eps = 1 at delta = 0.0005 (DP-SGD with q = 1/34, sigma = 1, batches "
        f"of B = 30 of N = 1000, opacus counting; {RUN}) and 2 epochs (T = 68) do not (a crossing of "
        "consecutive epoch counts, not a maximality claim)")
    assert claims["sampling-rate"] == (
        f"sampling rate q = 0.01 suffices for eps = 1 at delta = 0.0000007 (DP-SGD with sigma = 1, T = 100; {RUN}) "
        "and q = 0.0101 does not (a crossing of the relative grid 0.01, not a maximality claim)")


# ---- claims 3 and 4: meets at most δ, misses above δ ------------------------------------------------

@pytest.mark.parametrize("name", EVERY_CASE_IN_THE_SLOW_SUITE)
def test_meets_and_misses_swapped_fails(certs, name):
    def edit(inp, res):
        res["meets"], res["misses"] = res["misses"], res["meets"]
    report = rejected(edited(certs[name], edit), "FAIL", M + UPPER)
    assert X + LOWER in pointers(report)
    assert M + "/input/stages/0/" + dc.STAGE_KEY[certs[name]["input"]["solve"]] in pointers(report)


@pytest.mark.parametrize("name", EVERY_CASE_IN_THE_SLOW_SUITE)
def test_meets_upper_above_delta_fails(certs, name):
    below = point(certs[name], "meets", "upper") * (1 - Fraction(1, 10 ** 9))    # δ just below meets' upper end
    report = rejected(with_input(certs[name], "delta", write_rational(below)), "FAIL", M + UPPER)
    assert pointers(report) == [M + UPPER]


@pytest.mark.parametrize("name", EVERY_CASE_IN_THE_SLOW_SUITE)
def test_misses_lower_not_above_delta_fails(certs, name):
    at = point(certs[name], "misses", "lower")                                   # lower > δ fails at equality
    report = rejected(with_input(certs[name], "delta", write_rational(at)), "FAIL", X + LOWER)
    assert pointers(report) == [X + LOWER]


# ---- claim 5: the neighbour relation ------------------------------------------------------------------

def test_noise_neighbour_too_far_fails(certs):
    """σ = 101/100 > σ_b·(1 + 1/1000) = 1.001: the grid point below is not the neighbour at R = 1/1000."""
    report = rejected(with_input(certs["noise"], "precision", "1/1000"), "FAIL", "/result/noise_multiplier")
    assert pointers(report) == ["/result/noise_multiplier"]


def test_noise_neighbour_above_the_answer_fails(certs):
    report = rejected(with_result(certs["noise"], "noise_multiplier_below", "103/100"), "FAIL",
                      "/result/noise_multiplier_below")
    assert X + "/input/stages/0/noise_multiplier" in pointers(report)


def test_sampling_rate_neighbour_too_far_fails(certs):
    report = rejected(with_input(certs["sampling-rate"], "precision", "1/1000"), "FAIL",
                      "/result/sampling_rate_above")
    assert pointers(report) == ["/result/sampling_rate_above"]


def test_sampling_rate_neighbour_above_one_fails(certs):
    """q_a <= min(1, q·(1 + R)): a q_a of 3/2 is no sampling rate (and not the misses run's)."""
    report = rejected(with_result(certs["sampling-rate"], "sampling_rate_above", "3/2"), "FAIL",
                      "/result/sampling_rate_above")
    assert X + "/input/stages/0/sampling_rate" in pointers(report)


def test_sampling_rate_neighbour_below_the_answer_fails(certs):
    report = rejected(with_result(certs["sampling-rate"], "sampling_rate_above", "99/10000"), "FAIL",
                      "/result/sampling_rate_above")
    assert X + "/input/stages/0/sampling_rate" in pointers(report)


def test_steps_above_not_steps_plus_one_fails(certs):
    report = rejected(with_result(certs["steps"], "steps_above", 102), "FAIL", "/result/steps_above")
    assert X + "/input/stages/0/steps" in pointers(report)       # the misses run is of T = 101 steps


def test_epochs_above_not_epochs_plus_one_fails(certs):
    report = rejected(with_result(certs["epochs-tf-privacy"], "epochs_above", 3), "FAIL", "/result/epochs_above")
    assert pointers(report) == ["/result/epochs_above"]          # steps_above is T(epochs + 1) = 67: true


# ---- claim 2: each embedded stage is the question's -------------------------------------------------

def test_embedded_stage_with_another_sampling_rate_fails(certs):
    """The noise question's misses replaced by a run at q = 101/10000 (same σ = 1 and T = 100)."""
    def edit(inp, res):
        res["misses"] = copy.deepcopy(certs["sampling-rate"]["result"]["misses"])
    report = rejected(edited(certs["noise"], edit), "FAIL", X + "/input/stages/0/sampling_rate")
    assert pointers(report) == [X + "/input/stages/0/sampling_rate"]


def test_input_sampling_rate_not_the_stages_fails(certs):
    report = rejected(with_input(certs["steps"], "sampling_rate", "1/99"), "FAIL",
                      M + "/input/stages/0/sampling_rate")
    assert X + "/input/stages/0/sampling_rate" in pointers(report)


def test_input_noise_multiplier_not_the_stages_fails(certs):
    report = rejected(with_input(certs["sampling-rate"], "noise_multiplier", "11/10"), "FAIL",
                      M + "/input/stages/0/noise_multiplier")
    assert X + "/input/stages/0/noise_multiplier" in pointers(report)


def test_answer_not_the_stages_fails(certs):
    """result.noise_multiplier moved (still within the grid of R) while meets is at 101/100."""
    report = rejected(with_result(certs["noise"], "noise_multiplier", "201/200"), "FAIL",
                      M + "/input/stages/0/noise_multiplier")
    assert pointers(report) == [M + "/input/stages/0/noise_multiplier"]


@pytest.mark.slow  # seconds: make references runs it
def test_a_schedule_of_two_stages_fails(certs):
    """Two stages of 50 steps compose to the one stage of 100 (the same δ), but the certificate is not of the
    question's one stage."""
    meets = dc.produced("--stage", "1/100:101/100x50", "--stage", "1/100:101/100x50", "--epsilons", "1")

    def edit(inp, res):
        res["meets"] = meets
    report = rejected(edited(certs["noise"], edit), "FAIL", M + "/input/stages")
    assert pointers(report) == [M + "/input/stages"]


# ---- claim 1: the embedded certificates' question (ε) and their own checks ----------------------------

@pytest.mark.slow  # seconds: make references runs it
def test_embedded_at_two_epsilons_fails(certs):
    meets = dc.produced("--sampling-rate", "1/100", "--noise-multiplier", "101/100", "--steps", "100",
                        "--epsilons", "1,2")

    def edit(inp, res):
        res["meets"] = meets
    report = rejected(edited(certs["noise"], edit), "FAIL", M + "/input/epsilons")
    assert pointers(report) == [M + "/input/epsilons"]


def test_embedded_delta_question_fails(certs):
    meets = dc.produced("--sampling-rate", "1/100", "--noise-multiplier", "101/100", "--steps", "100",
                        "--delta", "3/5000000")

    def edit(inp, res):
        res["meets"] = meets
    report = rejected(edited(certs["noise"], edit), "FAIL", M + "/input")
    assert pointers(report) == [M + "/input"]


@pytest.mark.parametrize("name", ["noise", "epochs-opacus"])
def test_input_epsilon_not_the_embedded_fails(certs, name):
    report = rejected(with_input(certs[name], "epsilon", "2"), "FAIL", M + "/input/epsilons")
    assert X + "/input/epsilons" in pointers(report)


def test_tampered_embedded_result_fails_by_its_own_check(certs):
    """meets' upper end lowered onto its lower end (still <= δ, so claim 3 holds, and its display with it): the
    dpsgd/1 check does not establish it."""
    def edit(inp, res):
        p = res["meets"]["result"]["points"][0]
        p["upper"] = p["lower"]
        p["upper_display"] = redisplay(p["upper_display"], Fraction(p["lower"]), True)
    report = rejected(edited(certs["noise"], edit), "FAIL", M + UPPER)
    assert all(p.startswith(M) for p in pointers(report)), report.failures


def test_tampered_embedded_without_its_digest_fails(certs):
    bad = copy.deepcopy(certs["noise"])
    bad["result"]["misses"]["producer"]["version"] = "changed after sealing"
    seal(bad)                                                           # the outer digest only
    report = rejected(bad, "FAIL", X + "/digest")
    assert pointers(report) == [X + "/digest"]


def test_embedded_outside_its_own_domain_is_malformed_at_its_pointer(certs):
    """σ = 1/20 is below dpsgd/1's domain [1/10, 100]: MALFORMED, named inside the embedded certificate."""
    def edit(inp, res):
        res["meets"]["input"]["stages"][0]["noise_multiplier"] = "1/20"
    rejected(edited(certs["noise"], edit), "MALFORMED", M + "/input/stages/0/noise_multiplier")


def test_embedded_of_another_kind_is_malformed(certs):
    def edit(inp, res):
        res["meets"]["schema"] = "plain-composition/1"
    rejected(edited(certs["noise"], edit), "MALFORMED", M)


# ---- claim 6: the training's step counting ----------------------------------------------------------

def _training(cert, **changes):
    def edit(inp, res):
        inp["training"].update(changes)
    return edited(cert, edit)


def test_tf_privacy_sampling_rate_not_b_over_n_fails(certs):
    """B = 10 of N = 995: TF Privacy's q = 2/199, not 1/100 (T = ⌈995/10⌉ = 100 still holds)."""
    report = rejected(_training(certs["noise-tf-privacy"], dataset_size=995), "FAIL", "/input/sampling_rate")
    assert pointers(report) == ["/input/sampling_rate"]


def test_tf_privacy_steps_not_t_of_e_fails(certs):
    report = rejected(_training(certs["noise-tf-privacy"], epochs=2), "FAIL", "/input/steps")
    assert pointers(report) == ["/input/steps"]


def test_opacus_counted_as_tf_privacy_fails(certs):
    """The Opacus run (B = 10 of N = 995, q = 1/⌈99.5⌉) read with TF Privacy's counting: q = 2/199."""
    report = rejected(_training(certs["noise-opacus"], counting="tf-privacy"), "FAIL", "/input/sampling_rate")
    assert pointers(report) == ["/input/sampling_rate"]


def test_opacus_epochs_counted_as_tf_privacy_fails(certs):
    """T(2) = 2·⌈1000/30⌉ = 68 under Opacus, ⌈2000/30⌉ = 67 under TF Privacy; q = 1/34 against 3/100."""
    report = rejected(_training(certs["epochs-opacus"], counting="tf-privacy"), "FAIL", "/result/steps_above")
    assert sorted(pointers(report)) == ["/input/sampling_rate", "/result/steps_above"]


def test_opacus_steps_above_not_e_times_batches_fails(certs):
    report = rejected(with_result(certs["epochs-opacus"], "steps_above", 67), "FAIL", "/result/steps_above")
    assert X + "/input/stages/0/steps" in pointers(report)


def test_tf_privacy_steps_rounded_down_fails(certs):
    """T(1) = ⌈1000/30⌉ = 34: 33 (rounded down) is not the training's."""
    report = rejected(with_result(certs["epochs-tf-privacy"], "steps", 33), "FAIL", "/result/steps")
    assert M + "/input/stages/0/steps" in pointers(report)


# ---- the result's form --------------------------------------------------------------------------------

def test_answer_of_another_solve_fails(certs):
    def edit(inp, res):
        del res["noise_multiplier"], res["noise_multiplier_below"]
        res["steps"], res["steps_above"] = 100, 101
    report = rejected(edited(certs["noise"], edit), "FAIL", "/result/noise_multiplier")
    assert pointers(report) == ["/result/noise_multiplier"]


# ---- the question's shape and domain (MALFORMED) -----------------------------------------------------

def _without(cert, field):
    def edit(inp, res):
        del inp[field]
    return edited(cert, edit)


@pytest.mark.parametrize("name", ["noise", "sampling-rate"])
def test_missing_precision_is_malformed(certs, name):
    rejected(_without(certs[name], "precision"), "MALFORMED", "/input")


@pytest.mark.parametrize("name,field,value", [
    ("steps", "precision", "1/100"),                     # steps and epochs have no relative grid
    ("epochs-tf-privacy", "precision", "1/100"),
    ("noise", "noise_multiplier", "1"),                  # the solved parameter is not given
    ("steps", "steps", 100),
    ("epochs-opacus", "steps", 34),                      # epochs give the steps by the training
    ("sampling-rate", "sampling_rate", "1/100"),
    ("steps", "training", {"batch_size": 10, "dataset_size": 1000, "epochs": 1, "counting": "tf-privacy"}),
])
def test_a_field_another_solve_has_is_malformed(certs, name, field, value):
    rejected(with_input(certs[name], field, value), "MALFORMED", "/input")


def test_epochs_without_training_is_malformed(certs):
    rejected(_without(certs["epochs-tf-privacy"], "training"), "MALFORMED", "/input")


def test_epochs_given_when_solved_is_malformed(certs):
    rejected(_training(certs["epochs-tf-privacy"], epochs=1), "MALFORMED", "/input")


def test_noise_training_without_epochs_is_malformed(certs):
    def edit(inp, res):
        del inp["training"]["epochs"]
    rejected(edited(certs["noise-tf-privacy"], edit), "MALFORMED", "/input")


@pytest.mark.parametrize("name,field,value,pointer", [
    ("noise", "delta", "3/2", "/input/delta"),
    ("noise", "delta", "2/4", "/input/delta"),            # not reduced
    ("noise", "precision", "1/1", "/input/precision"),
    ("steps", "sampling_rate", "3/2", "/input/sampling_rate"),
    ("noise", "steps", 0, "/input/steps"),
    ("noise", "solve", "batch_size", "/input/solve"),
])
def test_outside_the_domain_is_malformed(certs, name, field, value, pointer):
    rejected(with_input(certs[name], field, value), "MALFORMED", pointer)


def test_batch_larger_than_the_dataset_is_malformed(certs):
    rejected(_training(certs["noise-tf-privacy"], batch_size=1001), "MALFORMED", "/input/training/batch_size")


# ---- the budget: both embedded certificates' work, reserved together -----------------------------------

def test_both_embedded_estimates_are_reserved_together(certs, monkeypatch):
    cert = certs["steps"]
    parts = [dpsgd.estimate(cert["result"][k]).work for k in ("meets", "misses")]
    monkeypatch.setattr(budget, "MAX_WORK", sum(parts) - 1)           # each fits alone, not both
    assert max(parts) <= budget.MAX_WORK
    report = verify_certificate(cert)
    assert report.outcome == "UNCHECKED", (report.failures[:3], report.error)
    assert "embedded certificates" in report.unchecked, report.unchecked


def test_the_budget_does_not_hide_a_false_claim(certs, monkeypatch):
    cert = with_result(certs["steps"], "steps_above", 102)
    monkeypatch.setattr(budget, "MAX_WORK", 1)
    rejected(cert, "FAIL", "/result/steps_above")


def test_embedded_limit_makes_the_certificate_unchecked(certs, monkeypatch):
    monkeypatch.setattr(dpsgd, "MAX_EPSILON", Fraction(1, 2))        # ε = 1 is beyond it
    report = verify_certificate(certs["noise"])
    assert report.outcome == "UNCHECKED", (report.failures[:3], report.error)
    assert report.unchecked.startswith(M), report.unchecked


def test_embedded_limit_does_not_hide_a_false_claim(certs, monkeypatch):
    monkeypatch.setattr(dpsgd, "MAX_EPSILON", Fraction(1, 2))
    rejected(with_input(certs["noise"], "precision", "1/1000"), "FAIL", "/result/noise_multiplier")


# ---- every mutation of the true certificates (tests/auditor/mutation.py) ------------------------------

@pytest.mark.slow  # seconds: make references runs it
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutants(sources=sorted(DPSGD_CALIBRATION_BUILT)))
def test_mutated_certificates_never_verify_nor_crash(mutant):
    label, data, may_verify = mutant
    report = verify_certificate(data, name=label)
    assert report.status in ({0, 1, 2, 3} if may_verify else {1, 2, 3}), (label, report.as_dict())
    assert report.error is None or "\n" not in report.error
