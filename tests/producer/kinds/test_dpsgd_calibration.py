"""producer.kinds.dpsgd_calibration: the DP-SGD parameter a target (ε, δ) allows, as a certified crossing.

Every answer is checked as the auditor will check it (docs/kinds.md, dpsgd-calibration/1), restated here:
the embedded dpsgd/1 certificates are the bytes `producer dpsgd` writes for their question, their stage is the
question's with the solved value put in, meets has upper <= δ, misses lower > δ, the two values are neighbours,
and the training conversion is TrainingRun's.  The crossing is recomputed independently of the search: by
producer.dpsgd at half the embedded width, and on the Gaussian route (q = 1) by the closed form in mpmath.
Once the auditor knows the kind (schemas/dpsgd-calibration-1.schema.json present), `auditor verify` must
answer OK on every reference.
"""

import json
import subprocess
import sys
from pathlib import Path

import mpmath
import pytest
from gmpy2 import mpq

import producer
from producer.certificates.canonical import render
from producer.errors import InputError, LimitError
from producer.kinds import dpsgd, dpsgd_calibration as kind
from producer.noise_level.pairs import MEETS, MISSES, Undecided, pair
from producer.training import TrainingRun
from tests.untimed import HANG_GUARD_SECONDS, must_not_call

ROOT = Path(__file__).resolve().parents[3]
FOLDER = ROOT / "certificates" / "dpsgd"
SCHEMA = ROOT / "schemas" / "dpsgd-calibration-1.schema.json"
REFERENCES = sorted(FOLDER.glob("dpsgd-calibration-*.json"))
NEIGHBOUR = {"noise_multiplier": "noise_multiplier_below", "steps": "steps_above", "epochs": "steps_above",
             "sampling_rate": "sampling_rate_above"}


def _load(path):
    return json.loads(path.read_text(encoding="utf-8"))


def stage_of(embedded):
    (stage,) = embedded["input"]["stages"]
    return mpq(stage["sampling_rate"]), mpq(stage["noise_multiplier"]), stage["steps"]


def check(cert, rebuild=True):
    """The claims of docs/kinds.md restated; returns ((q, σ, T) of meets, (q, σ, T) of misses)."""
    assert cert["schema"] == "dpsgd-calibration/1" and cert["result"]["route"] == "pld"
    inp, res = cert["input"], cert["result"]
    solve, delta, epsilon = inp["solve"], mpq(inp["delta"]), inp["epsilon"]
    meets, misses = res["meets"], res["misses"]
    for embedded in (meets, misses):
        assert embedded["schema"] == "dpsgd/1" and embedded["input"]["epsilons"] == [epsilon]
        assert len(embedded["input"]["stages"]) == 1
        if rebuild:  # the bytes producer dpsgd writes for the same question
            again = dpsgd.Request.from_strings(stages=[], **_single(embedded["input"]))
            assert render(dpsgd.build(again)) == render(embedded)
    at, beside = stage_of(meets), stage_of(misses)
    # claim 2: every stage field but the solved one is the input's
    given = {"sampling_rate": 0, "noise_multiplier": 1, "steps": 2}
    for name, place in given.items():
        if name in inp:
            assert at[place] == beside[place] == mpq(inp[name]), name
    # claims 3 and 4
    assert mpq(meets["result"]["points"][0]["upper"]) <= delta
    assert mpq(misses["result"]["points"][0]["lower"]) > delta
    # claim 5: the neighbours
    if solve == "noise_multiplier":
        sigma, below = mpq(res["noise_multiplier"]), mpq(res["noise_multiplier_below"])
        assert (at[1], beside[1]) == (sigma, below)
        assert below < sigma <= below * (1 + mpq(inp["precision"]))
    elif solve == "sampling_rate":
        q, above = mpq(res["sampling_rate"]), mpq(res["sampling_rate_above"])
        assert (at[0], beside[0]) == (q, above)
        assert q < above <= min(1, q * (1 + mpq(inp["precision"])))
    else:
        assert "precision" not in inp and "steps" not in inp
        assert (at[2], beside[2]) == (res["steps"], res["steps_above"])
        if solve == "steps":
            assert res["steps_above"] == res["steps"] + 1
        else:
            assert res["epochs_above"] == res["epochs"] + 1
    # claim 6: the training conversion
    if "training" in inp:
        assert solve in ("noise_multiplier", "epochs")
        t = inp["training"]
        run = TrainingRun(t["batch_size"], t["dataset_size"], t.get("epochs"), t["counting"])
        assert mpq(inp["sampling_rate"]) == mpq(run.sampling_rate.numerator, run.sampling_rate.denominator)
        if solve == "noise_multiplier":
            assert inp["steps"] == run.steps
        else:
            assert "epochs" not in t
            assert (res["steps"], res["steps_above"]) == (run.steps_after(res["epochs"]),
                                                           run.steps_after(res["epochs_above"]))
    return at, beside


