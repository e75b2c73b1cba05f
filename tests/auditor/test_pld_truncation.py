"""The truncated Poisson sampling (auditor/pld/truncation.py): t and p̂ against their definitions, the mixed masses,
and the reference certificate edited into wrong ones.  No producer code is used."""

import copy
import json
from fractions import Fraction
from math import comb
from pathlib import Path

import mpmath
import pytest
from gmpy2 import mpq

from auditor.api import verify_certificate
from auditor.claims import outward
from auditor.pld import truncation
from auditor.pld.pairs import SampledGaussian
from auditor.rationals import write_rational
from tests import reference_binomial
from tests.auditor.verdicts import disproved
from tests.reseal import reseal

ROOT = Path(__file__).resolve().parents[2]
REFERENCE = (ROOT / "certificates" / "accounting"
             / "accounting-truncated-poisson-gaussian-n60000-q256_60000-b300-s1_1-x1000-delta1e-5.json")


def _definitions(n, q, B):
    """t = P[K >= B] and p̄ = E[q·B/(K + 1) | K >= B], K ~ Binomial(n − 1, q), summed term by term."""
    q = Fraction(q)
    pmf = [comb(n - 1, k) * q ** k * (1 - q) ** (n - 1 - k) for k in range(n)]
    t = sum(pmf[B:], Fraction(0))
    return t, sum((pmf[k] * q * B / (k + 1) for k in range(B, n)), Fraction(0)) / t


