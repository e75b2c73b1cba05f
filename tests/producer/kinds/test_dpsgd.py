"""The dpsgd/1 kind: requests validated once, refusals before the work, schema, determinism, the claim line."""

import json
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
from gmpy2 import mpq

import producer
from producer import api
from producer.errors import InputError, LimitError
from producer.kinds import dpsgd as kind
from producer.references.dpsgd import REFERENCES
from producer.rationals import significant_outward
from tests.untimed import HANG_GUARD_SECONDS

ROOT = Path(__file__).resolve().parents[3]
SCHEMA = json.loads((ROOT / "schemas" / "dpsgd-1.schema.json").read_text(encoding="utf-8"))
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)


HEAVY = {"dpsgd-q0_01-s1-t10000-delta1e-5.json", "dpsgd-q0_01-s1-t1000-epsilons.json",
         "dpsgd-q0_01-s1-t1001-epsilons.json"}  # seconds each


@pytest.mark.parametrize("name", [name for name, _ in REFERENCES])
def test_reference_certificates_are_valid(name):
    VALIDATOR.validate(json.loads((ROOT / "certificates" / "dpsgd" / name).read_text(encoding="utf-8")))


@pytest.mark.parametrize("name", [pytest.param(name, marks=pytest.mark.slow) if name in HEAVY else name
                                  for name, _ in REFERENCES])
def test_reference_certificates_regenerate_byte_identically(name):
    again = producer.api.dpsgd(**dict(REFERENCES)[name])
    assert again.to_json() == (ROOT / "certificates" / "dpsgd" / name).read_bytes()


def test_schema_accepts_points_and_refuses_mixed_answers():
    cert = api.dpsgd("0.1", 1, 4, epsilons="1/2,1", rel_width="1/50").as_dict()
    VALIDATOR.validate(cert)
    cert["result"]["epsilon_hi"] = "1"
    assert not VALIDATOR.is_valid(cert)
    cert = api.dpsgd("0.1", 1, 4, delta="1e-5", rel_width="1/50").as_dict()
    del cert["input"]["delta"]
    assert not VALIDATOR.is_valid(cert)


def test_claims_hold_their_own_width_and_displays():
    cert = api.dpsgd("0.05", "0.9", 30, delta="1e-6", rel_width="1/200")
    res = cert.result
    lo, hi = mpq(res["epsilon_lo"]), mpq(res["epsilon_hi"])
    assert 0 < lo <= hi and hi - lo <= mpq(1, 200) * hi
    assert res["epsilon_lo_display"] == significant_outward(lo, 10, -1)
    assert res["epsilon_hi_display"] == significant_outward(hi, 10, +1)
    assert res["lower_order"] in ("remove", "add") and res["route"] == "pld"
    windows = res["discretisation"]["windows"]
    assert windows[res["lower_order"]]["lower"] is not None
    assert len(windows["remove"]["upper"]["stages"][0]) == 30 .bit_length() - 1 + bin(30).count("1") - 1


def test_same_request_same_bytes_from_python_and_the_command_line(tmp_path):
    out = tmp_path / "c.json"
    done = subprocess.run([sys.executable, "-m", "producer", "dpsgd", "--stage", "1/20:1x7", "--stage", "1/10:2x3",
                           "--epsilons", "1,2", "--rel-width", "1/100", "-o", str(out)],
                          cwd=ROOT, capture_output=True, text=True, timeout=HANG_GUARD_SECONDS)
    assert done.returncode == 0, done.stderr
    assert "for DP-SGD with q = 0.05, σ = 1, T = 7; q = 0.1, σ = 2, T = 3" in done.stderr.splitlines()[-1]
    again = producer.dpsgd(stages=["1/20:1x7", "1/10:2x3"], epsilons=[1, 2], rel_width="1/100")
    assert out.read_bytes() == again.to_json()
    assert again == api.dpsgd(stages=["0.05:1x7", "0.1:2x3"], epsilons="2,1", rel_width="0.01")


