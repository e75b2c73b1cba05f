"""producer.training_curve: the points of a privacy curve, their certificates, the table and the refusals.

Every point is an ordinary dpsgd/1 certificate: the tests check each against
``producer.dpsgd`` of its own (q, σ, T, δ) and against the auditor, and that
every refusal comes before the first certificate is computed.
"""

import csv
import io
import re
from fractions import Fraction

import pytest

from auditor import api as auditor_api
from producer import api, training_curve
from producer.errors import InputError, LimitError, OutputError
from producer.pld import enclose
from producer.training import TrainingRun
from producer.training_curve import MAX_POINTS, plan
from tests.untimed import must_not_call

# q = 600/60000 = 1/100, σ = 1.1: 100 steps an epoch, three epochs
TRAINING = dict(batch_size=600, dataset_size=60000, epochs=3)
DECIMAL = re.compile(r"[0-9]+(\.[0-9]+)?(e-?[0-9]+)?")


@pytest.fixture(scope="module")
def curve():
    return api.privacy_curve("1.1", "1e-5", workers=0, **TRAINING)


def _steps(curve_plan):
    return [(p.epoch, p.steps) for p in curve_plan.points]


@pytest.mark.parametrize("counting", ["tf-privacy", "opacus"])
def test_training_points_are_the_runs_steps_after_each_epoch(counting):
    # 256 of 60000: tf-privacy counts ⌈e·N/B⌉ steps, opacus e·⌈N/B⌉ (the two differ from epoch 2 on)
    curve_plan = plan("1.1", "1e-5", batch_size=256, dataset_size=60000, epochs=4, counting=counting)
    run = TrainingRun(256, 60000, 4, counting)
    assert _steps(curve_plan) == [(e, run.steps_after(e)) for e in (1, 2, 3, 4)]
    assert curve_plan.sampling_rate == run.sampling_rate and curve_plan.training.counting == counting
    assert len({p.steps for p in curve_plan.points}) == 4


def test_every_k_epochs_keeps_the_last():
    curve_plan = plan(1, "1e-5", batch_size=100, dataset_size=1000, epochs=5, every=2)
    assert _steps(curve_plan) == [(2, 20), (4, 40), (5, 50)]


@pytest.mark.parametrize("steps, every, expected", [
    (1000, 300, [300, 600, 900, 1000]), (900, 300, [300, 600, 900]), (50, 100, [50]), (3, 1, [1, 2, 3]),
])
def test_every_k_steps_and_the_last(steps, every, expected):
    curve_plan = plan(1, "1e-5", sampling_rate="0.01", steps=steps, every=every)
    assert _steps(curve_plan) == [(None, t) for t in expected] and curve_plan.training is None


def test_each_point_is_the_dpsgd_certificate_of_its_own_steps(curve):
    assert [r.epoch for r in curve.rows] == [1, 2, 3] and [r.steps for r in curve.rows] == [100, 200, 300]
    for row, certificate in zip(curve.rows, curve.certificates):
        [stage] = certificate.input["stages"]
        assert stage == {"sampling_rate": "1/100", "noise_multiplier": "11/10", "steps": row.steps}
        assert certificate.input["delta"] == "1/100000"
        assert certificate == api.dpsgd("0.01", "1.1", row.steps, delta="1e-5")  # the same bytes
        assert auditor_api.verify_certificate(certificate.as_dict()).ok, row
        result = certificate.result
        assert (row.epsilon_lo, row.epsilon_hi) == (Fraction(result["epsilon_lo"]), Fraction(result["epsilon_hi"]))
        assert 0 < row.epsilon_lo <= row.epsilon_hi and row.status == "two-sided"
        assert row.file == f"curve-e{row.epoch}-t{row.steps}.json"


