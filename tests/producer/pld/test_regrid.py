"""Regrids of the pld chains: the packed operation against the rule written out, the shares against mpmath, the
schedule's shape, and the coarse upper array's δ(ε) against the fine one's (docs/dpsgd.md §6, Regrids)."""

import copy
import math
import json
from fractions import Fraction

import mpmath
import pytest
from gmpy2 import mpq
from hypothesis import given, settings
from hypothesis import strategies as st

from producer.pld import composition as comp
from producer.pld.convolution import Packed
from producer.pld.regrid import Regrid, savings, schedule, shares, regrid


def _rule(values, offset, atom, up, r, pairs, bits):
    """The regrid of docs/dpsgd.md, entry by entry."""
    last = offset + len(values) - 1
    first, top = offset // r, last // r + (1 if up else 0)
    out = {m: 0 for m in range(first, top + 1)}
    for k, v in enumerate(values, start=offset):
        m, i = divmod(k, r)
        if not up or i == 0:
            out[m] += v
        else:
            b, d = pairs[i - 1]
            out[m] += -((-v * d) >> bits)
            out[m + 1] += -((-v * b) >> bits)
    return first, [out[m] for m in range(first, top + 1)], atom


@given(st.lists(st.integers(0, 2**80), min_size=1, max_size=60), st.integers(-50, 50), st.integers(0, 2**40),
       st.booleans(), st.integers(2, 6), st.data())
@settings(max_examples=80, deadline=None)
def test_regrid_is_the_rule_entry_by_entry(values, offset, atom, up, r, data):
    bits = data.draw(st.sampled_from([8, 40, 112]))
    pairs = [(data.draw(st.integers(0, 1 << bits)), data.draw(st.integers(0, 1 << bits))) for _ in range(r - 1)]
    out = regrid(Packed.from_values(values, offset, atom), up, r, pairs, bits)
    first, expected, kept = _rule(values, offset, atom, up, r, pairs, bits)
    assert (out.offset, out.values(), out.atom) == (first, expected, kept)
    assert out.total == sum(expected) and out.top >= max(expected)


@pytest.mark.parametrize("spacing, factor, bits", [(mpq(1, 1000), 2, 100), (mpq(1, 37), 5, 64), (mpq(3, 2), 8, 40),
                                                   (mpq(1, 95300), 4, 128)])
def test_shares_are_the_betas_rounded_up_by_less_than_two_units(spacing, factor, bits):
    mpmath.mp.prec = bits + 200
    x = mpmath.mpf(spacing.numerator) / spacing.denominator
    for i, (b, d) in enumerate(shares(spacing, factor, bits), start=1):
        beta = (1 - mpmath.exp(-i * x)) / (1 - mpmath.exp(-factor * x))
        assert 0 <= b - beta * 2**bits < 2 and 0 <= d - (1 - beta) * 2**bits < 2
        assert b <= 2**bits and d <= 2**bits


@pytest.mark.parametrize("steps", [1, 2, 3, 40, 1000, 14063, 65536, 10**6])
def test_the_schedule_regrids_after_products_of_the_power_in_order(steps):
    products = comp.products_of(steps)
    plan = schedule(steps, rule=4.0)
    afters = [a for a, _ in plan]
    assert afters == sorted(set(afters)) and all(0 <= a < products - 1 for a in afters)
    assert all(f >= 2 and f & (f - 1) == 0 for _, f in plan)
    assert schedule(steps, rule=0.0) == []
    assert 0 < savings(steps, lambda share: share ** 0.5 + 1, rule=4.0) <= 1.0
    if steps >= 1000:
        assert plan and savings(steps, lambda share: share ** 0.5, rule=4.0) < 1.0


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=3, max_value=10**6))
def test_a_split_power_ends_no_coarser_than_the_power_of_its_steps(steps):
    """The power of T − 1 steps of a split, capped by T's schedule, ends on a grid at most T's own final one; the
    cap changes nothing where T − 1's own final grid is no coarser (every odd T among them)."""
    def final(plan):
        return math.prod(f for _, f in plan)
    capped, own = schedule(steps - 1, finest=steps), schedule(steps - 1)
    assert final(capped) <= final(schedule(steps))
    assert [a for a, _ in capped] == [a for a, _ in own][:len(capped)]
    if final(own) <= final(schedule(steps)):
        assert capped == own
    if steps % 2:
        assert capped == own


def _delta(values, offset, atom, h, epsilon):
    """F(ε) of docs/dpsgd.md §7 for a tied P-array on the grid h, in mpmath."""
    total = mpmath.mpf(atom)
    for k, u in enumerate(values, start=offset):
        loss = k * h
        if loss > epsilon:
            total += u * (1 - mpmath.exp(epsilon - loss))
    return total