@pytest.mark.parametrize("kwargs,message", [
    (dict(sampling_rate="0", noise_multiplier=1, steps=1, delta="1e-5"), "q must lie in (0, 1]"),
    (dict(sampling_rate="1e-8", noise_multiplier=1, steps=1, delta="1e-5"), "below the limit 10^-7"),
    (dict(sampling_rate="0.1", noise_multiplier="0.05", steps=1, delta="1e-5"), "outside the limits [1/10, 100]"),
    (dict(sampling_rate="0.1", noise_multiplier=1, steps=0, delta="1e-5"), "at least 1"),
    (dict(sampling_rate="0.1", noise_multiplier=1, steps=10**6 + 1, delta="1e-5"), "limit of 1000000 steps"),
    (dict(sampling_rate="0.1", noise_multiplier=1, steps=1), "exactly one question"),
    (dict(sampling_rate="0.1", noise_multiplier=1, steps=1, delta="1e-5", epsilons="1"), "exactly one question"),
    (dict(sampling_rate="0.1", noise_multiplier=1, steps=1, delta="1e-31"), "below the limit 10^-30"),
    (dict(sampling_rate="0.1", noise_multiplier=1, steps=1, delta="1"), "(0, 1)"),
    (dict(sampling_rate="0.1", noise_multiplier=1, steps=1, epsilons="1,1"), "given twice"),
    (dict(sampling_rate="0.1", noise_multiplier=1, steps=1, epsilons="501"), "exceeds the limit 500"),
    (dict(sampling_rate="0.1", noise_multiplier=1, steps=1, epsilons="-1"), ">= 0"),
    (dict(sampling_rate="0.1", noise_multiplier=1, steps=1, delta="1e-5", rel_width="1e-7"), "[10^-6, 1/2]"),
    (dict(sampling_rate="0.1", noise_multiplier=1, delta="1e-5"), "give all three"),
    (dict(stages=["0.1:1x5"] * 17, delta="1e-5"), "limit of 16"),
    (dict(stages=["0.1:1x600000", "0.1:1x600000"], delta="1e-5"), "in all exceed the limit"),
    (dict(stages=["0.1x5"], delta="1e-5"), "form q:σxT"),
    (dict(stages=None, delta="1e-5"), "give a stage: sampling_rate, noise_multiplier and steps"),
    (dict(sampling_rate="0.1", noise_multiplier=1, steps=1, epsilons="1,,2"), "epsilons: an empty ε in '1,,2'"),
    (dict(sampling_rate="0.1", noise_multiplier=1, steps=1, epsilons="1,2,"), "epsilons: an empty ε in '1,2,'"),
    (dict(sampling_rate="0.1", noise_multiplier=1, steps=1, delta="1e-5", rel_width=0),
     "rel_width: must be positive, got 0"),
    (dict(sampling_rate="0.1", noise_multiplier=1, steps=1, delta="1e-5", rel_width="x"), "rel_width: 'x' is not"),
])
def test_bad_requests_name_the_value(kwargs, message):
    with pytest.raises(InputError) as info:
        api.dpsgd(**kwargs)
    assert message in str(info.value)


def test_work_beyond_the_limit_is_refused_before_the_work():
    with pytest.raises(LimitError, match="work limit"):
        kind.build(kind.Request.from_strings("0.02", "1", 10**6, delta="1e-5", rel_width="1e-6"))


def test_an_answer_far_beyond_the_epsilon_range_is_refused_before_the_work():
    with pytest.raises(LimitError, match="above the ε <= 600 the certified PLD reaches"):
        kind.build(kind.Request.from_strings("0.5", "0.5", 10**5, delta="1e-5"))


def _counted(monkeypatch, module, name):
    """Replace ``module.name`` by a wrapper that records every call's arguments (a work counter)."""
    calls, original = [], getattr(module, name)

    def counting(*args, **kwargs):
        calls.append(args)
        return original(*args, **kwargs)
    monkeypatch.setattr(module, name, counting)
    return calls


def _numbers(cert):
    res = cert.result
    if "points" in res:
        return [p[k] for p in res["points"] for k in ("epsilon", "lower", "upper")]
    return [res["epsilon_lo"], res["epsilon_hi"]]


def test_a_gaussian_epsilon_beyond_2000_is_refused_from_one_enclosure_at_2000(monkeypatch):
    """q = 1, σ = 1/2, T = 1000, δ = 10^-5 (ε(δ) about 2270): refused before the search, which was a TypeError."""
    from producer.pld import enclose
    calls = _counted(monkeypatch, enclose, "delta_enclosure")
    with pytest.raises(LimitError, match=r"ε\(1e-05\) lies above 2000, the largest ε a dpsgd/1 certificate"):
        kind.build(kind.Request.from_strings("1", "0.5", 1000, delta="1e-5"))
    assert 1 <= len(calls) <= 2 and all(args[1] == 2000 for args in calls)


