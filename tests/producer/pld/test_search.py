"""The pld route's search: what a plan costs (exactly, before the work), the auditor's limits restated, one
budget for all attempts, and the finished recipe checked once more."""

import pytest
from gmpy2 import mpq

from producer.errors import LimitError
from producer.kinds.dpsgd import Request, parse_stage
from producer.pld import search
from producer.pld.enclose import certify
from producer.pld.parameters import Sizing


def _request(stages, **kw):
    return Request([parse_stage(s) for s in stages], **kw)


def test_the_cost_of_a_plan_is_what_its_attempt_computes():
    """Ranges, and so buckets and precisions, come from the plan alone: the attempt finds the same ones."""
    request = _request(["1/20:1x7", "1/10:2x3"], epsilons=[mpq(1), mpq(2)], rel_width=mpq(1, 100))
    outcome = certify(request)
    cost = search.Cost(request.stages, Sizing(request.stages), outcome.plan)
    assert cost.ranges == outcome.ranges
    assert cost.buckets == sum(hi - lo + 1 for lo, hi in outcome.ranges)
    assert not cost.excess and search.recipe_excess(request, outcome) == []


def test_a_plan_beyond_the_auditors_bucket_limit_is_named():
    """One step at q = 10^-5, σ = 1/2, ε up to 20 on h = 1/680000: over 10^7 buckets."""
    request = _request(["1/100000:1/2x1"], epsilons=[mpq(0), mpq(20)], rel_width=mpq(1, 1000))
    sizing = Sizing(request.stages)
    plan = search.plan_at(sizing, 1 / 680_000, 1e-35, 20.0, grid=680_000)
    cost = search.Cost(request.stages, sizing, plan)
    assert cost.buckets > 10**7
    assert any("the auditor's limit: 2·10^6" in phrase for phrase in cost.excess)
    assert any("work limit" in phrase for phrase in cost.broken())


def test_a_finished_recipe_beyond_a_limit_is_caught():
    request = _request(["1/20:1x7"], epsilons=[mpq(1)], rel_width=mpq(1, 100))
    outcome = certify(request)
    outcome.ranges = [(lo, lo + search.AUDIT_BUCKETS) for lo, _ in outcome.ranges]
    assert any("buckets" in phrase for phrase in search.recipe_excess(request, outcome))


def test_the_products_replayed_from_the_windows_are_those_of_the_powering():
    """T = 13 = 0b1101: squarings and multiplications interleaved, (bit length − 1) + (popcount − 1) = 5."""
    request = _request(["1/20:1x13"], epsilons=[mpq(1)], rel_width=mpq(1, 100))
    outcome = certify(request)
    windows = outcome.windows["forward"]["upper"]
    sizes = [hi - lo + 1 for lo, hi in outcome.ranges]
    products = list(search._product_lengths(request.stages, sizes, windows))
    assert len(products) == 5 == len(windows["stages"][0])
    assert products[0] == (sizes[0], sizes[0]) and products[1][1] == sizes[0]


def test_the_whole_search_is_one_budget(monkeypatch):
    """Two steps at q = 10^-5: the width at ε = 10^-6 falls far slower than the h² law.  With a budget of
    2·10^9 units, the first attempt's miss leaves too little for the grid the h² law wants, and the finest grid
    that fits would miss by that law: the search stops after one attempt, within the budget."""
    monkeypatch.setattr(search, "MAX_WORK", 2 * 10**9)
    spent = []
    admit = search.Search.admit

    def counted(self, plan):
        ranges = admit(self, plan)
        spent.append(self.spent)
        return ranges
    monkeypatch.setattr(search.Search, "admit", counted)
    request = _request(["1/100000:1/2x2"], epsilons=[mpq(0), mpq(1, 10**6), mpq(1)], rel_width=mpq(1, 1000))
    with pytest.raises(LimitError, match="could not reach the relative width 0.001: at h = 1/400 .* ask for "
                                         "--rel-width"):
        certify(request)
    assert len(spent) == 1 and 0 < spent[0] <= 2 * 10**9


@pytest.mark.parametrize("width,text", [(0.0116, "ask for --rel-width 0.02"), (0.0004, "ask for --rel-width 0.0004"),
                                        (0.49, "ask for --rel-width 0.5"), (0.41, "ask for --rel-width 0.5"),
                                        (0.6, "no --rel-width up to 1/2 is in reach")])
def test_the_width_suggested_is_in_reach_and_short(width, text):
    assert search._suggest(width) == text
