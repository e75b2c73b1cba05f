"""Noise on the integers (producer/pld/discrete.py): the discrete Laplace pair against references computed
outside the engine in mpmath (sums of the pmf over the integers, convolutions of atom lists), atoms in their
exactly decided buckets, monotonicity, and dp_accounting's PLD (optional)."""

from fractions import Fraction

import mpmath as mp
import pytest
from gmpy2 import mpq
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import producer
from producer.pld.discrete import DiscreteGaussian, DiscreteLaplace, below, bucket
from producer.pld.masses import oriented
from producer.pld.mechanism import ORDERS
from producer.plain.outward import ball_lower, ball_upper
from producer.sources.enclosures import working_precision
from producer.references.accounting import poisson, repeat

ADD, REPLACE = "add_or_remove_one", "replace_one"


def _mp(value):
    value = Fraction(str(value))
    return mp.mpf(value.numerator) / value.denominator


def discrete_laplace(a, s):
    return {"class_name": "DiscreteLaplaceDpEvent", "noise_parameter": a, "sensitivity": s}


# ---- references, from the pmf alone --------------------------------------------------------------------

def _dlap_pmf(a):
    a = _mp(a)
    return lambda x: mp.tanh(a / 2) * mp.exp(-a * abs(x))


def _pair_pmf(a, s, q, relation):
    """(P, Q, window): the pair's pmfs on the integers (docs/accounting.md §4) and a window holding all but
    e^{-120} of both; replace-one is DLap centred at s against DLap centred at −s."""
    f, q = _dlap_pmf(a), _mp(q)
    width = int(120 / _mp(a)) + 2 * s + 2
    if relation == ADD:
        return (lambda x: (1 - q) * f(x) + q * f(x - s)), f, range(-width, width + 1)
    return (lambda x: f(x - s)), (lambda x: f(x + s)), range(-width, width + 1)


def one_step_delta(a, s, q, relation, epsilon):
    """max over both orders of Σ_x (A(x) − e^ε·B(x))₊, summed directly over the integers."""
    P, Q, xs = _pair_pmf(a, s, q, relation)
    e = mp.exp(_mp(epsilon))
    forward = mp.fsum(max(P(x) - e * Q(x), 0) for x in xs)
    backward = mp.fsum(max(Q(x) - e * P(x), 0) for x in xs)
    return max(forward, backward)


def _atoms(a, s, q, relation):
    """{k: (P, Q)}: the pmfs summed over the outputs x with N_d(x)/N(x) = e^{a·k} (k = |x| − |x − d| for the shifted
    pair), so the composed loss is a function of Σ k; P sampled as a mixture over the same groups."""
    P, Q, xs = _pair_pmf(a, s, q, relation)
    shift = s if relation == ADD else 2 * s
    out = {}
    for x in xs:
        y = x if relation == ADD else x + s  # replace-one: centred at −s and s, moved to 0 and 2s
        k = abs(y) - abs(y - shift)
        p, w = out.get(k, (mp.mpf(0), mp.mpf(0)))
        out[k] = (p + P(x), w + Q(x))
    return out


def composed_delta(a, s, q, relation, count, epsilon):
    """δ(ε) of ``count`` steps by brute-force convolution of the atom lists, both orders."""
    one, total = _atoms(a, s, q, relation), {(): (mp.mpf(1), mp.mpf(1))}
    for _ in range(count):
        nxt = {}
        for key, (p, w) in total.items():
            for k, (pk, wk) in one.items():
                new = tuple(sorted(key + (k,)))
                a0, b0 = nxt.get(new, (mp.mpf(0), mp.mpf(0)))
                nxt[new] = (a0 + p * pk, b0 + w * wk)
        total = nxt
    e = mp.exp(_mp(epsilon))
    forward = mp.fsum(max(p - e * w, 0) for p, w in total.values())
    backward = mp.fsum(max(w - e * p, 0) for p, w in total.values())
    return max(forward, backward)


def _points(event, epsilons, relation=ADD, rel_width="1/1000"):
    cert = producer.account(event, epsilons=epsilons, neighboring_relation=relation, rel_width=rel_width)
    return [(Fraction(p["epsilon"]), Fraction(p["lower"]), Fraction(p["upper"]))
            for p in cert.result["points"]]


def _sampled(q, event):
    return event if Fraction(q) == 1 else poisson(q, event)


