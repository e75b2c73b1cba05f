"""minimum-deletion/1: the two strict inequalities of the paper's §7.2 at C = 8, and small-case consistency."""

import json
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
from gmpy2 import mpq, mpz

from producer import api
from producer.errors import InputError, LimitError
from producer.hierarchy.grid import log_odds_grid
from producer.hierarchy.lines import LineTree
from producer.hierarchy.models import CutModel, all_cuts
from producer.hierarchy.sampled import Sandwich
from producer.laws import Gamma
from producer.references import paper
from producer.sources.discrete_gaussian import DiscreteGaussianSource
from tests.untimed import HANG_GUARD_SECONDS

ROOT = Path(__file__).resolve().parents[3]
SCHEMA = json.loads((ROOT / "schemas" / "minimum-deletion-1.schema.json").read_text())
REFERENCE = ROOT / "certificates" / "paper" / "minimum-deletion-c8-g1_3-sigma2_9-eps5.json"
HIERARCHY = ROOT / "certificates" / "hierarchy" / "hierarchy-c8-cuts-all-minus-1-eps5.json"
PUBLISHED_UPPER, PUBLISHED_LOWER = mpq("0.000099672197505791"), mpq("0.000107823264112084")

SMALL = dict(gamma="1/3", sigma2="1", budget=3, epsilon="1", upper_priors=60, lower_priors=60, radius=8,
             scale="2^40")


def test_small_certificate_is_consistent():
    cert = api.minimum_deletion(delta="1/5", remove="1", **SMALL)
    jsonschema.validate(cert.as_dict(), SCHEMA)
    res = cert.result
    (low,) = res["lowers"]
    assert low["model"] == {"game": "cuts", "cuts": [0, 1]} and low["removed"] == []
    assert res["upper"]["model"] == {"game": "cuts", "cuts": [0]}
    lam_hi, unit = mpq(res["threshold"]["upper"]), mpq(2) ** low["line_bits"]
    a, b = int(low["line"]["a"]), int(low["line"]["b"])
    index = low["line"]["index"]
    assert (a, b) == (int(low["root_lines"]["a"][index]), int(low["root_lines"]["b"][index]))
    assert mpq(low["finite_lower"]) == (a + lam_hi * b) / unit - lam_hi
    assert mpq(low["lower"]) == mpq(low["finite_lower"]) - mpq(res["transfer"])
    assert res["draws"] == 6
    # the removal makes the model smaller: its upper lies below the all-cut lower here too
    assert mpq(res["upper"]["upper"]) < mpq(low["lower"])
    decided = res["minimum_removed"] == 1
    assert decided == (res["upper"]["below_delta"] and low["above_delta"])


def test_minimum_not_established_when_a_side_fails():
    cert = api.minimum_deletion(delta="1/1000", remove="1", **SMALL)  # both capacities are far above 10^-3
    assert not cert.result["upper"]["below_delta"] and cert.result["minimum_removed"] is None
    assert "minimum not established" in cert.claim


def test_two_removed_cuts_need_every_model_with_one_removed():
    cert = api.minimum_deletion(delta="1/5", remove="0,1", gamma="1/3", sigma2="1", budget=4, epsilon="1",
                                upper_priors=20, lower_priors=20, radius=6, scale="2^32")
    assert [low["removed"] for low in cert.result["lowers"]] == [[0], [1], [2]]


def test_lower_lines_never_exceed_the_upper_table_of_the_same_model():
    source = DiscreteGaussianSource.from_radius_scale(mpq(2), 8, mpz(2) ** 40)
    model, gamma, K, F = CutModel(4, all_cuts(4)), Gamma(1, 3), 64, 56
    grid = log_odds_grid(40, K, 8.0)
    a, b = LineTree(model, source.law, gamma, grid, K, F).solve()
    table = Sandwich(model, source.law, gamma, grid, K, F).solve()
    top = 1 << K
    for g, ai, bi, e in zip(grid, a, b, table):
        lower = (g * ai + (top - g) * bi) / mpq(top)
        upper = max(g, top - g) * mpq(1 << F, top) + int(e)
        assert lower <= upper <= lower + mpq(1 << F, 200)  # a coarse grid: a loose sandwich, never crossed