def test_a_negligible_gaussian_point_costs_no_enclosure_and_every_number_is_short(monkeypatch):
    """σ = 100, T = 3: δ(10) and δ(500) are far below 10^-100, proved by the Chernoff bound on rationals;
    only ε = 0 is enclosed, and no number written has more than about 120 digits."""
    from producer.pld import enclose
    calls = _counted(monkeypatch, enclose, "delta_enclosure")
    cert = api.dpsgd("1", "100", 3, epsilons="0,10,500")
    assert [args[1] for args in calls] == [0]
    assert [p["upper"] for p in cert.result["points"][1:]] == ["1/1" + "0" * 100] * 2
    assert max(len(n) for n in _numbers(cert)) <= 120


def test_points_of_either_route_are_short_whatever_their_delta():
    """Near the floor 10^-100 (closed form) and far in the tail (pld, ε = 500): every number is short."""
    gaussian = api.dpsgd("1", "1", 1, epsilons="20,21,43/2,22")
    assert [p["lower"] == "0" for p in gaussian.result["points"]] == [False, False, False, True]
    assert max(len(n) for n in _numbers(gaussian)) <= 120
    pld = api.dpsgd("0.5", "0.5", 1, epsilons="0,1,100,500")
    assert all(mpq(p["upper"]) <= mpq(1, 10**30) for p in pld.result["points"][2:])
    assert max(len(n) for n in _numbers(pld)) <= 120


def test_an_unreachable_width_of_one_step_is_refused_before_any_mass(monkeypatch):
    """q = 10^-5, σ = 1/2, T = 1, ε = 0, 10^-6, 1, 5, 20: the width at ε = 10^-6 needs h <= about 10^-6 and
    ε = 20 a loss range of 13, over 10^7 buckets; refused before the first bucket mass (was 650 s)."""
    from producer.pld import enclose
    calls = _counted(monkeypatch, enclose, "step_masses")
    request = kind.Request.from_strings(stages=["0.00001:0.5x1"], epsilons="0,0.000001,1,5,20")
    with pytest.raises(LimitError, match=r"at ε = 1e-06 needs h = 1/\d+, which would need .* ask for rel_width="
                                         r"0\.02, or leave ε = 1e-06 out"):
        kind.build(request)
    assert calls == []


def test_one_step_with_every_epsilon_on_a_grid_point_takes_one_coarse_attempt(monkeypatch):
    from producer.pld import enclose
    calls = _counted(monkeypatch, enclose, "step_masses")
    cert = api.dpsgd(stages=["0.00001:0.5x1"], epsilons="0,1,5,20")
    assert len(calls) == 1 and cert.result["discretisation"]["grid"] == 4
    assert cert.result["points"][3]["upper_display"].endswith("e-39")


def test_a_single_step_grid_is_never_below_the_schemas_minimum():
    """ε = 3 and 17/3 are grid points of h = 1/3, but N >= 4: the next aligned grid, h = 1/6."""
    cert = api.dpsgd(stages=["0.99999:0.5x1"], epsilons="0,3,17/3", rel_width="1e-6").as_dict()
    VALIDATOR.validate(cert)
    assert cert["result"]["discretisation"]["grid"] == 6


def test_a_pld_epsilon_above_600_is_refused_before_the_work(monkeypatch):
    """q = 1/2, σ = 1/2, T = 850: ε(10^-5) is about 700 (the GDP estimate said 1220); two attempts, then a
    refusal, before."""
    from producer.pld import enclose
    calls = _counted(monkeypatch, enclose, "step_masses")
    with pytest.raises(LimitError, match="would be about 756 .* above the ε <= 600"):
        kind.build(kind.Request.from_strings("0.5", "0.5", 850, delta="1e-5"))
    assert calls == []


def test_command_line_refusal_is_one_line_with_exit_2():
    done = subprocess.run([sys.executable, "-m", "producer", "dpsgd", "--sampling-rate", "0.02", "--noise-multiplier",
                           "1", "--steps", "1000000", "--delta", "1e-5", "--rel-width", "1e-6"],
                          cwd=ROOT, capture_output=True, text=True, timeout=HANG_GUARD_SECONDS)
    assert done.returncode == 2 and done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1 and "work limit" in done.stderr