def _ceiling(p):
    e = 64 + (p.denominator // p.numerator).bit_length()
    return Fraction(-((-p.numerator << e) // p.denominator), 1 << e)


@pytest.mark.parametrize("n, q, B", [(n, q, B) for n in (2, 3, 9, 30) for q in ("1/2", "1/7", "1", "0.83")
                                     for B in (1, 2, 4, 15, 29) if B <= n - 1])
def test_the_rate_and_the_weight_are_their_definitions(n, q, B):
    law = truncation.Truncation(n, mpq(q), B)
    t, pbar = _definitions(n, q, B)
    assert Fraction(int(law.conditional.numerator), int(law.conditional.denominator)) == _ceiling(pbar)
    for W in (60, 200):
        lo, hi = law.weight(W)
        assert lo <= t * 2 ** W <= hi and hi - lo <= 2


@pytest.mark.parametrize("n, q, B", [(10 ** 12, "1/1000000000", 1100), (10 ** 9, "0.000001", 900),
                                     (60000, "256/60000", 300), (3000, "0.4", 1700)])
def test_large_datasets_against_the_incomplete_beta_function(n, q, B):
    with mpmath.workprec(400):
        x = mpmath.mpf(Fraction(q).numerator) / Fraction(q).denominator
        t = mpmath.betainc(B, n - B, 0, x, regularized=True)
        pbar = mpmath.mpf(B) / n * mpmath.betainc(B + 1, n - B, 0, x, regularized=True) / t
        law = truncation.Truncation(n, mpq(q), B)
        lo, hi = law.weight(200)
        assert lo <= t * mpmath.mpf(2) ** 200 <= hi
        p_hat = mpmath.mpf(int(law.conditional.numerator)) / int(law.conditional.denominator)
        assert pbar <= p_hat <= pbar * (1 + mpmath.mpf(2) ** -63)


def test_the_short_sums_bound_the_work():
    assert truncation.sum_work(60000, mpq(256, 60000), 300) < truncation.MAX_SUM_WORK
    assert truncation.sum_work(10 ** 7, mpq(1, 2), 5 * 10 ** 6) > truncation.MAX_SUM_WORK
    assert truncation.sum_work(10, mpq(1, 2), 10) == 0
    assert not truncation.long_route(60000, mpq(256, 60000), 300)
    assert truncation.long_route(10 ** 7, mpq(1, 2), 5 * 10 ** 6) and not truncation.long_route(10 ** 7, 1, 5 * 10 ** 6)


# ---- large batches: the long route ------------------------------------------------------------------------------

@pytest.mark.parametrize("n, q, B", [(n, q, B) for n in (2, 3, 9, 30, 400) for q in ("1/2", "1/7", "0.83", "1/900")
                                     for B in (1, 2, 4, 15, 29, 150, 390) if B <= n - 1]
                         + [(2745, "129/500", 1263), (2000, "0.999", 1990)])
def test_the_long_route_is_the_definitions(n, q, B, monkeypatch):
    """Forced onto the long route (sums around the mode), t and p̂ are their definitions summed term by term; a
    tie (p̄ on the rounding grid) is decided only where an enclosure is exact, UNCHECKED otherwise."""
    from auditor.outcomes import Unchecked
    t, pbar = _definitions(n, q, B)
    monkeypatch.setattr(truncation, "EXACT_SUM_WORK", -1)
    try:
        law = truncation.Truncation(n, mpq(q), B)
    except Unchecked:
        assert _ceiling(pbar) == pbar
        return
    assert law.long
    assert Fraction(int(law.conditional.numerator), int(law.conditional.denominator)) == _ceiling(pbar)
    for W in (60, 200):
        lo, hi = law.weight(W)
        assert lo <= t * 2 ** W <= hi and hi - lo <= 2


@pytest.mark.parametrize("n, q, B", [(1_281_167, "32768/1281167", 33000), (1_281_167, "32768/1281167", 32500),
                                     (10 ** 8, "1/100", 10 ** 6 + 3000), (10 ** 9, "256/60000", 4_700_000),
                                     (10 ** 9, "256/60000", 4_200_000)])
def test_large_batches_against_a_reference(n, q, B):
    """Batches beyond the short sums' reach, against mpmath's binomial law at 300 bits (tests/reference_binomial)."""
    law = truncation.Truncation(n, mpq(q), B)
    assert law.long
    t, pbar = reference_binomial.tails(n, q, B)
    with mpmath.workprec(300):
        lo, hi = law.weight(200)
        assert lo - 1 <= t * mpmath.mpf(2) ** 200 <= hi + 1 and hi - lo <= 2
        p_hat = mpmath.mpf(int(law.conditional.numerator)) / int(law.conditional.denominator)
        assert pbar <= p_hat <= pbar * (1 + mpmath.mpf(2) ** -63)


@pytest.mark.parametrize("M, q, B", [(400, "1/7", 90), (400, "1/7", 40), (400, "1/7", 20), (1000, "0.83", 830),
                                     (1000, "0.83", 900), (1000, "0.83", 700), (60, "1/2", 59)])
@pytest.mark.parametrize("P", [44, 50, 80])
def test_the_long_routes_sums_enclose_their_definitions(M, q, B, P):
    """At a precision just above the stopping rule's 2^40 units the geometric bounds of the rest carry weight:
    every sum's enclosure must still hold its exact value (X ~ Binomial(M, q), r_k = P[X = k]/P[X = m])."""
    q = Fraction(q)
    pmf = [comb(M, k) * q ** k * (1 - q) ** (M - k) for k in range(M + 1)]
    m = (M + 1) * q.numerator // q.denominator
    a, c = q.numerator, q.denominator - q.numerator
    (Z, T, R) = truncation._from_mode(M, a, c, B, P)
    exact = [sum(pmf) / pmf[m], sum(pmf[B:]) / pmf[m], pmf[B] / pmf[m]]
    for (lo, hi), value in zip((Z, T, R), exact):
        assert lo <= value * 2 ** P <= hi
    if B * q.denominator >= (M + 1) * q.numerator:
        lo, hi = truncation._from_batch(M, a, c, B, P)
        assert lo <= sum(pmf[B:]) / pmf[B] * 2 ** P <= hi


def test_the_long_routes_precision_is_bounded(monkeypatch):
    from auditor.outcomes import Unchecked
    monkeypatch.setattr(truncation, "LONG_MAX_PRECISION", 100)
    with pytest.raises(Unchecked):
        truncation.Truncation(1_281_167, mpq(32768, 1_281_167), 33000)


def test_a_large_batch_verifies_and_a_wrong_rate_fails():
    """A producer certificate on the large-batch route (arb's incomplete beta) is OK in the auditor (its own sums);
    p̂ one unit low fails at the stage."""
    from producer.api import account
    event = {"class_name": "SelfComposedDpEvent", "count": 10, "event": {
        "class_name": "TruncatedSubsampledGaussianDpEvent", "dataset_size": 1_281_167,
        "sampling_probability": "32768/1281167", "truncated_batch_size": 33000, "noise_multiplier": "2"}}
    cert = account(event, delta="1e-5").as_dict()
    assert _verify(cert).outcome == "OK"
    stage = cert["result"]["stages"][0]["mechanism"]
    p_hat = Fraction(stage["conditional_sampling"])
    stage["conditional_sampling"] = write_rational(p_hat - Fraction(1, p_hat.denominator))
    r = _verify(cert)
    assert r.outcome == "FAIL" and any(f["pointer"].startswith("/result/stages") for f in r.failures), r.as_dict()


def test_the_masses_are_the_weighted_masses_of_the_two_sampled_gaussians():
    n, q, B, sigma = 40, mpq(1, 4), 11, mpq(3, 2)
    law = truncation.Truncation(n, q, B)
    pair = truncation.TruncatedGaussian(n, q, B, sigma, law.conditional)
    N, lo, hi, W = 30, -10, 60, 150
    Wt, p, qq, low, high = pair.bucket_masses(N, lo, hi, W, "/x")
    one = SampledGaussian(q, sigma).bucket_masses(N, lo, hi, W, "/x")
    two = SampledGaussian(law.conditional, sigma / 2).bucket_masses(N, lo, hi, W, "/x")
    t = _definitions(n, q, B)[0]
    for i in range(hi - lo):
        for mixed, a, b in ((p[i], one[1][i], two[1][i]), (qq[i], one[2][i], two[2][i])):
            for end, side in ((0, -1), (1, 1)):
                value = (1 - t) * Fraction(a[end], 2 ** one[0]) + t * Fraction(b[end], 2 ** two[0])
                assert side * (Fraction(mixed[end], 2 ** Wt) - value) >= -Fraction(4, 2 ** Wt)
    total_lo = sum(x[0] for x in p) + low[0][0] + high[0][0]
    total_hi = sum(x[1] for x in p) + low[0][1] + high[0][1]
    assert total_lo <= 2 ** Wt <= total_hi and total_hi - total_lo < 2 ** (Wt - 100)


# ---- the reference, edited -------------------------------------------------------------------------------------

def _cert():
    return json.loads(REFERENCE.read_text())


def _verify(cert):
    return verify_certificate(reseal(copy.deepcopy(cert)))


def _first_event(cert):
    return cert["input"]["event"]["events"][0]["event"]


def test_the_reference_verifies():
    r = _verify(_cert())
    assert r.outcome == "OK", r.as_dict()
    assert "truncated to 300 of 60000" in r.claim


@pytest.mark.parametrize("field, value", [("conditional_sampling", None), ("batch_size", 301),
                                          ("dataset_size", 60001), ("sampling", "1/235")])
def test_a_stage_that_is_not_the_trees_reading_fails(field, value):
    cert = _cert()
    stage = cert["result"]["stages"][0]["mechanism"]
    assert stage["mechanism"] == "truncated_gaussian"
    if value is None:   # p̂ one unit of its last bit lower: below p̄
        rate = Fraction(stage[field])
        value = str(rate - Fraction(1, rate.denominator))
    stage[field] = value
    r = _verify(cert)
    assert r.outcome == "FAIL" and any(f["pointer"] == "/result/stages/0/mechanism" for f in r.failures), r.as_dict()


@pytest.mark.parametrize("field, value", [("truncated_batch_size", 299), ("dataset_size", 59999),
                                          ("noise_multiplier", "6/5")])
def test_a_tree_edited_under_the_same_result_fails(field, value):
    cert = _cert()
    _first_event(cert)[field] = value
    r = _verify(cert)
    assert r.outcome == "FAIL" and any(f["pointer"].startswith("/result/stages") for f in r.failures), r.as_dict()


def test_an_interval_moved_below_the_truth_is_disproved():
    """[lo·(1 − 1/2000), lo]: within the width, its upper end the proved lower end (the truth lies above)."""
    cert = _cert()
    lo = Fraction(cert["result"]["epsilon_lo"])
    new_lo = lo * Fraction(1999, 2000)
    cert["result"].update(epsilon_lo=write_rational(new_lo), epsilon_hi=write_rational(lo),
                          epsilon_lo_display=outward(new_lo, 10)[0], epsilon_hi_display=outward(lo, 10)[1])
    r = _verify(cert)
    assert r.outcome == "FAIL" and disproved(r) == ["/result/epsilon_hi"], r.as_dict()


@pytest.mark.parametrize("edit, words", [
    (("relation", "replace_special"), "add_or_remove_one or replace_one only"),
    (("noise_multiplier", "1/10"), "noise_multiplier"),
    (("sampling_probability", "3/2"), "sampling_probability"),
    (("truncated_batch_size", -1), "truncated_batch_size"),
])
def test_outside_the_domain_is_malformed(edit, words):
    cert = _cert()
    field, value = edit
    if field == "relation":
        cert["input"]["relation"] = value
    else:
        _first_event(cert)[field] = value
    r = _verify(cert)
    assert r.outcome == "MALFORMED" and words in r.error, r.as_dict()


def test_a_replace_one_certificate_verifies_and_its_add_remove_reading_fails():
    """Under replace-one the components are the replace-one pairs (the auditor's own ReplaceGaussian); the same
    add/remove interval claimed under replace-one lies below the proved replace-one lower end: FAIL."""
    from producer.api import account
    event = {"class_name": "SelfComposedDpEvent", "count": 100, "event": {
        "class_name": "TruncatedSubsampledGaussianDpEvent", "dataset_size": 600,
        "sampling_probability": "1/20", "truncated_batch_size": 33, "noise_multiplier": "1"}}
    replace = account(event, delta="1e-5", neighboring_relation="replace_one").as_dict()
    assert _verify(replace).outcome == "OK"
    add_remove = account(event, delta="1e-5").as_dict()
    assert Fraction(add_remove["result"]["epsilon_hi"]) < Fraction(replace["result"]["epsilon_lo"])
    add_remove["input"]["relation"] = "replace_one"     # an add/remove interval claimed under replace-one
    r = _verify(add_remove)
    assert r.outcome == "FAIL", r.as_dict()


def test_a_poisson_sampling_of_it_is_malformed():
    cert = _cert()
    inner = cert["input"]["event"]["events"][0]
    inner["event"] = {"class_name": "PoissonSampledDpEvent", "sampling_probability": "1/2", "event": inner["event"]}
    r = _verify(cert)
    assert r.outcome == "MALFORMED" and "PoissonSampledDpEvent must wrap" in r.error, r.as_dict()


@pytest.mark.parametrize("edit, pointer", [
    (("dataset_size", 10 ** 12 + 1), "/dataset_size"),
    (("dataset_size", 10 ** 12), "/input/event"),    # with B = 5·10^11 and q = 1/2: the long route's sums
])
def test_beyond_the_limits_is_unchecked(edit, pointer):
    cert = _cert()
    field, value = edit
    _first_event(cert)[field] = value
    if value == 10 ** 12:
        _first_event(cert).update(truncated_batch_size=5 * 10 ** 11, sampling_probability="1/2")
    r = _verify(cert)
    assert r.outcome == "UNCHECKED", r.as_dict()
    assert any(pointer in u for u in [str(x) for x in r.unchecked]) or pointer in str(r.as_dict()), r.as_dict()


def test_the_exact_power_decides_the_rate_where_no_enclosure_does(monkeypatch):
    from auditor.outcomes import Unchecked
    expected = truncation.Truncation(3000, mpq(1, 1000), 7).conditional
    monkeypatch.setattr(truncation, "MAX_PRECISION", 8)
    assert truncation.Truncation(3000, mpq(1, 1000), 7).conditional == expected
    monkeypatch.setattr(truncation, "MAX_EXACT_BITS", 100)
    with pytest.raises(Unchecked):
        truncation.Truncation(3000, mpq(1, 1000), 7)