ONE_STEP = [("1/2", 2, "1", ADD), ("1/3", 3, "1/10", ADD), ("1", 1, "1", REPLACE), ("1/10", 4, "1/2", ADD),
            ("2", 1, "9/10", ADD), ("1/4", 2, "1", REPLACE)]


@pytest.mark.parametrize("a,s,q,relation", ONE_STEP)
def test_one_step_encloses_the_direct_sum_over_the_integers(a, s, q, relation):
    with mp.workdps(40):
        for eps, lower, upper in _points(_sampled(q, discrete_laplace(a, s)), "0,1/4,1/2,1,2", relation):
            truth = one_step_delta(a, s, q, relation, eps)
            assert _mp(lower) - mp.mpf(10) ** -35 <= truth <= _mp(upper) + mp.mpf(10) ** -35, (eps, lower, truth, upper)


@pytest.mark.parametrize("a,s,q,relation,count", [("1/2", 2, "1", ADD, 3), ("1/3", 3, "1/5", ADD, 2),
                                                   ("1", 1, "1", REPLACE, 3), ("1/5", 2, "1/2", ADD, 3)])
def test_a_few_steps_enclose_the_convolution_of_the_atom_lists(a, s, q, relation, count):
    with mp.workdps(40):
        for eps, lower, upper in _points(repeat(count, _sampled(q, discrete_laplace(a, s))), "0,1/2,1,3", relation):
            truth = composed_delta(a, s, q, relation, count, eps)
            assert _mp(lower) - mp.mpf(10) ** -35 <= truth <= _mp(upper) + mp.mpf(10) ** -35, (eps, lower, truth, upper)


def test_the_delta_question_brackets_the_convolution():
    cert = producer.account(repeat(3, discrete_laplace("1/2", 2)), delta="1e-3")
    lo, hi = (Fraction(cert.result[k]) for k in ("epsilon_lo", "epsilon_hi"))
    with mp.workdps(40):
        assert composed_delta("1/2", 2, 1, ADD, 3, hi) <= mp.mpf(10) ** -3 < composed_delta("1/2", 2, 1, ADD, 3, lo)


# ---- the law as the engine sees it ----------------------------------------------------------------------

def _ball_contains(ball, truth):
    tol = mp.mpf(10) ** -45  # the window of the reference leaves out e^{-120}
    return _mp(Fraction(str(ball_lower(ball)))) - tol <= truth <= _mp(Fraction(str(ball_upper(ball)))) + tol


@pytest.mark.parametrize("a,s,q", [("1/2", 3, "1"), ("1/3", 4, "1/10"), ("2", 1, "1/2")])
def test_bucket_masses_are_the_atoms_of_the_pmf(a, s, q):
    law, h = DiscreteLaplace(mpq(a), s, s, mpq(q)), mpq(1, 7)
    lo, hi = law.index_range(7, 1e-30)
    m = law.masses(h, lo, hi, 256)
    with mp.workdps(60):
        atoms = _atoms(a, s, q, ADD)
        expected = {}
        for k, (p, w) in atoms.items():  # the bucket of log(1 − q + q·e^{a·k}), in mpmath
            value = mp.log(1 - _mp(q) + _mp(q) * mp.exp(_mp(a) * k))
            i = int(mp.floor(value / _mp(h))) if (k != 0 or _mp(q) == 1) else 0
            old = expected.get(i, (mp.mpf(0), mp.mpf(0)))
            expected[i] = (old[0] + p, old[1] + w)
        assert set(expected) <= set(range(lo, hi)) and min(expected) == lo and max(expected) == hi - 1
        for i in range(lo, hi):
            p, w = expected.get(i, (mp.mpf(0), mp.mpf(0)))
            assert _ball_contains(m.p[i - lo], p) and _ball_contains(m.q[i - lo], w), i
    assert m.p_low == 0 and m.q_low == 0 and m.p_high == 0 and m.q_high == 0