def test_csv_has_decimal_columns_rounded_outward(curve):
    text = curve.csv().decode()
    assert text.splitlines()[0] == "epoch,steps,epsilon_lo,epsilon_hi,status,file"
    rows = list(csv.DictReader(io.StringIO(text)))
    assert len(rows) == 3
    for written, row in zip(rows, curve.rows):
        assert DECIMAL.fullmatch(written["epsilon_lo"]) and DECIMAL.fullmatch(written["epsilon_hi"])
        assert Fraction(written["epsilon_lo"]) <= row.epsilon_lo <= row.epsilon_hi <= Fraction(written["epsilon_hi"])
        assert (int(written["epoch"]), int(written["steps"]), written["status"], written["file"]) == (
            row.epoch, row.steps, row.status, row.file)


def test_the_step_form_has_no_epoch_column():
    curve = api.privacy_curve(1, "1e-5", sampling_rate="0.01", steps=20, every=10, workers=0)
    assert curve.csv().decode().splitlines()[0] == "steps,epsilon_lo,epsilon_hi,status,file"
    assert [r.file for r in curve.rows] == ["curve-t10.json", "curve-t20.json"]
    assert curve.table().splitlines()[1].split() == ["steps", "ε_lo", "ε_hi", "status"]


def test_table_states_the_run_and_every_row(curve):
    lines = curve.table().splitlines()
    assert lines[0] == ("DP-SGD privacy curve ε(δ): q = 0.01 (B = 600, N = 60000, tf-privacy counting), σ = 1.1, "
                        "δ = 1e-05")
    assert lines[1].split() == ["epoch", "steps", "ε_lo", "ε_hi", "status"]
    assert [line.split() for line in lines[2:]] == [
        [str(r.epoch), str(r.steps), r.epsilon_lo_decimal, r.epsilon_hi_decimal, r.status] for r in curve.rows]


def test_the_result_is_immutable(curve):
    with pytest.raises(AttributeError):
        curve.rows = ()
    with pytest.raises(AttributeError):
        curve.rows[0].epsilon_hi = 0
    assert isinstance(curve.certificates, tuple) and isinstance(curve.rows, tuple)


def test_progress_gets_one_line_per_point():
    lines = []
    api.privacy_curve(1, "1e-5", sampling_rate="0.01", steps=20, every=10, workers=0, progress=lines.append)
    assert [line.split(":")[0] for line in lines] == ["1/2 points", "2/2 points"]
    assert "T = 20" in lines[1] and "ε ∈ [" in lines[1]


def test_a_pool_of_processes_gives_the_same_certificates():
    kwargs = dict(sampling_rate="0.01", steps=40, every=10)  # 4 points: more than SERIAL_UP_TO
    assert len(plan(1, "1e-5", **kwargs).points) > training_curve.SERIAL_UP_TO
    lines = []
    pooled = api.privacy_curve(1, "1e-5", workers=2, progress=lines.append, **kwargs)
    serial = api.privacy_curve(1, "1e-5", workers=0, **kwargs)
    assert pooled.certificates == serial.certificates and len(lines) == 4


class _DyingPool:
    """A stand-in for the process pool whose processes die after the first point (as they do when a script
    without the main guard is imported again by each worker)."""

    def __init__(self, max_workers, mp_context):
        self.calls = 0

    def submit(self, fn, *args):
        from concurrent.futures import Future
        from concurrent.futures.process import BrokenProcessPool
        future, self.calls = Future(), self.calls + 1
        if self.calls == 1:
            future.set_result(fn(*args))
        else:
            future.set_exception(BrokenProcessPool("a process in the pool was terminated abruptly"))
        return future

    def shutdown(self, wait=True, cancel_futures=False):
        pass


def test_a_pool_whose_processes_die_leaves_the_points_to_this_process(monkeypatch):
    kwargs = dict(sampling_rate="0.01", steps=40, every=10)
    monkeypatch.setattr(training_curve, "ProcessPoolExecutor", _DyingPool)
    lines = []
    with pytest.warns(RuntimeWarning, match="if __name__ == .__main__.:.*or pass workers=0"):
        pooled = api.privacy_curve(1, "1e-5", workers=2, progress=lines.append, **kwargs)
    serial = api.privacy_curve(1, "1e-5", workers=0, **kwargs)
    assert pooled.certificates == serial.certificates and len(lines) == 4


