"""The hierarchy/1 reference certificates against the published upper ends.

(*Exact Compilation and Resource Laws for Hidden Integer Feedback*, §7.2 and Appendices E.5, G.5.)

The committed certificates are read here; the slow tests regenerate them and
require byte-identical output (``make references``).
"""

import json
from pathlib import Path

import pytest
from gmpy2 import mpq

from producer.certificates.canonical import canonical_json
from producer.kinds.hierarchy import Request as HierarchyRequest, build
from producer.rationals import parse_rational
from producer.references.hierarchy import REFERENCES
from producer.errors import LimitError
from tests.producer.kinds.edges import ROOT, least_auditor_budget, refused, scaled_budget

DIRECTORY = Path(__file__).resolve().parents[3] / "certificates" / "hierarchy"
FIELDS = dict(REFERENCES)
DELTA = mpq(1, 10**4)


def load(name):
    return json.loads((DIRECTORY / name).read_text())


@pytest.mark.parametrize("name, published_epsilon", [
    ("hierarchy-c8-p4-delta1e-4.json", "4.875282"),
    ("hierarchy-c16-p3-delta1e-4.json", "7.582102"),
])
def test_calibration_upper_ends_meet_the_published_ones(name, published_epsilon):
    result = load(name)["result"]
    assert result["meets_delta"] is True
    assert parse_rational(result["upper"]) <= DELTA
    assert parse_rational(result["epsilon"]) <= parse_rational(published_epsilon)


@pytest.mark.parametrize("name, published_upper", [
    ("hierarchy-c8-cuts-all-minus-1-eps5.json", "0.000099672197505791"),
    ("hierarchy-c32-cuts-minus-1mod4-eps12.json", "0.000099882780447748"),
    ("hierarchy-c64-cuts-minus-odd-eps19.json", "0.000091539571900235"),
])
def test_cut_model_bounds_meet_the_published_ones(name, published_upper):
    if not (DIRECTORY / name).exists():
        pytest.skip(f"{name} not generated (make hierarchy-references)")
    result = load(name)["result"]
    assert parse_rational(result["upper"]) <= parse_rational(published_upper)


def test_reference_models_are_the_published_ones():
    assert FIELDS["hierarchy-c8-cuts-all-minus-1-eps5.json"]["cuts"] == [0, 2, 3, 4, 5, 6]
    assert FIELDS["hierarchy-c32-cuts-minus-1mod4-eps12.json"]["cuts"] == [b for b in range(31) if b % 4 != 1]
    assert FIELDS["hierarchy-c64-cuts-minus-odd-eps19.json"]["cuts"] == list(range(0, 63, 2))


def regenerated(name):
    return canonical_json(build(HierarchyRequest(**FIELDS[name])))


def committed(name):
    return canonical_json(load(name))


def test_small_reference_regenerates_identically():
    name = "hierarchy-c3-p2-eps2-small.json"
    assert regenerated(name) == committed(name)


@pytest.mark.reference
@pytest.mark.parametrize("name", [name for name, _ in REFERENCES[1:]])
def test_reference_regenerates_identically(name):
    assert regenerated(name) == committed(name)


def tiny(**model):
    return json.loads(canonical_json(build(HierarchyRequest("1/3", mpq(9), model.pop("budget"), epsilon=mpq(3),
                                                            priors=12, radius=6, source_scale=2 ** 30,
                                                            logit_range=mpq(6), **model))))


@pytest.mark.parametrize("model", [dict(budget=4, cuts=[0, 2]), dict(budget=3, depth=2),
                                   dict(budget=3, depth=2, scale_bits=56)])  # the last takes the int64 path
def test_tiny_certificates_follow_the_documented_recursion(model):
    """A plain implementation of docs/hierarchy.md §4 finds the certificate's root table exactly."""
    from tests.reference_hierarchy import PlainCheck
    from tests.reference_hierarchy import plain_upper
    cert = tiny(**model)
    assert PlainCheck(cert).root_table() == [int(e) for e in cert["result"]["root_excess"]]
    fields = [cert["result"][k] for k in ("prior", "finite_upper", "transfer", "upper")]
    assert [str(v) for v in plain_upper(cert)] == fields


