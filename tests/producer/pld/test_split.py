"""The split of the single step by tail steps (producer.pld.split): its remainder, its parts, and whole answers."""

import math
from fractions import Fraction

import mpmath as mp
import pytest
from gmpy2 import mpq
from hypothesis import given, settings
from hypothesis import strategies as st

from producer.kinds.dpsgd import Request, parse_stage
from producer.pld import composition as comp
from producer.pld import enclose, search, split
from producer.pld.enclose import certify
from tests.producer.pld import reference as ref


@settings(max_examples=60, deadline=None)
@given(st.integers(3, 40), st.fractions(0, Fraction(1, 20)), st.fractions(0, Fraction(1, 10**3)),
       st.integers(40, 60))
def test_the_remainder_bounds_the_patterns_with_two_tail_steps_or_more(steps, m, x, bits):
    """Σ_{k>=2} C(T,k)·m^k·b^(T−k), with b + m the array's total, lies below the remainder (exact sums)."""
    total_units = (1 << bits) + math.floor(x * (1 << bits))
    tail_units = math.floor(m * (1 << bits))
    bound = split.remainder(steps, tail_units, total_units, bits)
    m_, s = Fraction(tail_units, 1 << bits), Fraction(total_units, 1 << bits)
    exact = sum(math.comb(steps, k) * m_ ** k * (s - m_) ** (steps - k) for k in range(2, steps + 1))
    if (steps - 2) * (s - 1) > 1:
        assert bound is None
    else:
        assert exact <= bound


def test_the_remainder_is_refused_where_the_excess_is_too_large():
    assert split.remainder(10**6, 1, (1 << 40) + (1 << 30), 40) is None
    assert split.remainder(3, 0, 1 << 40, 40) == 0


@pytest.mark.parametrize("body, to_body", [((2, 5), True), ((2, 5), False), ((0, 9), True), ((-3, 4), False)])
def test_body_and_tail_partition_an_array(body, to_body):
    values, offset, atom = [3, 1, 4, 1, 5, 9, 2, 6, 5, 3], 0, 7
    first, kept, kept_atom = split.body_of(values, offset, atom, body, to_body)
    tail_first, tail, tail_atom = split.tail_of(values, offset, atom, body, to_body)
    whole = [0] * len(values)
    for k, v in enumerate(kept):
        whole[first - offset + k] += v
    for k, v in enumerate(tail):
        whole[tail_first - offset + k] += v
    assert whole == values and kept_atom + tail_atom == atom
    assert all(body[0] <= first + k <= body[1] for k in range(len(kept)))


def test_a_body_outside_the_array_is_none():
    assert split.body_of([1, 2], 0, 0, (5, 9), True) is None


@pytest.mark.parametrize("forward", [True, False])
def test_the_chosen_tail_holds_at_most_the_allowance(forward):
    values = [1, 2, 4, 8, 16, 8, 4, 2, 1, 1]
    array = comp.Array(-3, values, 0)
    a, b = split.choose(array, 0, 7.5, forward)
    tail = [v for k, v in enumerate(values) if not a <= k - 3 <= b]
    assert sum(tail) <= 7.5 and a <= b
    assert (b == array.last) != forward and (a == array.offset) == forward


