"""The truncated Poisson sampling's pair (producer/pld/truncated.py): its weight t and rate p̂ against exact sums,
its masses against the two sampled Gaussians, and the pair against the mechanism it dominates, by quadrature."""

from fractions import Fraction
from math import comb

import mpmath
import pytest
from gmpy2 import mpq

from producer.pld.masses import step_masses
from producer.pld.subsampled_gaussian import SubsampledGaussian
from producer.pld.truncated import TruncatedSampledGaussian, truncation
from producer.sources.enclosures import working_precision
from tests import reference_binomial


def _pmf(m, q, k):
    return comb(m, k) * q ** k * (1 - q) ** (m - k)


def _brute(n, q, B):
    """(t, p̄) by the definitions: t = P[K >= B], p̄ = E[q·B/(K + 1) | K >= B], K ~ Binomial(n − 1, q)."""
    q = Fraction(q)
    t = sum((_pmf(n - 1, q, k) for k in range(B, n)), Fraction(0))
    pbar = sum((_pmf(n - 1, q, k) * q * B / (k + 1) for k in range(B, n)), Fraction(0)) / t
    return t, pbar


def _rounded_up(p):
    e = 64 + (p.denominator // p.numerator).bit_length()
    return Fraction(-((-p.numerator << e) // p.denominator), 1 << e)


CASES = [(n, q, B) for n in (2, 3, 7, 40) for q in ("1/2", "1/10", "1", "0.37") for B in (1, 2, 5, 20, 39)
         if n - 1 >= B]


@pytest.mark.parametrize("n, q, B", CASES)
def test_the_weight_and_the_rate_are_the_exact_sums(n, q, B):
    t, pbar = _brute(n, q, B)
    law = truncation(n, mpq(q), B)
    with working_precision(300):
        ball = law.weight(200)
        assert ball.contains(_arb(t)) and ball.rad() * _arb(Fraction(2) ** 200) < 1
    assert Fraction(int(law.conditional.numerator), int(law.conditional.denominator)) == _rounded_up(pbar)


def _arb(x):
    from producer.sources.enclosures import to_arb
    return to_arb(mpq(x.numerator, x.denominator))


def test_a_batch_the_others_never_fill_is_no_truncation():
    assert truncation(10, mpq(1, 2), 10) is None and truncation(10, mpq(0), 3) is None
    assert truncation(11, mpq(1, 2), 10) is not None


@pytest.mark.parametrize("n, q, B", [(10 ** 9, "0.0000011", 1200), (10 ** 9, "0.000001", 900),
                                     (60000, "0.004266666666666667", 256), (10 ** 6, "0.001", 1024)])
def test_large_datasets_against_mpmath(n, q, B):
    """t and p̄ at high precision by mpmath's regularised incomplete beta (an independent route)."""
    mpmath.mp.prec = 300
    qq = mpmath.mpf(Fraction(q).numerator) / Fraction(q).denominator
    t = mpmath.betainc(B, n - B, 0, qq, regularized=True)              # P[Binomial(n − 1, q) >= B]
    s = mpmath.betainc(B + 1, n - B, 0, qq, regularized=True)          # P[Binomial(n, q) >= B + 1]
    pbar = mpmath.mpf(B) / n * s / t
    law = truncation(n, mpq(q), B)
    with working_precision(300):
        ball = law.weight(120)
    assert abs(mpmath.mpf(str(ball.mid().str(60, radius=False))) - t) < mpmath.mpf(2) ** -100
    p_hat = mpmath.mpf(int(law.conditional.numerator)) / int(law.conditional.denominator)
    assert p_hat >= pbar and (p_hat - pbar) / pbar < mpmath.mpf(2) ** -62
    mpmath.mp.prec = 53


def test_the_masses_mix_the_two_sampled_gaussians():
    n, q, B, sigma = 50, mpq(1, 5), 12, mpq(3, 2)
    law = truncation(n, q, B)
    pair = TruncatedSampledGaussian(n, q, B, sigma, law.conditional)
    h, lo, hi = mpq(1, 40), -12, 80
    mixed = step_masses(pair, h, lo, hi, 200)
    one = step_masses(SubsampledGaussian(q, sigma), h, lo, hi, 200)
    two = step_masses(SubsampledGaussian(law.conditional, sigma / 2), h, lo, hi, 200)
    with working_precision(300):
        t = law.weight(200)
        for i in range(hi - lo):
            assert mixed.p[i].overlaps((1 - t) * one.p[i] + t * two.p[i])
            assert mixed.q[i].overlaps((1 - t) * one.q[i] + t * two.q[i])
        total_p = sum(mixed.p, mixed.p_low + mixed.p_high)
        total_q = sum(mixed.q, mixed.q_low + mixed.q_high)
        assert total_p.contains(1) and total_q.contains(1)
        assert total_p.rad() * _arb(Fraction(2) ** 150) < 1


def test_the_pair_is_the_labelled_mixture_of_its_parameters():
    law = truncation(60000, mpq(256, 60000), 300)
    pair = TruncatedSampledGaussian(60000, mpq(256, 60000), 300, mpq(11, 10), law.conditional)
    assert pair.parameters() == (mpq(60000), mpq(256, 60000), mpq(300), mpq(11, 10), law.conditional)
    assert pair.dominating_mu2 == 4 / mpq(11, 10) ** 2
    assert pair.audit_scale() == (law.conditional, mpq(11, 10))
    assert pair.audit_mass_units() == 320
    lo, hi = pair.index_range(100, 1e-12)
    assert lo == SubsampledGaussian(mpq(256, 60000), mpq(11, 10)).index_range(100, 1e-12)[0] and hi > 0


# ---- one step against quadrature: the pair's own δ(ε), and the mechanism's below it --------------------------

def _event(n, q, B, sigma):
    return {"class_name": "TruncatedSubsampledGaussianDpEvent", "dataset_size": n, "sampling_probability": q,
            "truncated_batch_size": B, "noise_multiplier": sigma}


def _mpf(x):
    x = Fraction(str(x))
    return mpmath.mpf(x.numerator) / x.denominator


@pytest.mark.parametrize("n, q, B, sigma", [(5, "1/2", 2, "1"), (12, "3/10", 3, "3/2"), (8, "9/10", 6, "2")])
def test_one_step_encloses_the_labelled_mixture_by_quadrature(n, q, B, sigma):
    """δ(ε) of the pair: max over the orders of (1 − t)·H(sampled Gaussian q, σ) + t·H(sampled Gaussian p̂, σ/2)."""
    from producer import api
    from tests.producer.pld import accounting_reference as ref
    cert = api.account(_event(n, q, B, sigma), epsilons="0,1/4,1,2")
    stage = cert.result["stages"][0]["mechanism"]
    assert stage["mechanism"] == "truncated_gaussian"
    t, _ = _brute(n, q, B)
    with mpmath.workdps(30):
        first = ref.gaussian(sigma, q)
        second = ref.gaussian(Fraction(sigma) / 2, stage["conditional_sampling"])
        for point in cert.result["points"]:
            eps = _mpf(point["epsilon"])
            truth = max((1 - _mpf(t)) * first.profile_by_integral(eps, o) + _mpf(t) * second.profile_by_integral(eps, o)
                        for o in (ref.FORWARD, ref.BACKWARD))
            assert _mpf(point["lower"]) <= truth <= _mpf(point["upper"]), (point["epsilon"], truth)


@pytest.mark.parametrize("n, q, B, sigma", [(5, "1/2", 2, "1"), (12, "3/10", 3, "3/2")])
def test_one_step_under_replace_one_encloses_the_labelled_mixture_of_replace_one_pairs(n, q, B, sigma):
    """Under replace-one: (1 − t)·H(replace-one sampled Gaussian q, σ) + t·H(replace-one sampled Gaussian p̂, σ/2)
    (a symmetric pair: both orders agree), by quadrature."""
    from producer import api
    from tests.producer.pld import accounting_reference as ref
    cert = api.account(_event(n, q, B, sigma), epsilons="0,1/4,1,2", neighboring_relation="replace_one")
    stage = cert.result["stages"][0]["mechanism"]
    assert stage["mechanism"] == "truncated_gaussian"
    t, _ = _brute(n, q, B)
    with mpmath.workdps(30):
        first = ref.gaussian(sigma, q, "replace_one")
        second = ref.gaussian(Fraction(sigma) / 2, stage["conditional_sampling"], "replace_one")
        for point in cert.result["points"]:
            eps = _mpf(point["epsilon"])
            truth = (1 - _mpf(t)) * first.profile_by_integral(eps, ref.FORWARD) \
                + _mpf(t) * second.profile_by_integral(eps, ref.FORWARD)
            assert _mpf(point["lower"]) <= truth <= _mpf(point["upper"]), (point["epsilon"], truth)


def _batches(others, q, B):
    """{sum of the batch: probability} of a truncated Poisson sampling of the records ``others`` (1-D
    contributions), by enumerating every kept set and every cut."""
    from itertools import combinations
    out = {}
    m = len(others)
    for mask in range(1 << m):
        kept = [others[i] for i in range(m) if mask >> i & 1]
        weight = Fraction(q) ** len(kept) * (1 - Fraction(q)) ** (m - len(kept))
        cuts = list(combinations(kept, B)) if len(kept) > B else [tuple(kept)]
        for cut in cuts:
            out[sum(cut)] = out.get(sum(cut), 0) + weight / len(cuts)
    return out


def _hockey(p, r, eps, sigma):
    """H_{e^ε}(P‖R) of two mixtures of N(μ, σ²) ({μ: weight}), by quadrature on a fine partition."""
    s = _mpf(sigma)
    a = mpmath.exp(_mpf(eps))

    p = [(_mpf(mu), _mpf(w)) for mu, w in p.items()]
    r = [(_mpf(mu), _mpf(w)) for mu, w in r.items()]

    def f(x):
        return max(mpmath.mpf(0), sum(w * mpmath.npdf(x, mu, s) for mu, w in p)
                   - a * sum(w * mpmath.npdf(x, mu, s) for mu, w in r))
    means = [mu for mu, _ in p + r]
    lo, hi = min(means) - 14 * s, max(means) + 14 * s
    return mpmath.quad(f, mpmath.linspace(lo, hi, 81))


@pytest.mark.parametrize("others, record", [([-1, -1, -1, -1], 1), ([-1, 1, -1, 0], 1),
                                            ([1, 1, 1, 1], Fraction(-1, 2))])
def test_the_mechanism_itself_lies_below_the_certified_upper_end(others, record):
    """Small datasets of 1-D contributions in [−1, 1]: the mechanism's δ(ε) at the neighbours with and without the
    record (both orders) is at most the certified upper end, as the pair dominates it."""
    from producer import api
    n, q, B, sigma = len(others) + 1, "1/2", 2, "1"
    cert = api.account(_event(n, q, B, sigma), epsilons="0,1/2,1")
    without = _batches(others, q, B)
    with_record = _batches(others + [record], q, B)
    with mpmath.workdps(15):
        for point in cert.result["points"]:
            eps = point["epsilon"]
            mechanism = max(_hockey(with_record, without, eps, sigma), _hockey(without, with_record, eps, sigma))
            assert mechanism <= _mpf(point["upper"]) * (1 + mpmath.mpf(10) ** -9), (eps, mechanism, point)


@pytest.mark.parametrize("others, record, replacement", [([-1, -1, -1, -1], 1, -1), ([-1, 1, -1, 0], 1, -1),
                                                         ([1, 1, 1, 1], Fraction(-1, 2), 1), ([0, 0, 0, 0], 1, -1),
                                                         ([-1, -1, 1, 1], 1, 0)])
def test_the_mechanism_under_replace_one_lies_below_the_certified_upper_end(others, record, replacement):
    """Small datasets of 1-D contributions in [−1, 1], a record replaced by another (both orders): the mechanism's
    δ(ε) is at most the replace-one certificate's upper end."""
    from producer import api
    n, q, B, sigma = len(others) + 1, "1/2", 2, "1"
    cert = api.account(_event(n, q, B, sigma), epsilons="0,1/2,1", neighboring_relation="replace_one")
    one, other = _batches(others + [record], q, B), _batches(others + [replacement], q, B)
    with mpmath.workdps(15):
        for point in cert.result["points"]:
            eps = point["epsilon"]
            mechanism = max(_hockey(one, other, eps, sigma), _hockey(other, one, eps, sigma))
            assert mechanism <= _mpf(point["upper"]) * (1 + mpmath.mpf(10) ** -9), (eps, mechanism, point)


def test_the_untruncated_pair_does_not_dominate_the_mechanism():
    """Why the truncated sampling has a pair of its own: at ε = 1 the mechanism above (four records of −1, the
    record +1) exceeds the upper end of the Poisson-sampled Gaussian it would be without the cut (a displaced
    record moves the sum by 2)."""
    from producer import api
    q, B, sigma = "1/2", 2, "1"
    plain = {"class_name": "PoissonSampledDpEvent", "sampling_probability": q,
             "event": {"class_name": "GaussianDpEvent", "noise_multiplier": sigma}}
    upper = _mpf(api.account(plain, epsilons="1").result["points"][0]["upper"])
    others = [-1, -1, -1, -1]
    with mpmath.workdps(15):
        mechanism = _hockey(_batches(others + [1], q, B), _batches(others, q, B), 1, sigma)
    assert mechanism > upper * mpmath.mpf("1.1")


def test_the_exact_power_decides_the_rate_where_no_ball_does(monkeypatch):
    """With the balls' precision capped below what decides the ceiling, the exact power decides it, the same way;
    beyond MAX_EXACT_BITS that is a refusal."""
    from producer.errors import LimitError
    from producer.pld import truncated
    expected = truncated.Truncation(3000, mpq(1, 1000), 7).conditional
    monkeypatch.setattr(truncated, "MAX_PRECISION", 8)
    assert truncated.Truncation(3000, mpq(1, 1000), 7).conditional == expected
    monkeypatch.setattr(truncated, "MAX_EXACT_BITS", 100)
    with pytest.raises(LimitError, match="could not be rounded"):
        truncated.Truncation(3000, mpq(1, 1000), 7)


# ---- large batches: the incomplete beta route ---------------------------------------------------------------

@pytest.mark.parametrize("n, q, B", [(n, q, B) for n, q, B in CASES if q != "1"]
                         + [(2745, "129/500", 1263), (3000, "1/1000", 7), (2000, "0.999", 1990)])
def test_the_incomplete_beta_route_is_the_exact_sums(n, q, B, monkeypatch):
    """Forced onto the large-batch route (arb's incomplete beta), t and p̂ are the definitions summed term by term
    (where p̄ is itself on the rounding grid, a tie, only an exact ball decides it; otherwise it is refused)."""
    from producer.pld import truncated
    t, pbar = _brute(n, q, B)
    monkeypatch.setattr(truncated, "EXACT_SUM_WORK", -1)
    try:
        law = truncated.Truncation(n, mpq(q), B)
    except truncated.LimitError as error:
        assert _rounded_up(pbar) == pbar and "could not be rounded" in str(error)
        return
    assert law.long
    with working_precision(300):
        ball = law.weight(200)
    with working_precision(2000):   # t itself, far finer than the ball
        assert ball.contains(_arb(t)) and ball.rad() * _arb(Fraction(2) ** 200) < 1
    assert Fraction(int(law.conditional.numerator), int(law.conditional.denominator)) == _rounded_up(pbar)


def test_a_far_tail_on_the_short_sums_is_decided_at_more_bits():
    """t ≈ 2^-420 (B 24 standard deviations above the mean): the ball of 1 − r·S₁ holds 0 at the first
    precisions, so p̄'s ball is infinite there; more bits decide it (an internal error before)."""
    law = truncation(2745, mpq(129, 500), 1263)
    assert not law.long
    assert Fraction(int(law.conditional.numerator), int(law.conditional.denominator)) == \
        _rounded_up(_brute(2745, "129/500", 1263)[1])


@pytest.mark.parametrize("n, q, B", [(1_281_167, "32768/1281167", 33000), (1_281_167, "32768/1281167", 32500),
                                     (10 ** 8, "1/100", 10 ** 6 + 3000)])
def test_large_batches_against_mpmath(n, q, B):
    """Batches beyond the short sums' reach, against an mpmath computation of the binomial law at 300 bits."""
    law = truncation(n, mpq(q), B)
    assert law.long
    t, pbar = reference_binomial.tails(n, q, B)
    with working_precision(300), mpmath.workprec(300):
        ball = law.weight(120)
        assert abs(mpmath.mpf(str(ball.mid().str(60, radius=False))) - t) < mpmath.mpf(2) ** -100
        p_hat = mpmath.mpf(int(law.conditional.numerator)) / int(law.conditional.denominator)
        assert p_hat >= pbar and (p_hat - pbar) / pbar < mpmath.mpf(2) ** -62


def test_a_tie_on_the_incomplete_beta_route_is_refused(monkeypatch):
    from producer.errors import LimitError
    from producer.pld import truncated
    monkeypatch.setattr(truncated, "LONG_MAX_PRECISION", 64)
    with pytest.raises(LimitError, match="could not be rounded"):
        truncated.Truncation(1_281_167, mpq(32768, 1_281_167), 33000)
