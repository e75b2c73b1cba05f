"""producer.training: the two step countings against a direct count of batches."""

from fractions import Fraction

import pytest
from hypothesis import given, strategies as st

from producer.errors import InputError, LimitError
from producer.training import TrainingRun


def _opacus_direct(batch, size, epochs):
    """Opacus: the loader keeps len(range(0, N, B)) batches an epoch; each record is drawn with 1/len."""
    batches = len(range(0, size, batch))
    return Fraction(1, batches), epochs * batches


def _tf_privacy_direct(batch, size, epochs):
    """TF Privacy: q = B/N, and the smallest T with T·B >= E·N (the run sees E epochs of examples)."""
    steps = 0
    while steps * batch < epochs * size:
        steps += 1
    return Fraction(batch, size), steps


@given(st.integers(1, 60), st.integers(1, 300), st.integers(1, 5))
def test_both_countings_match_a_direct_count(batch, extra, epochs):
    size = batch + extra - 1
    for counting, direct in (("opacus", _opacus_direct), ("tf-privacy", _tf_privacy_direct)):
        run = TrainingRun(batch, size, epochs, counting)
        assert (run.sampling_rate, run.steps) == direct(batch, size, epochs)


def test_the_usual_run():
    run = TrainingRun(256, 60000, 60)
    assert run.sampling_rate == Fraction(8, 1875) and run.steps == 14063
    assert run.to_json() == {"batch_size": 256, "dataset_size": 60000, "counting": "tf-privacy", "epochs": 60}
    opacus = TrainingRun(256, 60000, 60, "opacus")
    assert opacus.sampling_rate == Fraction(1, 235) and opacus.steps == 14100


def test_numbers_as_scripts_hold_them():
    assert TrainingRun("2.56e2", 6e4, 6e1).steps == 14063


@pytest.mark.parametrize("args, error, fragment", [
    ((0, 10), InputError, "batch_size: must be in [1, dataset_size]"),
    ((11, 10), InputError, "got 11"),
    ((1, 0), InputError, "dataset_size"),
    ((1, 10**13), LimitError, "10^12"),
    ((1, 10, 0), InputError, "epochs"),
    ((1, 10, 1.5), InputError, "not an integer"),
    ((1, 10, 1, "keras"), InputError, "tf-privacy or opacus"),
])
def test_bad_runs_are_refused_naming_the_value(args, error, fragment):
    with pytest.raises(error) as info:
        TrainingRun(*args)
    assert fragment in str(info.value)


def test_a_run_is_immutable_and_needs_epochs_for_steps():
    run = TrainingRun(10, 100)
    with pytest.raises(AttributeError):
        run.counting = "opacus"
    with pytest.raises(ValueError):
        _ = run.steps
    assert run.steps_after(3) == 30