def test_gaussian_schedules_take_the_closed_form():
    cert = api.dpsgd(stages=["1:2x10", "1:4x16"], delta="1e-5")
    assert cert.result["route"] == "gaussian" and cert.result["discretisation"] is None
    assert cert.result["lower_order"] is None
    assert "Gaussian closed form" in cert.claim


def test_the_claim_line_states_every_requested_point():
    cert = api.dpsgd(stages=["1:2x10"], epsilons="1/2,1,2,4")
    assert cert.claim.count("δ(") == 4 and "more point" not in cert.claim
    for point in cert.result["points"]:
        assert f"[{point['lower_display']}, {point['upper_display']}]" in cert.claim


def _replay(attempt, outcome, order, side, perturb):
    """The chain of ``order``/``side`` from perturbed single-step arrays, with the certificate's windows."""
    from producer.pld import composition as comp
    plan, windows = outcome.plan, outcome.windows[order][side]
    if side == "upper":
        kinds, bits = [comp.UPPER], [plan.p_bits]
    else:
        kinds, bits = [comp.LOWER_P, comp.LOWER_Q], [plan.p_bits, plan.q_bits]
    powers = []
    for stage, bases, recorded in zip(attempt.stages, attempt.sides, windows["stages"]):
        base = bases[order][side]
        base = [perturb(base, comp.UPPER)] if side == "upper" else [perturb(b, k) for b, k in zip(base, kinds)]
        powers.append(comp.power(base, stage.steps, kinds, bits, comp.Windows(recorded=recorded),
                                 regrids=outcome.regrids))
    return comp.combine(powers, kinds, bits, comp.Windows(recorded=windows["combine"]))


def _checker_rounding(array, kind):
    """A checker whose enclosures round every third mass one unit the other way (up sides up, P down)."""
    from producer.pld import composition as comp
    step = -1 if kind == comp.LOWER_P else 1
    values = [max(0, v + step) if k % 3 == 0 else v for k, v in enumerate(array.values)]
    return comp.Array(array.offset, values, array.atom + (1 if kind != comp.LOWER_P else 0))


@pytest.mark.parametrize("stages, regrid", [(["1/20:1x50"], False), (["1/20:1x50"], True),
                                           (["1/100:1x300", "1/10:3/2x20"], False)])
def test_a_checker_rounding_some_masses_the_other_way_still_accepts(stages, regrid, monkeypatch):
    """The stored ends keep margins: replaying the recorded windows (and regrids, here forced on a cheap power,
    without the split that comes with them: the test below has it) from perturbed integers still certifies them."""
    from producer.pld import enclose, search
    from producer.pld.enclose import _Attempt, certify
    from producer.pld.inversion import LowerProfile, UpperProfile
    if regrid:
        monkeypatch.setattr(search, "REGRID_ABOVE", 0)
        monkeypatch.setattr(enclose, "uses_split", lambda sizing, plan: False)
    request = kind.Request([kind.parse_stage(s) for s in stages], delta=mpq(1, 10**5), rel_width=mpq(1, 500))
    outcome = certify(request)
    assert bool(outcome.regrids) == regrid
    attempt = _Attempt(request, outcome.plan, lambda message: None)
    attempt.prepare()
    assert attempt.ranges == outcome.ranges
    plan = outcome.plan
    attempt.compose_upper()
    attempt.compose_lower(outcome.lower_order)
    assert attempt.windows[outcome.lower_order]["lower"] == outcome.windows[outcome.lower_order]["lower"]
    slack = mpq(request.delta) / 2**32
    for order in ("forward", "backward"):
        (upper,) = _replay(attempt, outcome, order, "upper", _checker_rounding)
        checker = UpperProfile(upper, attempt.spacing, plan.p_bits, plan.p_bits + 128).value(outcome.epsilon_hi)
        assert checker <= request.delta
        # the margin's rounding part covers the checker's deviation (so the grid of ε is not what saves it)
        assert checker - attempt.upper[order].value(outcome.epsilon_hi) <= attempt.upper_margin(request.delta) - slack
    assert outcome.epsilon_lo > 0
    p, q = _replay(attempt, outcome, outcome.lower_order, "lower", _checker_rounding)
    checker = LowerProfile(p, q, attempt.spacing, plan.p_bits, plan.q_bits).value(outcome.epsilon_lo)
    assert checker > request.delta
    own = attempt.lower[outcome.lower_order][0].value(outcome.epsilon_lo)
    assert own - checker <= attempt.lower_margin(outcome.lower_order, outcome.epsilon_lo, request.delta) - slack