def test_an_atom_on_a_grid_point_lands_in_the_bucket_it_starts_and_inequality_1_holds():
    # q = 1, a = 1/2, d = 2: atoms at −1, 0, 1; on the grid h = 1/2 each is a grid level
    law, h = DiscreteLaplace(mpq(1, 2), 2, 2, 1), mpq(1, 2)
    assert law.buckets(h) == (-2, 0, 2)
    m = law.masses(h, *law.index_range(2, 1e-30), 128)
    for order in ORDERS:
        side = oriented(m, order)
        for j, (P, Q) in enumerate(zip(side.P, side.Q), start=side.lo):
            e_hi, e_lo = mp.exp(-(j + 1) * _mp(h)), mp.exp(-j * _mp(h))
            p_lo, q_hi = _mp(Fraction(str(ball_lower(P)))), _mp(Fraction(str(ball_upper(Q))))
            p_hi, q_lo = _mp(Fraction(str(ball_upper(P)))), _mp(Fraction(str(ball_lower(Q))))
            assert e_hi * p_lo <= q_hi * (1 + mp.mpf(10) ** -30) and q_lo <= e_lo * p_hi * (1 + mp.mpf(10) ** -30)


def test_sampled_buckets_are_exact_the_middle_atom_is_zero():
    # q < 1: the atom with ℓ₁ = 0 is exactly 0 (bucket 0 on every grid); the others are decided by enclosures
    assert bucket(mpq(1, 3), 0, mpq(1, 1000)) == 0
    assert not below(mpq(1, 3), 0, 0) and below(mpq(1, 3), -1, 0) and not below(mpq(1, 3), 1, 0)
    law = DiscreteLaplace(mpq(1, 2), 4, 4, mpq(1, 10))
    with mp.workdps(60):
        for j, i in enumerate(law.buckets(mpq(1, 50))):
            value = mp.log(mp.mpf(9) / 10 + mp.exp(mp.mpf(2 * j - 4) / 2) / 10)
            assert i == int(mp.floor(value * 50))


def test_the_replace_one_stage_is_the_shift_by_twice_the_sensitivity():
    (ours,) = producer.account(discrete_laplace("1/2", 3), epsilons="1", neighboring_relation=REPLACE) \
        .result["points"]
    (doubled,) = producer.account(discrete_laplace("1/2", 6), epsilons="1").result["points"]
    assert (ours["lower"], ours["upper"]) == (doubled["lower"], doubled["upper"])


# ---- monotone in a, s, q (checked across separately certified enclosures) ------------------------------

SETTINGS = settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
EPSILONS = "0,1/2,1,2"


@given(st.sampled_from([("1/5", "1/2"), ("1/2", "1"), ("1", "3")]), st.integers(1, 4), st.integers(1, 4),
       st.sampled_from(["1", "1/5"]))
@SETTINGS
def test_less_noise_never_lowers_delta(parameters, s, count, q):
    noisy, quiet = (_points(repeat(count, _sampled(q, discrete_laplace(a, s))), EPSILONS, rel_width="1/100")
                    for a in parameters)
    for (_, low, _), (_, _, up) in zip(noisy, quiet):
        assert low <= up


@given(st.sampled_from(["1/4", "1/2", "1"]), st.integers(1, 4), st.integers(1, 3), st.sampled_from(["1", "1/5"]))
@SETTINGS
def test_a_larger_sensitivity_never_lowers_delta(a, s, more, q):
    small, large = (_points(repeat(3, _sampled(q, discrete_laplace(a, t))), EPSILONS, rel_width="1/100")
                    for t in (s, s + more))
    for (_, low, _), (_, _, up) in zip(small, large):
        assert low <= up


@given(st.sampled_from(["1/4", "1"]), st.integers(1, 4), st.sampled_from([("1/100", "1/10"), ("1/10", "1/2"),
                                                                          ("1/2", "1")]))
@SETTINGS
def test_a_larger_sampling_probability_never_lowers_delta(a, s, rates):
    small, large = (_points(repeat(5, _sampled(q, discrete_laplace(a, s))), EPSILONS, rel_width="1/100")
                    for q in rates)
    for (_, low, _), (_, _, up) in zip(small, large):
        assert low <= up


# ---- dp_accounting's PLD (optional extra) -----------------------------------------------------------

@pytest.mark.parametrize("a,s,count,q", [(0.5, 2, 50, 1.0), (1.0, 1, 10, 1.0), (0.2, 3, 100, 0.1), (2.0, 5, 20, 0.01)])
def test_dp_accounting_pessimistic_epsilon_is_not_below_our_lower_end(a, s, count, q):
    """dp_accounting's PLD of the discrete Laplace (its accountant refuses a sampled one, so the PLD directly),
    pessimistic: an upper estimate of the same pair's ε(δ), never below the certified lower end."""
    pytest.importorskip("dp_accounting")
    from dp_accounting import dp_event
    from dp_accounting.pld import privacy_loss_distribution
    pld = privacy_loss_distribution.from_discrete_laplace_mechanism(a, sensitivity=s, sampling_prob=q)
    theirs = pld.self_compose(count).get_epsilon_for_delta(1e-5)
    event = dp_event.DiscreteLaplaceDpEvent(a, s)
    cert = producer.account(dp_event.SelfComposedDpEvent(event if q == 1 else dp_event.PoissonSampledDpEvent(q, event),
                                                         count), delta="1e-5")
    lo = float(Fraction(cert.result["epsilon_lo"]))
    assert theirs >= lo * (1 - 1e-12), (theirs, lo, cert.result["epsilon_hi"])