@pytest.mark.slow
def test_small_reference_follows_the_documented_recursion():
    from tests.reference_hierarchy import PlainCheck
    cert = load("hierarchy-c3-p2-eps2-small.json")
    assert PlainCheck(cert).root_table() == [int(e) for e in cert["result"]["root_excess"]]


# ---- the auditor's limits (docs/certificates.md) -------------------------------------------


def test_hierarchy_estimates_are_the_auditors():
    from auditor.hierarchy.estimate import estimates
    from auditor.hierarchy.model import Model
    from producer.hierarchy.auditability import auditor_estimates
    from producer.hierarchy.models import CutModel, DepthModel
    cases = [(DepthModel(8, 4), {"game": "depth", "depth": 4}), (DepthModel(8, 7), {"game": "depth", "depth": 7}),
             (CutModel(12, [1, 4, 5, 9]), {"game": "cuts", "cuts": [1, 4, 5, 9]}),
             (CutModel(6, []), {"game": "cuts", "cuts": []})]
    for ours, model in cases:
        for B, weights, priors, bits in ((3, 49, 1505, 170), (5, 9, 20003, 300), (1009, 49, 1505, 170)):
            assert auditor_estimates(ours, B, weights, priors, bits) == \
                estimates(Model.from_json(ours.budget, model), B, weights, priors, bits)


def test_hierarchy_beyond_the_auditors_work_limit_is_refused(tmp_path):
    # P_7 at C = 8 with the default 1500 priors: estimated auditor work 1.54·10¹⁰ > 1.5·10¹⁰
    refused(["hierarchy", "--gamma", "1/3", "--sigma2", 9, "--budget", 8, "--depth", 7, "--epsilon", 2],
             tmp_path / "beyond.json", "work")


def test_the_budget_binds_the_work_at_2_4e9_and_the_entries_at_1464843():
    """25 × work and 1024 bytes a table entry of one level against 6·10¹⁰ units and 1.5·10⁹ bytes; within
    the auditor's own limits (1.5·10¹⁰, 10⁷ entries) a hierarchy needs at most 7 budgets."""
    from producer.audit_budget import multiple
    from producer.hierarchy.auditability import MAX_LEVEL_ENTRIES, MAX_WORK, budget_cost

    def n(work, entries=0):
        return multiple(budget_cost({"work": work, "level_entries": entries}))
    assert n(24 * 10**8) == 1 and n(24 * 10**8 + 1) == 2
    assert n(0, 1464843) == 1 and n(0, 1464844) == 2
    assert n(MAX_WORK, MAX_LEVEL_ENTRIES) == 7


SMALL = FIELDS["hierarchy-c3-p2-eps2-small.json"]


def test_a_hierarchy_beyond_the_default_budget_is_written_with_its_notice(monkeypatch):
    """Both halves' budget scaled to just below the small reference's estimate: written, the notice names
    --budget 2, and the auditor checks it at 2 and not at 1."""
    from producer.api import Certificate
    from producer.kinds.hierarchy import auditor_cost
    cert = load("hierarchy-c3-p2-eps2-small.json")
    scaled_budget(monkeypatch, auditor_cost(cert).work - 1)
    written = Certificate(build(HierarchyRequest(**SMALL)))
    assert written.to_json() == (DIRECTORY / "hierarchy-c3-p2-eps2-small.json").read_bytes()
    assert written.auditor_budget == 2 and written.notice.endswith("`auditor verify --budget 2`")
    least_auditor_budget(written.as_dict(), 2)


