"""The file's one budget (auditor/budget.py): total work and peak memory, refused before any work.

The hostile certificates of issue 34 ("checking work bounded per step but not
in total"), each built from a reference certificate with fields edited and its
digest resealed: every step within the kind's per-step limits, the whole far
beyond a minute or 2 GB.  Each must be UNCHECKED with the pointer of the field
that drives the estimate, and refused *before any work*: the expensive
functions are replaced by ones that fail the test if called (never a
wall-clock bound).  The sums over embedded certificates are tested the same
way, and a retry or a finer level that the budget cannot afford is not run.
"""

import copy
import json
from fractions import Fraction
from pathlib import Path

import pytest

from auditor import budget
from auditor.api import verify_certificate
from auditor.checks import deadline_witness, dg_interval, dpsgd, plain_composition
from auditor.pld import composition, masses
from auditor.plain import gaussian, polynomial, releases
from auditor.claims import outward
from auditor.outcomes import Unchecked
from auditor.report import Report
from tests.reseal import display, reseal
from tests.auditor.verdicts import only_unproved

ROOT = Path(__file__).resolve().parents[2]
CERTS = ROOT / "certificates"
PRODUCER = {"name": "dp-certify-producer", "version": "0.1.0"}


def _reference(name):
    return json.loads((CERTS / name).read_text())


def _fmt(q):
    q = Fraction(q)
    return str(q.numerator) if q.denominator == 1 else f"{q.numerator}/{q.denominator}"


def _verify(cert):
    return verify_certificate(reseal(copy.deepcopy(cert)))


def _unchecked_at(report, pointer):
    assert report.outcome == "UNCHECKED", report.as_dict()
    assert report.unchecked.startswith(pointer + ":"), report.unchecked
    return report.unchecked


class Forbidden(AssertionError):
    """The work a refusal must come before was started."""


def _forbid(monkeypatch, *targets):
    """Make every (module, name) fail the test when called."""
    def fail(*args, **kwargs):
        raise Forbidden("the check started the work it should have refused")
    for module, name in targets:
        monkeypatch.setattr(module, name, fail)


# ---- the ledger ------------------------------------------------------------------------------------

def test_costs_of_parts_done_one_after_another_add_their_work_and_keep_the_larger_memory():
    a = budget.Cost(10, 500, "/a", "masses") + budget.Cost(30, 200, "/b", "convolutions")
    assert (a.work, a.memory, a.pointer, a.what) == (40, 500, "/b", "convolutions")
    assert budget.total([]).work == 0