@pytest.mark.parametrize("ratio, allowance", [(8, 1e-6), (64, 1e-9), (4, 1e-30)])
def test_the_cut_is_the_least_multiple_of_the_ratio_whose_tail_is_light_enough(ratio, allowance):
    law = parse_stage("1/50:1x100").law
    h, (lo, hi) = mpq(1, 2000), law.index_range(2000, 1e-40)
    c = split.cut(law, h, lo, hi, ratio, allowance)
    if c is None:
        assert float(law.upper_tail(mpq(-(-hi // ratio) * ratio - ratio) * h)[0].mid()) > allowance
        return
    assert c % ratio == 0 and lo < c < hi
    assert float(law.upper_tail(c * h)[0].mid()) <= allowance
    assert c - ratio <= lo or float(law.upper_tail((c - ratio) * h)[0].mid()) > allowance


def _points(stages, epsilons, rel="1/200"):
    parsed = [parse_stage(s) for s in stages]
    return certify(Request(parsed, epsilons=[mpq(e) for e in epsilons], rel_width=mpq(rel)), route="pld")


def _fine_tail(monkeypatch):
    """Make every split cut its tail from the fine single-step arrays (no coarse tail)."""
    monkeypatch.setattr(enclose._Attempt, "_coarse_split", lambda self, lo, hi: False)


@pytest.mark.parametrize("coarse", [True, False])
@pytest.mark.parametrize("stages,epsilons", [(["1:2x201"], ["1", "3", "6"]), (["1:3x1001"], ["1/2", "2"])])
def test_split_gaussian_powers_enclose_the_closed_form(stages, epsilons, coarse, monkeypatch):
    """The split forced on powers too cheap to take it by default: δ(ε) of the Gaussian mechanism, enclosed,
    with the tail's masses on the cross term's grid (the default) and cut from the fine arrays."""
    monkeypatch.setattr(search, "REGRID_ABOVE", 0)
    if not coarse:
        _fine_tail(monkeypatch)
    out = _points(stages, epsilons, rel="1/5000")
    assert out.split is not None and out.regrids and out.split.coarse == coarse
    mu = mp.sqrt(sum(mp.mpf(s.steps) / mp.mpf(float(s.law.noise)) ** 2 for s in map(parse_stage, stages)))
    with mp.workdps(50):
        for p in out.points:
            truth = ref.gaussian_delta(mu, mp.mpf(p.epsilon.numerator) / p.epsilon.denominator)
            assert mp.mpf(p.lower.numerator) / p.lower.denominator <= truth
            assert truth <= mp.mpf(p.upper.numerator) / p.upper.denominator


@pytest.mark.parametrize("coarse", [True, False])
def test_split_and_whole_answers_of_a_subsampled_power_overlap(coarse, monkeypatch):
    """Both enclose the same δ(ε): the split's interval meets the whole step's, and both are narrow."""
    monkeypatch.setattr(search, "REGRID_ABOVE", 0)
    if not coarse:
        _fine_tail(monkeypatch)
    split_out = _points(["1/20:1x301"], ["1", "2"])
    monkeypatch.setattr(enclose, "uses_split", lambda sizing, plan: False)
    whole_out = _points(["1/20:1x301"], ["1", "2"])
    assert split_out.split is not None and split_out.split.coarse == coarse and whole_out.split is None
    for s, w in zip(split_out.points, whole_out.points):
        assert s.lower <= w.upper and w.lower <= s.upper
        assert s.upper - s.lower <= mpq(1, 200) * s.upper


def test_a_law_whose_ranges_hold_bucket_0_splits_with_a_fine_tail(monkeypatch):
    """Batches without replacement: every range of their masses holds bucket 0, so the tail is cut from the
    fine arrays, and the certificate verifies."""
    from auditor.api import verify_certificate
    from producer import api
    monkeypatch.setattr(search, "REGRID_ABOVE", 0)
    event = {"class_name": "SelfComposedDpEvent", "count": 201,
             "event": {"class_name": "SampledWithoutReplacementDpEvent", "source_dataset_size": 1000,
                       "sample_size": 20, "event": {"class_name": "GaussianDpEvent", "noise_multiplier": "1"}}}
    cert = api.account(event, delta="1e-5", neighboring_relation="replace_one").as_dict()
    assert "coarse_tail" not in cert["result"]["discretisation"]["split"]
    assert verify_certificate(cert).outcome == "OK"


def test_even_steps_are_split_and_stay_within_the_unsplit_interval(monkeypatch):
    """An even T composes the power of T − 1 (whose regrids differ from T's) and one product more."""
    monkeypatch.setattr(search, "REGRID_ABOVE", 0)
    split_out = _points(["1/20:1x300"], ["1"])
    monkeypatch.setattr(enclose, "uses_split", lambda sizing, plan: False)
    whole_out = _points(["1/20:1x300"], ["1"])
    assert split_out.split is not None and whole_out.split is None
    (s,), (w,) = split_out.points, whole_out.points
    assert s.lower <= w.upper and w.lower <= s.upper


SAMPLED_LAPLACE = {"class_name": "SelfComposedDpEvent", "count": 301,
                   "event": {"class_name": "PoissonSampledDpEvent", "sampling_probability": "1/10",
                             "event": {"class_name": "LaplaceDpEvent", "noise_multiplier": "1"}}}


SAMPLED_GAUSSIAN = {"class_name": "SelfComposedDpEvent", "count": 300,
                    "event": {"class_name": "PoissonSampledDpEvent", "sampling_probability": "1/50",
                              "event": {"class_name": "GaussianDpEvent", "noise_multiplier": "1"}}}


@pytest.mark.parametrize("kind, steps", [("dpsgd", 301), ("dpsgd", 300), ("accounting", 301), ("accounting", 300)])
def test_the_auditor_accepts_a_split_certificate_and_rejects_a_share_made_smaller(kind, steps, monkeypatch):
    """A whole certificate with a split (forced on a cheap power of odd or even T) verifies, and the producer's estimate
    of its audit is the auditor's; a share of the split two units below its written value fails, naming it."""
    import copy
    import json

    from auditor.api import verify_certificate
    from producer import api, audit_budget
    from tests.producer.kinds.edges import auditor_estimate
    from tests.reseal import reseal
    monkeypatch.setattr(search, "REGRID_ABOVE", 0)
    if kind == "dpsgd":
        cert = api.dpsgd(sampling_rate="1/50", noise_multiplier=1, steps=steps, delta="1e-5").as_dict()
    else:  # the sampled Laplace's tail holds too much mass for a coarse cut inside its range: a fine tail
        cert = api.account(SAMPLED_LAPLACE if steps == 301 else SAMPLED_GAUSSIAN, delta="1e-5").as_dict()
    coarse = kind == "dpsgd" or steps == 300
    assert cert["result"]["discretisation"]["split"].get("coarse_tail", False) == coarse
    assert verify_certificate(cert).outcome == "OK"
    cost = audit_budget.cost_of(cert)
    assert (cost.work, cost.memory) == auditor_estimate(cert)
    bad = copy.deepcopy(cert)
    b, d = bad["result"]["discretisation"]["split"]["shares"][0]
    bad["result"]["discretisation"]["split"]["shares"][0] = [str(int(b) - 2), d]
    report = verify_certificate(reseal(bad))
    assert report.outcome == "FAIL" and "split/shares/0/0" in json.dumps(report.as_dict())