def _single(embedded_input):
    (stage,) = embedded_input["stages"]
    return dict(sampling_rate=stage["sampling_rate"], noise_multiplier=stage["noise_multiplier"],
                steps=stage["steps"], epsilons=embedded_input["epsilons"], rel_width=embedded_input["rel_width"])


def gaussian_delta(noise, steps, epsilon):
    """δ(ε) of T steps of the Gaussian mechanism (q = 1): μ = sqrt(T)/σ, in mpmath at 50 digits."""
    with mpmath.workdps(50):
        mu = mpmath.sqrt(steps) / mpmath.mpf(noise.numerator) * noise.denominator
        e = mpmath.mpf(epsilon)
        return mpmath.ncdf(mu / 2 - e / mu) - mpmath.exp(e) * mpmath.ncdf(-mu / 2 - e / mu)


# ---- the references ----

def test_there_are_three_references_one_of_each_search():
    solves = sorted(_load(p)["input"]["solve"] for p in REFERENCES)
    assert solves == ["epochs", "noise_multiplier", "sampling_rate"]


@pytest.mark.parametrize("path", REFERENCES, ids=lambda p: p.name)
def test_each_reference_holds_its_claims(path):
    check(_load(path))


@pytest.mark.parametrize("path", REFERENCES, ids=lambda p: p.name)
def test_the_crossing_is_real_at_a_narrower_width(path):
    """δ(ε) at the two values recomputed by producer.dpsgd at half the embedded width, not by the search."""
    cert = _load(path)
    delta, epsilon = mpq(cert["input"]["delta"]), cert["input"]["epsilon"]
    for name, side in (("meets", MEETS), ("misses", MISSES)):
        q, sigma, steps = stage_of(cert["result"][name])
        width = mpq(cert["result"][name]["input"]["rel_width"]) / 2
        point = producer.dpsgd(q, sigma, steps, epsilons=[epsilon], rel_width=width).result["points"][0]
        if side == MEETS:
            assert mpq(point["upper"]) <= delta
        else:
            assert mpq(point["lower"]) > delta


def test_the_embedded_certificates_verify_with_the_auditor(tmp_path):
    from auditor.cli import verify_file
    for path in REFERENCES:
        for name in ("meets", "misses"):
            out = tmp_path / f"{path.stem}-{name}.json"
            out.write_bytes(render(_load(path)["result"][name]))
            status, report = verify_file(str(out))
            assert status == 0, report.failures


def test_the_noise_reference_regenerates_byte_identically(tmp_path):
    from producer.references import dpsgd as references
    name = "dpsgd-calibration-noise-b100-n10000-e10-eps2-delta1e-5.json"
    (written,) = references.generate(str(tmp_path), {name})
    assert Path(written).read_bytes() == (FOLDER / name).read_bytes()


@pytest.mark.slow
def test_every_reference_regenerates_byte_identically(tmp_path):
    from producer.references import dpsgd as references
    names = {p.name for p in REFERENCES}
    for written in references.generate(str(tmp_path), names):
        assert Path(written).read_bytes() == (FOLDER / Path(written).name).read_bytes()


@pytest.mark.skipif(not SCHEMA.exists(), reason="the auditor side of dpsgd-calibration/1 is not merged yet")
def test_the_references_are_schema_valid_and_the_auditor_says_ok():
    import jsonschema
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    for path in REFERENCES:
        jsonschema.validate(_load(path), schema)
    done = subprocess.run([sys.executable, "-m", "auditor", "verify", *map(str, REFERENCES)], cwd=ROOT,
                          capture_output=True, text=True, timeout=HANG_GUARD_SECONDS)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.skipif(not SCHEMA.exists(), reason="the auditor side of dpsgd-calibration/1 is not merged yet")