@given(st.lists(st.integers(0, 2**30), min_size=1, max_size=30), st.integers(-40, 40), st.integers(2, 5),
       st.sampled_from([Fraction(1, 7), Fraction(1, 50), Fraction(1, 3)]))
@settings(max_examples=40, deadline=None)
def test_the_coarse_upper_array_bounds_the_fine_one_at_every_epsilon(values, offset, r, h):
    mpmath.mp.prec = 200
    bits = 64
    pairs = shares(mpq(h), r, bits)
    out = regrid(Packed.from_values(values, offset, 0), True, r, pairs, bits)
    coarse = [int(v) for v in out.values()]
    step = mpmath.mpf(h.numerator) / h.denominator
    for epsilon in (mpmath.mpf(0), step * (offset + len(values) / 2), step * (offset + 1) + mpmath.mpf("0.01")):
        if epsilon < 0:
            continue
        assert _delta(coarse, out.offset, 0, r * step, epsilon) >= _delta(values, offset, 0, step, epsilon)


def test_a_power_with_regrids_is_the_power_regridded_by_hand():
    """Regrids inside a power act on the running array and on the base at the recorded products."""
    base = comp.Array(-3, [5 << 60, 7 << 60, 11 << 60, 2 << 60], 1 << 50)
    windows = [(-1000, 1000)] * comp.products_of(6)
    pairs = shares(mpq(1, 10), 2, 80)
    g = Regrid(0, 2, 80, pairs)
    (got,) = comp.power([base], 6, [comp.UPPER], [64], comp.Windows(recorded=windows), regrids=[g])
    # 6 = 0b110: A = base², regrid (both), A = A·base', A = A², in that order
    packed = base.packed()
    a = comp._window(comp._multiply(packed, packed, comp.UPPER, 64), -1000, 1000, comp.UPPER)
    a, b = regrid(a, True, 2, pairs, 80), regrid(packed, True, 2, pairs, 80)
    a = comp._window(comp._multiply(a, b, comp.UPPER, 64), -1000, 1000, comp.UPPER)
    a = comp._window(comp._multiply(a, a, comp.UPPER, 64), -1000, 1000, comp.UPPER)
    assert (got.offset, got.values, got.atom) == (a.offset, a.values(), a.atom)


def test_a_regrid_past_the_last_product_is_refused():
    base = comp.Array(0, [1, 2, 3])
    with pytest.raises(ValueError, match="regrid after product 5"):
        comp.power([base], 4, [comp.LOWER_P], [0], comp.Windows(recorded=[(0, 99)] * 2),
                   regrids=[Regrid(5, 2, 8, [(1, 1)])])


LAPLACE_SAMPLED = {"class_name": "SelfComposedDpEvent", "count": 300,
                   "event": {"class_name": "PoissonSampledDpEvent", "sampling_probability": "1/10",
                             "event": {"class_name": "LaplaceDpEvent", "noise_multiplier": "1"}}}


@pytest.mark.parametrize("kind", ["dpsgd", "accounting"])
def test_the_auditor_accepts_a_regridded_certificate_and_rejects_a_share_made_smaller(kind, monkeypatch):
    """A whole certificate with regrids (forced on a cheap power) verifies; a share two units below its written
    value (which is above 2^S·β_i by less than two) fails, naming the share."""
    from auditor.api import verify_certificate
    from producer import api
    from producer.pld import search
    from tests.reseal import reseal
    monkeypatch.setattr(search, "REGRID_ABOVE", 0)
    if kind == "dpsgd":
        cert = api.dpsgd(sampling_rate="1/50", noise_multiplier=1, steps=300, delta="1e-5").as_dict()
    else:
        cert = api.account(LAPLACE_SAMPLED, delta="1e-5").as_dict()
    regrids = cert["result"]["discretisation"]["regrids"]
    assert regrids and verify_certificate(cert).outcome == "OK"
    bad = copy.deepcopy(cert)
    b, d = bad["result"]["discretisation"]["regrids"][0]["shares"][0]
    bad["result"]["discretisation"]["regrids"][0]["shares"][0] = [str(int(b) - 2), d]
    report = verify_certificate(reseal(bad))
    assert report.outcome == "FAIL" and "regrids/0/shares/0/0" in json.dumps(report.as_dict())


def test_no_regrid_makes_the_grid_coarser_than_one_unit_of_loss():
    """T = 10^6 asks for a factor of 128 in the end; on the grid 1/16 the regrids stop at 16 (the auditor reads
    final spacings up to 64, and a coarser grid than 1 has no use)."""
    from types import SimpleNamespace

    from producer.pld.enclose import _regrids
    stage = SimpleNamespace(steps=10**6)
    for grid, top in ((16, 16), (4096, 128)):
        plan = SimpleNamespace(h=mpq(1, grid), p_bits=72)
        factors = [g.factor for g in _regrids([stage], plan)]
        assert factors and math.prod(factors) == top