def test_limits_and_bad_input_are_refused():
    with pytest.raises(LimitError, match="lower models"):
        api.minimum_deletion("1/3", "9", 8, "5", "1e-4", remove="0,1,2")
    with pytest.raises(InputError, match="0..6"):
        api.minimum_deletion("1/3", "9", 8, "5", "1e-4", remove="7")
    with pytest.raises(LimitError, match="upper priors"):
        api.minimum_deletion("1/3", "9", 8, "5", "1e-4", upper_priors=30000)
    with pytest.raises(InputError, match="0 < δ < 1"):
        api.minimum_deletion("1/3", "9", 8, "5", "2")
    with pytest.raises(InputError, match="^remove: give one value, a comma-separated text or a list$"):
        api.minimum_deletion("1/3", "9", 8, "5", "1e-4", remove=None)
    with pytest.raises(InputError, match=r"^remove: cuts must lie in 0\.\.6"):  # one number is one cut
        api.minimum_deletion("1/3", "9", 8, "5", "1e-4", remove=7)


@pytest.mark.slow
def test_published_minimum_deletion_statement(tmp_path):
    """C = 8, ε = 5: D_{S_all}(5) >= lower > 10^-4 > upper >= D_{S_all∖{1}}(5), at least as tight as published."""
    (path,) = paper.generate(str(tmp_path), {REFERENCE.name})
    assert Path(path).read_bytes() == REFERENCE.read_bytes()
    cert = json.loads(REFERENCE.read_text())
    jsonschema.validate(cert, SCHEMA)
    res = cert["result"]
    (low,) = res["lowers"]
    assert mpq(low["lower"]) >= PUBLISHED_LOWER > mpq(1, 10 ** 4)
    assert mpq(res["upper"]["upper"]) <= PUBLISHED_UPPER < mpq(1, 10 ** 4)
    assert res["minimum_removed"] == 1
    # the upper side is exactly the hierarchy/1 reference of the same model
    same = json.loads(HIERARCHY.read_text())["result"]
    assert res["upper"]["root_excess"] == same["root_excess"] and res["upper"]["upper"] == same["upper"]
    assert res["threshold"] == same["threshold"] and res["tau"] == same["tau"]


def test_a_budget_beyond_the_pending_bound_is_refused_before_the_cut_sets():
    """C = 10⁹ used to end in GMP's overflow abort while listing S_all."""
    with pytest.raises(LimitError, match=r"^budget: C = 1000000000 gives the auditor's pending-node bound"):
        api.minimum_deletion("1/3", "9", 10 ** 9, "5", "1e-4", remove="1")


def test_a_source_scale_beyond_the_float_range_answers():
    """S = 2^4000 is within the source limits: the float hints take shares of the rows, never a float of them."""
    fields = dict(SMALL, scale="2^4000", upper_priors=30, lower_priors=30)
    huge = api.minimum_deletion(delta="1/5", remove="1", **fields).result
    near = api.minimum_deletion(delta="1/5", remove="1", **dict(fields, scale="2^2000")).result
    assert abs(mpq(huge["upper"]["upper"]) - mpq(near["upper"]["upper"])) < mpq(1, 10 ** 100)
    assert abs(mpq(huge["lowers"][0]["lower"]) - mpq(near["lowers"][0]["lower"])) < mpq(1, 10 ** 100)
    assert huge["minimum_removed"] == near["minimum_removed"]


def test_a_scale_exponent_beyond_the_limit_is_refused_before_the_power():
    """2^(10^15) used to be built (gmp aborts the process); now the scale's 2^k limit refuses it."""
    done = subprocess.run([sys.executable, "-m", "producer", "minimum-deletion", "--gamma", "1/3", "--sigma2", "1",
                           "--budget", "3", "--epsilon", "1", "--delta", "1/5", "--source-scale", "2^1000000000000000"],
                          capture_output=True, text=True, timeout=HANG_GUARD_SECONDS)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "outside 2^0..2^4096" in done.stderr