@pytest.mark.parametrize("path", REFERENCES, ids=lambda p: p.name)
def test_the_budget_estimate_is_the_auditors(path):
    from producer.audit_budget import cost_of
    from tests.producer.kinds.edges import auditor_estimate
    cert = _load(path)
    cost = cost_of(cert)
    assert (cost.work, cost.memory) == auditor_estimate(cert)


def test_the_claim_line_names_the_answer_and_its_neighbour():
    cert = _load(FOLDER / "dpsgd-calibration-noise-b100-n10000-e10-eps2-delta1e-5.json")
    assert kind.claim(cert) == (
        "noise multiplier σ = 0.9596 suffices (δ(2) ≤ 9.861378203e-06 ≤ 1e-05), σ = 0.9587 does not "
        "(δ(2) ≥ 1.010957930e-05 > 1e-05); a crossing of the relative grid 0.001, not a minimality claim: "
        "DP-SGD with q = 0.01, T = 1000 (batch 100 of 10000, 10 epochs, tf-privacy step counting), ε = 2 at "
        "δ = 1e-05 (Poisson-subsampled Gaussian, sensitivity 1, add/remove)")


def test_the_auditor_budget_counts_both_embedded_certificates():
    cert = _load(FOLDER / "dpsgd-calibration-noise-b100-n10000-e10-eps2-delta1e-5.json")
    cost = kind.auditor_cost(cert)
    parts = [dpsgd.auditor_cost(cert["result"][n]) for n in ("meets", "misses")]
    assert cost.work == sum(p.work for p in parts) and cost.memory == max(p.memory for p in parts)


# ---- fresh answers (fast: the Gaussian route, or few steps) ----

def test_steps_on_the_gaussian_route_against_the_closed_form():
    """q = 1, σ = 10, ε = 1, δ = 10^-5: T = 7 meets and 8 misses; mpmath's closed form agrees."""
    cert = producer.dpsgd_steps(1, "1e-5", sampling_rate=1, noise_multiplier=10).as_dict()
    check(cert)
    res = cert["result"]
    assert (res["steps"], res["steps_above"]) == (7, 8)
    assert gaussian_delta(mpq(10), 7, 1) <= mpmath.mpf("1e-5") < gaussian_delta(mpq(10), 8, 1)


def test_the_noise_multiplier_on_the_gaussian_route_against_the_closed_form():
    cert = producer.noise(1, "1e-5", sampling_rate=1, steps=20).as_dict()
    at, beside = check(cert)
    assert gaussian_delta(at[1], 20, 1) <= mpmath.mpf("1e-5") < gaussian_delta(beside[1], 20, 1)
    assert cert["result"]["noise_multiplier"] == "1669/100"


def test_floats_are_read_as_their_shortest_decimal():
    cert = producer.noise(1.0, 1e-5, sampling_rate=0.05, steps=2e1)
    assert (cert.input["sampling_rate"], cert.input["steps"], cert.input["delta"]) == ("1/20", 20, "1/100000")
    check(cert.as_dict())


@pytest.mark.parametrize("counting, q, steps", [("tf-privacy", "8/125", (188, 204)), ("opacus", "1/16", (192, 208))])
def test_epochs_record_the_training_conversion(counting, q, steps):
    """Batch 64 of 1000: TF Privacy counts q = 64/1000, T(E) = ⌈15.625·E⌉; Opacus q = 1/16, T(E) = 16·E."""
    cert = producer.dpsgd_steps(2, "1e-5", noise_multiplier=2, batch_size=64, dataset_size=1000,
                                counting=counting).as_dict()
    check(cert)
    inp, res = cert["input"], cert["result"]
    assert inp["training"] == {"batch_size": 64, "dataset_size": 1000, "counting": counting}
    assert inp["sampling_rate"] == q and inp["solve"] == "epochs"
    assert (res["epochs"], res["epochs_above"]) == (12, 13) and (res["steps"], res["steps_above"]) == steps


def test_the_noise_multiplier_from_training_terms_records_them():
    cert = producer.noise(1, "1e-5", batch_size=50, dataset_size=1000, epochs=1, counting="opacus").as_dict()
    check(cert)
    assert cert["input"]["training"] == {"batch_size": 50, "dataset_size": 1000, "epochs": 1, "counting": "opacus"}
    assert (cert["input"]["sampling_rate"], cert["input"]["steps"]) == ("1/20", 20)


