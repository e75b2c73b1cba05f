"""The pld route's search: what a plan costs (exactly, before the work), the auditor's limits restated, one
budget for all attempts, and the finished recipe checked once more."""

import re

import pytest
from gmpy2 import mpq

from producer.errors import LimitError
from producer.kinds.dpsgd import Request, parse_stage
from producer.pld import search
from producer.pld.enclose import certify
from producer.pld.parameters import Sizing
from producer.references.accounting import gaussian, laplace, poisson, repeat


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
    products = list(search._product_lengths(request.stages, outcome.ranges, windows))
    assert len(products) == 5 == len(windows["stages"][0])
    assert products[0] == (sizes[0], sizes[0], None) and products[1][1] == sizes[0]


def test_a_regrid_replays_as_a_linear_product_and_shrinks_the_arrays_after_it():
    """T = 13: a regrid by 4 after product 1 (the multiplication that makes 3) — the products after it read the
    window's length regridded, and the base's at most ⌈(n − 1)/4⌉ + 2 (+ 1 for lower chains)."""
    request = _request(["1/20:1x13"], epsilons=[mpq(1)], rel_width=mpq(1, 100))
    ranges = [(-10, 89)]
    windows = {"stages": [[(0, 9), (-7, 40), (-20, 80), (-30, 120), (-40, 160)]], "combine": []}
    products = list(search._product_lengths(request.stages, ranges, windows, [(1, 4, 72)], up=True))
    assert products == [(100, 100, None), (10, 100, None), (48, 100, 72), (14, 14, None), (101, 101, None),
                        (151, 27, None)]
    lower = list(search._product_lengths(request.stages, ranges, windows, [(1, 4, 72)], up=False))
    assert lower == [(100, 100, None), (10, 100, None), (48, 100, 72), (13, 13, None), (101, 101, None),
                     (151, 26, None)]


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
                                         "rel_width"):
        certify(request)
    assert len(spent) == 1 and 0 < spent[0] <= 2 * 10**9


@pytest.mark.parametrize("width,text", [(0.0116, "ask for rel_width=0.02"), (0.0004, "ask for rel_width=0.0004"),
                                        (0.49, "ask for rel_width=0.5"), (0.41, "ask for rel_width=0.5"),
                                        (0.6, "no rel_width up to 1/2 is in reach")])
def test_the_width_suggested_is_in_reach_and_short(width, text):
    """From Python the suggestion names the parameter; on the command line, the flag."""
    from producer import names
    assert search.suggest_width(width) == text
    with names.command_line():
        flag = text.replace("rel_width=", "--rel-width ")
        assert search.suggest_width(width) == flag.replace("rel_width", "--rel-width")


# ---- the auditor's budget of one file (docs/certificates.md, dpsgd/1) ------------------------------------

def test_the_budget_estimate_of_a_recipe_is_the_auditors():
    """Every reference recipe: the masses (160 × n·(W + W²/1024 + parts/4)) and the products of the chains
    checked (3 × (n_A + n_B)·f), memory the larger of the masses' and the chains' (the auditor's own numbers,
    read from its refusal at a budget of 1: tests/producer/test_audit_budget.py), here one by hand."""
    import json
    from pathlib import Path
    from producer.kinds.dpsgd import auditor_cost
    cert = json.loads((Path(__file__).resolve().parents[3] / "certificates" / "dpsgd" /
                       "dpsgd-q0_01-s1-t1000-delta1e-5.json").read_text())
    d = cert["result"]["discretisation"]
    assert (d["grid"], d["p_bits"], d["q_bits"], d["ranges"]) == (1180, 72, 88, [[-12, 3990]])
    # W = max(88 + 8, 72 + 8 + bits(1180) + 5 + 1) + 24 + bits(100) + 2·bits(2) = 97 + 35 (the auditor counts
    # ⌈1.45·3991/1180⌉ + 1 = 6 bits of spread, one more than docs/certificates.md's formula)
    assert search.working_bits(parse_stage("1/100:1x1000"), 1180, 72, 88, -12, 3990) == 132
    cost = auditor_cost(cert)
    assert (cost.work, cost.memory) == (325511134, 7629480) and cost.what == "the convolutions"
    assert auditor_cost(json.loads((Path(__file__).resolve().parents[3] / "certificates" / "dpsgd" /
                                    "dpsgd-gaussian-s2-t10-delta1e-5.json").read_text())) is None


