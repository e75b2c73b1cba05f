"""The auditor's estimate of a plain-composition/1 check, restated (producer/plain/auditability.py).

The single-law forms are the documented formulas and equal the auditor's own
estimate (read from its UNCHECKED line with its limits set to 1, before any
work); the releases form's common and ratio scales, and the first level under
a relative width, are not documented, so the producer's estimate there is an
upper one: never below the auditor's, a few per cent above.
"""

import pytest
from gmpy2 import mpq

from producer import api
from producer.errors import LimitError
from producer.kinds import plain_composition
from producer.plain import auditability
from tests.producer.kinds.edges import auditor_estimate, least_auditor_budget, scaled_budget

SINGLE = [dict(sigma2=9, budget=2, epsilons="1,2,4", width="1e-15"),
          dict(sigma2=9, budget=16, epsilons="5,20", width="1e-40"),
          dict(sigma2=None, laplace="1/100", budget=8, epsilons="2.07,2.08,700", width="1e-15"),
          dict(sigma2=None, laplace=4, budget=8, epsilons="1,2,3", width="1e-30")]   # ε >= C/t: decided exactly
RELATIVE = [dict(sigma2=9, budget=2, epsilons="1,2,4"),                       # R = 1/1000, floor W = 10^-60
            dict(sigma2=4, budget=8, epsilons="0,1,3,10"),
            dict(sigma2=9, budget=1, epsilons="0,20,40"),                     # two points meet only W
            dict(sigma2="1000", budget=64, epsilons="1,2", rel_width="1e-6"),
            dict(sigma2=25, budget=500, epsilons="20", rel_width="1e-12"),
            dict(sigma2=None, laplace=9, budget=64, epsilons="1,5,10", rel_width="1e-12")]
RELEASES = [(["dg:9x100", "dl:2x5", "dg:4:2x20"], "1,2,4", dict(width="1e-15")),
            (["dg:9x1", "dg:4x1"], "1", dict(width="1e-30")),
            (["dg:1x1", "dg:2x1", "dg:4x1"], "1", dict(width="1e-30")),
            (["dl:2x500", "dl:3x300"], "1", dict(width="1e-15")),
            (["dg:1000x20", "dl:1:3x20"], "8", dict(rel_width="1e-6")),
            (["dl:2:3x50"], "1/2,2", dict(rel_width="1/100", width="1e-40")),
            (["dg:2x3", "dg:7/2x5", "dl:10x3"], "3", dict())]


@pytest.mark.parametrize("kw", SINGLE, ids=str)
def test_the_single_law_estimate_is_the_auditors(kw):
    cert = api.plain_composition(**kw).as_dict()
    cost = auditability.certificate_cost(cert)
    assert (cost.work, cost.memory) == auditor_estimate(cert)


@pytest.mark.parametrize("kw", RELATIVE, ids=str)
def test_under_a_relative_width_the_estimate_is_never_below_the_auditors(kw):
    """The first level is sized from the claims (not documented exactly): equal on most, a few per cent above
    where the producer's rule counts a bit or two more."""
    cert = api.plain_composition(**kw).as_dict()
    cost, (work, memory) = auditability.certificate_cost(cert), auditor_estimate(cert)
    assert work <= cost.work <= work * 106 // 100 and memory <= cost.memory <= memory * 106 // 100


@pytest.mark.parametrize("releases, epsilons, kw", RELEASES, ids=str)
def test_the_releases_estimate_is_at_most_a_few_per_cent_above_the_auditors(releases, epsilons, kw):
    cert = api.plain_composition(epsilons=epsilons, releases=releases, **kw).as_dict()
    cost, (work, memory) = auditability.certificate_cost(cert), auditor_estimate(cert)
    assert work <= cost.work <= work * 106 // 100 and memory <= cost.memory <= memory * 106 // 100


def test_all_points_decided_exactly_count_nothing():
    cert = api.plain_composition(releases=["dl:2x1", "dl:3x1"], epsilons="1", width="1e-15").as_dict()
    assert auditability.certificate_cost(cert).work == 0 == auditor_estimate(cert)[0]


@pytest.mark.parametrize("epsilon, bits", [("0", 0), ("1/1000", 1), ("0.69", 1), ("0.70", 2), ("2.07", 3),
                                           ("2.08", 4), ("700", 1010), ("10000", 14427)])
def test_boost_is_the_least_k_with_e_to_the_epsilon_below_2_to_the_k(epsilon, bits):
    assert auditability.boost_bits(mpq(epsilon)) == bits


def test_the_documented_gaussian_plan():
    """σ² = 9, C = 2, b = 75 (W = 10^-20): L = 33 and K = 99 (docs/plain-composition-audit.md §6)."""
    L, K, products, n = auditability.gaussian_plan(9, 2, 75)
    assert (L, K, products) == (33, 99, [(67, 67)]) and n == 95       # the sums |s| <= H(2) = 47 kept
    assert auditability.slot_width(K) == 208


def test_the_auditors_step_limits_are_refused():
    auditability.check_step_limits([(2**19, 2**19 + 1, 8)], [2**20])
    with pytest.raises(LimitError, match="coefficients in one list or product, above its limit 1048576"):
        auditability.check_step_limits([(2**19, 2**19 + 2, 8)], [])
    with pytest.raises(LimitError, match="bits in one product, above its limit 268435456"):
        auditability.check_step_limits([(2**10, 2**10, 2**17 + 8)], [])


def test_a_releases_certificate_states_the_budget_the_auditor_needs(monkeypatch):
    """Both halves' budget scaled to just below the auditor's estimate of the releases reference: written,
    and its notice names the least budget the auditor checks it at."""
    kw = dict(epsilons="1,2,4", releases=["dg:9x100", "dl:2x5", "dg:4:2x20"], width="1e-15")
    cert = api.plain_composition(**kw)
    work, _ = auditor_estimate(cert.as_dict())
    scaled_budget(monkeypatch, work - 1)
    again = api.plain_composition(**kw)
    assert again == cert and again.auditor_budget == 2 and again.notice.endswith("`auditor verify --budget 2`")
    least_auditor_budget(cert.as_dict(), 2)


def test_a_releases_request_beyond_eight_budgets_is_refused_before_any_enclosure(monkeypatch):
    kw = dict(epsilons="1,2,4", releases=["dg:9x100", "dl:2x5", "dg:4:2x20"], width="1e-15")
    request = plain_composition.Request.from_strings(None, kw["epsilons"], kw["width"], releases=kw["releases"])
    before = auditability.request_cost(request.as_json())
    scaled_budget(monkeypatch, before.work // 9)

    def never(*args, **kwargs):
        raise AssertionError("an enclosure was computed")
    monkeypatch.setattr(plain_composition, "points", never)
    with pytest.raises(LimitError) as info:
        api.plain_composition(**kw)
    text = str(info.value)
    assert text.startswith("release: the auditor's estimate for the releases' lattice") and "needs 9 times" in text
    assert "\n" not in text and text.endswith("use fewer or more commensurable releases, fewer points or a larger "
                                               "width")


def test_the_estimate_before_the_work_is_the_finished_certificates_for_an_absolute_width():
    cert = api.plain_composition(sigma2=9, budget=8, epsilons="1,2", width="1e-15").as_dict()
    before = auditability.request_cost(cert["input"])
    after = auditability.certificate_cost(cert)
    assert (before.work, before.memory) == (after.work, after.memory)