def test_the_sampling_rate():
    cert = producer.dpsgd_sampling_rate(1, "1e-5", noise_multiplier=1, steps=10).as_dict()
    check(cert)
    assert (cert["result"]["sampling_rate"], cert["result"]["sampling_rate_above"]) == ("677/25000", "271/10000")


def test_progress_goes_to_the_callback_only(capsys):
    lines = []
    producer.dpsgd_steps(1, "1e-5", sampling_rate=1, noise_multiplier=10, progress=lines.append)
    assert capsys.readouterr() == ("", "")
    assert lines[0].startswith("solve steps; float estimate T = ") and any("-> meets" in line for line in lines)


@pytest.mark.slow
def test_the_issues_training_run():
    """Batch 256 of 60,000 for 60 epochs, ε = 3, δ = 10^-5 (TF Privacy's counting: T = 14063)."""
    cert = producer.noise(3, "1e-5", batch_size=256, dataset_size=60000, epochs=60).as_dict()
    check(cert)
    assert cert["input"]["steps"] == 14063 and cert["input"]["sampling_rate"] == "8/1875"


# ---- refusals ----

BAD = [
    (dict(solve="noise_multiplier", epsilon=-1, delta="1e-5", sampling_rate="0.01", steps=10), "epsilon: must be"),
    (dict(solve="noise_multiplier", epsilon=501, delta="1e-5", sampling_rate="0.01", steps=10), "limit 500"),
    (dict(solve="noise_multiplier", epsilon=1, delta=0, sampling_rate="0.01", steps=10), "0 < δ < 1"),
    (dict(solve="noise_multiplier", epsilon=1, delta="1e-31", sampling_rate="0.01", steps=10), "10^-30"),
    (dict(solve="noise_multiplier", epsilon=1, delta="1e-5", sampling_rate="0.01"), "steps: required"),
    (dict(solve="noise_multiplier", epsilon=1, delta="1e-5", steps=10), "give sampling_rate and steps, or"),
    (dict(solve="noise_multiplier", epsilon=1, delta="1e-5", sampling_rate="1e-8", steps=10), "below the limit 10^-7"),
    (dict(solve="noise_multiplier", epsilon=1, delta="1e-5", sampling_rate="1.5", steps=10), "(0, 1]"),
    (dict(solve="noise_multiplier", epsilon=1, delta="1e-5", sampling_rate="0.01", steps=10**6 + 1),
     "exceed the limit of 1000000"),
    (dict(solve="noise_multiplier", epsilon=1, delta="1e-5", sampling_rate="0.01", steps=10, precision=1),
     "0 < R < 1"),
    (dict(solve="noise_multiplier", epsilon=1, delta="1e-5", sampling_rate="0.01", steps=10, precision="1e-7"),
     "below the limit 10^-6"),
    (dict(solve="noise_multiplier", epsilon=1, delta="1e-5", batch_size=10, dataset_size=100), "epochs: required"),
    (dict(solve="noise_multiplier", epsilon=1, delta="1e-5", batch_size=10, dataset_size=100, epochs=1,
          sampling_rate="0.1"), "one of the two"),
    (dict(solve="noise_multiplier", epsilon=1, delta="1e-5", batch_size=1, dataset_size=10**8, epochs=1),
     "q = 1e-08 is below the limit"),
    (dict(solve="noise_multiplier", epsilon=1, delta="1e-5", batch_size=1, dataset_size=1000, epochs=1001),
     "epochs: T = 1001000 steps exceed"),
    (dict(solve="noise_multiplier", epsilon=1, delta="1e-5", batch_size=11, dataset_size=10, epochs=1),
     "batch_size: must be in [1, dataset_size]"),
    (dict(solve="noise_multiplier", epsilon=1, delta="1e-5", sampling_rate="0.01", steps=10, counting="opacus"),
     "counting: it says how"),
    (dict(solve="noise_multiplier", epsilon=1, delta="1e-5", sampling_rate="0.01", steps=10, epochs=3),
     "epochs: give batch_size and dataset_size"),
    (dict(solve="noise_multiplier", epsilon=1, delta="1e-5", batch_size=10, dataset_size=100, epochs=1,
          counting="jax"), "is not a step counting"),
    (dict(solve="steps", epsilon=1, delta="1e-5", sampling_rate="0.01", noise_multiplier=1, precision="0.01"),
     "omit precision"),
    (dict(solve="steps", epsilon=1, delta="1e-5", sampling_rate="0.01", noise_multiplier="0.05"), "[1/10, 100]"),
    (dict(solve="steps", epsilon=1, delta="1e-5", sampling_rate="0.01", noise_multiplier=1, steps=3),
     "steps: it is what is solved"),
    (dict(solve="steps", epsilon=1, delta="1e-5", noise_multiplier=1), "give sampling_rate, or batch_size"),
    (dict(solve="steps", epsilon=1, delta="1e-5", noise_multiplier=1, batch_size=10, dataset_size=100),
     "a training run answers the noise multiplier or the epochs"),
    (dict(solve="epochs", epsilon=1, delta="1e-5", noise_multiplier=1), "give both"),
    (dict(solve="epochs", epsilon=1, delta="1e-5", noise_multiplier=1, batch_size=1, dataset_size=10**8,
          counting="opacus"), "below the limit 10^-7"),
    (dict(solve="epochs", epsilon=1, delta="1e-5", noise_multiplier=1, batch_size=1, dataset_size=10**7,
          counting="opacus"), "epochs: one epoch is T = 10000000 steps"),
    (dict(solve="epochs", epsilon=1, delta="1e-5", noise_multiplier=1, batch_size=10, dataset_size=100, epochs=2),
     "epochs: they are what is solved"),
    (dict(solve="sampling_rate", epsilon=1, delta="1e-5", noise_multiplier=1), "steps: required"),
    (dict(solve="sampling_rate", epsilon=1, delta="1e-5", noise_multiplier=1, steps=10, batch_size=10,
          dataset_size=100), "a training run answers"),
    (dict(solve="learning_rate", epsilon=1, delta="1e-5"), "is not one of"),
    (dict(solve="sampling_rate", epsilon=1, delta="1e-5", noise_multiplier=1, steps="1.5"), "not an integer"),
]