def test_a_recipe_beyond_the_default_budget_is_written_with_its_notice(monkeypatch):
    from producer import api
    from producer.kinds.dpsgd import auditor_cost
    from tests.producer.kinds.edges import least_auditor_budget, scaled_budget
    kw = dict(sampling_rate="1/100", noise_multiplier=1, steps=1000, delta="1e-5")
    cert = api.dpsgd(**kw)
    cost = auditor_cost(cert.as_dict())
    scaled_budget(monkeypatch, cost.work - 1, cost.memory)
    again = api.dpsgd(**kw)
    assert again == cert and again.auditor_budget == 2 and again.notice.endswith("`auditor verify --budget 2`")
    least_auditor_budget(cert.as_dict(), 2)


def test_a_plan_beyond_eight_budgets_is_refused_before_any_mass(monkeypatch):
    from producer.pld import enclose
    from tests.producer.kinds.edges import scaled_budget
    request = _request(["1/100:1x1000"], delta=mpq(1, 10**5))
    plan = search.Search(request, Sizing(request.stages)).first
    first = search.Cost(request.stages, Sizing(request.stages), plan)
    estimate = search.budget_cost(request.stages, plan.grid, plan.p_bits, plan.q_bits, first.ranges,
                                  search._estimated_products(search._products(request.stages), first.entries,
                                                             plan.p_bits, plan.q_bits))
    # beyond eight budgets, the plan is probed at a coarser grid within them (here half the model's grid) ...
    scaled_budget(monkeypatch, estimate.work // 9, estimate.memory)
    assert search.Search(request, Sizing(request.stages)).first.grid == plan.grid // 2
    # ... and refused before any mass when no probe (grids down to COARSE_GRID) is within them either
    scaled_budget(monkeypatch, estimate.work // 40, estimate.memory)
    calls = []
    monkeypatch.setattr(enclose, "step_masses", lambda *args, **kw: calls.append(args))
    with pytest.raises(LimitError, match=r"^the first attempt \(h = 1/\d+\) would need about \d+ times the auditor's "
                                         r"budget of one file for the (convolutions|single-step masses)"):
        certify(request)
    assert calls == []


# ---- the probe: an expensive first plan is tried at a coarser grid first ----------------------------------------

def test_an_expensive_first_plan_is_probed_at_a_coarser_grid():
    """q = 10^-5, σ = 2/5, T = 10^4 at width 10^-3: the Gaussian model asks for h = 1/69100 (tens of seconds), where
    h = 1/1870 is enough; the first attempt is the finest halving of the model's grid within PROBE_WORK."""
    from producer.kinds import accounting
    tree = {"class_name": "SelfComposedDpEvent", "count": 10000,
            "event": {"class_name": "PoissonSampledDpEvent", "sampling_probability": "1/100000",
                      "event": {"class_name": "GaussianDpEvent", "noise_multiplier": "2/5"}}}
    request = accounting.Request.from_strings(tree, delta="1e-5", rel_width="1e-3")
    sizing = Sizing(request.stages)
    s = search.Search(request, sizing)
    assert s.model is not None and search.Cost(request.stages, sizing, s.model).work > search.PROBE_ABOVE
    assert s.first.grid * 16 <= s.model.grid
    assert search.Cost(request.stages, sizing, s.first).work <= search.PROBE_WORK
    finer = search.plan_at(sizing, 1 / (2 * s.first.grid), s.first.tau, s.first.epsilon_cap, grid=2 * s.first.grid)
    assert search.Cost(request.stages, sizing, finer).work > search.PROBE_WORK


def test_a_cheap_first_plan_is_not_probed():
    request = _request(["1/100:1x1000"], delta=mpq(1, 10**5))
    s = search.Search(request, Sizing(request.stages))
    assert s.model is None


def test_after_a_probe_the_models_plan_caps_the_refinement(monkeypatch):
    """With every plan probed (PROBE_ABOVE = 0) at a quarter of the model's grid, the answer is found on a grid no
    finer than the model's, and its interval meets the unprobed one (both are proved)."""
    request = _request(["1/100:1x1000"], delta=mpq(1, 10**5), rel_width=mpq(1, 10**4))
    plain = certify(request)
    sizing = Sizing(request.stages)
    model = search.first_plan(request, sizing)
    quarter = search.plan_at(sizing, 4 / model.grid, model.tau, model.epsilon_cap, grid=model.grid // 4)
    monkeypatch.setattr(search, "PROBE_ABOVE", 0)
    monkeypatch.setattr(search, "PROBE_WORK", search.Cost(request.stages, sizing, quarter).work)
    s = search.Search(request, sizing)
    assert s.first.grid == model.grid // 4 and s.model.grid == model.grid
    probed = certify(request)
    assert probed.plan.grid <= model.grid
    assert probed.epsilon_lo <= plain.epsilon_hi and plain.epsilon_lo <= probed.epsilon_hi
    assert probed.epsilon_hi - probed.epsilon_lo <= request.rel_width * probed.epsilon_hi


def test_after_a_probe_the_h2_law_may_reach_back_to_the_models_grid_at_once(monkeypatch):
    """A model's plan beyond the work limit is probed at 1/32 of its grid; a probe that misses by far asks the
    h² law for a grid more than 16 times finer, which is the next attempt (none in between) when it fits."""
    request = _request(["1/100:1x1000"], delta=mpq(1, 10**5), rel_width=mpq(1, 10**6))
    sizing = Sizing(request.stages)
    model = search.first_plan(request, sizing)
    probe = search.plan_at(sizing, 32 / model.grid, model.tau, model.epsilon_cap, grid=model.grid // 32)
    work = search.Cost(request.stages, sizing, model).work
    monkeypatch.setattr(search, "MAX_WORK", work * 9 // 10)   # the model's plan is beyond the limit
    monkeypatch.setattr(search, "PROBE_ABOVE", 0)
    monkeypatch.setattr(search, "PROBE_WORK", search.Cost(request.stages, sizing, probe).work)
    s = search.Search(request, sizing)
    assert s.first.grid == model.grid // 32 and s.model is None and s.model_grid == model.grid
    ratio = search.AIM * (0.6 * model.grid / s.first.grid) ** 2   # the h² law then wants about 0.6·N_model
    nxt = s.refine(s.first, ratio, s.first.tau)
    assert 16 * s.first.grid < nxt.grid < model.grid


def test_a_raised_cap_retries_the_same_grid_when_no_finer_one_fits(monkeypatch):
    """An ε(δ) above the ε_cap the precisions were sized for is a lack of precision, not of grid: when no finer
    grid fits, the same grid sized for the raised cap is the next attempt."""
    request = _request(["1/100:1x1000"], delta=mpq(1, 10**5))
    s = search.Search(request, Sizing(request.stages))
    plan = s.first
    monkeypatch.setattr(s, "_fits", lambda cost: cost.plan.grid == plan.grid)
    monkeypatch.setattr(search.Cost, "broken", lambda cost, spent=0.0, effort=1: [] if cost.plan.grid == plan.grid
                        else ["about too many work units"])
    again = s.refine(plan, 1.0, plan.tau, cap=4 * plan.epsilon_cap)
    assert again.grid == plan.grid and again.epsilon_cap > plan.epsilon_cap
    assert again.q_bits >= plan.q_bits


def test_a_raised_cap_beyond_the_budget_names_what_answers_not_the_width(monkeypatch):
    """Refused, the line says that ε(δ) lies above the cap and names δ, the noise, the steps or an effort; the
    width asked for was not what missed, so no rel_width is named (it used to name the width asked for)."""
    request = _request(["1/100:1x1000"], delta=mpq(1, 10**5))
    s = search.Search(request, Sizing(request.stages))
    plan = s.first
    monkeypatch.setattr(s, "_fits", lambda cost: False)
    monkeypatch.setattr(search.Cost, "broken", lambda cost, spent=0.0, effort=1: ["about too many work units"])
    with pytest.raises(LimitError) as info:
        s.refine(plan, 1.0, plan.tau, cap=4 * plan.epsilon_cap)
    message = str(info.value)
    assert message.startswith("ε(1e-05) lies above the ε =") and "ask for a larger δ, more noise or fewer" in message
    assert "rel_width" not in message and "\n" not in message


# ---- a width that falls slower than h²: the measured rate plans the next grid --------------------------------------

def _tiny_rate_request(rel_width):
    """q = 10^-6, σ = 4/5, T = 10^5: every step's loss is of order q, far below any affordable h."""
    from producer.kinds import accounting
    tree = {"class_name": "SelfComposedDpEvent", "count": 100000,
            "event": {"class_name": "PoissonSampledDpEvent", "sampling_probability": "1/1000000",
                      "event": {"class_name": "GaussianDpEvent", "noise_multiplier": "4/5"}}}
    return accounting.Request.from_strings(tree, delta="1e-5", rel_width=rel_width)


def test_the_measured_rate_is_the_h2_law_until_two_attempts_say_slower():
    request = _request(["1/100:1x1000"], delta=mpq(1, 10**5))
    s = search.Search(request, Sizing(request.stages))
    assert s.rate(1000, 8.0) == 2.0                      # one attempt: nothing measured yet
    assert s.rate(2000, 2.0) == 2.0                      # halving h quartered the width: h² (capped at 2)
    assert s.rate(4000, 1.0) == pytest.approx(1.0)       # halving h halved it: h¹
    assert s.rate(8000, 1.0) == search.MIN_RATE          # no gain: the slowest rate the search plans by


def test_a_slow_rate_asks_for_a_finer_grid_than_the_h2_law():
    request = _tiny_rate_request("3/10")
    sizing = Sizing(request.stages)
    plan = search.plan_at(sizing, 1 / 20000, 1e-8, 1.0, grid=20000)
    by_h2 = search.refined(plan, sizing, 2.0, plan.tau)
    by_rate = search.refined(plan, sizing, 2.0, plan.tau, exponent=0.5)
    assert by_h2.grid < by_rate.grid <= 16 * plan.grid


def test_a_tiny_sampling_rate_is_answered_at_the_width_its_refusal_names():
    """At width 10^-3 the request is out of reach; the refusal names a --rel-width, and that width is certified
    (before the measured rate, five attempts by the h² law each refined h by less than 2 and all missed)."""
    from auditor.api import verify_certificate
    from producer.kinds import accounting
    with pytest.raises(LimitError, match=r"ask for rel_width=") as refusal:
        certify(_tiny_rate_request("1e-3"))
    # not even the finest grid reaches 10^-3, so no effort is named (none would answer)
    assert "effort" not in str(refusal.value) and "h = 1/2000000" in str(refusal.value)
    named = str(refusal.value).rsplit("rel_width=", 1)[1].split()[0].rstrip(";,")
    outcome = certify(_tiny_rate_request(named))
    assert 0 < outcome.epsilon_lo and outcome.epsilon_hi - outcome.epsilon_lo <= mpq(named) * outcome.epsilon_hi
    certificate = accounting.build(_tiny_rate_request(named))
    report = verify_certificate(certificate)
    assert report.outcome == "OK", report.as_dict()


# ---- a request's opt-in effort (--effort N) ------------------------------------------------------------------------

def test_a_request_beyond_eight_budgets_names_the_opt_in_that_answers_and_is_answered_there(monkeypatch):
    """With the auditor's budget of one file scaled so that this request's certificate needs 12 of them (its plan,
    every product estimated at the largest array, many more): refused at the default, in one line naming the
    opt-in ``effort=N``; at that N written, its input recording the opt-in, its result the same numbers, and it
    needs exactly `auditor verify --budget 12`."""
    from producer import api
    from producer.kinds.dpsgd import auditor_cost
    from tests.producer.kinds.edges import least_auditor_budget, scaled_budget
    kw = dict(sampling_rate="1/100", noise_multiplier=1, steps=1000, delta="1e-5")
    cert = api.dpsgd(**kw)
    cost = auditor_cost(cert.as_dict())
    scaled_budget(monkeypatch, -(-cost.work // 12), cost.memory)
    with pytest.raises(LimitError, match=r"times the auditor's budget of one file .* or opt in to effort=\d ") as info:
        api.dpsgd(**kw)
    n = int(re.search(r"effort=(\d) ", str(info.value)).group(1))
    assert n > 1
    again = api.dpsgd(**kw, effort=n)
    data = again.as_dict()
    assert data["input"] == dict(cert.as_dict()["input"], effort=n)
    assert data["result"] == cert.as_dict()["result"]
    assert again.auditor_budget == 12 and again.notice.endswith("`auditor verify --budget 12`")
    least_auditor_budget(data, 12)


def test_effort_one_writes_the_bytes_of_a_request_without_it():
    from producer import api
    kw = dict(sampling_rate="1/20", noise_multiplier=1, steps=7, epsilons="1", rel_width="1/100")
    assert api.dpsgd(**kw, effort=1).as_dict() == api.dpsgd(**kw).as_dict()   # the digest included


def test_an_opt_in_effort_multiplies_the_work_limit():
    """T = 10^6 at q = 1/50, σ = 1, width 10^-6: the first attempt needs more than the default work limit,
    its refusal names the least effort that admits it, and at that effort the search starts."""
    request = _request(["1/50:1x1000000"], delta=mpq(1, 10**5), rel_width=mpq(1, 10**6))
    with pytest.raises(LimitError, match=r"or opt in to effort=\d") as info:
        search.Search(request, Sizing(request.stages))
    n = int(re.search(r"effort=(\d)", str(info.value)).group(1))
    assert 2 <= n <= 8
    first = search.Search(_request(["1/50:1x1000000"], delta=mpq(1, 10**5), rel_width=mpq(1, 10**6), effort=n),
                          Sizing(request.stages)).first
    cost = search.Cost(request.stages, Sizing(request.stages), first)
    assert cost.work > search.MAX_WORK and cost.effort_needed() <= n and cost.broken(0.0, n) == []


def test_an_array_beyond_the_auditors_per_budget_length_is_a_budget_an_effort_opts_in_to():
    """q = 1/1000, σ = 3/5, T = 10^6 at R = 10^-6: the lower chain's longest product (predicted at about 6·10^6
    entries on the model's grid) needs two budgets by its length alone, a limit an effort raises; never one no
    effort raises."""
    request = _request(["1/1000:3/5x1000000"], delta=mpq(1, 10**5), rel_width=mpq(1, 10**6))
    plan = search.first_plan(request, Sizing(request.stages))
    cost = search.Cost(request.stages, Sizing(request.stages), plan)
    assert cost.longest > 2**22 and cost.excess == [] and cost.multiple >= 2
    n = cost.effort_needed()
    assert n is not None and cost.broken(0.0, n) == [] and cost.broken(0.0, n - 1) != []


def test_the_accountants_pass_their_effort_to_every_answer(monkeypatch):
    """CertifiedAccountant and OpacusAccountant read ``effort`` once (1 to 8) and ask accounting/1 with it."""
    from producer import api
    from producer.accountants.dp_accounting import CertifiedAccountant
    from producer.accountants.opacus import OpacusAccountant
    from producer.errors import InputError
    seen, account = [], api.account

    def spy(*args, **kw):
        seen.append(kw["effort"])
        return account(*args, **kw)
    monkeypatch.setattr(api, "account", spy)
    opacus = OpacusAccountant(rel_width="1/100", effort=2)
    for _ in range(3):
        opacus.step(noise_multiplier=1.0, sample_rate=0.05)
    assert opacus.get_epsilon(1e-5) > 0 and opacus.certificate.input["effort"] == 2
    accountant = CertifiedAccountant(rel_width="1/100", effort=3)
    accountant.compose({"class_name": "GaussianDpEvent", "noise_multiplier": 2}, 3)
    assert accountant.get_epsilon(1e-5) > 0 and seen == [2, 3]
    with pytest.raises(InputError, match="^effort: must be an integer from 1 to 8, got 9$"):
        OpacusAccountant(effort=9)


# ---- the chains of a plan that regrids, predicted before the attempt --------------------------------------------

def _admitted_plans(monkeypatch):
    """The plan of every attempt the search admits from now on, in order (a list filled as they come)."""
    plans, admit = [], search.Search.admit
    monkeypatch.setattr(search.Search, "admit", lambda self, plan: plans.append(plan) or admit(self, plan))
    return plans


@pytest.mark.parametrize("tree, question", [
    (repeat(300, poisson("1/20", gaussian("1"))), {"delta": "1e-5"}),
    (repeat(1001, poisson("1/100", gaussian("3/5"))), {"delta": "1e-5"}),
    (repeat(2000, poisson("1/1000", gaussian("1"))), {"epsilons": "1,2"}),
    (repeat(2000, poisson("1/50", gaussian("2"))), {"delta": "1e-30"}),          # a deep lower chain
    (repeat(300, laplace("7/10")), {"epsilons": "1,40", "neighboring_relation": "replace_one"}),  # mean far from 0
])
def test_the_predicted_chains_bound_the_finished_certificates_estimate(monkeypatch, tree, question):
    """With regrids from any size on, the chains predicted for the plan of the last attempt (:class:`search.Chains`)
    give the auditor's estimate at least the finished certificate's and at most three times it, and its longest
    array at least the certificate's."""
    from producer.kinds import accounting
    monkeypatch.setattr(search, "REGRID_ABOVE", 0)
    plans = _admitted_plans(monkeypatch)
    request = accounting.Request.from_strings(tree, **question)
    cert = accounting.build(request)
    actual = accounting.auditor_cost(cert)
    cost = search.Cost(request.stages, Sizing(request.stages), plans[-1])
    assert cert["result"]["discretisation"]["regrids"] and cost.chains is not None
    assert actual.work <= cost.chains.audit.work <= 3 * actual.work
    assert actual.entries <= cost.longest


def test_a_miss_at_the_finest_grid_is_refused_without_another_attempt(monkeypatch):
    """q = 10^-7, σ = 1/2, T = 10^6 at width 10^-3: the first attempt is already at the finest grid a coarse tail
    allows (N rounded down to a multiple of ρ, not up past 2·10^6) and misses; the search stops there, naming
    the width in reach, where it used to repeat that attempt until its five were spent."""
    plans = _admitted_plans(monkeypatch)
    with pytest.raises(LimitError, match=r"^could not reach the relative width 0.001: at h = 1/\d+, the finest "
                                         r"grid, the width was .* ask for rel_width=0\.\d+"):
        certify(_request(["1/10000000:1/2x1000000"], delta=mpq(1, 10**5)))
    assert len(plans) == 1 and search.MAX_GRID - plans[0].grid < plans[0].grid // 1000