@pytest.mark.parametrize("value", [kind.MIN_RATE, kind.MIN_NOISE, kind.MAX_NOISE, kind.MAX_TOTAL_STEPS,
                                   kind.MIN_DELTA, kind.MAX_EPSILON, mpq(3, 10**4), mpq(7, 2), 1])
def test_limit_text_reads_back_as_the_constant(value):
    """Refusals and help text write the limits from the constants, so they cannot drift apart."""
    text = kind.limit_text(value)
    base, _, exponent = text.partition("^")
    read = mpq(10) ** int(exponent) if exponent else mpq(text)
    assert base in {"10", text} and read == value


def test_help_and_refusals_name_the_limits_of_the_constants():
    helped = subprocess.run([sys.executable, "-m", "producer", "dpsgd", "--help"], capture_output=True,
                            text=True, check=True).stdout
    assert f"{kind.RATE_LIMIT} <= q <= 1" in " ".join(helped.split())
    with pytest.raises(LimitError, match=f"limits \\{kind.NOISE_RANGE[:-1]}\\]"):
        api.dpsgd(sampling_rate="0.01", noise_multiplier="1/20", steps=10, delta="1e-5")


@pytest.mark.parametrize("coarse", [True, False])
def test_a_checker_rounding_some_masses_the_other_way_still_accepts_a_split(coarse, monkeypatch):
    """As above for a split single step (forced on a cheap power of odd T; its tail on the coarse grid, or cut
    from the fine arrays): the margins cover a checker whose single-step integers differ, through the body's
    power and T times the cross term."""
    from producer.pld import composition as comp
    from producer.pld import search
    from producer.pld.enclose import _Attempt, certify
    from producer.pld.split import SplitLower, SplitUpper
    from producer.pld.inversion import LowerProfile
    monkeypatch.setattr(search, "REGRID_ABOVE", 0)
    if not coarse:
        monkeypatch.setattr(_Attempt, "_coarse_split", lambda self, lo, hi: False)
    request = kind.Request([kind.parse_stage("1/20:1x51")], delta=mpq(1, 10**5), rel_width=mpq(1, 500))
    outcome = certify(request)
    assert outcome.split is not None and outcome.split.coarse == coarse and outcome.epsilon_lo > 0
    own = _Attempt(request, outcome.plan, lambda message: None)
    own.prepare()
    own.compose_upper()
    own.compose_lower(outcome.lower_order)
    checker = _Attempt(request, outcome.plan, lambda message: None)
    checker.prepare()
    assert checker.split.body == outcome.split.body
    parts = [checker.sides[0]] + ([checker.parts["tail"]] if coarse else [])
    for sides in (sides for part in parts for sides in part.values()):
        sides["upper"] = _checker_rounding(sides["upper"], comp.UPPER)
        sides["lower"] = tuple(_checker_rounding(a, k) for a, k in zip(sides["lower"], (comp.LOWER_P, comp.LOWER_Q)))
    plan, slack, steps = outcome.plan, mpq(request.delta) / 2**32, 51

    def replay(order, side, kinds, bits):
        recorded = iter(outcome.windows[order][side]["stages"][0])
        return checker._split_chain(order, side, kinds, bits, lambda arrays, weight: next(recorded))[0]

    for order in ("forward", "backward"):
        (whole,), cross = replay(order, "upper", [comp.UPPER], [plan.p_bits])
        profiles = [checker._upper_profile(whole, checker.spacing),
                    checker._upper_profile(cross[0], checker.spacing * outcome.split.factor)]
        value = SplitUpper(profiles, steps, checker._remainder(outcome.split, order)).value(outcome.epsilon_hi)
        assert value <= request.delta
        assert value - own.upper[order].value(outcome.epsilon_hi) <= own.upper_margin(request.delta) - slack
    order = outcome.lower_order
    (p, q), cross = replay(order, "lower", [comp.LOWER_P, comp.LOWER_Q], [plan.p_bits, plan.q_bits])
    profiles = [LowerProfile(p, q, checker.spacing, plan.p_bits, plan.q_bits),
                LowerProfile(*cross, checker.spacing * outcome.split.factor, plan.p_bits, plan.q_bits)]
    value = SplitLower(profiles, steps).value(outcome.epsilon_lo)
    assert value > request.delta
    mine = own.lower[order][0].value(outcome.epsilon_lo)
    assert mine - value <= own.lower_margin(order, outcome.epsilon_lo, request.delta) - slack