@pytest.mark.parametrize("fields, words", BAD, ids=lambda v: v if isinstance(v, str) else None)
def test_bad_input_is_refused_in_one_line_before_the_work(monkeypatch, fields, words):
    must_not_call(monkeypatch, kind.dpsgd, "build")
    fields = dict(fields)
    solve, epsilon, delta = fields.pop("solve"), fields.pop("epsilon"), fields.pop("delta")
    with pytest.raises(InputError) as info:
        kind.Request.from_strings(solve, epsilon, delta, **fields)
    message = str(info.value)
    assert words in message and "\n" not in message and "--" not in message, message


def test_the_epochs_range_ends_at_the_step_limit():
    """Batch 1 of 100,000 (q = 10^-5): 10 epochs are 10^6 steps, the most dpsgd/1 takes; batch 1 of 10^6: one."""
    for counting in ("tf-privacy", "opacus"):
        request = kind.Request.from_strings("epochs", 1, "1e-5", noise_multiplier=1, batch_size=1,
                                            dataset_size=100000, counting=counting)
        assert (request.bottom, request.top) == (-10, -1)
        request = kind.Request.from_strings("epochs", 1, "1e-5", noise_multiplier=1, batch_size=1,
                                            dataset_size=10**6, counting=counting)
        assert (request.bottom, request.top) == (-1, -1)
    request = kind.Request.from_strings("epochs", 1, "1e-5", noise_multiplier=1, batch_size=64, dataset_size=1000)
    most = -request.bottom
    assert request.training.steps_after(most) <= 10**6 < request.training.steps_after(most + 1)


def test_the_api_refuses_a_mixed_question_naming_the_arguments(monkeypatch):
    must_not_call(monkeypatch, kind.dpsgd, "build")
    with pytest.raises(InputError, match=r"^budget, gamma: a question of discrete noise .* \(sampling_rate, steps, "):
        producer.noise(1, "1e-5", 10, gamma="1/3", sampling_rate="0.01", steps=10)
    with pytest.raises(InputError, match="^laplace: "):
        producer.noise(1, "1e-5", laplace=True, batch_size=10, dataset_size=100, epochs=1)