# ---- the discrete Gaussian (this project's extension event) -----------------------------------------------

def discrete_gaussian(sigma_squared, s):
    return {"class_name": "DiscreteGaussianDpEvent", "sigma_squared": sigma_squared, "sensitivity": s}


def _dg_pair(sigma_squared, s, q, relation):
    """(P, Q, window) of the discrete Gaussian pair on the integers, Z by mpmath's own sum; the window holds all but
    e^{-200} of both laws."""
    s2, q = _mp(sigma_squared), _mp(q)
    g = lambda x: mp.exp(-mp.mpf(x) ** 2 / (2 * s2))  # noqa: E731
    z = mp.nsum(g, [-mp.inf, mp.inf])
    width = int(mp.sqrt(400 * s2)) + 2 * s + 2
    xs = range(-width, width + 1)
    if relation == ADD:
        return (lambda x: ((1 - q) * g(x) + q * g(x - s)) / z), (lambda x: g(x) / z), xs
    return (lambda x: g(x - s) / z), (lambda x: g(x + s) / z), xs


def dg_delta(sigma_squared, s, q, relation, count, epsilon):
    """δ(ε) of ``count`` steps: the products over tuples of outputs (count <= 3, small windows), both orders."""
    P, Q, xs = _dg_pair(sigma_squared, s, q, relation)
    masses = [(P(x), Q(x)) for x in xs]
    total = [(mp.mpf(1), mp.mpf(1))]
    for _ in range(count):
        # the loss of a tuple is the sum of its steps' losses: group by the rounded loss to keep the lists short
        nxt = {}
        for p0, q0 in total:
            for p1, q1 in masses:
                p, w = p0 * p1, q0 * q1
                if p == 0 and w == 0:
                    continue
                key = mp.nstr(mp.log(p) - mp.log(w), 25) if p > 0 and w > 0 else (p > 0, w > 0, len(nxt))
                a, b = nxt.get(key, (mp.mpf(0), mp.mpf(0)))
                nxt[key] = (a + p, b + w)
        total = list(nxt.values())
    e = mp.exp(_mp(epsilon))
    return max(mp.fsum(max(p - e * w, 0) for p, w in total), mp.fsum(max(w - e * p, 0) for p, w in total))


@pytest.mark.parametrize("s2,s,q,relation", [("1", 1, "1", ADD), ("4", 2, "1/10", ADD), ("1/4", 1, "1", REPLACE),
                                             ("1/100", 1, "1/2", ADD), ("9", 3, "1", REPLACE)])
def test_discrete_gaussian_one_step_encloses_the_direct_sum(s2, s, q, relation):
    with mp.workdps(40):
        for eps, lower, upper in _points(_sampled(q, discrete_gaussian(s2, s)), "0,1/4,1,3", relation):
            truth = dg_delta(s2, s, q, relation, 1, eps)
            assert _mp(lower) - mp.mpf(10) ** -35 <= truth <= _mp(upper) + mp.mpf(10) ** -35, (eps, lower, truth, upper)


@pytest.mark.parametrize("s2,s,q,relation,count", [("1", 1, "1", ADD, 2), ("1/2", 1, "1/5", ADD, 2),
                                                   ("1/4", 1, "1", REPLACE, 3)])
def test_discrete_gaussian_few_steps_enclose_the_products(s2, s, q, relation, count):
    with mp.workdps(30):
        for eps, lower, upper in _points(repeat(count, _sampled(q, discrete_gaussian(s2, s))), "0,1/2,2", relation):
            truth = dg_delta(s2, s, q, relation, count, eps)
            assert _mp(lower) * (1 - mp.mpf(10) ** -20) <= truth <= _mp(upper) * (1 + mp.mpf(10) ** -20), \
                (eps, lower, truth, upper)