def test_a_reserved_certificate_is_paid_once_and_the_rest_must_fit():
    report, cert, other = Report("x"), {}, {}
    budget.reserve(report, [(cert, budget.Cost(budget.MAX_WORK // 2, 0, "/p", "part"))])
    budget.reserve(report, [(cert, budget.Cost(budget.MAX_WORK, 0, "/p", "part"))])   # already paid: nothing
    assert report.budget.work == budget.MAX_WORK // 2
    with pytest.raises(Unchecked) as refused:
        budget.reserve(report, [(other, budget.Cost(budget.MAX_WORK // 2 + 1, 0, "/q", "more"))])
    assert refused.value.pointer == "/q" and refused.value.estimate == budget.MAX_WORK + 1
    assert not budget.afford(report, budget.Cost(budget.MAX_WORK // 2 + 1))
    assert budget.afford(report, budget.Cost(budget.MAX_WORK // 2)) and report.budget.work == budget.MAX_WORK


def test_memory_beyond_the_limit_is_refused_whatever_the_work():
    with pytest.raises(Unchecked) as refused:
        budget.reserve(Report("x"), [({}, budget.Cost(1, budget.MAX_MEMORY + 1, "/m", "lists"))])
    assert refused.value.pointer == "/m" and "memory" in refused.value.what
    assert not budget.afford(Report("x"), budget.Cost(1, budget.MAX_MEMORY + 1))


def test_an_array_beyond_the_entries_limit_is_refused_naming_the_budget_that_admits_it():
    array = (3 * budget.MAX_ENTRIES, "/w/7")
    parts = budget.Cost(5, 10, "/a", "masses") + budget.Cost(1, 1, "/w", "convolutions", array)
    assert parts.longest == array and parts.pointer == "/a"
    with pytest.raises(Unchecked) as refused:
        budget.reserve(Report("x"), [({}, parts)])
    assert refused.value.pointer == "/w/7" and refused.value.estimate == 3 * budget.MAX_ENTRIES
    assert "entries of one array (auditor verify --budget 3 checks it)" in refused.value.what
    assert not budget.afford(Report("x"), parts)
    report = Report("x")
    report.budget.scale = 3
    budget.reserve(report, [({}, parts)])
    assert budget.afford(report, parts)


# ---- dpsgd/1: the convolutions and the masses of the whole recipe --------------------------------------

DPSGD = "dpsgd/dpsgd-q0_01-s1-t1000-delta1e-5.json"


def _widened(cert, entries):
    """Every truncation window of every chain widened to ``entries`` indices (about the same centre)."""
    out = copy.deepcopy(cert)
    windows = out["result"]["discretisation"]["windows"]
    for order in ("add", "remove"):
        for side in ("upper", "lower"):
            chain = windows[order][side]
            if chain is None:
                continue
            for w in [w for ws in chain["stages"] for w in ws] + chain["combine"]:
                w[0] = (w[0] + w[1]) // 2 - entries // 2
                w[1] = w[0] + entries - 1
    return out


@pytest.fixture
def no_dpsgd_work(monkeypatch):
    _forbid(monkeypatch, (masses, "single_step"), (composition, "product"), (composition, "power"))


def test_dpsgd_reference_is_well_inside_the_budget():
    cost = dpsgd.estimate(_reference(DPSGD))
    assert 0 < cost.work < budget.MAX_WORK // 100 and cost.memory < budget.MAX_MEMORY // 100


def test_dpsgd_arrays_beyond_the_entries_limit_need_a_larger_budget_also_when_embedded(no_dpsgd_work):
    cert = _widened(_reference(DPSGD), 1 << 22)   # every product 2^23 − 1 entries: two budgets by length alone
    entries, pointer = dpsgd.estimate(cert, "/result/meets").longest
    assert entries == (1 << 23) - 1 and pointer.startswith("/result/meets/result/discretisation/windows/")
    r = _verify(cert)
    assert r.outcome == "UNCHECKED" and "entries of one array" in r.unchecked, r.unchecked
    assert r.unchecked.startswith("/result/discretisation/windows/"), r.unchecked


def test_dpsgd_windows_of_2_21_entries_are_refused_before_any_work(no_dpsgd_work):
    # every window within the per-array limit 2^22 (each product 2^22 − 1 entries): 184 s and 1.5 GB before
    cert = _widened(_reference(DPSGD), 1 << 21)
    p = dpsgd.parse(cert)
    plan = dpsgd._plan(p, cert)
    assert all(hi - lo + 1 <= dpsgd.MAX_ENTRIES for lo, hi in plan["chains"]["remove"]["upper"][0][0])
    text = _unchecked_at(_verify(cert), "/result/discretisation/windows")
    assert "exceeds the limit" in text


def test_dpsgd_windows_of_2_20_entries_are_within_the_budget():
    cost = dpsgd.estimate(_widened(_reference(DPSGD), 1 << 20))
    assert budget.MAX_WORK // 2 < cost.work <= budget.MAX_WORK and cost.memory <= budget.MAX_MEMORY


def test_dpsgd_grid_of_2_10_6_buckets_is_refused_before_any_work(no_dpsgd_work):
    # 2·10^6 buckets is the bucket limit itself (and 3.9·10^8 of the old 6·10^8 mass work): 269 s and 2.6 GB
    cert = copy.deepcopy(_reference(DPSGD))
    d = cert["result"]["discretisation"]
    d["grid"], d["ranges"] = 2 * 10 ** 6, [[-200000, 1799999]]
    assert d["ranges"][0][1] - d["ranges"][0][0] + 1 == dpsgd.MAX_BUCKETS
    text = _unchecked_at(_verify(cert), "/result/discretisation/ranges")
    assert "memory" in text


def test_dpsgd_masses_alone_beyond_the_budget_are_refused(no_dpsgd_work):
    # 150,000 buckets at 1200-bit scales: the masses' time (about 70 s), not their memory, is beyond
    cert = copy.deepcopy(_reference(DPSGD))
    d = cert["result"]["discretisation"]
    d["grid"], d["ranges"], d["p_bits"], d["q_bits"] = 2 * 10 ** 6, [[-15000, 134999]], 1200, 1216
    assert "work" in _unchecked_at(_verify(cert), "/result/discretisation/ranges")


def test_dpsgd_retry_the_budget_cannot_afford_is_not_run(monkeypatch):
    # a claim too tight to decide at the first pass: the retry (64 more guard bits) runs only within the budget
    cert = copy.deepcopy(_reference(DPSGD))
    tight = Fraction(cert["result"]["epsilon_hi"]) * (1 - Fraction(1, 10 ** 6))
    cert["result"]["epsilon_hi"] = _fmt(tight)
    cert["result"]["epsilon_hi_display"] = outward(tight, 10)[1]
    first = dpsgd.estimate(cert).work
    passes = []
    real = dpsgd._pld_bounds

    def counted(plan, pending, guard):
        passes.append(guard)
        return real(plan, pending, guard)

    monkeypatch.setattr(dpsgd, "_pld_bounds", counted)
    monkeypatch.setattr(budget, "MAX_WORK", first + first // 2)   # the first pass fits, not both
    r = _verify(cert)
    assert passes == [0]
    # not established by the recipe: a FAIL (a limit met mid-way never turns a tightened claim into UNCHECKED)
    assert only_unproved(r) == ["/result/epsilon_hi"] and "budget" in r.failures[0]["reason"], r.as_dict()
    monkeypatch.setattr(budget, "MAX_WORK", 10 * first)
    passes.clear()
    assert only_unproved(_verify(cert)) == ["/result/epsilon_hi"] and passes == [0, dpsgd.RETRY_GUARD]


# ---- plain-composition/1 in the releases form: every product of the lattice ----------------------------

def _dl_releases(count, factor=Fraction(1)):
    """``count`` discrete Laplace releases t = factor·1000/d, d = 1000, 1001, ..., sorted as the form requires."""
    items = [{"count": 1, "noise": {"family": "discrete-laplace", "t": _fmt(Fraction(1000, d) * factor)},
              "sensitivity": 1} for d in range(1000, 1000 + count)]
    return sorted(items, key=lambda r: Fraction(r["noise"]["t"]))


def _plain(count, epsilon, point, factor=Fraction(1)):
    return {"schema": "plain-composition/1", "producer": PRODUCER,
            "input": {"epsilons": [_fmt(epsilon)], "releases": _dl_releases(count, factor), "width": "1/100000000"},
            "result": {"points": [dict(point, epsilon=_fmt(epsilon))]}, "digest": ""}


@pytest.fixture
def no_plain_work(monkeypatch):
    _forbid(monkeypatch, (releases, "law_of_loss"), (releases, "delta_bounds"), (polynomial, "product"),
            (polynomial, "windowed_power"))


def test_plain_700_laplace_releases_are_refused_before_any_work(no_plain_work):
    # t = 1000/d, d = 1000..1699: each product within the per-product limits, 699 of them: 381 s before
    cert = _reference("plain/plain-composition-dl-t1-c8.json")
    inp = cert["input"]
    del inp["noise"], inp["budget"]
    inp["releases"] = _dl_releases(700)
    p = plain_composition.parse(cert)
    plan = releases.plan(p["releases"], plain_composition._bits_for(p["width"]))
    assert plan.coefficients <= plain_composition.MAX_COEFFICIENTS
    assert plan.product_bits <= plain_composition.MAX_PRODUCT_BITS
    _unchecked_at(_verify(cert), "/input/releases")


def test_plain_releases_reference_is_well_inside_the_budget():
    cert = _reference("plain/plain-composition-releases-dg9x100-dl2x5-dg4s2x20.json")
    assert plain_composition.estimate(cert).work < budget.MAX_WORK // 1000


DELTA = Fraction(1, 10 ** 5)
MEETS = {"lower": "0", "lower_display": "0", "upper": _fmt(DELTA / 2), "upper_display": "0.000005"}
MISSES = {"lower": _fmt(2 * DELTA), "lower_display": "0.00002", "upper": "1", "upper_display": "1"}


def _noise(count):
    """A noise/1 releases form whose two embedded plain-composition/1 compose ``count`` Laplace releases."""
    below = Fraction(1000, 1001)
    return {"schema": "noise/1", "producer": PRODUCER,
            "input": {"delta": _fmt(DELTA), "epsilon": "2", "gamma": "0", "precision": "1/1000",
                      "releases": _dl_releases(count)},
            "result": {"factor": "1", "factor_below": _fmt(below), "route": "product-pair",
                       "meets": _plain(count, 2, MEETS), "misses": _plain(count, 2, MISSES, below)},
            "digest": ""}


def test_noise_with_two_embedded_certificates_each_within_the_budget_but_not_together(no_plain_work):
    cert = reseal(_noise(230))
    parts = [plain_composition.estimate(cert["result"][k]) for k in ("meets", "misses")]
    assert all(part.work <= budget.MAX_WORK for part in parts)          # each alone would be checked
    assert sum(part.work for part in parts) > budget.MAX_WORK
    text = _unchecked_at(verify_certificate(cert), "/result/meets/input/releases")
    assert "2 embedded certificates" in text


def test_epsilon_bracket_with_two_embedded_certificates_beyond_the_budget_together(no_plain_work):
    lo, hi = Fraction(19, 10), Fraction(2)
    cert = {"schema": "epsilon-bracket/1", "producer": PRODUCER,
            "input": {"delta": _fmt(DELTA), "gamma": "0", "releases": _dl_releases(230), "width": "1/5"},
            "result": {"epsilon_hi": "2", "epsilon_hi_display": "2.0", "epsilon_lo": "19/10",
                       "epsilon_lo_display": "1.9", "lower_reason": None, "route": "product-pair",
                       "status": "enclosed", "upper_witness": _plain(230, hi, MEETS),
                       "lower_witness": _plain(230, lo, MISSES)},
            "digest": ""}
    r = _verify(cert)
    assert r.outcome == "UNCHECKED", r.as_dict()
    assert r.unchecked.split(":")[0] in ("/result/upper_witness/input/releases", "/result/lower_witness/input/releases")


def test_a_finer_plain_level_the_budget_cannot_afford_is_not_run(monkeypatch):
    # the point's upper end moved to 2^-100 above δ(ε) (the auditor's own enclosure at 400 bits): true, but
    # too close for the first level (64 bits)
    cert = _reference("plain/plain-composition-dg-sigma2_9-c8.json")
    point = cert["result"]["points"][0]
    (_, high), = gaussian.delta_bounds(9, 8, [Fraction(point["epsilon"])], 400)
    upper = high + Fraction(1, 2 ** 100)
    assert Fraction(point["lower"]) < upper < Fraction(point["upper"])
    point["upper"], point["upper_display"] = _fmt(upper), display(upper, point["upper_display"], up=True)
    cert = reseal(cert)
    levels = []
    real = plain_composition._enclose

    def counted(p, epsilons, bits, boost):
        levels.append(bits)
        return real(p, epsilons, bits, boost)

    monkeypatch.setattr(plain_composition, "_enclose", counted)
    first = plain_composition.estimate(cert).work
    monkeypatch.setattr(budget, "MAX_WORK", first)           # exactly the first level
    r = verify_certificate(cert)
    assert len(levels) == 1 and only_unproved(r) == ["/result/points/0/upper"], (levels, r.as_dict())
    monkeypatch.setattr(budget, "MAX_WORK", 10 ** 6 * first)
    levels.clear()
    assert verify_certificate(cert).outcome in ("OK", "FAIL") and len(levels) >= 2


# ---- the kinds that embed game certificates: their witnesses in one budget -------------------------------

def test_calibration_reserves_both_witnesses_before_either_game(monkeypatch):
    cert = _reference("calibration-published-c4-delta1e-4.json")
    game = dg_interval.estimate(cert["result"]["upper_witness"], "").work // dg_interval.GAME_NS
    # each witness three quarters of a budget: each alone within, both not
    monkeypatch.setattr(dg_interval, "GAME_NS", 3 * budget.MAX_WORK // (4 * game))
    _forbid(monkeypatch, (dg_interval.values, "root_value"))
    text = _unchecked_at(verify_certificate(cert), "/result/upper_witness/input/budget")
    assert "both witnesses" in text


def test_calibration_reference_still_verifies():
    assert verify_certificate(_reference("calibration-published-c4-delta1e-4.json")).outcome == "OK"


def test_deadline_witness_counts_its_own_work_with_its_reference(monkeypatch):
    cert = _reference("deadline-witness-published-fixed.json")
    reference = dg_interval.estimate(cert["result"]["reference"], "/result/reference").work
    p = deadline_witness._read_input(cert["input"])
    res = cert["result"]
    own = deadline_witness.estimated_work(p["B"], p["radius"], p["scale"],
                                          res["window"]["high"] - res["window"]["low"] + 1, p["patterns"],
                                          max(p["deadlines"]))
    # its own work alone within the budget, together with the reference's one unit beyond
    rate = (budget.MAX_WORK - reference) // own + 1
    assert reference < own * rate <= budget.MAX_WORK < own * rate + reference
    monkeypatch.setattr(deadline_witness, "WORK_NS", rate)
    _forbid(monkeypatch, (deadline_witness, "window_rows"), (dg_interval.values, "root_value"))
    _unchecked_at(verify_certificate(cert), "/input")


def test_the_budget_option_multiplies_both_limits_and_the_refusal_names_it(monkeypatch, tmp_path):
    """A file refused at the documented budget names the --budget N that admits it; with N it is checked."""
    from auditor import cli
    cert = _reference(DPSGD)
    first = dpsgd.estimate(cert).work
    monkeypatch.setattr(budget, "MAX_WORK", (first + 2) // 3)       # the file needs between two and three budgets
    r = _verify(cert)
    assert r.outcome == "UNCHECKED" and "auditor verify --budget 3 checks it" in r.unchecked, r.unchecked
    path = tmp_path / "c.json"
    path.write_text(json.dumps(cert))
    assert cli.main(["verify", "--quiet", "--budget", "3", str(path)]) == 0
    assert cli.main(["verify", "--quiet", "--budget", "2", str(path)]) == 3


@pytest.mark.parametrize("value", ["0", str(budget.MAX_SCALE + 1), "x"])
def test_a_budget_outside_one_to_the_maximum_is_a_usage_error(value, capsys):
    from auditor import cli
    with pytest.raises(SystemExit) as info:
        cli.main(["verify", "--budget", value, "c.json"])
    err = capsys.readouterr().err
    assert info.value.code == 2 and err.count("\n") == 1
    assert err.startswith("auditor verify: error: argument --budget: want a whole number from 1 to ")