# ---- refusals: one line, before the first certificate ----------------------------------------------------

@pytest.mark.parametrize("kwargs, error, fragment", [
    (dict(sampling_rate="0.01", steps=10**4, every=9), LimitError, f"1112 points (one after every 9 steps) exceed "
                                                                   f"the limit of {MAX_POINTS} points"),
    (dict(batch_size=10, dataset_size=10, epochs=1001), LimitError, "1001 points (one after each epoch)"),
    (dict(sampling_rate="0.01", steps=10**6 + 1, every=10**5), LimitError, "exceeds the limit of 1000000 steps"),
    (dict(batch_size=100, dataset_size=10**6, epochs=101), LimitError, "101 epochs are T = 1010000 steps"),
    (dict(batch_size=1, dataset_size=10**8, epochs=1), LimitError, "q = 1e-08 (tf-privacy counting) is below"),
    (dict(sampling_rate="0", steps=10, every=1), InputError, "q must lie in (0, 1]"),
    (dict(sampling_rate="0.01", steps=10, every=0), InputError, "every: K must be at least 1"),
    (dict(sampling_rate="0.01", steps=10), InputError, "give every too"),
    (dict(sampling_rate="0.01", every=10), InputError, "give steps too"),
    (dict(sampling_rate="0.01", steps=10, every=1, batch_size=10), InputError, "not both"),
    (dict(batch_size=10, dataset_size=100), InputError, "give epochs too"),
    (dict(sampling_rate="0.01", steps=10, every=1, counting="opacus"), InputError, "counting: a step counting"),
    (dict(batch_size=10, dataset_size=100, epochs=1, counting="keras"), InputError, "is not a step counting"),
    (dict(), InputError, "give the run: sampling_rate, steps and every, or batch_size"),
])
def test_bad_requests_are_refused_before_any_work(kwargs, error, fragment, monkeypatch):
    must_not_call(monkeypatch, training_curve, "certify_point")
    with pytest.raises(error) as caught:
        api.privacy_curve("1.1", "1e-5", workers=0, **kwargs)
    assert fragment in str(caught.value) and "\n" not in str(caught.value)


@pytest.mark.parametrize("sigma, delta, fragment", [(None, "1e-5", "noise_multiplier: give"),
                                                     ("1.1", None, "delta: give")])
def test_a_noise_or_delta_left_out_is_named_without_dpsgds_other_forms(sigma, delta, fragment, monkeypatch):
    """privacy_curve has neither stages nor epsilons: the refusal names only what it takes."""
    must_not_call(monkeypatch, training_curve, "certify_point")
    with pytest.raises(InputError) as caught:
        api.privacy_curve(sigma, delta, workers=0, **TRAINING)
    assert str(caught.value).startswith(fragment) and "stages" not in str(caught.value)
    assert "epsilons" not in str(caught.value)


@pytest.mark.parametrize("sigma, delta, fragment", [
    ("0.05", "1e-5", "outside the limits [1/10, 100]"), ("1.1", "0", "delta: must lie in (0, 1)"),
    ("1.1", "1e-31", "below the limit 10^-30"),
])
def test_the_noise_and_delta_are_dpsgds(sigma, delta, fragment, monkeypatch):
    must_not_call(monkeypatch, training_curve, "certify_point")
    with pytest.raises(InputError, match=re.escape(fragment)):
        api.privacy_curve(sigma, delta, workers=0, **TRAINING)