def test_a_hierarchy_beyond_eight_budgets_is_refused_before_its_tables(monkeypatch):
    from producer.hierarchy.sampled import Sandwich
    from producer.kinds.hierarchy import auditor_cost
    scaled_budget(monkeypatch, auditor_cost(load("hierarchy-c3-p2-eps2-small.json")).work // 8 - 1)

    def never(self):
        raise AssertionError("the tables were solved")
    monkeypatch.setattr(Sandwich, "solve", never)
    with pytest.raises(LimitError, match=r"^P_2: the auditor's estimate for the hierarchy's tables .* needs 9 "
                                         r"times .*; use fewer priors or a smaller model$"):
        build(HierarchyRequest(**SMALL))


def test_hierarchy_references_are_within_the_auditors_limits():
    from producer.hierarchy.auditability import check_auditable_hierarchy
    from producer.hierarchy.models import CutModel, DepthModel
    paths = sorted((ROOT / "certificates" / "hierarchy").glob("*.json"))
    assert paths, "no hierarchy references found"
    for path in paths:
        cert = json.loads(path.read_text())
        inp, res, n = cert["input"], cert["result"], cert["input"]["numerics"]
        model = DepthModel(inp["budget"], inp["model"]["depth"]) if inp["model"]["game"] == "depth" \
            else CutModel(inp["budget"], inp["model"]["cuts"])
        check_auditable_hierarchy(model, int(inp["gamma"].split("/")[1]), len(res["source"]["weights"]),
                                  len(res["grid"]["numerators"]), int(n["source_scale"]), n["scale_bits"],
                                  n["grid_bits"])


def test_the_largest_epsilon_verifies_and_the_next_is_refused(tmp_path):
    """λ± around e^ε within 2^-40 hold about 2·⌈1.443·ε⌉ + 42 bits; the auditor decides them at those + 48,
    retried at 4x, within 16,384: up to ε = 1388.  ε = 3000 was an internal error before the check (a float of
    the log line), and ε = 10^6 ran without end."""
    from tests.producer.kinds.edges import edge_verifies
    base = ["hierarchy", "--gamma", "1/3", "--sigma2", "9", "--budget", "8", "--depth", "2", "--epsilon"]
    edge_verifies(base + [1388], tmp_path / "edge.json")
    refused(base + [1389], tmp_path / "beyond.json", "epsilon")
    refused(base + [10 ** 6], tmp_path / "far.json", "epsilon")


@pytest.mark.parametrize("cuts", ["all", "none", "0,2,5", "all-minus-mod:2:1"])
def test_a_budget_beyond_the_pending_bound_is_refused_before_the_cut_set(cuts):
    """2·B·C > 2·10⁵ is refused from C and γ alone: a cut set of up to C − 1 cuts is never listed (C = 10⁹
    used to take 24 GB)."""
    with pytest.raises(LimitError, match=r"^budget: C = 1000000000 gives the auditor's pending-node bound "
                                         r"2·B·C = 6000000000 .* C <= 33333 for this γ$"):
        HierarchyRequest.from_strings("1/3", "9", 10 ** 9, cuts=cuts, delta="1e-4")
    with pytest.raises(LimitError, match="C <= 50000 for this γ"):
        HierarchyRequest("1/2", 1, 50001, depth=2, delta="1e-4")


def test_a_source_scale_beyond_the_float_range_verifies_and_a_huge_logit_range_is_refused(tmp_path):
    """S = 2^4000 is within the source limits (it was an internal error: a float of a row entry); a logit range
    of 1e400 is refused in one line (it was an internal error: a float of R)."""
    from tests.producer.kinds.edges import edge_verifies
    base = ["hierarchy", "--gamma", "1/3", "--sigma2", "9", "--budget", "3", "--depth", "2", "--epsilon", "2",
            "--priors", "100", "--radius", "12"]
    edge_verifies(base + ["--source-scale", "2^4000", "--logit-range", "8"], tmp_path / "huge.json")
    refused(base + ["--logit-range", "1e400"], tmp_path / "wide.json", "logit range")