@pytest.mark.parametrize("call, words", [
    (lambda: producer.noise(2, "1e-5", sampling_rate="1e-7", steps=10),
     "σ = 0.1, the smallest noise multiplier dpsgd/1 takes, already meets"),
    (lambda: producer.noise("0.1", "1e-10", sampling_rate=1, steps=10**6),
     "σ = 100, the largest noise multiplier dpsgd/1 takes, does not meet"),
    (lambda: producer.dpsgd_sampling_rate(2, "1e-5", noise_multiplier=10, steps=10),
     "q = 1, the largest sampling rate, already meets"),
    (lambda: producer.dpsgd_steps(500, "1e-5", sampling_rate=1, noise_multiplier=100),
     "T = 1000000, the most steps dpsgd/1 takes, already meets"),
    (lambda: producer.dpsgd_steps(1, "1e-5", sampling_rate=1, noise_multiplier=1),
     "T = 1, a single step, does not meet"),
    (lambda: producer.dpsgd_steps("0.01", "1e-10", noise_multiplier="0.5", batch_size=100, dataset_size=100),
     "E = 1 (T = 1), a single epoch, does not meet"),
])
def test_no_crossing_in_range_is_refused_in_one_line(call, words):
    with pytest.raises(LimitError) as info:
        call()
    message = str(info.value)
    assert words in message and "no crossing to certify" in message and "\n" not in message
    assert "producer." in message  # it names what answers instead


# ---- undecided points (a model of δ(ε) instead of dpsgd) ----

class Model:
    """δ(σ) = δ·(centre/σ)^30 enclosed to a given relative width, except at ``exact``, where δ(σ) = δ: no
    enclosure separates it.  Enclosures narrower than ``narrowest`` are refused as dpsgd refuses beyond its
    work limit.  Called as Request.probe(request, index, width)."""

    def __init__(self, centre="0.9687", exact=None, narrowest="1e-6"):
        self.centre, self.narrowest, self.widths = mpq(centre), mpq(narrowest), []
        self.exact = None if exact is None else mpq(exact)

    def __call__(self, request, index, width):
        self.widths.append(width)
        if width < self.narrowest:
            raise LimitError("the first attempt would need about 9e+10 work units")
        value = request.line.value(index)
        true = request.delta if value == self.exact else request.delta * (self.centre / value) ** 30
        half = true * width / 4
        return {"fake": str(value)}, true - half, true + half


def _noise_request(precision="1/1000"):
    return kind.Request.from_strings("noise_multiplier", 3, "1e-5", sampling_rate="8/1875", steps=14063,
                                     precision=precision)


def _search(request, model, monkeypatch, start=None):
    monkeypatch.setattr(kind.Request, "probe", lambda req, index, width: model(req, index, width))
    decide = kind.RunDecisions(request, lambda line: None)
    start = request.start() if start is None else start
    return decide, pair(decide, start, request.bottom, request.top, request.line, decide.guide)


def test_widths_narrow_only_as_far_as_a_point_needs(monkeypatch):
    request, model = _noise_request(), Model(centre="0.96875")
    decide, (miss, meet) = _search(request, model, monkeypatch)
    below, above = request.line.value(miss), request.line.value(meet)
    assert below < mpq("0.96875") < above <= below * mpq("1.001")
    assert max(model.widths) == mpq(1, 2) and min(model.widths) >= mpq(1, 10**4)


def test_an_undecided_grid_point_is_stepped_around_within_the_ratio(monkeypatch):
    """The crossing sits exactly on the grid point 0.9687, where the search starts: its neighbours answer."""
    request, model = _noise_request(), Model(exact="0.9687")
    u = request.line.index_of(mpq("0.9687"))
    decide, (miss, meet) = _search(request, model, monkeypatch, start=u)
    assert (miss, meet) == (u - 1, u + 1)
    assert request.line.value(meet) <= request.line.value(miss) * mpq("1.001")
    with pytest.raises(Undecided, match="straddles δ = 1e-05 at dpsgd's narrowest relative width 10"):
        decide(u)


def test_an_undecided_point_beyond_the_work_limit_says_why(monkeypatch):
    request, model = _noise_request(), Model(exact="0.9687", narrowest="1/100")
    monkeypatch.setattr(kind.Request, "probe", lambda req, index, width: model(req, index, width))
    decide, u = kind.RunDecisions(request, lambda line: None), request.line.index_of(mpq("0.9687"))
    with pytest.raises(Undecided) as info:
        decide(u)
    assert "relative width in reach" in info.value.reason and "9e+10 work units" in info.value.reason