@pytest.mark.parametrize("s2,s,q", [("1", 2, "1"), ("25", 1, "1/10"), ("1/100", 1, "1/3")])
def test_discrete_gaussian_masses_sum_to_one_and_every_bucket_is_its_atoms(s2, s, q):
    law, grid = DiscreteGaussian(mpq(s2), s, s, mpq(q)), 11
    lo, hi = law.index_range(grid, 1e-20)
    m = law.masses(mpq(1, grid), lo, hi, 200)
    for ps in ((m.p, m.p_low, m.p_high), (m.q, m.q_low, m.q_high)):
        with working_precision(200):
            total = sum(ps[0], ps[1]) + ps[2]
        assert abs(ball_lower(total) - 1) < mpq(1, 10**50) and abs(ball_upper(total) - 1) < mpq(1, 10**50)
    P, Q, xs = _dg_pair(s2, s, q, ADD)
    with mp.workdps(60):
        buckets = {}
        for x in xs:  # each atom in the bucket of its loss value, by mpmath (no loss value here is a grid level)
            value = mp.log(P(x) / Q(x)) if Q(x) > 0 else mp.inf
            i = int(mp.floor(value * grid)) if mp.isfinite(value) else hi
            i = min(max(i, lo - 1), hi)
            a, b = buckets.get(i, (mp.mpf(0), mp.mpf(0)))
            buckets[i] = (a + P(x), b + Q(x))
        for i in range(lo, hi):
            p, w = buckets.get(i, (mp.mpf(0), mp.mpf(0)))
            assert _ball_contains(m.p[i - lo], p) and _ball_contains(m.q[i - lo], w), i


def test_discrete_gaussian_preimages_are_exact_at_the_middle_atom_and_clamped_to_the_bulk():
    law = DiscreteGaussian(mpq(4), 2, 2, mpq(1, 3))
    assert law.first_at_or_above(0, -100, 100) == 1  # ℓ₁(1) = 0: v = 0 exactly, at or above the level 0
    assert law.first_at_or_above(mpq(-1, 10**9), -100, 100) == 1
    assert law.first_at_or_above(mpq(1, 10**9), -100, 100) == 2
    assert law.first_at_or_above(mpq(-1, 2), -100, 100) is None  # below log(2/3): every atom is above
    assert law.first_at_or_above(mpq(-2, 5), -100, 100) == -8  # (x − 1)/2 >= log(3·e^{-2/5} − 2)
    assert law.first_at_or_above(mpq(-2, 5), -5, 100) == -5 and law.first_at_or_above(40, -10, 100) == 84
    assert law.first_at_or_above(100, -10, 100) == 100  # (x − 1)/2 >= 100 + log 3 − (a little): beyond the bulk


@pytest.mark.parametrize("sigma,s,count,q", [(1.0, 1, 10, 1.0), (2.0, 2, 100, 0.1), (0.5, 1, 10, 0.01)])
def test_dp_accounting_discrete_gaussian_pessimistic_epsilon_is_not_below_our_lower_end(sigma, s, count, q):
    pytest.importorskip("dp_accounting")
    from dp_accounting.pld import privacy_loss_distribution
    pld = privacy_loss_distribution.from_discrete_gaussian_mechanism(sigma, sensitivity=s, sampling_prob=q)
    theirs = pld.self_compose(count).get_epsilon_for_delta(1e-5)
    event = discrete_gaussian(str(Fraction(sigma) ** 2), s)
    cert = producer.account(repeat(count, _sampled(str(Fraction(q)), event)), delta="1e-5")
    assert theirs >= float(Fraction(cert.result["epsilon_lo"])) * (1 - 1e-12), (theirs, cert.result["epsilon_lo"])


@given(st.sampled_from([("1/2", "1"), ("1", "4")]), st.integers(1, 3), st.sampled_from(["1", "1/5"]))
@SETTINGS
def test_discrete_gaussian_more_noise_or_less_sensitivity_never_raises_delta(variances, s, q):
    loud, quiet = (_points(repeat(2, _sampled(q, discrete_gaussian(v, s))), EPSILONS, rel_width="1/100")
                   for v in reversed(variances))
    for (_, low, _), (_, _, up) in zip(loud, quiet):
        assert low <= up
    small, large = (_points(repeat(2, _sampled(q, discrete_gaussian(variances[0], t))), EPSILONS, rel_width="1/100")
                    for t in (s, s + 1))
    for (_, low, _), (_, _, up) in zip(small, large):
        assert low <= up