def test_a_point_beyond_the_certified_range_is_refused_before_the_first_is_computed(monkeypatch):
    """Only the last point is out of reach (its ε(δ) would be above what the PLD route certifies): the
    refusal is the one `producer dpsgd` makes for that point, and no point is computed."""
    must_not_call(monkeypatch, training_curve, "certify_point")
    must_not_call(monkeypatch, enclose, "certify")
    with pytest.raises(LimitError, match="above the ε <= 600 the certified PLD reaches"):
        api.privacy_curve("0.5", "1e-5", sampling_rate="1/2", steps=10**5, every=5 * 10**4, workers=0)
    with pytest.raises(LimitError, match="above the ε <= 600") as direct:
        api.dpsgd("1/2", "0.5", 10**5, delta="1e-5")
    plan("0.5", "1e-5", sampling_rate="1/2", steps=10, every=10)  # the first point alone is within reach
    assert "certified PLD" in str(direct.value)


def test_workers_are_checked_first(monkeypatch):
    must_not_call(monkeypatch, training_curve, "plan")
    with pytest.raises(InputError, match=r"workers: must be in \[0, 64\]"):
        api.privacy_curve("1.1", "1e-5", workers=-1, **TRAINING)


def test_the_api_names_parameters_not_flags(monkeypatch):
    must_not_call(monkeypatch, training_curve, "certify_point")
    with pytest.raises(InputError) as caught:
        api.privacy_curve("1.1", "1e-5", sampling_rate="0.01", steps=10**4, every=1)
    assert "give a larger every" in str(caught.value) and "--every" not in str(caught.value)


# ---- writing a folder --------------------------------------------------------------------------------------

def test_write_refuses_a_folder_with_anything_in_it(curve, tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(InputError, match="is not empty .1 entries, e.g. notes.txt.*overwrite=True"):
        curve.write(tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]


def test_write_refuses_a_file_where_the_folder_should_be(curve, tmp_path):
    (tmp_path / "taken").write_text("mine")
    with pytest.raises(OutputError, match="taken exists and is not a folder"):
        curve.write(tmp_path / "taken")
    with pytest.raises(OutputError, match="cannot make the folder .*taken is not a folder"):
        curve.write(tmp_path / "taken" / "out")
    assert (tmp_path / "taken").read_text() == "mine"


def test_plot_refuses_a_missing_folder_before_drawing(curve, tmp_path):
    with pytest.raises(OutputError, match="missing does not exist"):
        curve.plot(tmp_path / "missing" / "curve.png")
    assert not (tmp_path / "missing").exists()


def test_overwrite_removes_only_the_curves_own_files(curve, tmp_path):
    out = tmp_path / "out"
    earlier = api.privacy_curve(1, "1e-5", sampling_rate="0.01", steps=20, every=10, workers=0)
    earlier.write(out)
    (out / "notes.txt").write_text("mine")
    (out / "curve-look-alike.json").write_text("{}")
    curve.write(out, overwrite=True)
    names = sorted(p.name for p in out.iterdir())
    assert "curve-t10.json" not in names and "curve-look-alike.json" in names and "notes.txt" in names
    assert [n for n in names if n.startswith("curve-e")] == sorted(r.file for r in curve.rows)
    assert (out / "curve.csv").read_bytes() == curve.csv()
    for row, certificate in zip(curve.rows, curve.certificates):
        assert (out / row.file).read_bytes() == certificate.to_json()


def test_the_plot_draws_both_certified_ends_of_each_point(curve, tmp_path):
    pytest.importorskip("matplotlib")
    [series] = curve.plot(tmp_path / "curve.png")
    assert (tmp_path / "curve.png").stat().st_size > 0
    assert series["curve"] == [(float(r.epoch), float(r.epsilon_hi)) for r in curve.rows]
    assert series["lower"] == [(float(r.epoch), float(r.epsilon_lo)) for r in curve.rows]
    assert series["upper_only"] == []


def test_without_matplotlib_the_plot_is_skipped(curve, tmp_path, monkeypatch):
    from producer.sweep import plots
    monkeypatch.setattr(plots, "_pyplot", lambda: None)
    assert curve.write(tmp_path / "out") is False
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["curve-e1-t100.json", "curve-e2-t200.json",
                                                                    "curve-e3-t300.json", "curve.csv"]