def test_an_undecided_count_is_refused_in_one_line(monkeypatch):
    """T and T + 1 have no room: an undecided T at the crossing is said, naming it, not stepped around."""
    request = kind.Request.from_strings("steps", 2, "1e-5", sampling_rate="0.01", noise_multiplier=1)

    def probe(req, index, width):
        steps, delta = req.line.value(index), req.delta
        true = delta if steps == 1202 else delta * mpq(steps, 1202) ** 5
        return {}, true * (1 - width / 4), true * (1 + width / 4)
    monkeypatch.setattr(kind.Request, "probe", probe)
    with pytest.raises(LimitError) as info:
        kind.build(request)
    message = str(info.value)
    assert message.startswith("steps: at T = 1202 δ(2) ∈ [") and "no crossing is certified beside it" in message
    assert "\n" not in message


def test_a_ratio_line_too_coarse_to_step_around_asks_for_another_precision(monkeypatch):
    """At R = 1/10 the grid's neighbours of 1 (0.99 and 1.1) lie more than 1 + R apart."""
    request = kind.Request.from_strings("noise_multiplier", 3, "1e-5", sampling_rate="8/1875", steps=14063,
                                        precision="1/10")
    model = Model(centre=1, exact=1)
    monkeypatch.setattr(kind.Request, "probe", lambda req, index, width: model(req, index, width))
    with pytest.raises(LimitError) as info:
        kind.build(request)
    message = str(info.value)
    assert message.startswith("noise_multiplier: at σ = 1 ") and message.endswith("ask for another precision)")


@pytest.mark.parametrize("lower, upper, width, expected", [
    ("9e-6", "11e-6", "1/2", "1/100"),           # a wide enclosure (18 %): a decade below its own width
    ("0.99e-5", "1.03e-5", "1/50", "1/200"),     # the midpoint 0.99 % away: the short decimal below it
    ("0.999999e-5", "1.0000011e-5", "1/1000", "1e-6"),
    ("0.999999e-5", "1.0000011e-5", "1e-6", None),
])
def test_next_width(lower, upper, width, expected):
    got = kind.next_width(mpq(lower), mpq(upper), mpq("1e-5"), mpq(width))
    assert got == (None if expected is None else mpq(expected))


@pytest.mark.parametrize("width, expected", [("1e-6", "2e-6"), ("2e-4", "5e-4"), ("5e-4", "1e-3"), ("1/50", "1/20"),
                                             ("1/2", "1")])
def test_wider_is_the_next_short_decimal(width, expected):
    assert kind.wider(mpq(width)) == mpq(expected)


def test_a_width_beyond_the_work_limit_is_followed_by_wider_ones(monkeypatch):
    """δ(ε) 0.3 % above δ, enclosures of half the asked width, widths below 1/100 refused: after 1/50 straddles,
    1/500 and 1/200 are refused (before any work) and 1/100 decides."""
    request, widths = _noise_request(), []

    def probe(req, index, width):
        widths.append(width)
        if width < mpq(1, 100):
            raise LimitError("the first attempt would need about 9e+10 work units; ask for a larger rel_width")
        true = req.delta * mpq("1.003")
        return {}, true * (1 - width / 4), true * (1 + width / 4)
    monkeypatch.setattr(kind.Request, "probe", probe)
    assert kind.RunDecisions(request, lambda line: None)(0) == MISSES
    assert widths == [mpq(1, 2), mpq(1, 50), mpq(1, 500), mpq(1, 200), mpq(1, 100)]


def test_a_point_straddling_at_the_narrowest_width_in_reach_is_undecided(monkeypatch):
    request = _noise_request()

    def probe(req, index, width):
        if width < mpq(1, 100):
            raise LimitError("the first attempt would need about 9e+10 work units; ask for a larger rel_width")
        true = req.delta * mpq("1.001")
        return {}, true * (1 - width / 4), true * (1 + width / 4)
    monkeypatch.setattr(kind.Request, "probe", probe)
    with pytest.raises(Undecided) as info:
        kind.RunDecisions(request, lambda line: None)(0)
    assert "at the narrowest relative width in reach, 0.01" in info.value.reason
    assert "9e+10 work units" in info.value.reason and "rel_width" not in info.value.reason
